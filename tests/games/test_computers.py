"""Computer players on the site (issue #16): accounts, seats, the move task.

The task function (``games.tasks.computer_move``) is called here in-process; the
worker processes are ``tests/scale/test_computer_worker.py``'s.
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

import games.clock
from accounts.forms import SignUpForm
from accounts.models import COMPUTER_USERNAMES, User
from accounts.services import computer_player
from games import jobs, selectors, services, tasks
from games.engine import bots, record
from games.models import Game, Move, PlayerStats
from games.ratings.ratings import PROVISIONAL_GAMES

from .helpers import decide_every_move, move_event

pytestmark = pytest.mark.django_db

COMPUTER_MOVE = "games.tasks.computer_move"
"""The computer's move task (the notifications queue tasks of their own)."""

NAMED = re.compile(r"<bdi>Computer \((easy|medium|strong)\)</bdi>")
"""A computer's name, which says it is the computer: no badge after it repeats
that (issue #35 item 7)."""
BADGE = re.compile(r'<abbr class="bot"')


@pytest.fixture(autouse=True)
def _quick_strong(settings):
    """A small node budget for the strong level: these tests check the site."""
    settings.COMPUTER_STRONG_SECONDS = 0.02


def _people_move(game: Game, rng: random.Random) -> Game:
    """While a person is to move, play their decision (the easy level's, as a
    stand-in for a person) through the move service."""
    while True:
        game = selectors.game_get(game_id=game.pk)
        if game.status != Game.Status.ACTIVE:
            return game
        seat = game.seats.all()[game.seat_to_move]
        if seat.user.is_computer:
            return game
        engine = selectors.game_engine(game)
        choice = bots.choose(engine, "easy", seed=rng.randrange(1000))
        services.game_play_move(
            game_id=game.pk,
            user=seat.user,
            move=move_event(choice),
            expected_ply=game.ply,
        )


def _play_out(game: Game, rng: random.Random) -> Game:
    """People and computers move in turn until the game ends (the computers'
    moves by calling the task, as a worker would)."""
    for _ in range(2000):
        game = _people_move(game, rng)
        if game.status != Game.Status.ACTIVE:
            return game
        assert tasks.computer_move.call(game.pk, game.ply) == "played"
    raise AssertionError("the game did not end")


def _game_against(user: User, level: str, **kwargs) -> Game:
    return services.game_create(
        creator=user,
        variant=kwargs.pop("variant", "classic"),
        players=2,
        rated=kwargs.pop("rated", False),
        computers={1: level},
    )


# ---------------------------------------------------------------- accounts


def test_the_site_offers_the_engines_levels_and_names_each():
    """The levels' home is the engine's ``bots.LEVELS``; accounts, which
    imports no other app, spells them for its field and the computers' names."""
    assert User.ComputerLevel.values == list(bots.LEVELS)
    assert list(COMPUTER_USERNAMES) == list(bots.LEVELS)


def test_one_account_per_level_that_nobody_can_log_in_to():
    easy = computer_player(level="easy")
    assert computer_player(level="easy") == easy
    strong = computer_player(level="strong")
    assert (easy.username, strong.username) == ("Computer (easy)", "Computer (strong)")
    assert easy.is_computer and not easy.has_usable_password() and easy.email == ""
    with pytest.raises(ValueError):
        computer_player(level="godlike")


def test_a_person_cannot_sign_up_as_a_computer():
    computer_player(level="medium")
    for name in ("Computer (medium)", "computer (medium)", "Computer_(medium)"):
        form = SignUpForm(
            data={
                "username": name,
                "email": "x@example.com",
                "password1": "correct-horse-42",
                "password2": "correct-horse-42",
            }
        )
        assert not form.is_valid()
        assert "username" in form.errors


# -------------------------------------------------------------- the task


