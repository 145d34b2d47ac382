"""Misclick protection on the classic board: a chosen take is first drawn where
its tiles would go, with Confirm and Undo, and only the confirmation plays it;
a player who turns confirmation off in Settings plays with one click."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from django.urls import reverse

from games import selectors
from games.engine.classic import COLOURS, FLOOR, Take
from games.engine.common import CENTER, EngineError
from games.models import Move
from tests.accounts.settings_form import settings_post

from .helpers import classic_zones, play_random_moves
from .marks import last_move, zones

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _value(source: int) -> str:
    return "center" if source == CENTER else str(source)


def _line(line: int) -> str:
    return "floor" if line == FLOOR else str(line)


def _mover(game):
    return game.seats.get(number=game.seat_to_move).user


def _preview(client, game, take: Take, **extra) -> str:
    query = {
        "group": f"{_value(take.source)}:{COLOURS[take.colour]}",
        "line": _line(take.line),
    }
    response = client.get(reverse("games:detail", args=[game.pk]), query, **extra)
    assert response.status_code == 200
    return response.content.decode()


def _confirm_form(html: str) -> dict[str, str]:
    """The hidden fields of the preview's Confirm form (empty: no such form)."""
    form = r'<form[^>]*class="destinations confirm-move".*?</form>'
    match = re.search(form, html, re.S)
    if match is None:
        return {}
    return {
        name: unescape(value)
        for name, value in re.findall(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"', match.group(0)
        )
    }


def _a_take(engine, *, overflow: bool = False) -> Take:
    """A legal take onto a pattern line; with ``overflow``, one that sends some
    of its tiles to the floor."""
    for move in engine.legal_moves():
        if move.line == FLOOR:
            continue
        probe = engine.copy()
        probe.push(move)
        entry = probe.log[-1]
        if (entry["count"] > entry["placed"]) == overflow:
            return move
    raise AssertionError("no such take in this position")


def test_the_preview_draws_the_take_where_its_tiles_go_and_changes_nothing(
    players, start_game, client_for
):
    game = start_game(players[:2])
    engine = selectors.game_engine(game)
    take = _a_take(engine, overflow=False)
    client = client_for(_mover(game))
    html = _preview(client, game, take, **HTMX)
    # the board is drawn as the take leaves it: the tiles on the chosen line,
    # the factory's others in the centre (the engine's own preview, zone by zone)
    after = engine.preview(take)
    assert zones(html) == classic_zones(after)
    line = f"line-{take.seat}-{take.line}"
    placed_count = after.boards[take.seat].line_count[take.line]
    assert zones(html)[line][COLOURS[take.colour]] == placed_count
    assert zones(html)[line] != classic_zones(engine)[line]
    placed, taken_from = last_move(html)
    assert set(placed) == {line}
    source_zone = f"factory-{take.source}" if take.source != CENTER else "centre"
    assert taken_from == [source_zone]
    # nothing was played
    assert Move.objects.filter(game=game).count() == 1
    assert selectors.game_get(game_id=game.pk).ply == game.ply
    # Confirm posts exactly this take at this ply
    assert _confirm_form(html) == {
        "expected_ply": str(game.ply),
        "kind": "take",
        "source": _value(take.source),
        "colour": COLOURS[take.colour],
        "line": _line(take.line),
        **{k: v for k, v in _confirm_form(html).items() if k == "csrfmiddlewaretoken"},
    }
    # nothing on the preview can be chosen: no tile group buttons
    assert 'name="group"' not in html


def test_confirming_plays_the_previewed_take(players, start_game, client_for):
    game = start_game(players[:2])
    engine = selectors.game_engine(game)
    take = _a_take(engine, overflow=True)
    client = client_for(_mover(game))
    html = _preview(client, game, take, **HTMX)
    assert "to the floor" in html  # the overflow is said, as well as drawn
    fields = _confirm_form(html)
    response = client.post(reverse("games:move", args=[game.pk]), fields, **HTMX)
    assert response.status_code == 200
    game = selectors.game_get(game_id=game.pk)
    played = selectors.game_engine(game)
    assert played.history[-1] == take
    # the new board shows the take as played: the same tiles where the preview had them
    expected = engine.copy()
    expected.play(take)
    assert zones(response.content.decode()) == classic_zones(expected)


def test_a_second_confirmation_is_refused_and_plays_nothing(
    players, start_game, client_for
):
    game = start_game(players[:2])
    take = _a_take(selectors.game_engine(game))
    client = client_for(_mover(game))
    fields = _confirm_form(_preview(client, game, take, **HTMX))
    url = reverse("games:move", args=[game.pk])
    client.post(url, fields, **HTMX)
    again = client.post(url, fields, **HTMX).content.decode()
    assert 'role="alert"' in again
    assert Move.objects.filter(game=game).count() == 2  # the deal and one take


def test_undo_goes_back_to_the_chosen_tiles_lines(players, start_game, client_for):
    game = start_game(players[:2])
    take = _a_take(selectors.game_engine(game))
    client = client_for(_mover(game))
    html = _preview(client, game, take, **HTMX)
    group = f"{_value(take.source)}:{COLOURS[take.colour]}"
    undo = re.search(r'<a href="([^"]+)"[^>]*class="undo"', html)
    assert undo is not None
    assert unescape(undo.group(1)).endswith(f"?group={group}".replace(":", "%3A"))
    back = client.get(unescape(undo.group(1)), **HTMX).content.decode()
    # the same group is chosen again, its lines offered, the position untouched
    assert f'value="{group}" class="group selected" aria-pressed="true"' in back
    assert zones(back) == classic_zones(selectors.game_engine(game))
    assert _confirm_form(back) == {}


