"""Play again (issue #26 item 1): a finished game's player offers a rematch with
the same settings and players, seated one place on so another player starts;
each person accepts or declines, and the two games link to each other."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import block_create
from games import selectors, services
from games.models import Game, Seat

from .helpers import play_random_moves

pytestmark = pytest.mark.django_db


def _rematch_part(html: str) -> str:
    """The "Play again" section of a board, as its words read."""
    part = html.split('class="rematch"', 1)[1].split("</section>", 1)[0]
    text = part.split(">", 1)[1]
    return " ".join(re.sub(r"<[^>]+>", "", text).split())


@pytest.fixture
def finished(players, start_game):
    """A three-player rated game on the Slow bank clock, ended after a few
    moves: binh and chloe resigned (the one left wins)."""
    ana, binh, chloe = players[:3]
    game = start_game([ana, binh, chloe], rated=True, time_control="slow")
    game = play_random_moves(game, random.Random(2), 6)
    services.game_resign(game_id=game.pk, user=binh)
    services.game_resign(game_id=game.pk, user=chloe)
    game = selectors.game_get(game_id=game.pk)
    assert game.status == Game.Status.FINISHED
    return game


def _seated(game: Game) -> list[tuple[str, str]]:
    return [
        (seat.user.username, seat.invite_status)
        for seat in game.seats.select_related("user").order_by("number")
    ]


def test_a_rematch_keeps_the_settings_and_seats_everyone_one_place_on(
    players, client_for, finished
):
    ana, binh, chloe = players[:3]
    old = finished
    order = [seat.user.username for seat in old.seats.order_by("number")]
    first = old.first_seat
    rotated = [order[(first + 1 + place) % 3] for place in range(3)]

    answer = client_for(binh).post(reverse("games:rematch", args=[old.pk]))
    rematch = Game.objects.get(rematch_of=old)
    assert answer["Location"] == reverse("games:detail", args=[rematch.pk])
    assert (rematch.variant, rematch.players, rematch.clock, rematch.rated) == (
        old.variant,
        3,
        "slow",
        True,
    )
    assert rematch.status == Game.Status.OPEN and rematch.creator == binh
    assert _seated(rematch) == [
        (name, "joined" if name == "binh" else "invited") for name in rotated
    ]

    # ana's page of the old game tells her, and she answers there
    page = client_for(ana).get(reverse("games:detail", args=[old.pk])).text
    assert _rematch_part(page) == (
        f"Play again binh offers a rematch: game {rematch.pk}. Waiting for: "
        + ", ".join(name for name in rotated if name != "binh")
        + " Accept the rematch Decline"
    )
    client_for(ana).post(reverse("games:accept", args=[rematch.pk]))
    # chloe presses "Play again" too: the same rematch, which she accepts so
    client_for(chloe).post(reverse("games:rematch", args=[old.pk]))
    assert Game.objects.filter(rematch_of=old).count() == 1
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE
    # the one who moved second in the old game moves first now
    assert rematch.first_seat == 0 and rematch.seat_to_move == 0
    assert rematch.seats.get(number=0).user.username == order[(first + 1) % 3]

    # the two games link to each other
    old_page = Client().get(reverse("games:detail", args=[old.pk])).text
    assert _rematch_part(old_page) == f"Play again The rematch: game {rematch.pk}"
    new_page = Client().get(reverse("games:detail", args=[rematch.pk])).text
    link = f'<a href="{reverse("games:detail", args=[old.pk])}">'
    assert f"{link}A rematch of game {old.pk}</a>" in new_page


def test_one_who_declines_calls_it_off_and_it_can_be_offered_again(
    players, client_for, finished
):
    ana, binh, chloe = players[:3]
    old = finished
    client_for(ana).post(reverse("games:rematch", args=[old.pk]))
    first = Game.objects.get(rematch_of=old)
    client_for(chloe).post(reverse("games:decline", args=[first.pk]))
    first.refresh_from_db()
    assert first.status == Game.Status.CANCELLED
    assert first.seats.get(user=chloe).invite_status == Seat.Invite.DECLINED
    page = client_for(binh).get(reverse("games:detail", args=[old.pk])).text
    assert _rematch_part(page).startswith(
        "Play again chloe declined the rematch. Play again"
    )
    # binh can no longer accept the called-off one
    client_for(binh).post(reverse("games:accept", args=[first.pk]))
    assert first.seats.get(user=binh).invite_status == Seat.Invite.INVITED
    # a new offer makes a second rematch
    client_for(binh).post(reverse("games:rematch", args=[old.pk]))
    assert Game.objects.filter(rematch_of=old).count() == 2
    second = Game.objects.filter(rematch_of=old).exclude(pk=first.pk).get()
    assert second.status == Game.Status.OPEN and second.creator == binh


def test_a_rematch_against_the_computer_starts_at_once(players, client_for):
    ana = players[0]
    game = services.game_create(
        creator=ana,
        variant="pavilion",
        players=2,
        rated=False,
        computers={1: "easy"},
    )
    services.game_resign(game_id=game.pk, user=ana)
    computer = game.seats.get(number=1).user
    answer = client_for(ana).post(reverse("games:rematch", args=[game.pk]), follow=True)
    rematch = Game.objects.get(rematch_of=game)
    assert rematch.status == Game.Status.ACTIVE
    assert [str(m) for m in answer.context["messages"]] == ["The rematch has started."]
    game.refresh_from_db()
    seated = [seat.user for seat in rematch.seats.order_by("number")]
    expected = [ana, computer] if game.first_seat == 1 else [computer, ana]
    assert seated == expected  # the same computer account, the first seat moved


@pytest.mark.parametrize("who", ["visitor", "stranger"])
def test_only_a_player_of_a_finished_game_may_offer_it(
    players, client_for, finished, who
):
    client = Client() if who == "visitor" else client_for(players[3])
    answer = client.post(reverse("games:rematch", args=[finished.pk]), follow=True)
    assert not Game.objects.filter(rematch_of=finished).exists()
    if who == "stranger":
        assert [str(m) for m in answer.context["messages"]] == [
            "Only the players of a game can play it again."
        ]
        page = client.get(reverse("games:detail", args=[finished.pk])).text
        assert 'class="rematch"' not in page


def test_a_game_in_progress_or_a_blocked_player_is_refused(
    players, client_for, start_game, finished
):
    ana, binh = players[:2]
    running = start_game([ana, binh])
    answer = client_for(ana).post(
        reverse("games:rematch", args=[running.pk]), follow=True
    )
    assert [str(m) for m in answer.context["messages"]] == [
        "A game can be played again once it is over."
    ]
    block_create(blocker=ana, blocked=binh)
    answer = client_for(ana).post(
        reverse("games:rematch", args=[finished.pk]), follow=True
    )
    assert [str(m) for m in answer.context["messages"]] == [
        "You block binh: unblock them first to invite them."
    ]
    assert not Game.objects.filter(rematch_of__isnull=False).exists()


def _home_invitations(html: str) -> list[str]:
    """The entries under Invitations on a home page, as their words read."""
    if 'id="h-invitations"' not in html:
        return []
    part = html.split('id="h-invitations"', 1)[1].split("</section>", 1)[0]
    return [
        " ".join(re.sub(r"<[^>]+>", " ", item).split())
        for item in re.findall(r"<li>(.*?)</li>", part, re.S)
    ]


def test_a_rematch_is_called_a_rematch_and_listed_once_on_the_home_page(
    players, client_for, finished
):
    """Issue #35 item 4: the invitee's home page lists the rematch once, under
    Invitations, as a rematch of the game; declining it says so."""
    ana, binh, chloe = players[:3]
    client_for(binh).post(reverse("games:rematch", args=[finished.pk]))
    rematch = Game.objects.get(rematch_of=finished)
    home = client_for(ana).get(reverse("games:home")).text
    assert _home_invitations(home) == [
        f"#{rematch.pk} {rematch.get_variant_display()} a rematch of game "
        f"{finished.pk}, from binh Accept Decline"
    ]
    # listed once: not again under "Waiting for others"
    assert home.count(reverse("games:detail", args=[rematch.pk]) + '"') == 1
    # binh, who offered it, waits for the others: there it is, once
    mine = client_for(binh).get(reverse("games:home")).text
    assert _home_invitations(mine) == []
    assert mine.count(reverse("games:detail", args=[rematch.pk]) + '"') == 1

    answer = client_for(chloe).post(
        reverse("games:decline", args=[rematch.pk]), follow=True
    )
    assert f"You declined the rematch of game {finished.pk}." in answer.text


def test_an_invitation_is_listed_once_on_the_invitees_home_page(players, client_for):
    ana, binh = players[:2]
    game = services.game_create(
        creator=ana,
        variant="classic",
        players=2,
        rated=False,
        invitees=[binh],
    )
    home = client_for(binh).get(reverse("games:home")).text
    assert _home_invitations(home) == [
        f"#{game.pk} {game.get_variant_display()} from ana Accept Decline"
    ]
    assert home.count(reverse("games:detail", args=[game.pk]) + '"') == 1
    answer = client_for(binh).post(
        reverse("games:decline", args=[game.pk]), follow=True
    )
    assert "Invitation declined." in answer.text


def test_a_rematch_s_e_mail_and_push_call_it_a_rematch(players, client_for, finished):
    from django.core import mail

    from games import emails
    from notify.services import push_payload

    ana, binh = players[:2]
    client_for(binh).post(reverse("games:rematch", args=[finished.pk]))
    rematch = Game.objects.get(rematch_of=finished)
    mail.outbox.clear()
    emails.send_invited(user=ana, game=rematch)
    sent = mail.outbox[-1]
    assert sent.subject == f"binh offers you a rematch of game {finished.pk}"
    body = " ".join(sent.body.split())
    assert (
        f"binh offers you a rematch of game {finished.pk}: "
        f"{rematch.get_variant_display()} again, with the same players." in body
    )
    assert "Accept or decline the rematch on the game's page:" in body
    push = push_payload(ana, rematch, "invited", {"creator": "binh"})
    assert push["title"] == f"binh offers you a rematch of game {finished.pk}"
    assert push["body"].startswith(
        f"A rematch of game {finished.pk}: {rematch.get_variant_display()}. "
    )
