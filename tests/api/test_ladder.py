"""The bot ladder (issue #39 item 5): a bot whose token was used lately is
online, the ladder's pass pairs it with the house bot nearest its rating on
the Brisk clock, the house bot's moves are played by the task worker, the
bot plays through the API, and when the game ends the ladder rates both (the
game itself is unrated) and its table lists them."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from accounts.services import bot_create
from api import ladder, services
from api.models import ApiToken, LadderGame, LadderRating
from games import clock, selectors, tasks
from games.models import Game


@pytest.fixture
def bot(make_user):
    bot = bot_create(owner=make_user("ana"), username="tile-bot")
    _row, token = services.token_create(
        user=bot, name="ladder", scopes=["bot:play", "game:read", "game:play"]
    )
    return bot, token


def _auth(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def test_a_bot_joins_the_ladder_and_plays_a_house_bot(bot, client):
    bot, token = bot
    # not online before its token is used
    assert ladder.online_bots() == []
    assert client.get("/api/account", **_auth(token)).json()["bot"] is True
    assert ladder.online_bots() == [bot]
    assert ladder.ladder_pass(seed=1) == 2  # a game of each family
    games = list(Game.objects.filter(ladder_game__isnull=False).order_by("pk"))
    assert {g.variant for g in games} == {"classic", "pavilion"}
    for game in games:
        assert game.clock == "brisk" and game.rated is False and game.players == 2
        users = [s.user for s in game.seats.all()]
        assert bot in users
        assert any(u.is_computer for u in users)  # the nearest house bot
    # at most two at once: the next pass pairs nobody
    assert ladder.ladder_pass(seed=2) == 0
    # the classic game played out: the house bot by its task, the bot by the API
    game = next(g for g in games if g.variant == "classic")
    rng = random.Random(4)
    for _ in range(300):
        game.refresh_from_db()
        if not game.active:
            break
        mover = selectors.game_user_to_move(game=game)
        if mover.is_computer:
            tasks.computer_move.call(game.pk, game.ply)
            continue
        state = client.get(f"/api/games/{game.pk}", **_auth(token)).json()
        answer = client.post(
            f"/api/games/{game.pk}/moves",
            data={"ply": state["ply"], "move": rng.choice(state["legal_moves"])},
            content_type="application/json",
            **_auth(token),
        )
        assert answer.status_code == 200
    assert game.status == Game.Status.FINISHED
    # the ladder rates it once (the receiver runs after commit: called here)
    assert ladder.game_ended(game_id=game.pk)
    assert not ladder.game_ended(game_id=game.pk)
    assert LadderGame.objects.get(game=game).counted
    rows = LadderRating.objects.filter(family="classic")
    assert sorted(r.games for r in rows) == [1, 1]
    winner = game.seats.get(rank=1).user
    assert rows.get(user=winner).wins == 1
    assert rows.get(user=winner).mu > rows.exclude(user=winner).get().mu
    # its table, best first
    page = client.get("/bots/ladder/classic/").content.decode()
    assert page.index(f'data-seat="{winner.username}"') < page.index('data-rank="2"')
    assert 'data-bot-owner="ana"' in page


def test_a_bot_whose_token_is_old_or_without_the_scope_is_not_online(bot, make_user):
    bot, token = bot
    ApiToken.objects.filter(user=bot).update(
        last_used_at=clock.now() - timedelta(minutes=11)
    )
    assert ladder.online_bots() == []
    other = bot_create(owner=make_user("binh"), username="reader-bot")
    row, _secret = services.token_create(user=other, name="r", scopes=["game:read"])
    ApiToken.objects.filter(pk=row.pk).update(last_used_at=clock.now())
    assert ladder.online_bots() == []


def test_four_online_bots_meet_at_one_table(make_user):
    owner = make_user("ana")
    for index in range(4):
        bot = bot_create(owner=owner, username=f"bot-{index}")
        row, _secret = services.token_create(user=bot, name="l", scopes=["bot:play"])
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=clock.now())
    pairing = ladder.pair(ladder.online_bots(), "classic", seed=2)
    assert [len(t) for t in pairing.tables] == [4]
    assert ladder.ladder_pass(seed=2) == 2
    assert {g.players for g in Game.objects.filter(ladder_game__isnull=False)} == {4}
