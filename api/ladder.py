"""The bot ladder (issue #39 item 5, docs/api.md "The bot ladder"): a rated
pool for bots only, its own table. The deadline job's pass pairs the bots
that are online (a token with ``bot:play`` used in the last ``ONLINE``: a
stream open touches it every minute) with the nearest-rated, at 2 or 4 a
table, on the Brisk preset; the site's computer levels take part as house
bots (played by the task worker), so every bot's rating is anchored to them.
A ladder game is unrated on the site; the ladder rates it when it ends.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from accounts.services import computer_player
from api import services
from api.models import ApiToken, LadderGame, LadderRating
from games import clock
from games import services as game_services
from games.engine import bots
from games.engine.variants import FAMILIES
from games.models import Game, Seat, variant_family
from games.ratings.ratings import model, rate

ONLINE = timedelta(minutes=10)
PER_DAY = 100
"""Ladder games a bot starts at most in a day (a house bot: no cap)."""
AT_ONCE = 2
"""Ladder games a bot plays at once, at most."""
VARIANTS = {family.name: family.variant(grey=False).name for family in FAMILIES}
"""The variant a ladder game of each family is played in (the coloured side)."""
CLOCK = clock.BRISK.name


def online_bots() -> list[User]:
    """Bots with a live ``bot:play`` token used in the last ``ONLINE``."""
    since = clock.now() - ONLINE
    tokens = (
        ApiToken.objects.filter(
            user__bot_owner__isnull=False,
            user__is_active=True,
            revoked_at__isnull=True,
            last_used_at__gte=since,
        )
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=clock.now()))
        .values_list("user_id", "scopes")
    )
    ids = {user_id for user_id, scopes in tokens if "bot:play" in scopes}
    return list(User.objects.filter(pk__in=ids).order_by("pk"))


def rating_of(user: User, family: str) -> LadderRating:
    found = LadderRating.objects.filter(user=user, family=family).first()
    if found is not None:
        return found
    start = model()
    return LadderRating(
        user=user, family=family, mu=start.mu, sigma=start.sigma, updated_at=clock.now()
    )


def _free(user: User) -> bool:
    """A bot may be paired now: under its games at once and of the day."""
    playing = LadderGame.objects.filter(
        game__status=Game.Status.ACTIVE, game__seats__user=user
    ).count()
    today = LadderGame.objects.filter(
        created_at__gte=clock.now() - timedelta(days=1), game__seats__user=user
    ).count()
    return playing < AT_ONCE and today < PER_DAY


@dataclass
class Pairing:
    family: str
    tables: list[list[User]]


def pair(bots_online: Sequence[User], family: str, *, seed: int) -> Pairing:
    """Tables of the free bots of ``family``, neighbours in rating: fours
    while at least four are left on a pass of even ``seed`` (and the house
    bots fill a table of four), else twos; a bot left alone meets the house
    bot nearest its rating."""
    free = [b for b in bots_online if _free(b)]
    rated = sorted(free, key=lambda b: -rating_of(b, family).mu)
    house = [computer_player(level=level) for level in bots.LEVELS]
    tables: list[list[User]] = []
    size = 4 if seed % 2 == 0 and len(rated) >= 4 else 2
    while len(rated) >= size:
        tables.append(rated[:size])
        rated = rated[size:]
    while len(rated) >= 2:
        tables.append(rated[:2])
        rated = rated[2:]
    for lonely in rated:
        mu = rating_of(lonely, family).mu
        nearest = min(house, key=lambda h: abs(rating_of(h, family).mu - mu))
        tables.append([lonely, nearest])
    return Pairing(family=family, tables=tables)


def ladder_pass(*, seed: int | None = None) -> int:
    """Pair the online bots and start their games; how many games began."""
    seed = int(clock.now().timestamp() // 600) if seed is None else seed
    online = online_bots()
    if not online:
        return 0
    rng = random.Random(seed)
    started = 0
    for family in VARIANTS:
        for table in pair(online, family, seed=seed).tables:
            rng.shuffle(table)
            with transaction.atomic():
                game = game_services.game_start_seated(
                    variant=VARIANTS[family],
                    users=table,
                    first_seat=rng.randrange(len(table)),
                    time_control=CLOCK,
                    rated=False,
                    vacation_spends=False,
                    quiet=False,
                )
                LadderGame.objects.create(game=game, created_at=clock.now())
                people = [u.pk for u in table if not u.is_computer]
                transaction.on_commit(functools.partial(_told, people, game.pk))
            started += 1
        online = [b for b in online if _free(b)]
    return started


def _told(user_ids: list[int], game_id: int) -> None:
    services.event_add(user_ids=user_ids, kind="gameStart", data={"game": game_id})


def game_ended(*, game_id: int) -> bool:
    """Rate a ladder game that ended (once); whether it was one."""
    with transaction.atomic():
        ladder = (
            LadderGame.objects.select_for_update()
            .filter(game_id=game_id, counted=False, game__status=Game.Status.FINISHED)
            .select_related("game")
            .first()
        )
        if ladder is None:
            return False
        game = ladder.game
        family = variant_family(game.variant)
        seats = list(
            Seat.objects.filter(game=game).select_related("user").order_by("number")
        )
        ratings = [rating_of(seat.user, family) for seat in seats if seat.user]
        new = rate([(r.mu, r.sigma) for r in ratings], [s.rank or 1 for s in seats])
        now = clock.now()
        for rating, seat, (mu, sigma) in zip(ratings, seats, new, strict=True):
            rating.mu, rating.sigma = mu, sigma
            rating.games += 1
            rating.wins += seat.rank == 1
            rating.updated_at = now
            rating.save()
        ladder.counted = True
        ladder.save(update_fields=["counted"])
    return True


def table(*, family: str) -> list[LadderRating]:
    """The ladder's table of ``family``: best first, with the bots' owners."""
    return list(
        LadderRating.objects.filter(family=family, games__gt=0)
        .select_related("user__bot_owner")
        .order_by("-mu", "pk")[:200]
    )
