"""Screenshots of each game's board on a desktop and a phone, for the README.

    .venv/bin/python tools/screenshots.py [--out docs/screenshots] [--port 8124]

Makes a fresh SQLite database in a temporary directory, two players (ana and
binh) and one game of each family played to the middle by the medium computer
player, with ana to move; serves it with Daphne (local settings: DEBUG, the
in-memory channel layer) and saves, with Debian's Chromium, ana's page as
``<family>-desktop.png`` (1280 wide, the whole page) and ``<family>-phone.png``
(one 390x844 screen from the top of the board, at twice the pixels).
``--keep`` leaves the server running for a look, until Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "azul-screenshots-5"
VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}


def _setup_django(database: Path) -> None:
    for name in ("REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "STATICFILES_BACKEND"):
        os.environ.pop(name, None)
    os.environ["DEBUG"] = "true"
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "azulsite.settings"
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _play_until(game: Any, done: Any) -> Any:
    """Play the medium computer player's moves for every seat until ``done``."""
    from games import selectors, services
    from games.engine import bots

    for _ in range(1000):
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        if done(game, engine):
            return game
        move = bots.choose(engine, "medium", seed=game.ply).to_event()
        move.pop("seat")
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move,
            expected_ply=game.ply,
        )
    raise RuntimeError(f"game {game.pk} never reached the wanted position")


def _on_table(engine: Any) -> int:
    """Tiles in the factories and the centre."""
    centre = engine.center if hasattr(engine, "center") else engine.centre
    return sum(map(sum, engine.factories)) + sum(centre)


def _make_games() -> dict[str, int]:
    """Two players and a game of each family mid-play, ana to move."""
    from accounts.models import User
    from games import services
    from games.engine.pavilion import Phase

    ana = User.objects.create_user("ana", "ana@example.com", PASSWORD)
    binh = User.objects.create_user("binh", "binh@example.com", PASSWORD)
    stops = {
        # round 3, a few takes in: walls with tiles, lines part-filled
        "classic": lambda e: e.round >= 3 and _on_table(e) in range(13, 17),
        # round 2, some tiles taken: boards with placements, a hand to play
        "pavilion": lambda e: (
            e.round >= 2 and e.phase == Phase.TAKE and _on_table(e) in range(10, 15)
        ),
    }
    games = {}
    for variant, stop in stops.items():
        game = services.game_create(
            creator=ana,
            variant=variant,
            players=2,
            rated=False,
            invitees=[binh],
        )
        services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
        game = _play_until(
            game,
            lambda g, e, stop=stop: (
                g.seats.all()[g.seat_to_move].user_id == ana.pk and stop(e)
            ),
        )
        games[variant] = game.pk
    return games


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port)]
        + ["azulsite.asgi:application"],
        cwd=ROOT,
        env=os.environ.copy(),
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("Daphne did not start")


def _shoot(base: str, games: dict[str, int], out: Path) -> list[Path]:
    from playwright.sync_api import expect, sync_playwright

    saved = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
        )
        for device, (width, height) in VIEWPORTS.items():
            context = browser.new_context(
                viewport={"width": width, "height": height},
                device_scale_factor=2 if device == "phone" else 1,
            )
            page = context.new_page()
            page.goto(f"{base}/accounts/login/")
            page.get_by_label("Username").fill("ana")
            page.get_by_label("Password").fill(PASSWORD)
            page.locator("main").get_by_role("button", name="Log in").click()
            # signed in ("Log out" is in the menu, folded on a phone)
            log_out = page.get_by_role("button", name="Log out", include_hidden=True)
            expect(log_out).to_have_count(1)
            for family, pk in games.items():
                page.goto(f"{base}/games/{pk}/")
                expect(page.locator("#board .status")).to_contain_text("Your move")
                path = out / f"{family}-{device}.png"
                if device == "phone":
                    # one screen, as a player sees it: the table and their board
                    page.locator("#board").evaluate(
                        "el => window.scrollTo(0, el.getBoundingClientRect().top"
                        " + window.scrollY - 8)"
                    )
                    page.screenshot(path=str(path))
                else:
                    page.screenshot(path=str(path), full_page=True)
                saved.append(path)
            context.close()
        browser.close()
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--port", type=int, default=0, help="default: a free one")
    parser.add_argument("--keep", action="store_true", help="serve until Ctrl-C")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="azul-screenshots-") as tmp:
        _setup_django(Path(tmp) / "db.sqlite3")
        games = _make_games()
        port = args.port or _free_port()
        server = _serve(port)
        base = f"http://127.0.0.1:{port}"
        try:
            for path in _shoot(base, games, args.out):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
            if args.keep:
                for family, pk in games.items():
                    print(f"{family}: {base}/games/{pk}/ (ana / {PASSWORD})")
                server.wait()
        except KeyboardInterrupt:
            pass
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
