"""Forced decisions: when the rules leave a player exactly one legal decision,
the site plays it for them (the log says so). Under the bank clock it does for
everyone (it costs nothing, docs/clock.md); under days per move, unless their
preference says no."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from django.urls import reverse

from games import selectors, services
from games.engine import record
from games.models import Game, Move
from tests.accounts.settings_form import settings_post

from .helpers import move_event, pavilion_choose

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _play_to_the_end(game, rng, *, pavilion: bool, waits: list) -> Game:
    """Random decisions by whoever is to move until the game ends; ``waits``
    collects (seat, number of legal decisions) each time a player is asked."""
    while True:
        game = selectors.game_get(game_id=game.pk)
        if game.status != Game.Status.ACTIVE:
            return game
        engine = selectors.game_engine(game)
        legal = engine.legal_moves()
        waits.append((game.seat_to_move, len(legal)))
        move = pavilion_choose(engine, rng) if pavilion else rng.choice(legal)
        services.game_play_move(
            game_id=game.pk,
            user=game.seats.all()[game.seat_to_move].user,
            move=move_event(move),
            expected_ply=game.ply,
        )


def _replayed_before(game, ply):
    engine = record.new_game(game.variant, game.players, game.first_seat)
    for event in Move.objects.filter(game=game, ply__lt=ply).order_by("ply"):
        engine.apply_event(event.event)
    return engine


@pytest.mark.parametrize(
    ("variant", "seed"), [("classic-grey", 1), ("pavilion", 2), ("pavilion-grey", 3)]
)
def test_the_site_plays_only_legal_decisions_for_who_lets_it(
    players, start_game, client_for, variant, seed, monkeypatch
):
    """Under days per move (games created before the bank clock), the player's
    setting (``User.play_forced``) decides."""
    # Seeded deals and first seat (live games use the OS): the same game every
    # run, one with forced decisions for both players.
    deals = random.Random(seed)
    monkeypatch.setattr(services.common, "system_rng", lambda: deals)
    ana, binh = players[:2]
    binh.play_forced = False
    binh.save(update_fields=["play_forced"])
    game = start_game([ana, binh], variant=variant, days_per_move=3)
    seat_of = {s.user_id: s.number for s in game.seats.all()}
    waits: list[tuple[int, int]] = []
    game = _play_to_the_end(
        game, random.Random(seed), pavilion=variant.startswith("pavilion"), waits=waits
    )
    forced = list(Move.objects.filter(game=game, forced=True).order_by("ply"))
    assert forced, "no forced decision in the whole game"
    for move in forced:
        # ana's, and it was her only legal decision
        assert move.user_id == ana.pk
        assert move.event["seat"] == seat_of[ana.pk]
        assert len(_replayed_before(game, move.ply).legal_moves()) == 1
    # ana was never asked for a decision that was her only one; binh was
    assert (seat_of[ana.pk], 1) not in waits
    assert (seat_of[binh.pk], 1) in waits
    # the log says so, at the end of the decision's own line
    page = client_for(binh).get(reverse("games:detail", args=[game.pk]), **HTMX)
    note = "(ana had no other legal move: the site played it.)"
    log = re.search(r'<section class="log".*?</section>', page.text, re.S)
    assert log is not None
    lines = [unescape(line) for line in re.findall(r"<li>(.*?)</li>", log.group(0))]
    noted = [line for line in lines if note in line]
    assert len(noted) == len(forced)
    assert all(line.startswith("ana ") and line.endswith(note) for line in noted)


@pytest.mark.parametrize(
    ("variant", "seed"), [("classic-grey", 1), ("pavilion", 2), ("pavilion-grey", 3)]
)
def test_under_the_bank_clock_the_site_plays_everyones_only_legal_decision(
    players, start_game, client_for, variant, seed, monkeypatch
):
    """Issue #37 item 5: under a bank every person's forced decision is played
    at once, whatever their setting says."""
    deals = random.Random(seed)
    monkeypatch.setattr(services.common, "system_rng", lambda: deals)
    ana, binh = players[:2]
    binh.play_forced = False
    binh.save(update_fields=["play_forced"])
    game = start_game([ana, binh], variant=variant)
    assert game.time_control.banked
    seat_of = {s.user_id: s.number for s in game.seats.all()}
    waits: list[tuple[int, int]] = []
    game = _play_to_the_end(
        game, random.Random(seed), pavilion=variant.startswith("pavilion"), waits=waits
    )
    forced = list(Move.objects.filter(game=game, forced=True).order_by("ply"))
    # both players' only legal decisions were played, binh's too
    assert {move.user_id for move in forced} == {ana.pk, binh.pk}
    for move in forced:
        assert move.event["seat"] == seat_of[move.user_id]
        assert len(_replayed_before(game, move.ply).legal_moves()) == 1
    # nobody was ever asked for a decision that was their only one
    assert [wait for wait in waits if wait[1] == 1] == []
    # the log says so for each of them
    page = client_for(binh).get(reverse("games:detail", args=[game.pk]), **HTMX)
    log = re.search(r'<section class="log".*?</section>', page.text, re.S)
    assert log is not None
    lines = [unescape(line) for line in re.findall(r"<li>(.*?)</li>", log.group(0))]
    for name in ("ana", "binh"):
        note = f"({name} had no other legal move: the site played it.)"
        assert any(
            line.startswith(f"{name} ") and line.endswith(note) for line in lines
        )


def test_the_settings_page_turns_forced_play_off_and_on(players, client_for):
    ana = players[0]
    client = client_for(ana)
    page = client.get(reverse("settings")).text
    assert re.search(r'<input type="checkbox" name="play_forced"[^>]* checked>', page)
    response = client.post(reverse("settings"), settings_post(ana, play_forced=False))
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.play_forced is False
    client.post(reverse("settings"), settings_post(ana, play_forced=True))
    ana.refresh_from_db()
    assert ana.play_forced is True
