"""The classic move path: what the board embeds for its script, the JS-free path,
and how many queries a board and a move cost (regression guards, not timings)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from games import selectors
from games.engine.classic import COLOURS, FLOOR, Take
from games.engine.common import CENTER
from games.models import Game, Move

from .helpers import move_post_data

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
GROUP_BUTTON = re.compile(
    r'<button type="submit" name="group" value="([^"]+)"[^>]*'
    r'aria-pressed="(true|false)"[^>]*data-dests="([^"]*)"'
    r' data-field-source="([^"]*)" data-field-colour="([^"]*)"'
)


def _dests(attribute: str) -> dict[str, int]:
    """A group's ``data-dests``: each legal line's value and its overflow."""
    return json.loads(unescape(attribute))


def _mover(game):
    return game.seats.get(number=game.seat_to_move).user


def _other(game):
    return game.seats.exclude(number=game.seat_to_move).get().user


def _expected_dests(game) -> dict[str, set[tuple[str, int]]]:
    """Every legal group's (line, tiles to the floor), straight from the engine."""
    engine = selectors.game_engine(game)
    board = engine.boards[game.seat_to_move]
    expected: dict[str, set[tuple[str, int]]] = {}
    for move in engine.legal_moves():
        assert isinstance(move, Take)
        source = "center" if move.source == CENTER else str(move.source)
        counts = (
            engine.center if move.source == CENTER else engine.factories[move.source]
        )
        tiles = counts[move.colour]
        if move.line == FLOOR:
            line, overflow = "floor", 0
        else:
            line = str(move.line)
            room = move.line + 1 - board.line_count[move.line]
            overflow = max(0, tiles - room)
        expected.setdefault(f"{source}:{COLOURS[move.colour]}", set()).add(
            (line, overflow)
        )
    return expected


def _play_random_moves(game, client_for, count: int) -> None:
    import random

    rng = random.Random(4)
    for _ in range(count):
        game.refresh_from_db()
        move = rng.choice(selectors.game_engine(game).legal_moves())
        client_for(_mover(game)).post(
            reverse("games:move", args=[game.pk]), move_post_data(move, game.ply)
        )


def test_each_tile_group_carries_its_legal_destinations(
    client_for, players, start_game
):
    game = start_game(players[:2])
    _play_random_moves(game, client_for, 3)  # partly filled lines: overflows
    game.refresh_from_db()
    text = (
        client_for(_mover(game))
        .get(reverse("games:detail", args=[game.pk]), **HTMX)
        .text
    )
    found = {
        value: set(_dests(dests).items())
        for value, _pressed, dests, _source, _colour in GROUP_BUTTON.findall(text)
    }
    assert found == _expected_dests(game)
    # the hidden move form carries the floor-overflow labels the groups need
    overflows = {n for lines in found.values() for _line, n in lines if n}
    form = re.search(r'class="destinations"[^>]*data-overflow="([^"]*)"', text)
    assert form is not None
    for n in overflows:
        assert f"&quot;{n}&quot;: &quot;({n} to the floor)&quot;" in form.group(1)


def test_without_a_group_the_move_form_is_hidden_and_disabled(
    client_for, players, start_game
):
    game = start_game(players[:2])
    text = client_for(_mover(game)).get(reverse("games:detail", args=[game.pk])).text
    form = re.search(r'<form[^>]*class="destinations"[^>]*>', text)
    assert form is not None and " hidden" in form.group(0)
    buttons = re.findall(r'<button type="submit" name="line"[^>]*>', text)
    assert len(buttons) == 6
    assert all(" disabled" in b and "legal" not in b for b in buttons)
    assert 'aria-pressed="true"' not in text


def test_no_js_group_choice_shows_the_form_with_its_legal_lines(
    client_for, players, start_game
):
    game = start_game(players[:2])
    expected = _expected_dests(game)
    group, lines = next(iter(expected.items()))
    client = client_for(_mover(game))
    text = client.get(reverse("games:detail", args=[game.pk]), {"group": group}).text
    form = re.search(r'<form[^>]*class="destinations"[^>]*>', text)
    assert form is not None and " hidden" not in form.group(0)
    assert f'value="{group}" class="group selected" aria-pressed="true"' in text
    legal = set(re.findall(r'name="line" value="([^"]+)" class="dest legal"', text))
    assert legal == {line for line, _ in lines}
    # the form asks for a preview of the move (User.confirm_moves, the default)
    assert 'method="get"' in form.group(0)
    assert f'name="group" value="{group}"' in text
    source, colour = group.split(":")
    # and posting one without HTMX (the preview's Confirm) plays it and redirects
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {
            "expected_ply": game.ply,
            "kind": "take",
            "source": source,
            "colour": colour,
            "line": sorted(legal)[0],
        },
    )
    assert response.status_code == 302
    assert Move.objects.filter(game=game).count() == 2


def test_a_group_that_is_not_legal_selects_nothing(client_for, players, start_game):
    game = start_game(players[:2])
    engine = selectors.game_engine(game)
    empty = next(
        f"{index}:{COLOURS[colour]}"
        for index, counts in enumerate(engine.factories)
        for colour in range(5)
        if not counts[colour]
    )
    text = (
        client_for(_mover(game))
        .get(reverse("games:detail", args=[game.pk]), {"group": empty})
        .text
    )
    assert 'aria-pressed="true"' not in text
    assert 'class="dest legal"' not in text


