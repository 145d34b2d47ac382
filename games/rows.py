"""The game page's hot reads in two small hand-written queries.

The board partial and the move POST are the site's busiest requests. Building the
same ORM query (game; seats with users and each player's current vacation) on
every request cost more CPU than running it, so these two statements are written
once here from the models' own field lists and turned into ordinary model
instances with the backend's own value converters: the game row (``FOR UPDATE``
where the database supports it), then its seats joined to their users with the
current vacation's end as ``vacation_until``. The result is what
``Game.objects.prefetch_related(seats_with_users(vacations=True)).get(pk=...)``
returns: ``game.seats.all()`` is prefetched in seat order, each seat's ``user`` is
cached (or None) and carries ``vacation_until``.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from django.db import DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from accounts.models import User, Vacation

from .models import Game, Move, Seat

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


class _Reader:
    """Columns and converters of one model's concrete fields under a table alias.

    ``remembered_json`` names a JSON field decoded through ``_remembered_json``
    instead of its converter (``Game.state``).
    """

    def __init__(
        self,
        model: type[Model],
        alias: str,
        connection: BaseDatabaseWrapper,
        remembered_json: str = "",
    ) -> None:
        quote = connection.ops.quote_name
        fields: Sequence[Field[Any, Any]] = model._meta.concrete_fields
        self.model = model
        self.width = len(fields)
        self.attnames = [field.attname for field in fields]
        self.select = ", ".join(f"{alias}.{quote(field.column)}" for field in fields)
        self.converters = [_converters(field, connection) for field in fields]
        self.remembered = -1
        if remembered_json:
            self.remembered = self.attnames.index(remembered_json)
            self.pk_index = self.attnames.index(model._meta.pk.attname)

        # Only the fields that have converters, looked up once per build.
        self.converting = [
            (index, converters)
            for index, converters in enumerate(self.converters)
            if converters and index != self.remembered
        ]

    def build(self, values: Sequence[Any], alias: str) -> Any:
        row = list(values)
        connection = connections[alias]
        for index, (col, functions) in self.converting:
            for function in functions:
                row[index] = function(row[index], col, connection)
        if self.remembered < 0:
            return self.model.from_db(alias, self.attnames, row)
        index = self.remembered
        raw = row[index]
        row[index] = value = _remembered_json(alias, row[self.pk_index], raw)
        instance = self.model.from_db(alias, self.attnames, row)
        if isinstance(raw, str):
            instance._json_source = (raw, value)  # for state_with_events
        return instance


# Game.state as this process last decoded it, per game: the raw text and the
# value. The game page and the move POST read the state on every request, and it
# grows with the game (~15 KB of JSON at the end of a classic game): decoding it
# was ~4 % of a move's server CPU. A row whose text equals the remembered text
# gets the remembered value; a text that extends it (one more move: ``{"events":
# [..., new]}``) decodes only the new events. Either way the text is compared in
# full, so a value is never served for a state the database does not hold. The
# value is shared: callers replace ``game.state``, never change it in place.
_JSON_MEMO_SIZE = 512
_json_memo: OrderedDict[tuple[str, Any], tuple[str, Any]] = OrderedDict()
_json_memo_lock = threading.Lock()
_EVENTS_END = "]}"
_loads = json.loads


def _remembered_json(alias: str, pk: Any, raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw  # NULL, or a backend that decoded it already
    key = (alias, pk)
    with _json_memo_lock:
        entry = _json_memo.get(key)
    if entry is not None and entry[0] == raw:
        return entry[1]
    value = None
    if entry is not None:
        value = _extended(entry, raw)
    if value is None:
        try:
            value = _loads(raw)
        except json.JSONDecodeError:
            return raw  # what JSONField.from_db_value returns
    with _json_memo_lock:
        _json_memo[key] = (raw, value)
        _json_memo.move_to_end(key)
        while len(_json_memo) > _JSON_MEMO_SIZE:
            _json_memo.popitem(last=False)
    return value


def _extended(entry: tuple[str, Any], raw: str) -> Any:
    """``raw`` decoded from ``entry`` when ``raw`` is the remembered
    ``{"events": [...]}`` text with more events before its closing ``]}``
    (the remembered events not empty); else None."""
    old_raw, old_value = entry
    if (
        not isinstance(old_value, dict)
        or list(old_value) != ["events"]
        or not old_value["events"]
        or not old_raw.endswith(_EVENTS_END)
        or not raw.endswith(_EVENTS_END)
        or len(raw) <= len(old_raw)
    ):
        return None
    head = len(old_raw) - len(_EVENTS_END)
    if raw[head : len(old_raw)] != ", " or not raw.startswith(old_raw[:head]):
        return None
    try:
        # Parsed as one whole array, or not at all: the text between the old
        # events and the closing "]}" must be events and nothing else.
        added = _loads("[" + raw[len(old_raw) : -len(_EVENTS_END)] + "]")
    except json.JSONDecodeError:
        return None
    return {"events": old_value["events"] + added}


def _converters(
    field: Field[Any, Any], connection: BaseDatabaseWrapper
) -> tuple[Any, list[Converter]] | None:
    col = field.get_col(field.model._meta.db_table)
    functions = connection.ops.get_db_converters(col) + col.get_db_converters(
        connection
    )
    return (col, functions) if functions else None


class _Statements:
    """The two statements for one database connection (built on first use)."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        quote = connection.ops.quote_name
        self.game = _Reader(Game, "g", connection, remembered_json="state")
        self.seat = _Reader(Seat, "s", connection)
        self.user = _Reader(User, "u", connection)
        ends_at = Vacation._meta.get_field("ends_at")
        self.vacation_end = _converters(ends_at, connection)
        self.game_sql = (
            f"SELECT {self.game.select} FROM {quote(Game._meta.db_table)} g "
            f"WHERE g.{quote('id')} = %s"
        )
        self.variant_sql = (
            f"SELECT g.{quote(Game._meta.get_field('variant').column)} "
            f"FROM {quote(Game._meta.db_table)} g WHERE g.{quote('id')} = %s"
        )
        self.user_sql = (
            f"SELECT {self.user.select} FROM {quote(User._meta.db_table)} u "
            f"WHERE u.{quote(User._meta.pk.column)} = %s"
        )
        self.game_sql_locked = self.game_sql + (
            " FOR UPDATE" if connection.features.has_select_for_update else ""
        )
        vacation = quote(Vacation._meta.db_table)
        seat_user = quote(Seat._meta.get_field("user").column)
        self.seats_sql = (
            f"SELECT {self.seat.select}, {self.user.select}, "
            f"(SELECT MAX(v.{quote(ends_at.column)}) FROM {vacation} v "
            f"WHERE v.{quote(Vacation._meta.get_field('user').column)} "
            f"= s.{seat_user} "
            f"AND v.{quote(Vacation._meta.get_field('starts_at').column)} <= %s "
            f"AND v.{quote(ends_at.column)} > %s) "
            f"FROM {quote(Seat._meta.db_table)} s "
            f"LEFT OUTER JOIN {quote(User._meta.db_table)} u "
            f"ON u.{quote(User._meta.pk.column)} = s.{seat_user} "
            f"WHERE s.{quote(Seat._meta.get_field('game').column)} = %s "
            f"ORDER BY s.{quote('number')}"
        )