def test_the_last_take_of_a_round_is_previewed_without_tiling_or_dealing(
    players, start_game, client_for
):
    game = start_game(players[:2])
    rng = random.Random(3)
    while True:  # play until one tile group is left on the table
        engine = selectors.game_engine(game)
        groups = {(m.source, m.colour) for m in engine.legal_moves()}
        if len(groups) == 1:
            break
        game = play_random_moves(game, rng, 1)
    take = next(m for m in engine.legal_moves() if m.line != FLOOR)
    html = _preview(client_for(_mover(game)), game, take, **HTMX)
    drawn = zones(html)
    # the table is empty, the tiles lie on the line; no wall tile was placed
    # and no new factories dealt (the bag is as it was)
    assert all(not drawn[f"factory-{i}"] for i in range(len(engine.factories)))
    assert drawn[f"line-{take.seat}-{take.line}"][COLOURS[take.colour]] > 0
    for seat in range(2):
        assert drawn[f"wall-{seat}"] == classic_zones(engine)[f"wall-{seat}"]
    assert drawn["bag"] == classic_zones(engine)["bag"]
    assert Move.objects.filter(game=game).count() == game.ply


@pytest.mark.parametrize(
    "query",
    [
        {"group": "0:blue", "line": "7"},
        {"group": "0:blue", "line": "²"},
        {"group": "9:blue", "line": "0"},
        {"line": "0"},
    ],
)
def test_a_preview_of_an_impossible_take_shows_the_plain_board(
    players, start_game, client_for, query
):
    game = start_game(players[:2])
    response = client_for(_mover(game)).get(
        reverse("games:detail", args=[game.pk]), query, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert _confirm_form(html) == {}
    assert zones(html) == classic_zones(selectors.game_engine(game))


def test_the_waiting_player_gets_no_preview(players, start_game, client_for):
    game = start_game(players[:2])
    take = _a_take(selectors.game_engine(game))
    waiting = game.seats.exclude(number=game.seat_to_move).get().user
    html = _preview(client_for(waiting), game, take, **HTMX)
    assert _confirm_form(html) == {}
    assert zones(html) == classic_zones(selectors.game_engine(game))


def test_with_confirmation_off_a_destination_posts_the_move(
    players, start_game, client_for
):
    game = start_game(players[:2])
    mover = _mover(game)
    client = client_for(mover)
    settings_url = reverse("settings")
    client.post(settings_url, settings_post(mover, confirm_moves=False))
    mover.refresh_from_db()
    assert mover.confirm_moves is False
    take = _a_take(selectors.game_engine(game))
    group = f"{_value(take.source)}:{COLOURS[take.colour]}"
    html = client.get(
        reverse("games:detail", args=[game.pk]), {"group": group}
    ).content.decode()
    form = re.search(r'<form[^>]*id="move-dest"[^>]*>', html)
    assert form is not None
    assert f'action="{reverse("games:move", args=[game.pk])}"' in form.group(0)
    assert 'method="post"' in form.group(0)
    # and back on: the form asks for a preview again
    client.post(settings_url, settings_post(mover, confirm_moves=True))
    mover.refresh_from_db()
    assert mover.confirm_moves is True
    html = client.get(
        reverse("games:detail", args=[game.pk]), {"group": group}
    ).content.decode()
    form = re.search(r'<form[^>]*id="move-dest"[^>]*>', html)
    assert form is not None and 'method="get"' in form.group(0)


def test_the_engine_preview_leaves_the_game_alone_and_refuses_an_illegal_take(
    players, start_game
):
    game = start_game(players[:2])
    engine = selectors.game_engine(game)
    before = classic_zones(engine)
    take = _a_take(engine)
    engine.preview(take)
    assert classic_zones(engine) == before
    assert engine.history[-1] != take
    other = 1 - take.seat
    with pytest.raises(EngineError):
        engine.preview(Take(other, take.source, take.colour, take.line))


def _pavilion_group_form(html: str) -> str:
    """The opening tag of the form around the Summer Pavilion position."""
    match = re.search(r'<form[^>]*class="pv-choose"[^>]*>', html)
    assert match is not None
    return match.group(0)


def test_summer_pavilion_takes_are_previewed_unless_confirmation_is_off(
    players, start_game, client_for
):
    from games.engine.pavilion_board import COLOURS as PAVILION_COLOURS

    game = start_game(players[:2], variant="pavilion")
    mover = _mover(game)
    client = client_for(mover)
    url = reverse("games:detail", args=[game.pk])
    # confirming (the default): a tile group asks for the take's panel (GET)
    form = _pavilion_group_form(client.get(url, **HTMX).content.decode())
    assert 'method="get"' in form
    # confirmation off: the group's own button posts the take
    mover.confirm_moves = False
    mover.save(update_fields=["confirm_moves"])
    html = client.get(url, **HTMX).content.decode()
    form = _pavilion_group_form(html)
    assert 'method="post"' in form
    assert f'action="{reverse("games:move", args=[game.pk])}"' in form
    engine = selectors.game_engine(game)
    take = engine.legal_moves()[0]
    value = f"{_value(take.source)}:{PAVILION_COLOURS[take.colour]}"
    assert f'name="take" value="{value}"' in html
    fields = dict(
        re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html)
    )
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {
            "csrfmiddlewaretoken": fields.get("csrfmiddlewaretoken", ""),
            "expected_ply": fields["expected_ply"],
            "kind": "take",
            "take": value,
        },
        **HTMX,
    )
    assert 'role="alert"' not in response.content.decode()
    played = selectors.game_engine(selectors.game_get(game_id=game.pk))
    assert played.events()[len(engine.events())] == take.to_event()
