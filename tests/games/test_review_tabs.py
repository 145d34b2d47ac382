"""The replay's Review tab and the review's best decision drawn on its board
(issue #27, docs/review.md): server-drawn tabs that keep the position, the
best decision marked on the position before it for both families, the
decisions weighed with their values; nothing of it for a game in progress."""

from __future__ import annotations

import html
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import clock, selectors, services
from games.engine import policy, record
from games.engine.classic import COLOURS, FLOOR, Take, WallPlacement
from games.engine.common import CENTER
from games.engine.pavilion import Bonus, Pass, Place
from games.engine.pavilion import Take as PavilionTake
from games.engine.pavilion_board import COLOURS as PAVILION_COLOURS
from games.history import reviews
from games.models import Game, GameReview
from games.pavilion import moves as pavilion_moves

from .helpers import play_random_moves
from .marks import best_marks, best_tiles

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _imported(uploader: User, variant: str, seed: int, greedy: bool = False) -> Game:
    """A finished game of ``variant``, imported: a random record, or one of
    the greedy policy's decisions (which completes Summer Pavilion's
    structures, so it chooses bonus tiles)."""
    if greedy:
        rng = random.Random(seed)
        engine = record.new_game(variant, 2, 0)
        while not engine.is_over():
            if engine.needs_chance():
                engine.chance(rng)
            else:
                engine.push(policy.choose_move(engine, rng))
    else:
        engine = record.random_game(variant, 2, seed)
    data = record.dumps(record.export(engine, ["ana", "binh"]))
    return services.game_import(uploader=uploader, data=data).game


def _events(game: Game) -> list[dict[str, Any]]:
    return list(game.moves.order_by("ply").values_list("event", flat=True))


def _before(game: Game, index: int) -> Any:
    """The engine of the position before event ``index``."""
    return selectors.engine_after(game=game, events=_events(game), ply=index)


def _plant(game: Game, decisions: Sequence[Mapping[str, Any]], **alternatives: Any):
    """A made review of ``game`` holding only ``decisions`` (and the decisions
    weighed at each, by event index)."""
    now = clock.now()
    moves = game.moves.count()
    GameReview.objects.create(
        game=game,
        status=GameReview.Status.DONE,
        seconds=1,
        done=moves,
        total=moves,
        created_at=now,
        queued_at=now,
        data={
            "seats": [
                {"seat": s, "lost": 0.0, "luck": 0.0, "accuracy": 100.0}
                for s in range(game.players)
            ],
            "decisions": list(decisions),
            "chances": [],
            "timeline": [],
            "alternatives": {k.lstrip("e"): v for k, v in alternatives.items()},
        },
    )


def _decision(index: int, played: Any, best: Any, lost: float = 6.0) -> dict:
    return {
        "event": index,
        "seat": played.seat,
        "played": played.to_event(),
        "best": best.to_event(),
        "lost": lost,
        "label": "mistake",
        "forced": False,
    }


def _find(game: Game, wanted: type, better: Any) -> tuple[int, Any, Any]:
    """The first decision of type ``wanted`` with another legal one of that
    type for which ``better(other, played)`` holds: (index, played, other)."""
    events = _events(game)
    for index, event in enumerate(events):
        engine = _before(game, index)
        legal = [m for m in engine.legal_moves() if isinstance(m, wanted)]
        played = next((m for m in legal if m.to_event() == event), None)
        if played is None:
            continue
        other = next((m for m in legal if m != played and better(m, played)), None)
        if other is not None:
            return index, played, other
    raise AssertionError(f"no {wanted.__name__} with another choice")


