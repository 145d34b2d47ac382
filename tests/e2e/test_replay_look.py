"""A Summer Pavilion replay draws its factories as the live board does (issue
#25 item 1): every disc the same size, full or empty, its tiles inside the rim,
and an empty factory's name and "empty" apart, not on top of each other."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser

from games import notifications, selectors, services
from tests.games.helpers import move_event

DESKTOP = {"width": 1280, "height": 900}

FACTORIES = """
() => [...document.querySelectorAll('#replay .factory:not(.center)')].map(factory => {
  const rect = factory.getBoundingClientRect();
  const cx = rect.x + rect.width / 2, cy = rect.y + rect.height / 2;
  const tiles = [...factory.querySelectorAll('[data-colour]')];
  const reach = Math.max(0, ...tiles.map(tile => {
    const r = tile.getBoundingClientRect();
    return Math.max(...[[r.left, r.top], [r.right, r.top], [r.left, r.bottom],
      [r.right, r.bottom]].map(([x, y]) => Math.hypot(x - cx, y - cy)));
  }));
  const box = el => el && el.getBoundingClientRect().toJSON();
  return {
    zone: factory.dataset.zone, width: rect.width, height: rect.height,
    reach: reach, tiles: tiles.length,
    label: box(factory.querySelector('h3')),
    empty: box(factory.querySelector('.empty-source')),
  };
})
"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )


@pytest.fixture
def game_mid_round(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A two-player Summer Pavilion game after three takes from factories: three
    emptied, two full. (Moves are played before the page loads: no doorbell
    beside Playwright's event loop, docs/stack.md pitfall 3.)"""
    monkeypatch.setattr(notifications, "_send", lambda messages: None)
    ana, binh = make_user("ana"), make_user("binh")
    game = services.game_create(
        creator=ana,
        variant="pavilion",
        players=2,
        rated=False,
        invitees=[binh],
    )
    services.game_invitation_respond(game_id=game.pk, user=binh, accept=True)
    rng = random.Random(3)
    for _ in range(3):
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        takes = [m for m in engine.legal_moves() if type(m).__name__ == "Take"]
        factory_takes = [m for m in takes if m.source != -1]
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(rng.choice(factory_takes)),
            expected_ply=game.ply,
        )
    return selectors.game_get(game_id=game.pk)


def test_pavilion_replay_factories_are_one_size_full_or_empty(
    browser: Browser, live_url: str, game_mid_round: Any
) -> None:
    game = game_mid_round
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{live_url}/games/{game.pk}/replay/?ply={game.ply}")
    factories = page.evaluate(FACTORIES)
    assert len(factories) == 5
    empty = [f for f in factories if f["tiles"] == 0]
    full = [f for f in factories if f["tiles"] == 4]
    assert empty and full, factories  # both kinds, measured side by side
    sizes = {(round(f["width"]), round(f["height"])) for f in factories}
    assert max(w for w, _ in sizes) - min(w for w, _ in sizes) <= 1, factories
    assert max(h for _, h in sizes) - min(h for _, h in sizes) <= 1, factories
    for factory in factories:
        assert abs(factory["width"] - factory["height"]) <= 1, factory
        # tiles stand clear of the rim: inside the disc, not touching it
        assert factory["reach"] <= factory["width"] / 2 - 2, factory
    for factory in empty:
        assert factory["empty"] is not None, factory
        assert not _overlap(factory["label"], factory["empty"]), factory
    page.context.close()
