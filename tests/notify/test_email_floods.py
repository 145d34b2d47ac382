"""No e-mail floods (issue #23): invitations are limited per inviter and per
invitee, and "your move" waits while the player is at the board (page open, or
a move of theirs a moment ago), and does not come in games against the computer
unless the player asked for it. Each test reads the mail outbox."""

from __future__ import annotations

import html
import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection, connections

from accounts.models import GamePage, User
from games import clock, jobs, selectors, services
from games.models import Game, Move, Seat
from games.tasks import run_ready_tasks
from notify.tasks import invited, turn_started
from tests.accounts.settings_form import settings_post
from tests.games.helpers import move_event


def _invitation_mails(user: User) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.to == [user.email] and "invited" in m.subject]


def _turn_mails(user: User) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.to == [user.email] and "Your move" in m.subject]


def _invite(client, *names: str, players: int = 2):
    return client.post(
        "/games/new/",
        {
            "variant": "classic",
            "players": players,
            "time_control": "daily",
            "invite": " ".join(names),
        },
    )


def _page_text(response) -> str:
    return html.unescape(response.content.decode())


# ------------------------------------------------------------ invitations


@pytest.mark.django_db(transaction=True)
def test_forty_invitations_from_one_player_in_a_burst_send_one_email(
    make_user, client_for
):
    spammer, victim = make_user("spammer"), make_user("victim")
    client = client_for(spammer)
    responses = [_invite(client, "victim") for _ in range(40)]
    run_ready_tasks()

    assert responses[0].status_code == 302
    refused = [r for r in responses[1:] if r.status_code == 200]
    assert len(refused) == 39
    assert "You already invited victim, who has not answered yet" in (
        _page_text(refused[0])
    )
    assert Seat.objects.filter(user=victim, invite_status="invited").count() == 1
    assert len(_invitation_mails(victim)) == 1


@pytest.mark.django_db(transaction=True)
def test_forty_inviters_at_once_reach_one_player_five_times_an_hour(
    make_user, client_for, settings
):
    """Beyond the invitee's cap the invitations stand (in their list), untold."""
    victim = make_user("victim")
    for number in range(40):
        response = _invite(client_for(make_user(f"player{number}")), "victim")
        assert response.status_code == 302
    run_ready_tasks()

    assert len(_invitation_mails(victim)) == 5
    assert len(selectors.game_list_invitations(user=victim)) == 40
    assert settings.INVITATION_NOTICES_PER_HOUR == 5  # the default


@pytest.mark.django_db(transaction=True)
def test_forty_invitations_at_the_same_moment_make_one(make_user):
    """Requests in parallel are counted one after the other (the creator's row
    is locked while the game is made)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers; row locks are PostgreSQL's guard")
    spammer, victim = make_user("spammer"), make_user("victim")
    workers = 8
    barrier = threading.Barrier(workers)
    refused: list[str] = []

    def invite() -> None:
        try:
            barrier.wait()
            for _ in range(5):
                try:
                    services.game_create(
                        creator=spammer,
                        variant="classic",
                        players=2,
                        rated=False,
                        invitees=[victim],
                    )
                except services.GameActionError as error:
                    refused.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=invite) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Seat.objects.filter(user=victim, invite_status="invited").count() == 1
    assert refused == ["invite_pending"] * 39


@pytest.mark.django_db
def test_the_cap_counts_the_last_hour_only(make_user, monkeypatch, settings):
    settings.INVITATION_NOTICES_PER_HOUR = 1
    victim = make_user("victim")
    start = clock.now()

    def invite_from(name: str) -> str:
        game = services.game_create(
            creator=make_user(name),
            variant="classic",
            players=2,
            rated=False,
            invitees=[victim],
        )
        return invited.call(game.pk, victim.pk)

    assert invite_from("first") == "e-mails 1, pushes 0"
    assert invite_from("second") == "e-mails 0, pushes 0"
    monkeypatch.setattr(clock, "now", lambda: start + timedelta(minutes=61))
    assert invite_from("third") == "e-mails 1, pushes 0"
    assert len(_invitation_mails(victim)) == 2


@pytest.mark.django_db
def test_one_player_sends_ten_invitations_an_hour(make_user, client_for):
    """INVITATIONS_PER_HOUR's default, 10."""
    inviter = make_user("inviter")
    for number in range(12):
        make_user(f"friend{number}")
    client = client_for(inviter)
    # Three 4-player games invite nine friends; one more is the tenth.
    for first in (0, 3, 6):
        names = [f"friend{n}" for n in range(first, first + 3)]
        assert _invite(client, *names, players=4).status_code == 302
    assert _invite(client, "friend9").status_code == 302

    response = _invite(client, "friend10")

    assert response.status_code == 200
    text = _page_text(response)
    assert "You can send 10 invitations an hour. Try again in 60 minutes." in text
    assert not Seat.objects.filter(user__username="friend10").exists()
    # A game without invitations is still open to create.
    assert _invite(client).status_code == 302


@pytest.mark.django_db
def test_a_cancelled_invitation_still_counts_for_the_hour(
    make_user, client_for, settings
):
    settings.INVITATIONS_PER_HOUR = 2
    inviter = make_user("inviter")
    friends = [make_user(f"friend{n}") for n in range(3)]
    client = client_for(inviter)
    for friend in friends[:2]:
        assert _invite(client, friend.username).status_code == 302
        game = Game.objects.filter(creator=inviter).latest("pk")
        services.game_cancel(game_id=game.pk, user=inviter)
    response = _invite(client, friends[2].username)
    assert "You can send 2 invitations an hour." in _page_text(response)