def _replay(client: Client, game: Game, **query: Any) -> str:
    response = client.get(reverse("games:replay", args=[game.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def _selected_tab(html: str) -> str:
    return re.findall(r'role="tab" id="tab-(\w+)"[^>]*aria-selected="true"', html)[0]


@pytest.fixture
def classic(players) -> Game:
    return _imported(players[0], "classic", 5)


def test_the_replay_of_a_reviewed_game_has_a_moves_tab_and_a_review_tab(classic):
    index, played, best = _find(classic, Take, lambda m, p: m.source != p.source)
    _plant(classic, [_decision(index, played, best)])
    page = _replay(Client(), classic, ply=index + 1)
    # the moves first; the review's panel is there, hidden
    assert _selected_tab(page) == "moves"
    assert 'role="tablist"' in page
    assert re.search(
        r'id="panel-moves" role="tabpanel" aria-labelledby="tab-moves">', page
    )
    assert re.search(r'id="review-panel"[^>]*aria-labelledby="tab-review" hidden', page)
    assert f'href="?ply={index + 1}&amp;tab=review"' in page  # the tab keeps the ply

    page = _replay(Client(), classic, ply=index + 1, tab="review")
    assert _selected_tab(page) == "review"
    assert re.search(
        r'id="panel-moves" role="tabpanel" aria-labelledby="tab-moves" hidden', page
    )
    panel = page.split('id="review-panel"', 1)[1].split("</section>", 1)[0]
    assert " hidden" not in panel.split(">", 1)[0]
    assert 'data-review="done"' in panel
    # every step keeps the tab: the controls, the moves, the slider
    assert (
        f'href="?ply={index}&amp;tab=review" hx-get="?ply={index}&amp;tab=review"'
        in page
    )
    assert 'href="?ply=1&amp;tab=review"' in page
    assert '<input type="hidden" name="tab" value="review">' in page
    # an htmx step answers the replay's partial, tabs included
    partial = Client().get(
        reverse("games:replay", args=[classic.pk]),
        {"ply": index, "tab": "review"},
        **HTMX,
    )
    html = partial.content.decode()
    assert html.startswith('\n<div id="replay"') or '<div id="replay"' in html[:300]
    assert "<html" not in html and _selected_tab(html) == "review"


def test_the_review_tab_of_a_player_who_waits_offers_the_review(classic, players):
    index, played, best = _find(classic, Take, lambda m, p: m.source != p.source)
    _plant(classic, [_decision(index, played, best)])
    User.objects.filter(pk=players[1].pk).update(review_hidden=True)
    client = Client()
    client.force_login(User.objects.get(pk=players[1].pk))
    page = _replay(client, classic, ply=3, tab="review")
    assert _selected_tab(page) == "review"
    assert 'data-review="' not in page and "review-step" not in page
    panel = page.split('id="review-panel"', 1)[1].split("</div>", 1)[0]
    assert 'href="?ply=3&amp;tab=review&amp;review"' in panel
    assert "Show the review" in panel
    shown = _replay(client, classic, ply=3, tab="review", review="")
    assert 'data-review="done"' in shown
    assert 'href="?ply=2&amp;review&amp;tab=review"' in shown  # both kept


def test_a_classic_best_decision_is_marked_on_the_board_before_it(classic):
    """The review says the best take was another factory's tiles: the
    position before the decision marks that factory, its tiles of that colour
    and the line they go to; the step lists the decisions weighed."""
    index, played, best = _find(
        classic,
        Take,
        lambda m, p: (
            m.source != CENTER
            and m.source != p.source
            and m.colour != p.colour
            and m.line != FLOOR
        ),
    )
    other = next(
        m for m in _before(classic, index).legal_moves() if m not in (played, best)
    )
    _plant(
        classic,
        [_decision(index, played, best, lost=6.24)],
        **{
            f"e{index}": [
                [best.to_event(), 3.0],
                [played.to_event(), 1.5],
                [other.to_event(), -1.0],
            ]
        },
    )
    engine = _before(classic, index)
    words = reviews.decision_words(classic, engine, best.to_event())

    # the decision's own step: its label, the best in words, the link, the choices
    step = _replay(Client(), classic, ply=index + 1)
    part = step.split('<div class="review-decision">', 1)[1]
    part = part.split('class="results', 1)[0]
    assert 'data-label="mistake"' in part and "expected points lost: 6.2" in part
    assert f"Best: {words}" in part
    # a page without JavaScript opens at the board (#position); htmx asks
    # without the fragment (static/js/replay.js brings the marks into view)
    assert (
        f'href="?ply={index}&amp;best#position" hx-get="?ply={index}&amp;best"'
    ) in part
    assert "Show the best decision" in part
    values = re.findall(
        r'<li data-value="([-\d.]+)"( data-played="true")?>([^<]+) ', part
    )
    assert [(float(v), bool(p), html.unescape(w)) for v, p, w in values] == [
        (0.0, False, words),
        (-1.5, True, reviews.decision_words(classic, engine, played.to_event())),
        (-4.0, False, reviews.decision_words(classic, engine, other.to_event())),
    ]
    assert not best_marks(step)  # nothing marked after it

    # the position before, with the best decision marked
    page = _replay(Client(), classic, ply=index, best="")
    assert f'id="replay" class="replay" data-ply="{index}"' in page
    marks = best_marks(page)
    assert [m["zone"] for m in marks["source"]] == [f"factory-{best.source}"]
    colour = COLOURS[best.colour]
    count = engine.factories[best.source][best.colour]
    assert best_tiles(page) == {f"factory-{best.source}": Counter({colour: count})}
    assert [m["zone"] for m in marks["target"]] == [f"line-{best.seat}-{best.line}"]
    assert all("best" in m["class"].split() for m in marks["source"] + marks["target"])
    assert f"The best decision here, marked on the board: {words}" in page
    assert f'href="?ply={index + 1}"' in page  # back to the decision played
    assert "Show the best decision" not in page


def test_a_grey_wall_best_placement_marks_the_line_and_the_wall_space(players):
    game = _imported(players[0], "classic-grey", 3)
    index, played, best = _find(game, WallPlacement, lambda m, p: m.column != p.column)
    _plant(game, [_decision(index, played, best)])
    page = _replay(Client(), game, ply=index, best="", tab="review")
    marks = best_marks(page)
    assert [m["zone"] for m in marks["source"]] == [f"line-{best.seat}-{best.line}"]
    assert [m["zone"] for m in marks["target"]] == [f"wall-{best.seat}"]
    wall = page.split(f'data-zone="wall-{best.seat}"', 1)[1].split("</table>", 1)[0]
    row = wall.split("<tr>")[1 + best.line].split("</tr>", 1)[0]
    cells = row.split("<td")[1:]
    assert [i for i, cell in enumerate(cells) if "data-best" in cell] == [best.column]
    assert _selected_tab(page) == "review"


@pytest.fixture
def pavilion(players) -> Game:
    return _imported(players[0], "pavilion", 2, greedy=True)


def test_summer_pavilion_best_decisions_are_marked_on_the_board(pavilion):
    """A take, a placement, a bonus and a pass, each planted as the best of
    its decision: each marked where it takes from and puts to."""
    take = _find(pavilion, PavilionTake, lambda m, p: m.source != p.source)
    place = _find(pavilion, Place, lambda m, p: (m.star, m.space) != (p.star, p.space))
    bonus = _find(pavilion, Bonus, lambda m, p: m.tiles != p.tiles)
    passing = _find(pavilion, Pass, lambda m, p: bool(m.keep) and m.keep != p.keep)
    _plant(pavilion, [_decision(*found) for found in (take, place, bonus, passing)])

    def marked(index: int) -> tuple[dict[str, list[dict[str, str]]], Any, str]:
        page = _replay(Client(), pavilion, ply=index, best="")
        return best_marks(page), _before(pavilion, index), page

    index, _, best = take
    marks, engine, page = marked(index)
    zone = "centre" if best.source == CENTER else f"factory-{best.source}"
    tiles = engine.centre if best.source == CENTER else engine.factories[best.source]
    wanted = Counter({PAVILION_COLOURS[best.colour]: tiles[best.colour]})
    if best.colour != engine.wild and tiles[engine.wild]:
        wanted[PAVILION_COLOURS[engine.wild]] += 1  # the wild tile that comes along
    assert [m["zone"] for m in marks["source"]] == [zone]
    assert best_tiles(page) == {zone: wanted}
    assert "target" not in marks

    index, _, best = place
    marks, engine, page = marked(index)
    hand = f"hand-{best.seat}"
    space = pavilion_moves.space_value(best.star, best.space)
    assert [m["zone"] for m in marks["source"]] == [hand]
    assert [m["zone"] for m in marks["target"]] == [f"board-{best.seat}"]
    assert f"pv-at-{space}" in marks["target"][0]["class"]
    paid = best_tiles(page)[hand]
    cost = engine.costs[best.star * 6 + best.space - 1]
    assert sum(paid.values()) == cost
    assert set(paid) <= {PAVILION_COLOURS[best.colour], PAVILION_COLOURS[engine.wild]}

    index, _, best = bonus
    marks, engine, page = marked(index)
    assert [m["zone"] for m in marks["source"]] == ["supply"]
    assert best_tiles(page) == {
        "supply": Counter(PAVILION_COLOURS[c] for c in best.tiles)
    }
    assert [m["zone"] for m in marks["target"]] == [f"hand-{best.seat}"]

    index, _, best = passing
    marks, engine, page = marked(index)
    assert [m["zone"] for m in marks["pass"]] == [f"hand-{best.seat}"]
    assert best_tiles(page) == {
        f"hand-{best.seat}": Counter(PAVILION_COLOURS[c] for c in best.keep)
    }
    assert [m["zone"] for m in marks["target"]] == [f"corners-{best.seat}"]


def test_no_tab_nor_mark_of_a_game_in_progress(players, start_game):
    """The new routes of the replay (?tab=review, ?best, the panel's htmx
    target) show nothing of a review while the game is on, even a forged one."""
    game = play_random_moves(start_game(players[:2]), random.Random(3), 8)
    events = _events(game)
    index = next(i for i, e in enumerate(events) if "seat" in e)
    engine = _before(game, index)
    played = next(m for m in engine.legal_moves() if m.to_event() == events[index])
    best = next(m for m in engine.legal_moves() if m != played)
    _plant(game, [_decision(index, played, best)])
    player = Client()
    player.force_login(game.seats.get(number=0).user)
    url = reverse("games:replay", args=[game.pk])
    for client in (Client(), player):
        for query in (
            {"tab": "review"},
            {"ply": index, "best": ""},
            {"ply": index + 1, "best": "", "tab": "review", "review": ""},
        ):
            for headers in ({}, HTMX, {**HTMX, "HTTP_HX_TARGET": "review-panel"}):
                html = client.get(url, query, **headers).content.decode()
                assert 'role="tablist"' not in html and "review-panel" not in html
                assert "data-best" not in html and "data-review" not in html
                assert "review-step" not in html and "review-choices" not in html
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