def test_a_game_against_a_computer_starts_at_once_and_queues_its_turns(
    make_user, django_capture_on_commit_callbacks
):
    ana = make_user("ana")
    decide_every_move([ana])
    with django_capture_on_commit_callbacks(execute=True):
        game = _game_against(ana, "strong")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    strong = computer_player(level="strong")
    if game.seat_to_move == 1:  # the computer begins: its task is queued
        assert game.turn_deadline is None and game.computer_turn_since is not None
        queued = DBTaskResult.objects.get(task_path=COMPUTER_MOVE)
        assert queued.args_kwargs["args"] == [game.pk, game.ply]
        assert tasks.computer_move.call(game.pk, game.ply) == "played"
        game.refresh_from_db()
    assert game.seat_to_move == 0 and game.turn_deadline is not None
    DBTaskResult.objects.all().delete()

    engine = selectors.game_engine(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_play_move(
            game_id=game.pk,
            user=ana,
            move=move_event(engine.legal_moves()[0]),
            expected_ply=game.ply,
        )
    game.refresh_from_db()
    assert game.seat_to_move == 1
    assert game.turn_deadline is None  # a computer never times out
    queued = DBTaskResult.objects.get(task_path=COMPUTER_MOVE)
    assert queued.args_kwargs["args"] == [game.pk, game.ply]

    ply = game.ply
    assert tasks.computer_move.call(game.pk, ply) == "played"
    move = Move.objects.get(game=game, ply=ply)
    assert move.user == strong and not move.auto and not move.forced
    assert move.event["seat"] == 1
    # A duplicate or retried task for the same ply does nothing.
    assert tasks.computer_move.call(game.pk, ply) == "stale"
    game.refresh_from_db()
    assert Move.objects.filter(game=game, user=strong).count() == len(
        [e for e in selectors.game_engine(game).events() if e.get("seat") == 1]
    )


def test_the_task_decides_as_the_engine_bot_on_the_same_position(make_user):
    ana = make_user("ana")
    game = _people_move(_game_against(ana, "medium"), random.Random(1))
    engine = selectors.game_engine(game)
    expected = bots.choose(engine, "medium", seed=tasks._seed(game.pk, game.ply))
    tasks.computer_move.call(game.pk, game.ply)
    assert Move.objects.get(game=game, ply=game.ply).event == expected.to_event()


def test_the_task_refuses_a_persons_turn_and_a_finished_game(make_user, start_game):
    ana, binh = make_user("ana"), make_user("binh")
    game = start_game([ana, binh])
    assert tasks.computer_move.call(game.pk, game.ply) == "not a computer's turn"
    assert tasks.computer_move.call(10**9, 0) == "stale"
    assert Move.objects.filter(game=game).count() == game.ply


@pytest.mark.parametrize("variant", ["classic", "pavilion-grey"])
def test_three_computers_and_a_person_play_a_four_player_game_to_its_end(
    make_user, client_for, variant
):
    ana = make_user("ana")
    decide_every_move([ana])
    game = services.game_create(
        creator=ana,
        variant=variant,
        players=4,
        rated=True,
        computers={1: "easy", 2: "medium", 3: "strong"},
    )
    game = _play_out(game, random.Random(4))
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.NORMAL

    seats = list(game.seats.select_related("user"))
    events = selectors.game_engine(game).events()
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    assert [m.event for m in moves] == events  # every decision is a Move row
    for seat in seats[1:]:
        theirs = [m for m in moves if m.event.get("seat") == seat.number]
        assert theirs and all(m.user_id == seat.user_id for m in theirs)
        assert not any(m.auto or m.forced for m in theirs)

    # The record replays to the same result; the replay's last step shows it.
    client = client_for(ana)
    data = client.get(reverse("games:record", args=[game.pk])).content
    loaded = record.load(data)
    assert loaded.game.events() == events
    assert list(loaded.names) == [seat.name for seat in seats]
    assert list(loaded.game.outcome().scores) == [seat.score for seat in seats]
    replay = client.get(reverse("games:replay", args=[game.pk]), {"ply": len(events)})
    assert replay.status_code == 200
    assert set(NAMED.findall(replay.content.decode())) == {"easy", "medium", "strong"}
    assert not BADGE.search(replay.content.decode())

    # The log names the level that played; the final table marks the computers.
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Computer (strong)" in page.split('id="h-log"')[1]
    results = page.split('class="results final-results"')[1].split("</table>")[0]
    for seat in seats[1:]:
        row = results.split(f'data-seat="{seat.number}"')[1].split("</tr>")[0]
        assert seat.name in row
        assert NAMED.search(row).group(1) == seat.user.computer_level
        assert not BADGE.search(row) and "BOT" not in row
    row = results.split('data-seat="0"')[1].split("</tr>")[0]
    assert "BOT" not in row

    # Every computer has its totals and a rating, like anyone.
    for seat in seats:
        stats = PlayerStats.objects.get(user=seat.user, family=game.family)
        assert stats.rated_games == 1 and stats.games == 1


def test_a_player_who_resigns_is_played_by_the_easy_level(players, start_game):
    game = start_game(players[:3])
    rng = random.Random(2)
    leaver = game.seats.all()[(game.seat_to_move + 1) % 3]
    services.game_resign(game_id=game.pk, user=leaver.user)
    for _ in range(6):  # the others move; the site plays the leaver's turns
        game = selectors.game_get(game_id=game.pk)
        engine = selectors.game_engine(game)
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(rng.choice(engine.legal_moves())),
            expected_ply=game.ply,
        )
    auto = list(Move.objects.filter(game=game, auto=True).order_by("ply"))
    assert auto and all(m.event["seat"] == leaver.number for m in auto)
    # Each is the easy level's choice on the position before it.
    replayed = record.new_game(game.variant, game.players, game.first_seat)
    for move in Move.objects.filter(game=game).order_by("ply"):
        if move.auto:
            legal = [m.to_event() for m in replayed.legal_moves()]
            assert move.event in legal
        replayed.apply_event(move.event)


