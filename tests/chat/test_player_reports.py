"""Report a player (issue #33 item 1: "a report of a player can name" engine
help in a game between people): the form from a profile, what it refuses in
words a player reads, once per reason and game, a flood limit, the admins'
list, and a reported player who is never told."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import block_create, computer_player
from chat import services
from chat.models import PLAYER_REPORTS_PER_DAY, PlayerReport
from games import clock
from games import services as game_services
from games.models import Game

pytestmark = pytest.mark.django_db

ENGINE = PlayerReport.Reason.ENGINE_HELP


def _url(player: User) -> str:
    return reverse("chat:player_report", args=[player.username])


def _page(answer) -> str:
    return answer.content.decode()


def _errors(html: str) -> list[str]:
    """The form's error messages, as the page shows them (in place)."""
    return [
        " ".join(re.sub(r"<[^>]+>", "", item).split())
        for item in re.findall(
            r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, flags=re.S
        )
    ]


def _game_options(html: str) -> list[tuple[str, str]]:
    """(value, label) of each choice in the form's game list, in order."""
    select = re.search(r'<select name="game".*?</select>', html, flags=re.S)
    assert select is not None
    return [
        (value, " ".join(label.split()))
        for value, label in re.findall(
            r'<option value="([^"]*)"[^>]*>(.*?)</option>', select.group(0), re.S
        )
    ]


@pytest.fixture
def ana_binh(players, start_game):
    """Ana and Binh: one game finished, then one in progress."""
    ana, binh = players[:2]
    finished = start_game([ana, binh])
    game_services.game_resign(game_id=finished.pk, user=binh)
    active = start_game([ana, binh], variant="pavilion")
    return finished, active


def test_the_profile_of_another_person_links_to_the_report_form(
    players, client_for, make_user
):
    ana, binh = players[:2]
    computer = computer_player(level="strong")
    link = f'href="{_url(binh)}"'
    assert link in _page(client_for(ana).get(reverse("profile", args=["binh"])))
    # Not on one's own profile, a computer's, or for a visitor.
    assert "Report this player" not in _page(
        client_for(binh).get(reverse("profile", args=["binh"]))
    )
    assert "Report this player" not in _page(
        client_for(ana).get(reverse("profile", args=[computer.username]))
    )
    assert "Report this player" not in _page(
        Client().get(reverse("profile", args=["binh"]))
    )


def test_the_form_lists_the_shared_games_newest_first(
    players, client_for, start_game, ana_binh
):
    ana, binh, chloe = players[:3]
    finished, active = ana_binh
    start_game([ana, chloe])  # not with Binh
    game_services.game_create(  # not started: Binh has not joined
        creator=ana, variant="classic", players=2, rated=False,
        invitees=[binh],
    )  # fmt: skip
    html = _page(client_for(ana).get(_url(binh)))
    assert _game_options(html) == [
        ("", "No game in particular"),
        (
            str(active.pk),
            f"#{active.pk} Azul: Summer Pavilion (coloured side) — In progress",
        ),
        (str(finished.pk), f"#{finished.pk} Azul (coloured wall) — Finished"),
    ]
    for reason in ("engine", "abuse", "other"):
        assert f'type="radio" name="reason" value="{reason}"' in html
    assert '<textarea name="details"' in html
    # The game page's ?game= chooses one of them.
    chosen = _page(client_for(ana).get(_url(binh) + f"?game={finished.pk}"))
    assert f'<option value="{finished.pk}" selected>' in chosen


def test_a_report_of_engine_help_is_stored_and_leads_back_to_the_profile(
    players, client_for, ana_binh
):
    ana, binh = players[:2]
    _, active = ana_binh
    answer = client_for(ana).post(
        _url(binh),
        {"reason": "engine", "game": active.pk, "details": "  Every move perfect. "},
        follow=True,
    )
    assert answer.redirect_chain == [(reverse("profile", args=["binh"]), 302)]
    assert "Thank you: the moderators will look at it." in _page(answer)
    report = PlayerReport.objects.get()
    assert (
        report.reporter,
        report.reported,
        report.reason,
        report.game,
        report.details,
        report.handled,
    ) == (ana, binh, ENGINE, active, "Every move perfect.", False)
    assert report.created_at is not None


def test_abuse_needs_no_game_and_other_needs_details(players, client_for, ana_binh):
    ana, binh = players[:2]
    client_for(ana).post(_url(binh), {"reason": "abuse", "game": ""})
    answer = client_for(ana).post(_url(binh), {"reason": "other", "details": ""})
    assert answer.status_code == 200
    assert _errors(_page(answer)) == ["Say what happened."]
    client_for(ana).post(_url(binh), {"reason": "other", "details": "Rude name."})
    assert sorted(PlayerReport.objects.values_list("reason", "game", "details")) == [
        ("abuse", None, ""),
        ("other", None, "Rude name."),
    ]