def test_the_waiting_player_gets_no_group_buttons_or_move_form(
    client_for, players, start_game
):
    game = start_game(players[:2])
    text = client_for(_other(game)).get(reverse("games:detail", args=[game.pk])).text
    assert "data-dests" not in text
    assert 'class="destinations"' not in text
    assert 'class="group"' in text  # the tiles are still shown


def test_htmx_move_answers_the_board_at_the_new_ply(client_for, players, start_game):
    game = start_game(players[:2])
    move = selectors.game_engine(game).legal_moves()[0]
    response = client_for(_mover(game)).post(
        reverse("games:move", args=[game.pk]), move_post_data(move, game.ply), **HTMX
    )
    game.refresh_from_db()
    assert f'data-ply="{game.ply}"' in response.text
    # the answer is the mover's board after the move: no longer their turn
    assert "Your move." not in response.text
    assert "data-dests" not in response.text


def test_board_partial_query_count(
    client_for, players, start_game, django_assert_max_num_queries
):
    game = start_game(players[:2])
    client = client_for(_mover(game))
    client.get(reverse("games:home"))  # session loaded once before counting
    # session, user, game, seats with their users and vacations, watchers
    # 7: the players line with its presence comes with the board (issue #35)
    with django_assert_max_num_queries(7):
        response = client.get(reverse("games:detail", args=[game.pk]), **HTMX)
    assert response.status_code == 200


def test_htmx_move_query_count(
    client_for, players, start_game, django_assert_max_num_queries
):
    game = start_game(players[:2])
    move = selectors.game_engine(game).legal_moves()[0]
    client = client_for(_mover(game))
    # session, user, the game's variant (which form reads the
    # POST), (savepoint), locked game, seats with users and vacations, INSERT
    # moves, UPDATE game, (release savepoint) — the next player's deadline reads
    # the vacation their seat carries, and the answer fetches nothing again but
    # its watchers (issue #26)
    # 12: the players line with its presence comes with the board (issue #35)
    # 13: issue #37: the mover's bank
    with django_assert_max_num_queries(13):
        response = client.post(
            reverse("games:move", args=[game.pk]),
            move_post_data(move, game.ply),
            **HTMX,
        )
    assert 'role="alert"' not in response.text
    assert Move.objects.filter(game=game).count() == 2


def test_move_updates_only_the_fields_a_move_changes(client_for, players, start_game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = start_game(players[:2])
    move = selectors.game_engine(game).legal_moves()[0]
    client = client_for(_mover(game))
    with CaptureQueriesContext(connection) as queries:
        client.post(
            reverse("games:move", args=[game.pk]), move_post_data(move, game.ply)
        )
    updates = [q["sql"] for q in queries if q["sql"].startswith("UPDATE")]
    # issue #37: the mover's bank
    assert len(updates) == 2
    [seat_update] = [u for u in updates if u.startswith('UPDATE "games_seat"')]
    assert re.match(r'UPDATE "games_seat" SET "bank_seconds" = \d+ WHERE', seat_update)
    [game_update] = [u for u in updates if u.startswith('UPDATE "games_game"')]
    assert '"status"' not in game_update and '"creator_id"' not in game_update
    game.refresh_from_db()
    assert game.ply == 2 and game.status == Game.Status.ACTIVE
    assert len(game.cached_events) == 2


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_asgi_application_serves_pages():
    from channels.testing import HttpCommunicator

    from azulsite.asgi import application

    communicator = HttpCommunicator(
        application, "GET", "/accounts/login/", headers=[(b"host", b"localhost")]
    )
    response = await communicator.get_response()
    assert response["status"] == 200
    assert b"<form" in response["body"]


@pytest.mark.once  # drawing, not storage: the SQLite pass is enough
@pytest.mark.parametrize(("variant", "count"), [("classic", 2), ("classic-grey", 3)])
def test_a_whole_game_played_from_the_boards_own_attributes(
    client_for, players, start_game, variant, count
):
    """Every move read off the board the mover was sent, as board.js would."""
    import random

    game = start_game(players[:count], variant=variant)
    clients = {user.pk: client_for(user) for user in players[:count]}
    rng = random.Random(7)
    url = reverse("games:detail", args=[game.pk])
    board = clients[_mover(game).pk].get(url, **HTMX).text
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        client = clients[_mover(game).pk]
        if "Your move." not in board:
            board = client.get(url, **HTMX).text  # the doorbell's refetch
        assert "Your move." in board
        ply = re.search(r'data-ply="(\d+)"', board).group(1)
        groups = GROUP_BUTTON.findall(board)
        if groups:
            _value, _pressed, dests, source, colour = rng.choice(groups)
            data = {"kind": "take", "source": source, "colour": colour}
            data["line"] = rng.choice(sorted(_dests(dests)))
        else:  # grey wall tiling: a column button asks for its preview, whose
            # Confirm form posts the placement (User.confirm_moves, the default)
            columns = re.findall(r'name="column" value="(\d)"', board)
            preview = client.get(url, {"column": rng.choice(columns)}, **HTMX).text
            form = re.search(
                r'class="destinations confirm-move".*?</form>', preview, re.S
            )
            assert form is not None
            data = dict(
                re.findall(r'type="hidden" name="([a-z_]+)" value="([^"]*)"', form[0])
            )
            del data["expected_ply"], data["csrfmiddlewaretoken"]
        board = client.post(
            reverse("games:move", args=[game.pk]),
            {"expected_ply": ply, **data},
            **HTMX,
        ).text
        assert 'role="alert"' not in board
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "Final result" in board
    assert selectors.game_engine_from_moves(game).events() == game.cached_events
