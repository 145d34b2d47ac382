"""The API (issue #39, docs/api.md): django-ninja over the game record and the
services, authenticated by personal tokens (``Authorization: Bearer azul_…``;
a session cookie does not count). Moves are the record's decision objects
(docs/moves.md) without their ``seat``. Errors are ``{"error": "..."}``: 401
without a live token, 403 without the scope or for someone else's game, 404,
409 for a stale ``ply`` or an action out of turn, 422 for an illegal move or
a body that does not read, 429 beyond one request at a time or the minute's
cap (with ``Retry-After``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from ninja import NinjaAPI, Router, Schema, Status
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer
from ninja.throttling import AuthRateThrottle
from pydantic import Field

from accounts.models import User
from api import services
from api.models import ApiEvent, ApiToken
from azulsite.jsonbody import BadBody, read_json
from games import selectors
from games import services as game_services
from games.engine.common import REFUSALS
from games.models import Game, Seat, Variant
from games.play.banks import seat_banks
from games.ratings.ratings import rating_points


class BoundedJSON(Parser):
    """A body read as the site reads JSON (``azulsite.jsonbody``): at most
    64 KB, nested at most 20 deep (a deep body made ``json.loads`` recurse
    into a 500); anything else is refused, 400."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        data = read_json(request)
        if not isinstance(data, dict):
            raise BadBody(400, "not a JSON object")
        return data


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        return services.token_for(token)


api = NinjaAPI(
    title="Azul API",
    version="1",
    description="Play Azul and Azul: Summer Pavilion by program (docs/api.md).",
    auth=TokenAuth(),
    throttle=[AuthRateThrottle(settings.API_RATE)],
    urls_namespace="api",
    parser=BoundedJSON(),
)


