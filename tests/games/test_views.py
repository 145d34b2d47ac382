"""Views: lobby pages, the game page (full and HTMX partial), moves by POST."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Game, Move

from .helpers import classic_zones, move_post_data
from .marks import standings, zones

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _mover(game):
    return game.seats.get(number=game.seat_to_move).user


def test_home_lists_open_games_for_visitors(client, players):
    from games import services

    services.game_create(creator=players[0], variant="classic", players=2, rated=False)
    response = client.get(reverse("games:home"))
    assert response.status_code == 200
    assert "open seat" in response.text
    assert reverse("signup") in response.text


def test_create_a_game_through_the_form(client_for, players):
    ana, binh, *_ = players
    client = client_for(ana)
    response = client.post(
        reverse("games:new"),
        {
            "variant": "classic-grey",
            "players": "3",
            "time_control": "slow",
            "rated": "on",
            "invite": "binh",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:detail", args=[game.pk])
    assert (game.variant, game.players, game.clock, game.rated) == (
        "classic-grey",
        3,
        "slow",
        True,
    )
    assert game.seats.get(number=1).user == binh
    # binh sees the invitation on his home page
    home = client_for(binh).get(reverse("games:home"))
    assert reverse("games:accept", args=[game.pk]) in home.text


def test_create_form_refuses_unknown_invitee(client_for, players):
    response = client_for(players[0]).post(
        reverse("games:new"),
        {
            "variant": "classic",
            "players": "2",
            "time_control": "daily",
            "invite": "zed",
        },
    )
    assert response.status_code == 200
    assert "No player is called zed" in response.text
    assert not Game.objects.exists()


def test_create_requires_login(client):
    response = client.get(reverse("games:new"))
    assert response.status_code == 302
    assert reverse("login") in response.url


def test_join_accept_decline_cancel_views(client_for, players):
    from games import services

    ana, binh, chloe, dae = players
    game = services.game_create(
        creator=ana,
        variant="classic",
        players=3,
        rated=False,
        invitees=[binh],
    )
    client_for(binh).post(reverse("games:decline", args=[game.pk]))
    client_for(chloe).post(reverse("games:join", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    response = client_for(dae).post(reverse("games:cancel", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN  # only the creator may cancel
    client_for(dae).post(reverse("games:join", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_game_page_shows_the_public_table(client_for, players, start_game):
    game = start_game(players[:2])
    response = client_for(players[0]).get(reverse("games:detail", args=[game.pk]))
    text = response.text
    assert response.status_code == 200
    assert "<html" in text
    for label in ("Factory 1", "Factory 5", "Centre", "Bag and lid", "Moves"):
        assert label in text
    assert "Board of ana" in text and "Board of binh" in text
    assert "first-player marker" in text
    assert "Round 1: 20 tiles dealt to the factories" in text
    assert "Deadline" in text
    # every tile where the engine has it
    assert zones(text) == classic_zones(selectors.game_engine(game))
    # tiles carry a text label, not only a colour
    assert re.search(r'data-colour="red" role="img" aria-label="red"', text)


def test_game_page_for_htmx_is_the_board_partial(client_for, players, start_game):
    game = start_game(players[:2])
    response = client_for(players[0]).get(
        reverse("games:detail", args=[game.pk]), **HTMX
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="board"')
    assert "<html" not in response.text


def test_selecting_a_group_shows_legal_destinations(client_for, players, start_game):
    game = start_game(players[:2])
    engine = selectors.game_engine(game)
    move = engine.legal_moves()[0]
    group = f"{move.source}:{('blue', 'yellow', 'red', 'black', 'white')[move.colour]}"
    client = client_for(_mover(game))
    response = client.get(reverse("games:detail", args=[game.pk]), {"group": group})
    text = response.text
    assert 'aria-pressed="true"' in text
    assert 'name="line" value="floor" class="dest legal"' in text
    for line in range(5):
        assert f'name="line" value="{line}" class="dest legal"' in text
    # the other player sees no destination buttons for that group
    other = game.seats.exclude(number=game.seat_to_move).get().user
    text = client_for(other).get(
        reverse("games:detail", args=[game.pk]), {"group": group}
    )
    assert 'class="dest' not in text.text


def test_htmx_move_returns_the_new_board(client_for, players, start_game):
    game = start_game(players[:2])
    move = selectors.game_engine(game).legal_moves()[0]
    client = client_for(_mover(game))
    response = client.post(
        reverse("games:move", args=[game.pk]), move_post_data(move, game.ply), **HTMX
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="board"')
    assert Move.objects.filter(game=game).count() == 2
    assert "took" in response.text


def test_plain_post_move_redirects(client_for, players, start_game):
    game = start_game(players[:2])
    move = selectors.game_engine(game).legal_moves()[0]
    response = client_for(_mover(game)).post(
        reverse("games:move", args=[game.pk]), move_post_data(move, game.ply)
    )
    assert response.status_code == 302
    assert response.url == reverse("games:detail", args=[game.pk])
    assert Move.objects.filter(game=game).count() == 2


def test_stale_htmx_move_answers_200_with_a_message(client_for, players, start_game):
    game = start_game(players[:2])
    move = selectors.game_engine(game).legal_moves()[0]
    client = client_for(_mover(game))
    data = move_post_data(move, game.ply)
    client.post(reverse("games:move", args=[game.pk]), data, **HTMX)
    response = client.post(reverse("games:move", args=[game.pk]), data, **HTMX)
    assert response.status_code == 200
    assert 'role="alert"' in response.text
    assert "board changed" in response.text
    assert Move.objects.filter(game=game).count() == 2


def test_forged_form_changes_nothing(client_for, players, start_game):
    game = start_game(players[:2])
    client = client_for(_mover(game))
    for data in (
        {"expected_ply": game.ply, "kind": "take", "source": "x", "line": "0"},
        {"expected_ply": game.ply, "kind": "take", "source": "0", "colour": "red"},
        {"expected_ply": "a", "kind": "take"},
        {"expected_ply": game.ply, "kind": "wall", "line": "0", "column": "9"},
    ):
        response = client.post(reverse("games:move", args=[game.pk]), data)
        assert response.status_code == 302
        follow = client.get(response.url)
        assert "could not be read" in follow.text
    assert Move.objects.filter(game=game).count() == 1


def test_move_by_a_visitor_redirects_to_login(client, players, start_game):
    game = start_game(players[:2])
    move = selectors.game_engine(game).legal_moves()[0]
    response = client.post(
        reverse("games:move", args=[game.pk]), move_post_data(move, game.ply)
    )
    assert response.status_code == 302 and reverse("login") in response.url
    assert Move.objects.filter(game=game).count() == 1


def test_resign_view(client_for, players, start_game):
    game = start_game(players[:2])
    response = client_for(players[0]).post(
        reverse("games:resign", args=[game.pk]), **HTMX
    )
    assert response.status_code == 200
    assert "resignation" in response.text
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def _to_move_marks(html):
    """The boards marked as the one to move, and the "to move" badges."""
    boards = re.findall(r'class="[^"]*\bto-move\b[^"]*"', html)
    return len(boards), html.count(">to move</span>")


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_a_game_ended_by_resignation_shows_nobody_to_move(
    client_for, players, start_game, variant
):
    game = start_game(players[:2], variant=variant)
    page = client_for(players[1]).get(reverse("games:detail", args=[game.pk]))
    assert _to_move_marks(page.text) == (1, 1)  # while it runs, one seat is marked
    services.game_resign(game_id=game.pk, user=players[0])
    page = client_for(players[1]).get(reverse("games:detail", args=[game.pk]))
    assert "The game ended by resignation." in page.text
    assert _to_move_marks(page.text) == (0, 0)
    assert " to move." not in page.text


def test_resign_is_offered_to_whoever_the_service_lets_resign(
    client, client_for, players, start_game
):
    ana, binh, chi, *_ = players
    game = start_game([ana, binh, chi])
    services.game_resign(game_id=game.pk, user=binh)  # ana and chi play on
    resign = f'action="{reverse("games:resign", args=[game.pk])}"'
    url = reverse("games:detail", args=[game.pk])
    assert resign in client_for(ana).get(url).text
    assert resign not in client_for(binh).get(url).text  # already left
    assert resign not in client.get(url).text  # a visitor
    with pytest.raises(services.GameActionError):
        services.game_resign(game_id=game.pk, user=binh)


def test_record_download_replays(client, players, start_game):
    from games.engine import record

    game = start_game(players[:2])
    response = client.get(reverse("games:record", args=[game.pk]))
    assert response.status_code == 200
    loaded = record.load(response.content.decode())
    assert loaded.names == ["ana", "binh"]


SEED_WORDS = re.compile(r"seed|getstate|random_state", re.IGNORECASE)


def test_pages_show_bag_counts_and_never_a_seed(client_for, players, start_game):
    game = start_game(players[:2])
    client = client_for(players[0])
    engine = selectors.game_engine(game)
    pages = [
        client.get(reverse("games:detail", args=[game.pk])),
        client.get(reverse("games:detail", args=[game.pk]), **HTMX),
        client.get(reverse("games:record", args=[game.pk])),
        client.get(reverse("games:home")),
    ]
    for response in pages:
        assert not SEED_WORDS.search(response.text)
    text = pages[0].text
    assert f"Bag: {sum(engine.bag)} tiles" in text
    bag = dict(
        zip(("blue", "yellow", "red", "black", "white"), engine.bag, strict=True)
    )
    assert zones(text)["bag"] == {colour: n for colour, n in bag.items() if n}
    assert zones(text)["lid"] == {}
    # the cache holds events and the plies the site played as forced
    # decisions: nothing about the random generator
    assert set(game.state) <= {"events", "forced"}
    assert all(isinstance(ply, int) for ply in game.state.get("forced", []))


def _play_whole_game_through_views(client_for, game, rng):
    clients = {s.number: client_for(s.user) for s in game.seats.all()}
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        engine = selectors.game_engine(game)
        moves = engine.legal_moves()
        move = moves[rng.randrange(len(moves))]
        client = clients[game.seat_to_move]
        if rng.random() < 0.5:
            response = client.post(
                reverse("games:move", args=[game.pk]),
                move_post_data(move, game.ply),
                **HTMX,
            )
            assert response.status_code == 200
            assert 'role="alert"' not in response.text
        else:
            response = client.post(
                reverse("games:move", args=[game.pk]), move_post_data(move, game.ply)
            )
            assert response.status_code == 302
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("count", "variant", "seed"),
    [(2, "classic", 1), (4, "classic", 2), (2, "classic-grey", 3)],
)
def test_a_complete_game_through_the_views(
    client_for, players, start_game, count, variant, seed
):
    game = start_game(players[:count], variant=variant)
    game = _play_whole_game_through_views(client_for, game, random.Random(seed))
    assert game.status == Game.Status.FINISHED
    engine = selectors.game_engine_from_moves(game)
    assert engine.events() == game.cached_events
    outcome = engine.outcome()
    assert [s.score for s in game.seats.order_by("number")] == list(outcome.scores)
    page = client_for(players[0]).get(reverse("games:detail", args=[game.pk])).text
    assert "Final result" in page
    assert standings(page) == {
        seat: (rank, score)
        for seat, (rank, score) in enumerate(
            zip(outcome.ranks, outcome.scores, strict=True)
        )
    }


def test_pages_name_the_site_icon_and_the_old_path_leads_to_it(client):
    page = client.get(reverse("games:home")).content.decode()
    match = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert match
    icon = client.get(match.group(1))
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content)
    old = client.get("/favicon.ico")
    assert old.status_code == 301
    assert old["Location"] == match.group(1)
