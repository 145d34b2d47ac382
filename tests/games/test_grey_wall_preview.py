"""The grey wall's column choice (issue #25 item 7): each legal column says what
its tile scores there now, in the engine's count (``docs/rules/azul.md §6``,
``§8``); a player who confirms moves chooses a column first, sees the tile drawn
where it would go with what it scores, and confirms or undoes it like a take.
Without JavaScript the choice is a form of its own, the preview a page."""

from __future__ import annotations

import random
import re
from html import unescape
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games import selectors, services
from games.classic import FAMILY
from games.classic.board import live_context
from games.engine import record
from games.engine.classic import COLOURS, FLOOR, ClassicGame, Take, WallPlacement
from games.models import Game, Move

from .helpers import classic_zones, engine_seat_view, move_event
from .marks import zones

NAMES = ["ana", "binh"]
HTMX = {"HTTP_HX_REQUEST": "true"}


def _scored(engine: ClassicGame, column: int) -> int:
    """What the placement in ``column`` scores when it is played (the engine's
    log of a copy that plays it)."""
    assert engine.pending_wall is not None
    seat, line = engine.pending_wall
    probe = engine.copy()
    size = probe.log_size()
    probe.play(WallPlacement(seat, line, column))
    entry = probe.log_from(size)[0]
    assert entry["type"] == "wall" and entry["column"] == column
    points: int = entry["points"]
    return points


def _columns(engine: ClassicGame) -> list[int]:
    return [m.column for m in engine.legal_moves() if isinstance(m, WallPlacement)]


def _tiling_position() -> ClassicGame:
    """A grey-wall position awaiting a column that several columns fit, not all
    for the same points."""
    for seed in range(200):
        game = record.random_game("classic-grey", 2, seed)
        replay = ClassicGame(2, grey=True, first_seat=game.first_seat)
        for event in game.events():
            replay.apply_event(event)
            if replay.pending_wall is None:
                continue
            columns = _columns(replay)
            if len({_scored(replay, c) for c in columns}) > 1:
                return replay
    raise AssertionError("no such position")


def _page(engine: ClassicGame, *, confirm: bool, query: dict[str, str] | None = None):
    """The live board as the player to move sees it (``_live.html``)."""
    board = live_context(
        engine,
        names=NAMES,
        view=engine_seat_view(engine, engine.to_move()),
        query=query or {},
    )
    context = {
        "game": SimpleNamespace(pk=1, ply=40),
        "user": SimpleNamespace(confirm_moves=confirm),
        "board": board,
    }
    return render_to_string(FAMILY.live_template, context), board


def _column_buttons(html: str) -> dict[str, tuple[str, str]]:
    """Each column button's value: (its accessible label, its visible text)."""
    found = {}
    for attrs, inner in re.findall(
        r'<button type="submit" name="column" ([^>]*)>(.*?)</button>', html, re.S
    ):
        value = re.search(r'value="(\d)"', attrs).group(1)
        label = unescape(re.search(r'aria-label="([^"]*)"', attrs).group(1))
        text = " ".join(unescape(re.sub(r"<[^>]+>", " ", inner)).split())
        found[value] = (label, text)
    return found


def _wall_form(html: str) -> str:
    match = re.search(
        r'<form[^>]*class="destinations wall-choice".*?</form>', html, re.S
    )
    assert match is not None, "no column choice on the page"
    return match.group(0)


def _hidden(form: str) -> dict[str, str]:
    return {
        name: unescape(value)
        for name, value in re.findall(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form
        )
        if name != "csrfmiddlewaretoken"
    }


def test_each_legal_column_says_what_it_scores_now():
    engine = _tiling_position()
    html, _board = _page(engine, confirm=False)
    buttons = _column_buttons(html)
    assert sorted(buttons) == [str(c) for c in _columns(engine)]
    for column in _columns(engine):
        points = _scored(engine, column)
        unit = "point" if points == 1 else "points"
        assert buttons[str(column)] == (
            f"Column {column + 1}: {points} {unit}",
            f"Column {column + 1} +{points}",
        )
    # without confirmation, a column is the move itself (a POST of its own)
    form = _wall_form(html)
    assert 'method="post"' in form
    seat, line = engine.pending_wall
    assert _hidden(form) == {"expected_ply": "40", "kind": "wall", "line": str(line)}


def test_a_player_who_confirms_chooses_a_column_first():
    engine = _tiling_position()
    html, _board = _page(engine, confirm=True)
    form = _wall_form(html)
    # the choice asks for the preview (a GET of the page), it plays nothing
    assert 'method="get"' in form and 'action="/games/1/"' in form
    assert _hidden(form) == {}
    assert sorted(_column_buttons(form)) == [str(c) for c in _columns(engine)]