def test_a_game_ends_when_its_last_person_resigns(make_user):
    ana = make_user("ana")
    game = services.game_create(
        creator=ana,
        variant="classic",
        players=3,
        rated=True,
        computers={1: "easy", 2: "strong"},
    )
    services.game_resign(game_id=game.pk, user=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.RESIGNED
    assert game.computer_turn_since is None
    ranks = {s.number: s.rank for s in game.seats.all()}
    assert ranks[0] == 3 and sorted(ranks.values()) in ([1, 2, 3], [1, 1, 3])


# ----------------------------------------------- clocks, e-mails, retries


def test_a_computer_never_times_out_gets_no_mail_and_a_late_turn_is_queued_again(
    make_user, monkeypatch, settings, django_capture_on_commit_callbacks
):
    ana = make_user("ana")
    decide_every_move([ana])
    game = _people_move(_game_against(ana, "easy"), random.Random(3))
    assert game.seat_to_move == 1 and game.turn_deadline is None
    ply = game.ply
    settings.COMPUTER_RETRY_SECONDS = 60

    # Nothing to retry yet; a year later no timeout, no reminder, no e-mail.
    assert jobs.process_deadlines().computer_turns == 0
    later = games.clock.now() + timedelta(days=365)
    monkeypatch.setattr(games.clock, "now", lambda: later)
    before = DBTaskResult.objects.filter(task_path=COMPUTER_MOVE).count()
    report = jobs.process_deadlines()
    assert (report.timeouts, report.reminders, report.turn_emails) == (0, 0, 0)
    assert mail.outbox == []
    # The task was lost (or its worker died): the job queued the turn again, once.
    assert report.computer_turns == 1
    computer_moves = DBTaskResult.objects.filter(task_path=COMPUTER_MOVE)
    assert computer_moves.count() == before + 1
    assert computer_moves.latest("enqueued_at").args_kwargs["args"] == [
        game.pk,
        ply,
    ]
    assert jobs.process_deadlines().computer_turns == 0  # claimed: not again now
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.ply == ply

    assert tasks.computer_move.call(game.pk, ply) == "played"
    game.refresh_from_db()
    assert game.computer_turn_since is None or game.seat_to_move == 1
    assert not selectors.game_list_awaiting_move(user=computer_player(level="easy"))


# ------------------------------------------------------------------ pages


def test_the_lobby_seats_a_computer_and_refuses_a_level_twice(make_user, client_for):
    ana = make_user("ana")
    client = client_for(ana)
    page = client.get(reverse("games:new")).content.decode()
    assert ">Computer (strong)</option>" in page
    answer = client.post(
        reverse("games:new"),
        {
            "variant": "pavilion",
            "players": "3",
            "time_control": "daily",
            "seat_1": "strong",
            "seat_2": "strong",
        },
    )
    assert answer.status_code == 200
    assert "Each computer level can take only one seat" in answer.content.decode()
    assert not Game.objects.exists()

    answer = client.post(
        reverse("games:new"),
        {
            "variant": "pavilion",
            "players": "3",
            "time_control": "daily",
            "seat_2": "easy",
        },
    )
    game = Game.objects.get()
    assert answer.status_code == 302
    assert game.status == Game.Status.OPEN  # seat 1 is open to anyone
    seats = list(game.seats.select_related("user"))
    assert seats[1].user is None and seats[2].user == computer_player(level="easy")
    home = client.get(reverse("games:home")).content.decode()
    assert NAMED.search(home).group(1) == "easy" and not BADGE.search(home)


def test_play_the_computer_now_starts_a_game_and_opens_its_board(make_user, client_for):
    ana = make_user("ana")
    client = client_for(ana)
    home = client.get(reverse("games:home")).content.decode()
    assert reverse("games:play_computer") in home
    answer = client.post(
        reverse("games:play_computer"),
        {"level": "medium", "variant": "classic-grey", "rated": "on"},
    )
    game = Game.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == reverse("games:detail", args=[game.pk])
    assert game.status == Game.Status.ACTIVE and game.rated
    assert (game.variant, game.players) == ("classic-grey", 2)
    assert [s.user for s in game.seats.all()] == [ana, computer_player(level="medium")]
    board = client.get(answer["Location"]).content.decode()
    assert 'id="board"' in board and NAMED.search(board).group(1) == "medium"
    # A bad form changes nothing.
    client.post(reverse("games:play_computer"), {"level": "godlike"})
    assert Game.objects.count() == 1


def test_the_profile_of_a_computer_shows_its_mark_and_games(make_user, client):
    ana = make_user("ana")
    _game_against(ana, "strong")
    strong = computer_player(level="strong")
    page = client.get(reverse("profile", args=[strong.username]))
    assert page.status_code == 200
    heading = page.content.decode().split("<h1>")[1].split("</h1>")[0]
    assert "Computer (strong)" in heading
    assert NAMED.search(heading).group(1) == "strong" and not BADGE.search(heading)


def test_rated_games_against_computers_rate_both_and_people_lead_the_board(
    make_user, client
):
    ana = make_user("ana")
    decide_every_move([ana])
    game = _play_out(_game_against(ana, "easy", rated=True), random.Random(5))
    easy = computer_player(level="easy")
    for user in (ana, easy):
        stats = PlayerStats.objects.get(user=user, family="classic")
        assert stats.rated_games == 1 and stats.last_rated_at is not None
    by_rank = {s.rank: s.user_id for s in game.seats.all()}
    if len(by_rank) == 2:  # not a shared first place
        winner = PlayerStats.objects.get(user_id=by_rank[1], family="classic")
        loser = PlayerStats.objects.get(user_id=by_rank[2], family="classic")
        assert winner.mu > loser.mu

    # Make both eligible (enough rated games) and read the two lists.
    PlayerStats.objects.filter(family="classic").update(rated_games=PROVISIONAL_GAMES)
    url = reverse("games:leaderboard", args=["classic"])
    people = client.get(url).content.decode().split("<tbody>")[1]
    computers = client.get(url, {"computers": "1"}).content.decode()
    computers = computers.split("<tbody>")[1]
    assert "ana" in people and "Computer (easy)" not in people and "BOT" not in people
    assert "Computer (easy)" in computers and "ana" not in computers
    assert NAMED.search(computers).group(1) == "easy" and not BADGE.search(computers)
    assert list(selectors.leaderboard(family="classic")) == [
        PlayerStats.objects.get(user=ana, family="classic")
    ]


def test_the_site_reads_computer_records_like_any_other(make_user, client):
    ana = make_user("ana")
    decide_every_move([ana])
    game = _play_out(_game_against(ana, "medium"), random.Random(6))
    data = json.loads(client.get(reverse("games:record", args=[game.pk])).content)
    assert "Computer (medium)" in json.dumps(data, ensure_ascii=False)
    archive = client.get(reverse("games:archive")).content.decode()
    assert NAMED.search(archive).group(1) == "medium" and not BADGE.search(archive)


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_the_board_and_the_replay_mark_the_computer_beside_its_name(
    make_user, client_for, variant
):
    ana = make_user("ana")
    game = _game_against(ana, "medium", variant=variant)
    computer = computer_player(level="medium")
    pages = [
        client_for(ana).get(reverse("games:detail", args=[game.pk])).text,
        client_for(ana).get(reverse("games:replay", args=[game.pk])).text,
    ]
    for page in pages:
        headings = re.findall(r"<h3[^>]*>(.*?)</h3>", page, re.S)
        marked = [h for h in headings if NAMED.search(h)]
        # the computer's board heading, and only it, is named as the computer,
        # once: no badge after the name says it again
        assert len(marked) == 1 and not BADGE.search(marked[0])
        assert f"<bdi>{computer.username}</bdi>" in marked[0]


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "Computer (easy)"),
        ("vi", "Máy (dễ)"),
        ("pt-br", "Computador (fácil)"),
        ("ko", "컴퓨터 (쉬움)"),
    ],
)
def test_a_computer_is_marked_once_by_its_name(language: str, shown: str):
    """Issue #35 item 7: the computer's name says it is the computer, so no
    badge repeats it ("Máy (dễ) MÁY"); a person gets no badge either."""
    from django.template import engines
    from django.utils import translation

    easy = computer_player(level="easy")
    person = User.objects.create_user("ana", password="correct-horse-42")
    template = engines["django"].from_string(
        "{% load players %}<bdi>{{ user.shown_name }}</bdi>{{ user|computer_badge }}"
    )
    with translation.override(language):
        assert template.render({"user": easy}) == f"<bdi>{shown}</bdi>"
        assert template.render({"user": person}) == "<bdi>ana</bdi>"