def _error(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return api.create_response(request, {"error": message}, status=status)


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    return _error(request, str(error.message), error.status_code)


@api.exception_handler(Throttled)
def throttled(request: HttpRequest, error: Throttled) -> HttpResponse:
    response = _error(request, "too many requests this minute for this token", 429)
    response["Retry-After"] = str(int(error.wait or 0) + 1)
    return response


@api.exception_handler(AuthenticationError)
def unauthorised(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    return _error(request, "a live token is needed: Authorization: Bearer azul_…", 401)


@api.exception_handler(ValidationError)
def unreadable(request: HttpRequest, error: ValidationError) -> HttpResponse:
    first = error.errors[0] if error.errors else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return _error(request, f"{where}: {first.get('msg', 'unreadable')}", 422)


def _token(request: HttpRequest) -> ApiToken:
    token = request.auth  # type: ignore[attr-defined]
    assert isinstance(token, ApiToken)
    return token


def need(request: HttpRequest, scope: str) -> User:
    """The token's account, if the token has ``scope`` (else 403)."""
    token = _token(request)
    if scope not in token.scopes:
        raise HttpError(403, f"this token lacks the scope {scope}")
    return token.user


def one_at_a_time(view: Callable[..., Any]) -> Callable[..., Any]:
    """One request at a time per token: a second while the first is answered
    gets 429 (``services.token_claim``)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        token = getattr(request, "auth", None)
        if not isinstance(token, ApiToken):
            return view(request, *args, **kwargs)
        if not services.token_claim(token):
            response = _error(
                request, "one request at a time per token: wait for the first", 429
            )
            response["Retry-After"] = "1"
            return response
        try:
            return view(request, *args, **kwargs)
        finally:
            services.token_release(token)

    return wrapped


api.add_decorator(one_at_a_time)


# ------------------------------------------------------------ schemas


class ErrorOut(Schema):
    error: str


class RatingOut(Schema):
    family: str
    rating: int
    games: int


class AccountOut(Schema):
    name: str
    bot: bool
    ratings: list[RatingOut]


class SeatOut(Schema):
    name: str
    bot: bool
    bank_seconds: int | None


class GameOut(Schema):
    id: int
    variant: str
    status: str
    record: dict[str, Any]
    ply: int
    to_move: int | None
    my_seat: int | None
    seats: list[SeatOut]
    legal_moves: list[dict[str, Any]]


class GameLine(Schema):
    id: int
    variant: str
    ply: int
    my_turn: bool
    deadline: str | None


class MoveIn(Schema):
    ply: int = Field(ge=0)
    move: dict[str, Any]


class ChallengeIn(Schema):
    variant: str
    players: int = Field(ge=2, le=4)
    invite: list[str] = Field(max_length=3)
    clock: str = "daily"
    rated: bool = False


class ChallengeOut(Schema):
    id: int
    game: GameOut


class EventOut(Schema):
    id: int
    type: str
    data: dict[str, Any]


class EventsOut(Schema):
    events: list[EventOut]
    cursor: int


# ------------------------------------------------------------ reads


def _game_out(game: Game, user: User) -> dict[str, Any]:
    game = selectors.game_get(game_id=game.pk)
    seats = list(game.seats.all())
    view = selectors.seat_view(game=game, user=user, seats=seats)
    banks = {b.seat: b.seconds for b in seat_banks(game=game, seats=seats)}
    legal: list[dict[str, Any]] = []
    if game.active and view.my_turn and game.play_stopped_at is None:
        engine = selectors.game_engine(game)
        legal = [
            {k: v for k, v in move.to_event().items() if k != "seat"}
            for move in engine.legal_moves()
        ]
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "record": selectors.game_record(game) if not game.waiting else {},
        "ply": game.ply,
        "to_move": game.seat_to_move if game.active else None,
        "my_seat": view.number,
        "seats": [
            {
                "name": seat.record_name,
                "bot": bool(seat.user and (seat.user.is_computer or seat.user.is_bot)),
                "bank_seconds": banks.get(seat.number),
            }
            for seat in seats
        ],
        "legal_moves": legal,
    }


def _my_game(game_id: int, user: User) -> Game:
    game = Game.objects.filter(pk=game_id, imported=False).first()
    if game is None:
        raise HttpError(404, "no such game")
    if not Seat.objects.filter(game=game, user=user).exists():
        raise HttpError(403, "not a game of yours")
    return game


account = Router(tags=["account"])
games = Router(tags=["games"])
challenges = Router(tags=["challenges"])
events = Router(tags=["events"])


@account.get("", response=AccountOut)
def account_get(request: HttpRequest) -> dict[str, Any]:
    user = need(request, "game:read")
    stats = selectors.player_stats(user=user)
    return {
        "name": user.username,
        "bot": user.is_computer or user.is_bot,
        "ratings": [
            {"family": family, "rating": rating_points(s.mu), "games": s.rated_games}
            for family, s in stats.items()
        ],
    }


@games.get("/playing", response=list[GameLine])
def games_playing(request: HttpRequest) -> list[dict[str, Any]]:
    """My games in progress: my turn first, by time left."""
    user = need(request, "game:read")
    playing = list(
        Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user)
        .prefetch_related("seats")
        .order_by("pk")[:500]
    )
    lines = []
    for game in playing:
        mine = next(s.number for s in game.seats.all() if s.user_id == user.pk)
        lines.append(
            {
                "id": game.pk,
                "variant": game.variant,
                "ply": game.ply,
                "my_turn": game.seat_to_move == mine,
                "deadline": (
                    game.turn_deadline.isoformat() if game.turn_deadline else None
                ),
            }
        )
    lines.sort(key=lambda g: (not g["my_turn"], g["deadline"] or "~", g["id"]))
    return lines


@games.get("/{int:game_id}", response={200: GameOut, 403: ErrorOut, 404: ErrorOut})
def game_get(request: HttpRequest, game_id: int) -> dict[str, Any]:
    user = need(request, "game:read")
    return _game_out(_my_game(game_id, user), user)


REFUSED_AS = {
    "stale": 409,
    "turn": 409,
    "status": 409,
    "stopped": 409,
    "busy": 409,
    "seat": 403,
}
"""The HTTP status of a refused action, by the services' code; an engine's
refusal (an illegal move: ``games.engine.common.REFUSALS``) is 422."""


def _refused(error: game_services.GameActionError) -> HttpError:
    status = REFUSED_AS.get(error.code, 422 if error.code in REFUSALS else 409)
    return HttpError(status, error.message)


def _idempotent(
    request: HttpRequest, act: Callable[[], tuple[int, dict[str, Any]]]
) -> Any:
    """Answer ``act``'s (status, body); with an ``Idempotency-Key`` header the
    first answer is kept and given again, the action not repeated."""
    key = request.headers.get("Idempotency-Key", "").strip()
    token = _token(request)
    if key:
        kept = services.answer_kept(token=token, key=key)
        if kept is not None:
            return Status(kept.status, kept.body)
    try:
        status, body = act()
    except HttpError as error:
        status, body = error.status_code, {"error": str(error.message)}
    if key:
        services.answer_keep(token=token, key=key, status=status, body=body)
    return Status(status, body)


@games.post(
    "/{int:game_id}/moves",
    response={200: GameOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
)
def game_move(request: HttpRequest, game_id: int, body: MoveIn) -> Any:
    """Play a decision: ``move`` as the record writes it, without ``seat``."""
    user = need(request, "game:play")

    def act() -> tuple[int, dict[str, Any]]:
        game = _my_game(game_id, user)
        move = {k: v for k, v in body.move.items() if k != "seat"}
        try:
            game_services.game_play_move(
                game_id=game.pk, user=user, move=move, expected_ply=body.ply
            )
        except game_services.GameActionError as error:
            raise _refused(error) from None
        return 200, _game_out(game, user)

    return _idempotent(request, act)


@games.post(
    "/{int:game_id}/resign",
    response={200: GameOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut},
)
def game_resign(request: HttpRequest, game_id: int) -> Any:
    user = need(request, "game:play")

    def act() -> tuple[int, dict[str, Any]]:
        game = _my_game(game_id, user)
        try:
            game_services.game_resign(game_id=game.pk, user=user)
        except game_services.GameActionError as error:
            raise _refused(error) from None
        return 200, _game_out(game, user)

    return _idempotent(request, act)


@games.get("/{int:game_id}/record", response={200: dict[str, Any], 404: ErrorOut})
def game_record(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """A game's record (docs/record.md): anyone's, like its page."""
    need(request, "game:read")
    game = Game.objects.filter(pk=game_id).exclude(status=Game.Status.OPEN).first()
    if game is None:
        raise HttpError(404, "no such game")
    return selectors.game_record(game)


users = Router(tags=["games"])


@users.get("/{name}/games")
def user_games(request: HttpRequest, name: str) -> StreamingHttpResponse:
    """A player's finished games, newest first, one record a line (NDJSON)."""
    need(request, "game:read")
    player = User.objects.filter(username=name, is_active=True).first()
    if player is None:
        raise HttpError(404, "no such player")
    ids = list(
        Game.objects.filter(
            status=Game.Status.FINISHED, imported=False, seats__user=player
        )
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[:1000]
    )

    def lines() -> Iterator[str]:
        for game in Game.objects.filter(pk__in=ids).order_by("-finished_at", "-pk"):
            yield json.dumps(selectors.game_record(game), ensure_ascii=False) + "\n"

    return StreamingHttpResponse(lines(), content_type="application/x-ndjson")


# ------------------------------------------------------------ challenges


@challenges.post(
    "", response={200: ChallengeOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut}
)
def challenge_create(request: HttpRequest, body: ChallengeIn) -> Any:
    """Invite named players to a new game (the site's invitation limits
    apply); the game waits for them."""
    user = need(request, "challenge:write")
    if body.variant not in Variant.values:
        raise HttpError(422, f"variant: one of {', '.join(Variant.values)}")
    invitees = list(User.objects.filter(username__in=body.invite, is_active=True))
    missing = sorted(set(body.invite) - {u.username for u in invitees})
    if missing:
        raise HttpError(422, f"invite: no player named {', '.join(missing)}")

    def act() -> tuple[int, dict[str, Any]]:
        try:
            game = game_services.game_create(
                creator=user,
                variant=body.variant,
                players=body.players,
                rated=body.rated,
                time_control=body.clock,
                invitees=invitees,
            )
        except game_services.GameActionError as error:
            raise _refused(error) from None
        return 200, {"id": game.pk, "game": _game_out(game, user)}

    return _idempotent(request, act)


def _answer(request: HttpRequest, game_id: int, action: Callable[[User], Game]) -> Any:
    user = need(request, "challenge:write")

    def act() -> tuple[int, dict[str, Any]]:
        game = _my_game(game_id, user)
        try:
            action(user)
        except game_services.GameActionError as error:
            raise _refused(error) from None
        return 200, {"id": game.pk, "game": _game_out(game, user)}

    return _idempotent(request, act)


CHALLENGE_ANSWERS = {200: ChallengeOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut}


@challenges.post("/{int:game_id}/accept", response=CHALLENGE_ANSWERS)
def challenge_accept(request: HttpRequest, game_id: int) -> Any:
    return _answer(
        request,
        game_id,
        lambda user: game_services.game_invitation_respond(
            game_id=game_id, user=user, accept=True
        ),
    )


@challenges.post("/{int:game_id}/decline", response=CHALLENGE_ANSWERS)
def challenge_decline(request: HttpRequest, game_id: int) -> Any:
    return _answer(
        request,
        game_id,
        lambda user: game_services.game_invitation_respond(
            game_id=game_id, user=user, accept=False
        ),
    )


@challenges.post("/{int:game_id}/cancel", response=CHALLENGE_ANSWERS)
def challenge_cancel(request: HttpRequest, game_id: int) -> Any:
    return _answer(
        request,
        game_id,
        lambda user: game_services.game_cancel(game_id=game_id, user=user),
    )


# ------------------------------------------------------------ events

EVENTS_PAGE = 100


@events.get("", response=EventsOut)
def events_page(request: HttpRequest, after: int = 0) -> dict[str, Any]:
    """This account's events after ``after`` (a cursor: the last event's id
    read), oldest first, at most 100; ``cursor`` is the one to ask next."""
    user = need(request, "game:read")
    if after < 0:
        raise HttpError(422, "after: a cursor is 0 or more")
    rows = list(
        ApiEvent.objects.filter(user=user, pk__gt=after).order_by("pk")[:EVENTS_PAGE]
    )
    return {
        "events": [{"id": e.pk, "type": e.kind, "data": e.data} for e in rows],
        "cursor": rows[-1].pk if rows else after,
    }


api.add_router("/account", account)
api.add_router("/games", games)
api.add_router("/users", users)
api.add_router("/challenges", challenges)
api.add_router("/events", events)