def test_the_preview_draws_the_tile_where_it_would_go_and_offers_confirm_and_undo():
    engine = _tiling_position()
    seat, line = engine.pending_wall
    column = max(_columns(engine), key=lambda c: _scored(engine, c))
    points = _scored(engine, column)
    colour = COLOURS[engine.boards[seat].line_colour[line]]
    html, board = _page(engine, confirm=True, query={"column": str(column)})
    # nothing has moved: every tile where the engine has it
    assert zones(html) == classic_zones(engine)
    # the chosen space shows the line's tile, drawn as not yet placed
    wall = re.search(rf'data-zone="wall-{seat}".*?</table>', html, re.S).group(0)
    row = re.findall(r"<tr>(.*?)</tr>", wall, re.S)[line]
    cells = re.findall(r"<td[^>]*>.*?</td>", row, re.S)
    assert cells[column].startswith('<td class="choice">')
    assert f'class="tile t-{colour} printed"' in cells[column]
    assert sum('class="choice"' in cell for cell in cells) == 1
    # the panel: what the placement scores, Confirm (the move) and Undo
    panel = re.search(r"<form[^>]*confirm-move.*?</form>", html, re.S).group(0)
    unit = "point" if points == 1 else "points"
    heading = " ".join(re.sub(r"<[^>]+>", "", panel.split("<h2")[1]).split())
    assert heading.startswith(
        f'id="h-confirm">The {colour} tile of line {line + 1} to column '
        f"{column + 1}: +{points} {unit}."
    )
    assert _hidden(panel) == {
        "expected_ply": "40",
        "kind": "wall",
        "line": str(line),
        "column": str(column),
    }
    assert re.search(r'<a href="/games/1/"[^>]*class="undo">Undo</a>', panel)
    assert (
        board["prompt"] == "Check your move on the board, then confirm it or undo it."
    )
    # the column choice is not offered again under the preview
    assert _column_buttons(html) == {}


def test_a_column_the_rules_refuse_previews_nothing():
    engine = _tiling_position()
    refused = next(c for c in range(5) if c not in _columns(engine))
    for value in (str(refused), "9", "x"):
        html, board = _page(engine, confirm=True, query={"column": value})
        assert board["preview"] is None
        assert sorted(_column_buttons(html)) == [str(c) for c in _columns(engine)]


# ------------------------------------------------------- through the site


def _plausible(engine: ClassicGame, rng: random.Random) -> Any:
    """Takes that fill pattern lines, so a wall tiling comes soon."""
    moves = engine.legal_moves()
    takes = [m for m in moves if isinstance(m, Take) and m.line != FLOOR]
    return rng.choice(takes or moves)


@pytest.mark.django_db
def test_a_column_is_previewed_then_confirmed_through_the_site(
    players, start_game, client_for, monkeypatch
):
    monkeypatch.setattr(services.common, "system_rng", lambda: random.Random(3))
    rng = random.Random(3)
    game = start_game(players[:2], variant="classic-grey")
    engine = selectors.game_engine(game)
    while not (engine.pending_wall and len(_columns(engine)) > 1):
        assert game.status == Game.Status.ACTIVE
        played = services.game_play_move(
            game_id=game.pk,
            user=game.seats.get(number=game.seat_to_move).user,
            move=move_event(_plausible(engine, rng)),
            expected_ply=game.ply,
        )
        game, engine = played.game, played.engine
    seat, line = engine.pending_wall
    mover = game.seats.get(number=seat).user
    assert mover.confirm_moves  # the default
    client = client_for(mover)
    url = reverse("games:detail", args=[game.pk])
    column = _columns(engine)[-1]
    # no JavaScript: the column's button is a GET of the page
    page = client.get(url).text
    assert 'method="get"' in _wall_form(page)
    preview = client.get(url, {"column": str(column)}).text
    panel = re.search(r"<form[^>]*confirm-move.*?</form>", preview, re.S).group(0)
    assert f"to column {column + 1}: +{_scored(engine, column)} point" in panel
    assert Move.objects.filter(game=game).count() == game.ply  # nothing played
    # Undo: the choice again, as it was
    undo = unescape(re.search(r'<a href="([^"]+)"[^>]*class="undo"', panel).group(1))
    assert sorted(_column_buttons(client.get(undo).text)) == [
        str(c) for c in _columns(engine)
    ]
    # Confirm: the placement is played, the tile on the wall
    fields = _hidden(panel)
    response = client.post(reverse("games:move", args=[game.pk]), fields, **HTMX)
    assert response.status_code == 200
    after = selectors.game_engine(selectors.game_get(game_id=game.pk))
    assert WallPlacement(seat, line, column) in after.history
    assert after.boards[seat].wall[line][column] == COLOURS.index(
        COLOURS[engine.boards[seat].line_colour[line]]
    )
