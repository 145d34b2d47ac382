"""Bot accounts (issue #39 item 4): run by a person, no browser log-in, the
BOT mark and its owner on the profile and beside its name, its games with a
person unrated, never on the people's leaderboard nor in a league; it plays
through the API with a token its owner makes."""

from __future__ import annotations

import pytest

from accounts.services import BotError, bot_create
from api import services as api_services
from games import services as game_services
from leagues import services as league_services
from leagues.models import League


@pytest.fixture
def bot(make_user):
    return bot_create(owner=make_user("ana"), username="tile-bot")


def test_a_bot_is_run_by_a_person_and_cannot_log_in(bot, client, make_user):
    assert bot.is_bot and bot.bot_owner.username == "ana"
    assert not bot.has_usable_password() and bot.email == ""
    answer = client.post(
        "/accounts/login/", {"username": "tile-bot", "password": "anything"}
    )
    assert "_auth_user_id" not in client.session
    assert answer.status_code == 200  # the log-in form again, refused
    profile = client.get("/accounts/players/tile-bot/").content.decode()
    assert 'data-bot-owner="ana"' in profile and ">BOT</abbr>" in profile
    assert "A program plays as this account, run by" in profile
    # the rules of a bot's name and number
    with pytest.raises(BotError, match="taken"):
        bot_create(owner=make_user("binh"), username="Tile-Bot")
    with pytest.raises(BotError, match="Only a person"):
        bot_create(owner=bot, username="bot-of-a-bot")
    with pytest.raises(BotError, match="letters, digits"):
        bot_create(owner=bot.bot_owner, username="a b")


def test_a_bot_and_a_person_play_unrated_and_bots_enter_no_league(
    bot, make_user, client
):
    binh = make_user("binh")
    game = game_services.game_create(
        creator=binh, variant="classic", players=2, rated=True, invitees=[bot]
    )
    # the bot's owner's token for it accepts through the API
    _row, token = api_services.token_create(
        user=bot, name="bot", scopes=["challenge:write", "game:read", "game:play"]
    )
    answer = client.post(
        f"/api/challenges/{game.pk}/accept", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert answer.status_code == 200
    game.refresh_from_db()
    assert game.active and game.rated is False
    league = League.objects.create(
        slug="b", variant="classic", players=2, season_weeks=8
    )
    season = league_services.season_create(league=league, starts_at=game.started_at)
    assert "bots do not enter leagues" in league_services.entry_problem(
        user=bot, season=season
    )


def test_a_bot_is_on_no_leaderboard_of_people(bot, make_user):
    from games import clock, selectors
    from games.models import PlayerStats

    person = make_user("carla")
    for user in (bot, person):
        PlayerStats.objects.create(
            user=user,
            family="classic",
            mu=30,
            sigma=5,
            ordinal=15,
            rated_games=20,
            last_rated_at=clock.now(),
        )
    people = [s.user.username for s in selectors.leaderboard(family="classic")]
    computers = selectors.leaderboard(family="classic", computers=True)
    assert people == ["carla"]
    assert [s.user.username for s in computers] == []
