"""Every position of whole Summer Pavilion games, read off the pages by their marks.

Seeded games (two players on the coloured side, three on the grey side) are
played through the site, as their players, with the move POST. At every ply the
replay (the partial its controls fetch), and at every decision the live board
(the mover's HTMX partial showing the preview of the decision they are about to
make, and the answer to their POST), must show exactly the engine's position:
the tiles of each zone by colour (``tests/games/marks.py``); the replay also
tells the event in words. The final answer and the page shown afterwards carry
every player's rank and score.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import record
from games.engine.common import CENTER
from games.engine.pavilion import Bonus, Pass, PavilionGame, Place, Take
from games.engine.pavilion_board import COLOURS, STARS
from games.models import Game
from games.pavilion.words import describe_entries

from .helpers import decide_every_move, pavilion_choose, pavilion_post_data
from .marks import standings, zones

pytestmark = pytest.mark.django_db

# the zones a finished game's page no longer draws
TABLE = ("factory-", "centre", "supply", "bag", "tower")
HTMX = {"HTTP_HX_REQUEST": "true"}


def _by_colour(counts: Sequence[int]) -> Counter[str]:
    return Counter({COLOURS[c]: n for c, n in enumerate(counts) if n})


def engine_zones(engine: PavilionGame) -> dict[str, Counter[str]]:
    """The tiles of every zone, by colour, as the engine holds them."""
    held = {
        f"factory-{index}": _by_colour(tiles)
        for index, tiles in enumerate(engine.factories)
    }
    held.update(
        centre=_by_colour(engine.centre),
        supply=_by_colour(engine.supply),
        bag=_by_colour(engine.bag),
        tower=_by_colour(engine.tower),
    )
    for seat in range(engine.players):
        held[f"hand-{seat}"] = _by_colour(engine.hands[seat])
        held[f"corners-{seat}"] = _by_colour(engine.corners[seat])
        held[f"board-{seat}"] = Counter(
            COLOURS[colour] for colour in engine.boards[seat] if colour >= 0
        )
    return held


def preview_query(move: Any) -> dict[str, str]:
    """The board's GET that shows ``move`` before it is made (take, space, bonus,
    pass)."""
    if isinstance(move, Take):
        source = "center" if move.source == CENTER else str(move.source)
        return {"take": f"{source}:{COLOURS[move.colour]}"}
    if isinstance(move, Place):
        return {"space": f"{STARS[move.star]}-{move.space}"}
    if isinstance(move, Pass):
        kept = Counter(COLOURS[c] for c in move.keep)
        return {"pass": "1", **{f"keep_{c}": str(n) for c, n in kept.items()}}
    assert isinstance(move, Bonus)
    chosen = Counter(COLOURS[c] for c in move.tiles)
    return {f"bonus_{c}": str(n) for c, n in chosen.items()}


@pytest.mark.once  # drawing, not storage: the SQLite pass is enough
@pytest.mark.parametrize(
    ("variant", "count", "seed"),
    [("pavilion", 2, 3), ("pavilion-grey", 3, 8)],
)
def test_every_position_is_drawn_as_the_engine_holds_it(
    client_for: Any,
    players: list[Any],
    start_game: Any,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    count: int,
    seed: int,
) -> None:
    rng = random.Random(seed)
    monkeypatch.setattr(services.common, "system_rng", lambda: rng)
    decide_every_move(players)  # under days per move (a bank plays them all)
    game = start_game(players[:count], variant=variant, days_per_move=3)
    seats = list(game.seats.order_by("number"))
    names = [seat.name for seat in seats]
    clients = {seat.number: client_for(seat.user) for seat in seats}
    visitor = Client()
    detail = reverse("games:detail", args=[game.pk])
    replay_url = reverse("games:replay", args=[game.pk])
    engine = record.new_game(variant, count, game.first_seat)
    assert isinstance(engine, PavilionGame)
    kinds: Counter[str] = Counter()

    def catch_up() -> None:
        """Apply the game's new events to ``engine``, checking the replay of each."""
        for event in game.moves.filter(ply__gte=len(engine.events())).values_list(
            "event", flat=True
        ):
            told = len(engine.log)
            engine.apply_event(event)
            ply = len(engine.events())
            page = visitor.get(replay_url, {"ply": ply}, **HTMX).text
            assert zones(page) == engine_zones(engine), f"replay, ply {ply}"
            status = unescape(page.split('role="status">', 1)[1].split("</div>")[0])
            for line in describe_entries(engine.log, names, grey=engine.grey)[told:]:
                assert line in status, f"replay, ply {ply}: {line}"

    page = visitor.get(replay_url, {"ply": 0}).text
    assert zones(page) == engine_zones(engine), "replay, ply 0"
    catch_up()
    while not engine.is_over():
        seat = engine.to_move()
        assert seat is not None
        move = pavilion_choose(engine, rng)
        kinds[type(move).__name__] += 1
        client = clients[seat]
        live = client.get(detail, preview_query(move), **HTMX).text
        assert zones(live) == engine_zones(engine), f"live board, ply {game.ply}"
        response = client.post(
            reverse("games:move", args=[game.pk]),
            pavilion_post_data(move, len(engine.events())),
            **HTMX,
        )
        assert response.status_code == 200
        game.refresh_from_db()
        catch_up()
        drawn, expected = zones(response.text), engine_zones(engine)
        if engine.is_over():  # the players' boards only: no table, supply or stock
            expected = {z: t for z, t in expected.items() if not z.startswith(TABLE)}
        assert drawn == expected, f"answer, ply {game.ply}"
    assert set(kinds) == {"Take", "Place", "Bonus", "Pass"}
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    outcome = engine.outcome()
    assert outcome is not None
    final = {seat: (outcome.ranks[seat], outcome.scores[seat]) for seat in range(count)}
    assert standings(response.text) == final
    assert standings(visitor.get(detail).text) == final
    # the whole replay page, at the last position
    assert zones(visitor.get(replay_url).text) == engine_zones(engine)
