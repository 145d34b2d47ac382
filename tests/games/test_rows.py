"""The hand-written hot read (games/rows.py) returns what the ORM query returns."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Vacation
from games import clock, selectors
from games.models import Game, Seat
from games.rows import game_variant, game_with_seats

pytestmark = pytest.mark.django_db

ORM = Game.objects.prefetch_related(selectors.seats_with_users(vacations=True))


def _fields(obj):
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_matches_the_orm_with_users_vacations_and_an_open_seat(
    players, start_game, make_user
):
    game = start_game(players[:2], variant="pavilion")
    now = clock.now()
    Vacation.objects.create(
        user=players[1], starts_at=now - timedelta(days=1), ends_at=now + timedelta(2)
    )
    Vacation.objects.create(  # a later one that has not started: not current
        user=players[1], starts_at=now + timedelta(days=5), ends_at=now + timedelta(9)
    )
    Vacation.objects.create(  # longer current one wins, as the ORM's latest end
        user=players[1], starts_at=now - timedelta(hours=1), ends_at=now + timedelta(3)
    )
    open_game = Game.objects.create(
        variant="classic", players=3, creator=players[0], state={"x": [1]}
    )
    Seat.objects.create(
        game=open_game, number=0, user=players[0], invite_status="joined"
    )
    Seat.objects.create(game=open_game, number=1)
    Seat.objects.create(
        game=open_game, number=2, user=players[1], invite_status="invited"
    )
    for pk in (game.pk, open_game.pk):
        expected = ORM.get(pk=pk)
        with CaptureQueriesContext(connection) as queries:
            got = game_with_seats(game_id=pk)
            seats = list(got.seats.all())
            users = [seat.user for seat in seats]
            assert [seat.game is got for seat in seats] == [True] * len(seats)
        assert len(queries) == 2
        assert _fields(got) == _fields(expected)
        assert isinstance(got.turn_deadline, type(expected.turn_deadline))
        wanted = list(expected.seats.all())
        assert [_fields(s) for s in seats] == [_fields(s) for s in wanted]
        assert [s.vacation_until for s in seats] == [s.vacation_until for s in wanted]
        assert [u and _fields(u) for u in users] == [
            s.user and _fields(s.user) for s in wanted
        ]
        assert selectors.seat_vacations(game=got) == selectors.seat_vacations(
            game=expected
        )
    assert selectors.seat_vacations(game=game_with_seats(game_id=game.pk)) == {
        1: now + timedelta(3)
    }


def test_locked_read_and_missing_game(players, start_game):
    game = start_game(players[:2])
    with CaptureQueriesContext(connection) as queries:
        game_with_seats(game_id=game.pk, lock=True)
    if connection.features.has_select_for_update:
        assert queries[0]["sql"].endswith("FOR UPDATE")
    with pytest.raises(Game.DoesNotExist):
        game_with_seats(game_id=game.pk + 1000)


def test_game_variant(players, start_game):
    game = start_game(players[:2], variant="pavilion")
    assert game_variant(game_id=game.pk) == "pavilion"
    assert game_variant(game_id=game.pk + 1000) is None


def test_moves_insert_and_game_update_write_what_the_orm_writes(players, start_game):
    from django.db import DatabaseError, IntegrityError, transaction

    from games.models import Move
    from games.rows import game_update, moves_insert

    game = start_game(players[:2])
    before = Move.objects.filter(game=game).count()
    event = {"type": "take", "seat": 0, "source": 0, "colour": 1, "line": 2}
    moves_insert(
        moves=[
            Move(game=game, ply=500, event=event, user=players[0], auto=False),
            Move(game=game, ply=501, event={"deal": [[1, 2]]}, user=None, auto=True),
        ]
    )
    rows = list(Move.objects.filter(game=game, ply__gte=500).order_by("ply"))
    assert Move.objects.filter(game=game).count() == before + 2
    assert [(m.ply, m.event, m.user_id, m.auto) for m in rows] == [
        (500, event, players[0].pk, False),
        (501, {"deal": [[1, 2]]}, None, True),
    ]
    assert all(m.created_at is not None for m in rows)
    with pytest.raises(IntegrityError), transaction.atomic():
        moves_insert(moves=[Move(game=game, ply=500, event={}, user=None)])

    game.ply, game.seat_to_move, game.turn_email_sent = 77, 1, True
    game.state = {"events": [{"x": "é"}]}
    game.status = Game.Status.FINISHED  # not in the field list: not written
    game_update(game=game, fields=["ply", "state", "seat_to_move", "turn_email_sent"])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.ply, stored.seat_to_move, stored.turn_email_sent) == (77, 1, True)
    assert stored.state == {"events": [{"x": "é"}]}
    assert stored.status == Game.Status.ACTIVE
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError):
        game_update(game=game, fields=["ply"])


def _stored_state(pk):
    """Game.state as the database holds it, decoded afresh."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM games_game WHERE id = %s", [pk])
        raw = cursor.fetchone()[0]
    return raw if isinstance(raw, dict) else json.loads(raw)