def test_the_form_says_what_is_wrong_in_place_and_keeps_nothing(
    players, client_for, start_game, ana_binh
):
    ana, binh, chloe = players[:3]
    not_shared = start_game([ana, chloe])
    ana_client = client_for(ana)

    def errors(**data: object) -> list[str]:
        answer = ana_client.post(_url(binh), data)
        assert answer.status_code == 200
        assert '<form method="post"' in _page(answer)  # the form, drawn again
        return _errors(_page(answer))

    assert errors(reason="engine", game="") == [
        "Choose the game where you think they had engine help."
    ]
    assert errors(reason="engine", game=not_shared.pk) == [
        "That is not a game you played with this player."
    ]
    assert errors(reason="abuse", game="12345") == [
        "That is not a game you played with this player."
    ]
    assert errors(game="") == ["Choose a reason."]
    assert errors(reason="engine", game=ana_binh[0].pk, details="x" * 1001) == [
        "Ensure this value has at most 1000 characters (it has 1001)."
    ]
    assert not PlayerReport.objects.exists()


def test_nobody_reports_themself_or_a_computer(players, client_for, start_game):
    ana = players[0]
    computer = computer_player(level="easy")
    game = game_services.game_create(
        creator=ana, variant="classic", players=2, rated=False,
        computers={1: "easy"},
    )  # fmt: skip
    assert game.status == Game.Status.ACTIVE
    for who, words in (
        (ana, "You cannot report yourself."),
        (computer, "A computer player cannot be reported."),
    ):
        for answer in (
            client_for(ana).get(_url(who)),
            client_for(ana).post(_url(who), {"reason": "engine", "game": game.pk}),
        ):
            assert answer.status_code == 403
            html = _page(answer)
            assert f'<p class="error" role="alert" data-refused>{words}</p>' in html
            assert '<form method="post" class="stacked player-report"' not in html
    with pytest.raises(services.ChatError) as refused:
        services.player_report_create(
            reporter=ana, reported=computer, reason="engine", game=game
        )
    assert refused.value.message == "A computer player cannot be reported."
    assert not PlayerReport.objects.exists()


def test_the_service_refuses_a_game_not_shared_and_an_imported_one(
    players, start_game, ana_binh
):
    ana, binh, chloe = players[:3]
    with_chloe = start_game([ana, chloe])
    imported = start_game([ana, binh])
    Game.objects.filter(pk=imported.pk).update(imported=True)
    for game in (with_chloe, imported):
        with pytest.raises(services.ChatError) as refused:
            services.player_report_create(
                reporter=ana, reported=binh, reason="engine", game=game
            )
        assert (
            refused.value.message == "That is not a game you played with this player."
        )
    with pytest.raises(services.ChatError) as refused:
        services.player_report_create(reporter=ana, reported=binh, reason="engine")
    assert refused.value.message == (
        "Choose the game where you think they had engine help."
    )
    assert not PlayerReport.objects.exists()


def test_a_second_report_for_the_same_reason_and_game_says_so_and_changes_nothing(
    players, client_for, ana_binh
):
    ana, binh = players[:2]
    finished, active = ana_binh
    data = {"reason": "engine", "game": active.pk, "details": "first"}
    client_for(ana).post(_url(binh), data)
    first = PlayerReport.objects.get()

    again = client_for(ana).post(_url(binh), {**data, "details": "second"})
    assert again.status_code == 200
    assert _errors(_page(again)) == ["You already reported this player for this."]
    assert list(PlayerReport.objects.all()) == [first]
    assert PlayerReport.objects.get().details == "first"
    # The same reason in another game, or another reason, is another report.
    client_for(ana).post(_url(binh), {**data, "game": finished.pk})
    client_for(ana).post(_url(binh), {"reason": "abuse"})
    assert PlayerReport.objects.count() == 3
    # Without a game, once too; sent at the same moment, the database says no.
    again = client_for(ana).post(_url(binh), {"reason": "abuse", "game": ""})
    assert _errors(_page(again)) == ["You already reported this player for this."]
    assert PlayerReport.objects.count() == 3


def test_a_report_sent_twice_at_once_is_kept_once(players, ana_binh, monkeypatch):
    """The check and the insert race: the unique constraint answers."""
    ana, binh = players[:2]
    services.player_report_create(reporter=ana, reported=binh, reason="abuse")
    monkeypatch.setattr(
        PlayerReport.objects, "filter", lambda **kw: PlayerReport.objects.none()
    )
    with pytest.raises(services.AlreadyReportedPlayer):
        services.player_report_create(reporter=ana, reported=binh, reason="abuse")
    monkeypatch.undo()
    assert PlayerReport.objects.count() == 1