# ------------------------------------------------------------ "your move"


def _to_move(game: Game) -> User:
    game.refresh_from_db()
    return game.seats.get(number=game.seat_to_move).user


def _play(game: Game) -> Game:
    """The player to move plays their first legal decision."""
    game.refresh_from_db()
    services.game_play_move(
        game_id=game.pk,
        user=_to_move(game),
        move=move_event(selectors.game_engine(game).legal_moves()[0]),
        expected_ply=game.ply,
    )
    game.refresh_from_db()
    return game


def _turn_task(game: Game) -> str:
    """The worker runs the turn's task (queued after the move's commit)."""
    game.refresh_from_db()
    return turn_started.call(game.pk, game.ply)


@pytest.fixture
def later(monkeypatch):
    """``later(minutes=11)``: the site's clock that far past now."""
    start = clock.now()

    def move(**delta) -> None:
        monkeypatch.setattr(clock, "now", lambda: start + timedelta(**delta))

    return move


@pytest.mark.django_db
def test_no_turn_email_while_the_page_is_open_then_one_when_it_closed(
    players, start_game, later
):
    game = start_game(players[:2])
    mover = _to_move(game)
    GamePage.objects.create(
        user=mover, game_id=game.pk, channel_name="page-1", seen_at=clock.now()
    )

    assert _turn_task(game) == "e-mail waits, pushes 0"
    assert jobs.process_deadlines().turn_emails_waiting == 1
    assert _turn_mails(mover) == []

    GamePage.objects.all().delete()  # the page's socket closed
    later(minutes=1)
    assert jobs.process_deadlines().turn_emails == 1
    assert jobs.process_deadlines().turn_emails == 0
    assert len(_turn_mails(mover)) == 1


@pytest.mark.django_db
def test_no_turn_email_two_minutes_after_a_move_then_one_when_quiet(
    players, start_game, later
):
    """TURN_EMAIL_QUIET_MINUTES's default, 10."""
    game = start_game(players[:2])
    first = _to_move(game)
    game = _play(game)
    game = _play(game)  # the opponent answers: first's move again
    if _to_move(game) != first:
        pytest.skip("the round ended on this decision (a rare deal)")
    mail.outbox.clear()
    Move.objects.filter(game=game, user=first).update(
        created_at=clock.now() - timedelta(minutes=2)
    )

    assert _turn_task(game).startswith("e-mail waits")
    later(minutes=7)  # 9 minutes after the move
    jobs.process_deadlines()
    assert _turn_mails(first) == []

    later(minutes=9)  # 11 minutes after it, page closed, no move since
    assert jobs.process_deadlines().turn_emails == 1
    [message] = _turn_mails(first)
    assert f"Your move in Azul game {game.pk}" == message.subject
    assert jobs.process_deadlines().turn_emails == 0


@pytest.mark.django_db
def test_a_turn_whose_player_stayed_away_is_emailed_at_once(players, start_game):
    game = start_game(players[:2])
    mover = _to_move(game)
    assert _turn_task(game) == "e-mails 1, pushes 0"
    assert len(_turn_mails(mover)) == 1


@pytest.mark.django_db
def test_a_decision_the_site_played_for_them_does_not_hold_the_email(
    players, start_game
):
    """Forced and forfeited seats' moves carry the player's name but were not
    theirs: the e-mail goes."""
    game = start_game(players[:2])
    mover = _to_move(game)
    game = _play(game)
    Move.objects.filter(game=game, user=mover).update(forced=True)
    game = _play(game)
    if _to_move(game) != mover:
        pytest.skip("the round ended on this decision (a rare deal)")
    assert _turn_task(game).startswith("e-mails 1")


def _game_against_computer(user: User) -> Game:
    """A started 2-player game against the easy computer, the person to move
    (the computer's decisions played by calling its task, as a worker would)."""
    from games import tasks

    game = services.game_create(
        creator=user,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
    game.refresh_from_db()
    if game.seat_to_move == 1:
        assert tasks.computer_move.call(game.pk, game.ply) == "played"
        game.refresh_from_db()
    assert game.seat_to_move == 0
    return game


@pytest.mark.django_db
def test_no_turn_email_against_the_computer_unless_chosen(make_user, later):
    ana = make_user("ana")
    game = _game_against_computer(ana)
    assert _turn_task(game) == "e-mails 0, pushes 0"
    later(hours=1)
    assert jobs.process_deadlines().turn_emails == 0
    assert _turn_mails(ana) == []


@pytest.mark.django_db
def test_a_turn_email_against_the_computer_when_chosen(make_user, client_for):
    ana = make_user("ana")
    response = client_for(ana).post(
        "/accounts/settings/",
        settings_post(ana, email_notifications="each", email_computer_turns=True),
    )
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.email_computer_turns
    game = _game_against_computer(ana)
    assert _turn_task(game) == "e-mails 1, pushes 0"
    assert len(_turn_mails(ana)) == 1


@pytest.mark.django_db
def test_the_settings_page_offers_turn_emails_against_the_computer(
    make_user, client_for
):
    ana = make_user("ana")
    page = _page_text(client_for(ana).get("/accounts/settings/"))
    assert 'name="email_computer_turns"' in page
    assert "e-mail my move in games against the computer too" in page.lower()
    assert "in the first 10 minutes after a move of yours in that game" in page
    assert not User.objects.get(pk=ana.pk).email_computer_turns  # off by default