_statements: dict[str, _Statements] = {}


def _for(alias: str) -> _Statements:
    statements = _statements.get(alias)
    if statements is None:
        statements = _statements[alias] = _Statements(connections[alias])
    return statements


def game_variant(*, game_id: int, using: str = "default") -> str | None:
    """Game ``game_id``'s variant, or None if there is no such game (a move POST
    picks its form by it before the locked read)."""
    with connections[using].cursor() as cursor:
        cursor.execute(_for(using).variant_sql, [game_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


def user_by_id(*, user_id: Any, using: str = "default") -> User | None:
    """The user with primary key ``user_id``, or None: what
    ``User._default_manager.get(pk=user_id)`` returns, in one prebuilt statement
    (every signed-in request loads its user; compiling that query was ~8 % of a
    move's server CPU)."""
    statements = _for(using)
    with connections[using].cursor() as cursor:
        cursor.execute(statements.user_sql, [User._meta.pk.get_prep_value(user_id)])
        row = cursor.fetchone()
    return None if row is None else statements.user.build(row, using)


def game_with_seats(
    *, game_id: int, lock: bool = False, using: str = "default"
) -> Game:
    """Game ``game_id`` with its seats, users and vacations prefetched.

    ``lock`` reads the game row ``FOR UPDATE`` (PostgreSQL; SQLite's IMMEDIATE
    transaction is its lock). Raises ``Game.DoesNotExist`` like ``get()``.
    """
    from . import clock

    statements = _for(using)
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(
            statements.game_sql_locked if lock else statements.game_sql, [game_id]
        )
        row = cursor.fetchone()
        if row is None:
            raise Game.DoesNotExist(f"Game matching id={game_id} does not exist.")
        game = statements.game.build(row, using)
        now = clock.now()
        params = [
            connection.ops.adapt_datetimefield_value(now),
            connection.ops.adapt_datetimefield_value(now),
            game_id,
        ]
        cursor.execute(statements.seats_sql, params)
        rows = cursor.fetchall()
    seat_width, user_width = statements.seat.width, statements.user.width
    seat_field = Seat._meta.get_field("user")
    game_field = Seat._meta.get_field("game")
    seats = []
    for row in rows:
        seat = statements.seat.build(row[:seat_width], using)
        user_values = row[seat_width : seat_width + user_width]
        user = (
            statements.user.build(user_values, using)
            if seat.user_id is not None
            else None
        )
        seat_field.set_cached_value(seat, user)
        game_field.set_cached_value(seat, game)
        end = row[seat_width + user_width]
        if end is not None and statements.vacation_end is not None:
            col, functions = statements.vacation_end
            for function in functions:
                end = function(end, col, connection)
        seat.vacation_until = end
        seats.append(seat)
    # What prefetch_related leaves: the manager's queryset with its results.
    manager = game.seats
    queryset = manager.get_queryset()
    queryset._result_cache = seats
    queryset._prefetch_done = True
    game._prefetched_objects_cache = {manager.field.remote_field.cache_name: queryset}
    return game


class KnownJson(dict[str, Any]):
    """A JSON object whose text is already known: ``game_update`` writes the text
    instead of encoding the object again."""

    def __init__(self, value: dict[str, Any], text: str) -> None:
        super().__init__(value)
        self.text = text


class _KnownJsonEncoder(json.JSONEncoder):
    def encode(self, o: Any) -> str:
        return o.text if isinstance(o, KnownJson) else super().encode(o)


def state_with_events(
    game: Game, events: list[Any], new_events: list[Any]
) -> dict[str, Any]:
    """``{"events": events + new_events}``, the game's new state after a move.

    When ``game.state`` is still the value read with it (``{"events": events}``),
    its text is known, and the new text is that text with the new events added
    before the closing ``]}``: encoding a whole game's events again on every move
    was ~3 % of a move's server CPU. The database parses the text as it would
    the encoded object (and ``_remembered_json`` decodes only the new events on
    the next read).
    """
    state = {"events": events + new_events}
    source = game.__dict__.get("_json_source")
    if source is None or not events:
        return state
    raw, value = source
    if (
        game.state is not value
        or not isinstance(value, dict)
        or list(value) != ["events"]
        or len(value["events"]) != len(events)
        or not raw.endswith(_EVENTS_END)
    ):
        return state
    if new_events:
        added = json.dumps(new_events)[1:-1]
        raw = f"{raw[: -len(_EVENTS_END)]}, {added}{_EVENTS_END}"
    return KnownJson(state, raw)


_insert_sql: dict[tuple[str, int], str] = {}
_update_sql: dict[tuple[str, tuple[str, ...]], tuple[str, list[Any]]] = {}


def moves_insert(*, moves: Sequence[Move], using: str = "default") -> None:
    """INSERT ``moves`` in one statement, as ``Move.objects.bulk_create`` does
    (each field's ``pre_save`` and ``get_db_prep_save``; ``created_at`` is set),
    without compiling the ORM's query on every move. The Move rows' primary keys
    are not read back. A duplicate ply raises ``IntegrityError`` as before."""
    if not moves:
        return
    connection = connections[using]
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    sql = _insert_sql.get((using, len(moves)))
    if sql is None:
        quote = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = _insert_sql[using, len(moves)] = (
            f"INSERT INTO {quote(Move._meta.db_table)} "
            f"({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES {', '.join([row] * len(moves))}"
        )
    params = [
        field.get_db_prep_save(field.pre_save(move, True), connection)
        for move in moves
        for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def game_update(*, game: Game, fields: Sequence[str], using: str = "default") -> None:
    """``game.save(update_fields=fields)`` as one statement written once per field
    list (Game has no auto_now fields among a move's and no save signals). Raises
    ``DatabaseError`` like ``save`` when the row is gone."""
    connection = connections[using]
    key = (using, tuple(fields))
    cached = _update_sql.get(key)
    if cached is None:
        quote = connection.ops.quote_name
        model_fields = [Game._meta.get_field(name) for name in fields]
        assignments = ", ".join(f"{quote(f.column)} = %s" for f in model_fields)
        sql = (
            f"UPDATE {quote(Game._meta.db_table)} SET {assignments} "
            f"WHERE {quote(Game._meta.pk.column)} = %s"
        )
        cached = _update_sql[key] = (sql, model_fields)
    sql, model_fields = cached
    params = [
        connection.ops.adapt_json_value(value, _KnownJsonEncoder)
        if isinstance(value, KnownJson)
        else field.get_db_prep_save(value, connection)
        for field in model_fields
        for value in (field.pre_save(game, False),)
    ]
    params.append(game.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")
