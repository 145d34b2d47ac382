"""A review queue no account can stall (issue #33 item 2, docs/review.md).

The outside test: four accounts imported 20 records and asked for their
reviews in 7 s; an ordinary player's finished game then waited more than 22
minutes for its review. Now the queue serves games played here before imports,
each account's reviews in turn with everyone else's (``games.history.review_queue``),
an account may ask for the reviews of ``REVIEW_IMPORTS_PER_DAY`` imports a day,
the Review tab says the review's place in the queue, and a review whose worker
died goes back to the queue after ``REVIEW_STALE_SECONDS``."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games import clock, services, tasks
from games.engine import record
from games.history import review_queue
from games.models import Game, GameReview

from .conftest import Clock

pytestmark = pytest.mark.django_db

REVIEW_GAME = "games.tasks.review_game"
_seeds = itertools.count(100)


def _import(user) -> Game:
    """A finished random record, imported by ``user`` (not asked for yet)."""
    engine = record.random_game("classic", 2, next(_seeds))
    data = record.dumps(record.export(engine, ["A", "B"]))
    return services.game_import(uploader=user, data=data).game


def _resigned_against_the_computer(user) -> Game:
    """What makes a played game's review cheapest to ask for: a game against
    the computer, resigned at once (its review is queued for ``user``)."""
    game = services.game_create(
        creator=user,
        variant="classic",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
    services.game_resign(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def _played(creator, other, start_game) -> Game:
    """A game of two people, resigned by the second: reviewed for its creator."""
    game = start_game([creator, other])
    services.game_resign(game_id=game.pk, user=other)
    return game


def _claims(fake_clock: Clock) -> list[int]:
    """Claim the queue's heads one after another as a worker would, a minute
    apart (a review's time); the games in the order they were claimed."""
    claimed = []
    while (head := review_queue.claim_next(clock.now())) is not None:
        claimed.append(head)
        fake_clock.advance(minutes=1)
    return claimed


def test_a_flooded_queue_serves_a_played_game_first_and_accounts_in_turn(
    make_user,
    players,
    start_game,
    fake_clock,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.REVIEW_IMPORTS_PER_DAY = 5
    ana, binh, chloe, dae = players
    flooders = [make_user(f"flooder{n}") for n in range(4)]
    asked: dict[str, list[int]] = {}
    with django_capture_on_commit_callbacks(execute=True):
        # Four accounts ask for five imports' reviews each, one after another.
        for flooder in flooders:
            for _ in range(settings.REVIEW_IMPORTS_PER_DAY):
                game = _import(flooder)
                services.game_review_queue(game=game, asked_by=flooder)
                asked.setdefault(flooder.username, []).append(game.pk)
                fake_clock.advance(seconds=1)
        # One account ends three games against the computer at once...
        mass = [_resigned_against_the_computer(ana).pk for _ in range(3)]
        fake_clock.advance(seconds=1)
        # ...then an ordinary player's game ends.
        ordinary = _played(chloe, dae, start_game).pk
    assert GameReview.objects.get(game_id=ordinary).requested_by == chloe
    assert GameReview.objects.filter(status=GameReview.Status.QUEUED).count() == 24
    # One task per review.
    assert DBTaskResult.objects.filter(task_path=REVIEW_GAME).count() == 24

    imports = [asked[f.username] for f in flooders]
    expected = [
        # the games played here, each account's first, then the rest of ana's
        mass[0],
        ordinary,
        mass[1],
        mass[2],
        # then the imports: every account's first, every account's second...
        *(game for round_ in zip(*imports, strict=True) for game in round_),
    ]
    assert review_queue.order() == expected
    assert review_queue.ahead_of(ordinary) == 1  # only ana's first before it

    # The workers take the played games and two imports; then one more account
    # asks for an import's review: only the two accounts not served yet go
    # before it (one review each), not the 14 imports still waiting.
    claimed = [review_queue.claim_next(clock.now()) for _ in range(6)]
    assert claimed == expected[:6]
    fake_clock.advance(minutes=1)
    late = make_user("late")
    with django_capture_on_commit_callbacks(execute=True):
        newcomer = _import(late)
        services.game_review_queue(game=newcomer, asked_by=late)
    assert review_queue.ahead_of(newcomer.pk) == 2
    rest = expected[6:]
    assert review_queue.order() == [*rest[:2], newcomer.pk, *rest[2:]]
    assert _claims(fake_clock) == [*rest[:2], newcomer.pk, *rest[2:]]
    assert not GameReview.objects.filter(status=GameReview.Status.QUEUED).exists()


def test_each_task_makes_the_review_at_the_head_and_a_task_run_twice_reviews_once(
    players, start_game, fake_clock, settings
):
    settings.REVIEW_SECONDS = 0.02
    ana, binh, chloe, dae = players
    imported = _import(ana)
    services.game_review_queue(game=imported, asked_by=ana)
    fake_clock.advance(seconds=1)
    played = _played(chloe, dae, start_game)
    # The import's task runs first, and makes the played game's review.
    assert tasks.review_game.call(imported.pk) == "reviewed"
    assert GameReview.objects.get(game=played).status == GameReview.Status.DONE
    assert GameReview.objects.get(game=imported).status == GameReview.Status.QUEUED
    assert tasks.review_game.call(played.pk) == "reviewed"
    assert GameReview.objects.get(game=imported).status == GameReview.Status.DONE
    assert tasks.review_game.call(played.pk) == "taken"  # nothing left: once


def test_the_imports_quota_refuses_with_a_message_and_queues_nothing(
    players, client_for, fake_clock, settings, django_capture_on_commit_callbacks
):
    settings.REVIEW_IMPORTS_PER_DAY = 3
    ana = players[0]
    client = client_for(ana)
    records = [_import(ana) for _ in range(5)]

    def ask(game: Game) -> str:
        url = reverse("games:review_ask", args=[game.pk])
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url, follow=True).content.decode()

    for game in records[:3]:
        assert "The review is on its way." in ask(game)
        fake_clock.advance(hours=1)
    fake_clock.advance(minutes=30)  # 3 h 30 min after the first ask
    page = ask(records[3])
    assert (
        "You can ask for the reviews of 3 imported records a day. "
        "You can ask for the next one in 21 hours."
    ) in page
    assert not GameReview.objects.filter(game=records[3]).exists()
    assert DBTaskResult.objects.filter(task_path=REVIEW_GAME).count() == 3
    # Asking again for a review already asked for is no new ask.
    assert "The review is on its way." in ask(records[0])
    assert GameReview.objects.count() == 3

    # Five minutes before the first ask is a day old; then a minute after.
    fake_clock.advance(hours=20, minutes=25)
    assert "You can ask for the next one in 5 minutes." in ask(records[3])
    fake_clock.advance(minutes=6)
    assert "The review is on its way." in ask(records[3])
    assert GameReview.objects.get(game=records[3]).kind == GameReview.Kind.IMPORTED

    # In the player's language.
    ana.language = "vi"
    ana.save(update_fields=["language"])
    client.cookies["django_language"] = "vi"
    page = ask(records[4])
    assert "Mỗi ngày bạn có thể yêu cầu phân tích 3 biên bản đã nhập." in page


def test_the_review_tab_says_the_place_in_the_queue(
    players, start_game, client_for, fake_clock, settings
):
    ana, binh, chloe, dae = players
    first = _played(ana, binh, start_game)
    fake_clock.advance(seconds=1)
    second = _played(chloe, dae, start_game)
    fake_clock.advance(seconds=1)
    third = _played(binh, ana, start_game)
    visitor = client_for(dae)

    def panel(game: Game, **query) -> str:
        url = reverse("games:replay", args=[game.pk])
        html = visitor.get(url, {"tab": "review", **query}).content.decode()
        return html.split('<div id="review-panel"', 1)[1].split("</section>", 1)[0]

    assert "It is next in the queue." in panel(first)
    assert "1 review is ahead of it in the queue." in panel(second)
    third_panel = panel(third)
    assert "2 reviews are ahead of it in the queue." in third_panel
    assert 'data-ahead="2"' in third_panel
    # A worker takes the first: the others move up.
    assert review_queue.claim_next(clock.now()) == first.pk
    assert "queue" not in panel(first)
    assert "1 review is ahead of it in the queue." in panel(third)
    # In Korean.
    visitor.cookies["django_language"] = "ko"
    assert "대기열에서 이 분석 앞에 1개가 있습니다." in panel(third)


def test_a_running_review_whose_worker_fell_silent_is_queued_again_at_its_place(
    players, start_game, fake_clock, settings
):
    settings.REVIEW_STALE_SECONDS = 180
    ana, binh, chloe, dae = players
    dead = _played(ana, binh, start_game)
    fake_clock.advance(seconds=1)
    waiting = _played(chloe, dae, start_game)
    # A worker claims the head, then is killed (no heartbeat after the claim).
    assert review_queue.claim_next(clock.now()) == dead.pk
    claimed = GameReview.objects.get(game=dead)
    assert claimed.status == GameReview.Status.RUNNING
    assert claimed.heartbeat_at == clock.now()

    fake_clock.advance(seconds=179)
    assert tasks.process_reviews() == 0  # silent, not for long enough yet
    fake_clock.advance(seconds=2)
    before = DBTaskResult.objects.filter(task_path=REVIEW_GAME).count()
    assert tasks.process_reviews() == 1
    again = GameReview.objects.get(game=dead)
    assert (again.status, again.heartbeat_at, again.done) == ("queued", None, 0)
    # One task more for it, and its place kept: at the head, as it was asked first.
    assert DBTaskResult.objects.filter(task_path=REVIEW_GAME).count() == before + 1
    assert review_queue.order() == [dead.pk, waiting.pk]
    assert tasks.process_reviews() == 0  # queued again once


def test_a_queued_review_still_waiting_after_an_hour_gets_one_more_task(
    players, start_game, fake_clock, settings
):
    game = _played(players[0], players[1], start_game)
    DBTaskResult.objects.all().delete()  # its task was lost
    fake_clock.advance(seconds=settings.REVIEW_RETRY_SECONDS - 1)
    assert tasks.process_reviews() == 0
    fake_clock.advance(seconds=2)
    assert tasks.process_reviews() == 1
    task = DBTaskResult.objects.get(task_path=REVIEW_GAME)
    assert task.args_kwargs["args"] == [game.pk]
    assert tasks.process_reviews() == 0


def test_a_slow_review_beats_its_heart_and_a_worker_taken_over_stops(
    players, start_game, fake_clock, monkeypatch, settings
):
    """Each event weighed writes the heartbeat once REVIEW_HEARTBEAT_SECONDS
    have passed (here every event, as each takes 12 s), so a slow review is
    never taken for dead; a worker whose review was queued again (its worker
    taken for dead) and claimed by another stops at its next heartbeat."""
    settings.REVIEW_HEARTBEAT_SECONDS = 10
    game = _played(players[0], players[1], start_game)
    beats = []
    base = clock.now()
    # the worker's own clock goes as the site's here
    monkeypatch.setattr(
        tasks, "monotonic", lambda: (clock.now() - base).total_seconds()
    )

    def slow_review(events, *, progress, **kwargs):
        for done in range(1, 4):
            fake_clock.advance(seconds=12)
            progress(done, 30)
            beats.append(GameReview.objects.get(game=game).heartbeat_at)
        # Silent for REVIEW_STALE_SECONDS (say, the machine froze): taken for
        # dead, queued again, and claimed by another worker.
        fake_clock.advance(seconds=settings.REVIEW_STALE_SECONDS)
        assert tasks.process_reviews() == 1
        assert review_queue.claim_next(clock.now()) == game.pk
        progress(4, 30)
        raise AssertionError("the heartbeat should have stopped it")

    monkeypatch.setattr(tasks.engine_review, "review", slow_review)
    assert tasks.review_game.call(game.pk) == "taken over"
    start = beats[0] - timedelta(seconds=12)
    assert beats == [start + timedelta(seconds=12 * n) for n in (1, 2, 3)]
    # The other worker's claim stands.
    assert GameReview.objects.get(game=game).status == GameReview.Status.RUNNING


# ------------------------------------------ the hour's cap (issue #40 item 4)


def _review_page(client, game: Game) -> str:
    """The Review tab's panel of ``game``'s replay, as ``client`` sees it."""
    url = reverse("games:replay", args=[game.pk])
    html = client.get(url, {"tab": "review"}).content.decode()
    return html.split('<div id="review-panel"', 1)[1].split("</section>", 1)[0]


def _openers() -> list[DBTaskResult]:
    """The review tasks queued for later: one per claim under the cap, for
    when that claim leaves the hour's window."""
    return list(
        DBTaskResult.objects.filter(
            task_path=REVIEW_GAME, run_after__isnull=False
        ).order_by("run_after")
    )


def _statuses(games: list[Game]) -> list[str]:
    by_game = dict(
        GameReview.objects.filter(game__in=games).values_list("game_id", "status")
    )
    return [by_game[game.pk] for game in games]


BUSY = "Reviews are busy; yours starts within the hour."


def _four_played(players, start_game, fake_clock) -> list[Game]:
    """Four games ended a second apart, each made by another account: the
    queue's order is theirs, oldest first."""
    ana, binh, chloe, dae = players
    games = []
    for creator, other in ((ana, binh), (binh, chloe), (chloe, dae), (dae, ana)):
        games.append(_played(creator, other, start_game))
        fake_clock.advance(seconds=1)
    return games


def test_the_hours_cap_starts_the_oldest_and_the_rest_wait_for_the_window(
    players, start_game, client_for, fake_clock, settings
):
    settings.REVIEW_PER_HOUR = 2
    settings.REVIEW_SECONDS = 0.02
    ana, binh, chloe, dae = players
    # Four games end a second apart, each of its own account: the queue's
    # order is theirs, oldest first.
    games = _four_played(players, start_game, fake_clock)
    assert review_queue.order() == [game.pk for game in games]
    queued = DBTaskResult.objects.filter(task_path=REVIEW_GAME).count()

    # Each game's task runs, a minute apart: two reviews start, the two
    # newest wait (their tasks return at once; none is queued again).
    said = []
    for game in games:
        said.append(tasks.review_game.call(game.pk))
        fake_clock.advance(minutes=1)
    assert said == ["reviewed", "reviewed", "the hour is full", "the hour is full"]
    assert _statuses(games) == ["done", "done", "queued", "queued"]
    assert review_queue.order() == [games[2].pk, games[3].pk]
    # One task for each review started, for when it leaves the hour's window.
    openers = _openers()
    started = GameReview.objects.filter(game__in=games[:2]).order_by("queued_at")
    assert [t.run_after for t in openers] == [
        r.queued_at + timedelta(hours=1) for r in started
    ]
    assert DBTaskResult.objects.filter(task_path=REVIEW_GAME).count() == queued + 2

    # What the players of the two waiting games see.
    third = _review_page(client_for(chloe), games[2])
    assert "The review of this game is waiting for its turn." in third
    assert "It is next in the queue." in third
    assert BUSY in third and 'data-busy-hours="1"' in third
    fourth = _review_page(client_for(dae), games[3])
    assert "1 review is ahead of it in the queue." in fourth
    assert BUSY in fourth
    assert "Reviews are busy" not in _review_page(client_for(ana), games[0])
    # In the player's language.
    pt = client_for(chloe)
    pt.cookies["django_language"] = "pt-br"
    assert "As análises estão ocupadas; a sua começa em até uma hora." in (
        _review_page(pt, games[2])
    )

    # A task run before the window allows starts nothing.
    assert tasks.review_game.call(games[3].pk) == "the hour is full"
    # An hour after the first review started, its task starts the oldest
    # review waiting; the newest still waits, next in the queue.
    fake_clock.now = openers[0].run_after
    assert tasks.review_game.call(*openers[0].args_kwargs["args"]) == "reviewed"
    assert _statuses(games) == ["done", "done", "done", "queued"]
    fourth = _review_page(client_for(dae), games[3])
    assert "It is next in the queue." in fourth and BUSY in fourth
    # Then the second's: the last one starts.
    fake_clock.now = openers[1].run_after
    assert tasks.review_game.call(*openers[1].args_kwargs["args"]) == "reviewed"
    assert _statuses(games) == ["done"] * 4
    assert "Reviews are busy" not in _review_page(client_for(dae), games[3])
    # The later tasks, at their hour, find nothing left.
    for opener in _openers()[2:]:
        fake_clock.now = opener.run_after
        assert tasks.review_game.call(*opener.args_kwargs["args"]) == "taken"


def test_beyond_an_hours_reviews_the_page_says_within_how_many_hours(
    players, start_game, client_for, fake_clock, settings
):
    settings.REVIEW_PER_HOUR = 1
    ana, binh, chloe, dae = players
    games = _four_played(players, start_game, fake_clock)
    assert review_queue.claim_next(clock.now()) == games[0].pk
    assert review_queue.claim_next(clock.now()) is None  # the hour is full
    assert _statuses(games) == ["running", "queued", "queued", "queued"]
    assert BUSY in _review_page(client_for(binh), games[1])
    third = _review_page(client_for(chloe), games[2])
    assert "Reviews are busy; yours starts within 2 hours." in third
    assert 'data-busy-hours="2"' in third
    korean = client_for(dae)
    korean.cookies["django_language"] = "ko"
    assert "분석이 밀려 있습니다. 3시간 안에 시작됩니다." in _review_page(
        korean, games[3]
    )
    vietnamese = client_for(binh)
    vietnamese.cookies["django_language"] = "vi"
    assert (
        "Đang có nhiều yêu cầu phân tích; phần phân tích của bạn sẽ bắt đầu "
        "trong vòng một giờ."
    ) in (_review_page(vietnamese, games[1]))
    # The hour after the claim, the next starts.
    fake_clock.advance(hours=1)
    assert review_queue.claim_next(clock.now()) == games[1].pk
    assert review_queue.claim_next(clock.now()) is None


def test_without_a_cap_no_review_waits_for_the_hour(
    players, start_game, client_for, fake_clock, settings
):
    settings.REVIEW_PER_HOUR = 0
    settings.REVIEW_SECONDS = 0.02
    ana, binh, chloe, dae = players
    games = _four_played(players, start_game, fake_clock)
    assert "Reviews are busy" not in _review_page(client_for(dae), games[3])
    assert [tasks.review_game.call(game.pk) for game in games] == ["reviewed"] * 4
    assert _statuses(games) == ["done"] * 4
    assert _openers() == []  # no task queued for later
    assert "Reviews are busy" not in _review_page(client_for(dae), games[3])