def test_at_most_so_many_reports_a_day(players, client_for, make_user, monkeypatch):
    ana = players[0]
    others = [make_user(f"p{i}") for i in range(PLAYER_REPORTS_PER_DAY + 1)]
    start = clock.now()
    for other in others[:PLAYER_REPORTS_PER_DAY]:
        services.player_report_create(reporter=ana, reported=other, reason="abuse")
    answer = client_for(ana).post(_url(others[-1]), {"reason": "abuse"})
    assert _errors(_page(answer)) == [
        f"You can send at most {PLAYER_REPORTS_PER_DAY} reports a day: "
        "try again tomorrow."
    ]
    assert PlayerReport.objects.count() == PLAYER_REPORTS_PER_DAY
    # Another account is not held back; a day later, neither is this one.
    services.player_report_create(
        reporter=players[1], reported=others[-1], reason="abuse"
    )
    monkeypatch.setattr(clock, "now", lambda: start + timedelta(days=1, minutes=1))
    answer = client_for(ana).post(_url(others[-1]), {"reason": "abuse"})
    assert answer.status_code == 302
    assert (
        PlayerReport.objects.filter(reporter=ana).count() == PLAYER_REPORTS_PER_DAY + 1
    )


def test_a_visitor_is_sent_to_log_in(players):
    binh = players[1]
    form = Client().get(_url(binh))
    assert form.status_code == 302
    assert form["Location"] == f"{reverse('login')}?next={_url(binh)}"
    sent = Client().post(_url(binh), {"reason": "abuse"})
    assert sent.status_code == 302
    assert sent["Location"].startswith(reverse("login"))
    assert not PlayerReport.objects.exists()


def test_an_unknown_player_is_not_found(players, client_for):
    assert client_for(players[0]).get(_url(User(username="nobody"))).status_code == 404


def test_a_block_does_not_stop_a_report(players, client_for, ana_binh):
    ana, binh = players[:2]
    block_create(blocker=binh, blocked=ana)
    block_create(blocker=ana, blocked=binh)
    answer = client_for(ana).post(
        _url(binh), {"reason": "engine", "game": ana_binh[1].pk}
    )
    assert answer.status_code == 302
    assert PlayerReport.objects.filter(reporter=ana, reported=binh).exists()


def _as_drawn(html: str) -> str:
    """A page without what changes at each drawing: the CSRF tokens (masked
    afresh for each page), and the seconds a bank had left when the page was
    drawn (issue #37: a clock that runs)."""
    html = re.sub(r'data-bank-seconds="\d+"', 'data-bank-seconds=""', html)
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "<token>", html)


def test_the_reported_player_sees_nothing_different(players, client_for, ana_binh):
    ana, binh = players[:2]
    _, active = ana_binh
    # (Ana's requests would show her "online now" to Binh: not the report's doing.)
    User.objects.filter(pk=ana.pk).update(show_presence=False)
    binh_client = client_for(binh)
    pages = [
        reverse("games:home"),
        reverse("profile", args=["binh"]),
        reverse("profile", args=["ana"]),
        reverse("games:detail", args=[active.pk]),
        reverse("settings"),
    ]
    for url in pages:  # a first visit (which writes "last seen")
        binh_client.get(url)
    before = [_as_drawn(_page(binh_client.get(url))) for url in pages]
    mail.outbox.clear()

    client_for(ana).post(_url(binh), {"reason": "engine", "game": active.pk})
    client_for(ana).post(_url(binh), {"reason": "other", "details": "Rude."})
    assert PlayerReport.objects.count() == 2

    assert [_as_drawn(_page(binh_client.get(url))) for url in pages] == before
    assert mail.outbox == []


def test_the_admins_list_shows_the_report_with_links(
    players, client_for, make_user, ana_binh
):
    ana, binh = players[:2]
    _, active = ana_binh
    services.player_report_create(
        reporter=ana, reported=binh, reason="engine", game=active, details="Too good."
    )
    admin = make_user("root", is_staff=True, is_superuser=True)
    listing = _page(
        client_for(admin).get(reverse("admin:chat_playerreport_changelist"))
    )
    assert "Engine help in a game" in listing
    assert "Too good." in listing
    assert f'href="{reverse("games:detail", args=[active.pk])}"' in listing
    assert f'href="{reverse("profile", args=["ana"])}"' in listing
    assert f'href="{reverse("profile", args=["binh"])}"' in listing
    # Filtered by reason and by handled.
    url = reverse("admin:chat_playerreport_changelist")
    assert "Too good." not in _page(client_for(admin).get(url + "?reason=abuse"))
    assert "Too good." in _page(client_for(admin).get(url + "?handled__exact=0"))
    assert "Too good." not in _page(client_for(admin).get(url + "?handled__exact=1"))
    detail = _page(
        client_for(admin).get(
            reverse(
                "admin:chat_playerreport_change", args=[PlayerReport.objects.get().pk]
            )
        )
    )
    assert "Too good." in detail