def test_state_is_decoded_once_and_extended_after_a_move(
    players, start_game, monkeypatch
):
    """The remembered Game.state (rows._remembered_json): the same text gives the
    same value without decoding; a move's longer text decodes only its new
    events; every value equals the stored state decoded afresh."""
    import random

    from games import rows, services

    from .helpers import move_event

    game = start_game(players[:2])
    first = game_with_seats(game_id=game.pk).state
    assert first == _stored_state(game.pk)
    decoded = []
    real_loads = json.loads
    monkeypatch.setattr(
        rows, "_loads", lambda text: decoded.append(len(text)) or real_loads(text)
    )
    assert game_with_seats(game_id=game.pk).state is first
    assert decoded == []
    engine = selectors.game_engine(game)
    move = random.Random(3).choice(engine.legal_moves())
    services.game_play_move(
        game_id=game.pk,
        user=players[game.seat_to_move],
        move=move_event(move),
        expected_ply=game.ply,
    )
    after = game_with_seats(game_id=game.pk).state
    assert after == _stored_state(game.pk)
    assert len(after["events"]) == len(first["events"]) + 1
    if connection.vendor == "sqlite":  # PostgreSQL writes jsonb its own way
        assert len(decoded) == 1 and decoded[0] < 1000  # the new event, not all
    # A state rewritten under the same primary key is decoded afresh.
    Game.objects.filter(pk=game.pk).update(state={"events": first["events"][:2]})
    rewritten = game_with_seats(game_id=game.pk).state
    assert rewritten == {"events": first["events"][:2]} == _stored_state(game.pk)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"events": [1, {"a": "]}"}]}', {"events": [1, {"a": "]}"}]}),
        ('{"events": [1, 2, 3]}', {"events": [1, 2, 3]}),
        ('{"events": [12]}', None),  # not the same first event
        ('{"events": [1]}', None),  # not longer
        ('{"events": [1,2]}', None),  # another spelling: decoded afresh
        ('{"events": [1, 2], "x": [3]}', None),  # not only events
        ('{"events": [1, 2], "x": [3, 4]}', None),
        ('{"events": [1, 2]], "x": [[3]}', None),  # the tail must be one array
    ],
)
def test_only_a_longer_event_list_is_extended(raw, expected):
    from games.rows import _extended

    assert _extended(('{"events": [1]}', {"events": [1]}), raw) == expected


def test_state_that_is_not_json_reads_as_text():
    from games.rows import _remembered_json

    assert _remembered_json("default", -1, "not json") == "not json"
    assert _remembered_json("default", -1, None) is None


def test_a_move_writes_the_known_text_plus_its_events(players, start_game, monkeypatch):
    """After a move the state's text is the text read plus the new events
    (rows.state_with_events): what is stored decodes to every event so far, the
    same as the Move rows."""
    import random

    from games import rows, services

    from .helpers import play_random_moves

    built = []
    real = rows.state_with_events

    def spy(game, events, new_events):
        state = real(game, events, new_events)
        built.append(state)
        return state

    monkeypatch.setattr(services, "state_with_events", spy)
    rng = random.Random(5)
    game = start_game(players[:3])
    for _ in range(12):
        game = play_random_moves(game, rng, 1)
        state = built[-1]
        assert isinstance(state, rows.KnownJson)
        assert json.loads(state.text) == state
        stored = _stored_state(game.pk)
        assert stored == state
        assert stored["events"] == selectors.game_engine_from_moves(game).events()


def test_state_text_is_used_only_for_the_state_it_was_read_with(players, start_game):
    from games import rows

    game = start_game(players[:2])
    read = game_with_seats(game_id=game.pk)
    events = read.cached_events
    new = [{"seat": 0, "from": 0, "colour": "red", "to": 1}]
    known = rows.state_with_events(read, events, new)
    assert isinstance(known, rows.KnownJson)
    assert known == {"events": events + new} and json.loads(known.text) == known
    # Fewer events than were read (a caller rebuilt them): encoded afresh.
    assert type(rows.state_with_events(read, events[:-1], new)) is dict
    # A state replaced since the read: its text is not the read one.
    read.state = {"events": list(events)}
    assert type(rows.state_with_events(read, events, new)) is dict
    # A game not read by game_with_seats has no known text.
    plain = Game.objects.get(pk=game.pk)
    assert type(rows.state_with_events(plain, plain.cached_events, new)) is dict
