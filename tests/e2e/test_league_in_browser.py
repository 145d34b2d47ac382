"""A league season in a browser (issue #38): ana enters a season on the
Leagues page, finds her group on its first day, plays a move in one of her
league games, and the group's table, left open, changes without a reload when
another game of the group ends (the group's doorbell, static/js/league.js)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import Browser, expect

from games import selectors
from leagues import services
from leagues.models import Entry, League, LeagueGame, Season, Waiver

from .test_live_board import PASSWORD, confirm_move, log_in
from .waits import sockets_open

SLUG = "azul-browser"


def _in_thread(work):
    """Services ring the channel layer with async_to_sync after commit:
    run them outside Playwright's event loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def test_a_player_enters_plays_and_sees_the_table_change(
    browser: Browser, live_url: str, make_user
):
    ana, binh, chi = (make_user(name, PASSWORD) for name in ("ana", "binh", "chi"))

    def registering():
        for user in (ana, binh, chi):  # the five finished games waived
            Waiver.objects.create(user=user, note="browser test")
        league = League.objects.create(
            slug=SLUG, variant="classic", players=2, season_weeks=8
        )
        season = services.season_create(
            league=league, starts_at=timezone.now() + timedelta(days=1)
        )
        for user in (binh, chi):
            services.season_join(season_id=season.pk, user=user)
        return season

    season = _in_thread(registering)

    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_url, "ana")
    page.goto(f"{live_url}/leagues/")
    league = page.locator(f'section[data-league="{SLUG}"]')
    registration = league.locator(f'p.registration[data-season="{season.pk}"]')
    expect(registration).to_contain_text(
        "registration is open, 2 players have entered."
    )
    league.get_by_role("button", name="Enter this season").click()
    expect(page.get_by_text("You have entered the season.")).to_be_visible()
    expect(league).to_contain_text("You have entered this season.")
    expect(registration).to_contain_text("3 players have entered.")
    assert Entry.objects.filter(season=season, user=ana, confirmed=True).exists()

    def first_day():
        # The live server is another process, on the real clock: rather than
        # move this process's clock a day on, the season's first day is made
        # today, and it starts (what the deadline job's pass does that day).
        now = timezone.now()
        Season.objects.filter(pk=season.pk).update(
            opens_at=now - timedelta(days=1),
            starts_at=now,
            ends_at=now + timedelta(weeks=8),
        )
        return services.season_start(season_id=season.pk)

    _in_thread(first_day)
    assert Season.objects.get(pk=season.pk).status == Season.Status.RUNNING

    page.goto(f"{live_url}/leagues/")
    page.get_by_role("link", name="Your group: division 1, group 1").click()
    group = Entry.objects.get(season=season, user=ana).group
    expect(page).to_have_url(f"{live_url}/leagues/groups/{group.pk}/")
    rows = page.locator("#group-table tr[data-seat]")
    expect(rows).to_have_count(3)
    for name in ("ana", "binh", "chi"):
        expect(page.locator(f'tr[data-seat="{name}"]')).to_have_attribute(
            "data-score", "0.00"
        )
    # all level: the table goes by entry, binh, chi, then ana
    for rank, name in enumerate(("binh", "chi", "ana"), start=1):
        expect(page.locator(f'tr[data-seat="{name}"]')).to_have_attribute(
            "data-rank", str(rank)
        )
    games = page.locator("#group-table li[data-game]")
    expect(games).to_have_count(6)  # each pair twice, each starting once
    expect(games.filter(has_text="finished")).to_have_count(0)
    page.evaluate("window.__notReloaded = true")
    expect(page.locator("body")).to_have_attribute("data-group-socket-open", "true")

    league_games = list(LeagueGame.objects.filter(group=group).select_related("game"))
    to_move = {
        lg.game.pk: selectors.game_user_to_move(game=lg.game) for lg in league_games
    }
    mine = next(pk for pk, user in to_move.items() if user == ana)
    others = next(
        lg.game for lg in league_games if not lg.game.seats.filter(user=ana).exists()
    )

    # ana opens, beside the table, her game where it is her move, and plays
    board_page = context.new_page()
    board_page.set_default_timeout(10_000)
    board_page.goto(f"{live_url}/leagues/groups/{group.pk}/")
    board_page.locator(f'#group-table li[data-game="{mine}"] a').click()
    expect(board_page).to_have_url(f"{live_url}/games/{mine}/")
    sockets_open(board_page, "user", "game")
    board = board_page.locator("#board")
    before = int(board.get_attribute("data-ply"))
    board_page.locator("button.group").first.click()
    board_page.locator("button.dest.legal").first.click()
    confirm_move(board_page)
    expect(board).not_to_have_attribute("data-ply", str(before))
    assert int(board.get_attribute("data-ply")) > before
    # a move is not a result: the table is as it was
    expect(page.locator('tr[data-seat="ana"]')).to_have_attribute("data-score", "0.00")

    # binh resigns his game against chi, in his own browser
    binh_page = browser.new_context().new_page()
    binh_page.set_default_timeout(10_000)
    log_in(binh_page, live_url, "binh")
    binh_page.goto(f"{live_url}/games/{others.pk}/")
    binh_page.once("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    binh_page.locator("form.resign").get_by_role("button", name="Resign").click()
    expect(binh_page.locator("#board")).to_contain_text(
        "The game ended by resignation."
    )

    # ana's table, never reloaded, has the result: chi first with a point
    chi_row = page.locator('tr[data-seat="chi"]')
    expect(chi_row).to_have_attribute("data-score", "1.00")
    expect(chi_row).to_have_attribute("data-rank", "1")
    expect(chi_row.locator("td").nth(3)).to_have_text("1")  # games over
    for name in ("binh", "ana"):
        expect(page.locator(f'tr[data-seat="{name}"]')).to_have_attribute(
            "data-score", "0.00"
        )
    finished = page.locator(f'#group-table li[data-game="{others.pk}"]')
    expect(finished).to_have_attribute("data-status", "finished")
    expect(finished).to_contain_text("finished")
    expect(page.locator(f'li[data-game="{mine}"]')).to_contain_text("being played")
    assert page.evaluate("window.__notReloaded") is True
    binh_page.context.close()
    context.close()
