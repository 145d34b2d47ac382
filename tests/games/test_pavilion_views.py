"""Summer Pavilion through the HTTP views: whole games, each decision, refusals."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from games import selectors, services
from games.engine import record
from games.engine.pavilion import Bonus, Pass, Place, Take
from games.engine.pavilion_board import COLOURS, STARS
from games.models import Game, Move

from .helpers import pavilion_choose, pavilion_post_data
from .marks import standings, zones
from .test_pavilion_positions import engine_zones

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], random.Random]:
    """Make the service's deals reproducible for a test (live games use the OS)."""

    def seed(value: int) -> random.Random:
        rng = random.Random(value)
        monkeypatch.setattr(services.common, "system_rng", lambda: rng)
        return rng

    return seed


def _engine(game: Game) -> Any:
    game.refresh_from_db()
    return selectors.game_engine(game)


def _mover(game: Game) -> Any:
    return game.seats.get(number=game.seat_to_move).user


def _advance(game: Game, until: Callable[[Any], bool], rng: random.Random) -> Any:
    """Play plausible moves through the service until ``until(engine)`` holds."""
    for _step in range(3000):
        engine = _engine(game)
        if until(engine):
            return engine
        assert not engine.is_over(), "the game ended before the wanted position"
        move = pavilion_choose(engine, rng)
        event = move.to_event()
        event.pop("seat")
        services.game_play_move(
            game_id=game.pk, user=_mover(game), move=event, expected_ply=game.ply
        )
    raise AssertionError("position not reached")


def _post(client: Any, game: Game, data: dict[str, Any], **extra: Any) -> Any:
    return client.post(reverse("games:move", args=[game.pk]), data, **extra)


# ------------------------------------------------------------ whole games


@pytest.mark.parametrize(
    ("variant", "count", "seed"), [("pavilion", 2, 11), ("pavilion-grey", 3, 5)]
)
def test_a_whole_game_is_played_through_the_views(
    client_for, players, start_game, seeded, variant, count, seed
):
    rng = seeded(seed)
    users = players[:count]
    game = start_game(users, variant=variant)
    clients = {user.pk: client_for(user) for user in users}
    seen_pages: set[str] = set()
    posts = 0
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        engine = selectors.game_engine(game)
        mover = _mover(game)
        client = clients[mover.pk]
        move = pavilion_choose(engine, rng)
        kind = type(move).__name__
        if kind not in seen_pages:
            # the first time each decision comes up, the page offers it
            seen_pages.add(kind)
            page = client.get(reverse("games:detail", args=[game.pk])).text
            assert "Your move." in page
            if isinstance(move, Take):
                assert 'name="take"' in page
            elif isinstance(move, Place):
                assert 'name="space"' in page
                assert 'class="pv-cost"' in page and "Pass now" in page
            elif isinstance(move, Bonus):
                assert 'name="kind" value="bonus"' in page
        data = pavilion_post_data(move, game.ply)
        response = _post(client, game, data)
        assert response.status_code == 302
        posts += 1
        game.refresh_from_db()
        assert game.ply > data["expected_ply"], f"move {data} was refused"
        assert posts < 2000
    assert seen_pages >= {"Take", "Place", "Pass", "Bonus"}
    engine = selectors.game_engine_from_moves(game)
    outcome = engine.outcome()
    assert outcome is not None and engine.round == 6
    seats = list(game.seats.order_by("number"))
    assert [s.score for s in seats] == list(outcome.scores)
    assert [s.rank for s in seats] == list(outcome.ranks)
    # the stored record replays to the same final scores
    data = selectors.game_record(game)
    assert data["result"]["scores"] == list(outcome.scores)
    assert list(record.load(data).game.outcome().scores) == list(outcome.scores)
    page = clients[users[0].pk].get(reverse("games:detail", args=[game.pk])).text
    assert standings(page) == {
        seat: (outcome.ranks[seat], outcome.scores[seat]) for seat in range(count)
    }
    # a finished game's page draws the players' boards, no table, supply or stock
    table = ("factory-", "centre", "supply", "bag", "tower")
    drawn = zones(page)
    assert not [zone for zone in drawn if zone.startswith(table)]
    assert drawn == {
        zone: tiles
        for zone, tiles in engine_zones(engine).items()
        if not zone.startswith(table)
    }
    assert "Final result" in page
    assert "Final bonuses for ana" in page
    assert "Round 6 of 6" in page
    if engine.grey:  # its stars have no colour: the log and board name places
        replay = clients[users[0].pk].get(reverse("games:replay", args=[game.pk]))
        for text in (page, replay.text):
            assert "right-hand star, space" in text
            assert not re.search(
                r"\b(purple|green|orange|yellow|blue|red) star\b", text
            )


# ------------------------------------------------------------ each decision


def test_the_page_draws_the_board_for_a_spectator(client, players, start_game):
    game = start_game(players[:2], variant="pavilion")
    page = client.get(reverse("games:detail", args=[game.pk])).text
    assert zones(page) == engine_zones(_engine(game))
    assert sum(zones(page)["supply"].values()) == 10
    assert "Round 1 of 6" in page
    assert "wild colour:" in page
    assert "Bonus supply: 10 tiles" in page
    # every space of both boards, with its cost, as text
    assert page.count('title="purple star, space 1, cost 1, empty"') == 2
    assert page.count('title="centre star, space 6, cost 6, empty"') == 2
    assert "pillar of the blue star: not complete" in page
    assert 'name="take"' not in page  # spectators get no buttons


def test_grey_side_shows_its_own_costs(client, players, start_game):
    game = start_game(players[:2], variant="pavilion-grey")
    page = client.get(reverse("games:detail", args=[game.pk])).text
    # the purple star's place is the left of the board; no colour names it
    assert page.count('title="left-hand star, space 1, cost 3, empty"') == 2
    assert page.count('title="left-hand star, space 3, cost 1, empty"') == 2
    assert page.count('title="centre star, space 6, cost 3, empty"') == 2
    assert "pillar of the right-hand star: not complete" in page


def test_take_is_previewed_with_its_wild_tile_then_played(
    client_for, players, start_game, seeded
):
    rng = seeded(3)
    game = start_game(players[:2], variant="pavilion")

    def factory_with_wild(engine: Any) -> bool:
        return engine.phase == "take" and any(
            f[engine.wild] and sum(f) > f[engine.wild] for f in engine.factories
        )

    engine = _advance(game, factory_with_wild, rng)
    number, tiles = next(
        (i, f)
        for i, f in enumerate(engine.factories)
        if f[engine.wild] and sum(f) > f[engine.wild]
    )
    colour = next(c for c in range(6) if tiles[c] and c != engine.wild)
    seat = engine.to_move()
    hand = Counter({COLOURS[c]: n for c, n in enumerate(engine.hands[seat]) if n})
    client = client_for(_mover(game))
    url = reverse("games:detail", args=[game.pk])
    page = client.get(url, {"take": f"{number}:{COLOURS[colour]}"}, **HTMX).text
    assert zones(page)[f"hand-{seat}"] == hand  # a preview takes nothing
    assert f"One wild {COLOURS[engine.wild]} tile comes along." in page
    assert "Take these tiles" in page
    before = game.ply
    response = _post(
        client,
        game,
        {
            "expected_ply": before,
            "kind": "take",
            "source": str(number),
            "colour": COLOURS[colour],
        },
        **HTMX,
    )
    assert response.status_code == 200
    assert 'class="error"' not in response.text
    engine = _engine(game)
    assert game.ply == before + 1
    assert engine.log[-1]["wild"] == 1
    hand[COLOURS[colour]] += tiles[colour]
    hand[COLOURS[engine.wild]] += 1
    assert zones(response.text)[f"hand-{seat}"] == hand
    assert zones(response.text)[f"factory-{number}"] == Counter()
    assert f"took {tiles[colour]} {COLOURS[colour]} + 1 " in response.text


def test_centre_take_warns_of_the_start_token_penalty(
    client_for, players, start_game, seeded
):
    rng = seeded(4)
    game = start_game(players[:2], variant="pavilion")
    engine = _advance(
        game,
        lambda e: (
            e.phase == "take"
            and e.token_holder is None
            and any(e.centre[c] for c in range(6) if c != e.wild)
        ),
        rng,
    )
    colour = next(c for c in range(6) if engine.centre[c] and c != engine.wild)
    seat = engine.to_move()
    taken = engine.centre[colour] + (1 if engine.centre[engine.wild] else 0)
    lost = min(taken, engine.scores[seat] - 1)
    client = client_for(_mover(game))
    page = client.get(
        reverse("games:detail", args=[game.pk]), {"take": f"center:{COLOURS[colour]}"}
    ).text
    points = "1 point" if lost == 1 else f"{lost} points"
    assert f"you take the start token and lose {points} (score" in page


def test_take_of_the_wild_colour_beside_others_is_refused(
    client_for, players, start_game, seeded
):
    rng = seeded(3)
    game = start_game(players[:2], variant="pavilion")
    engine = _advance(
        game,
        lambda e: (
            e.phase == "take"
            and any(f[e.wild] and sum(f) > f[e.wild] for f in e.factories)
        ),
        rng,
    )
    number = next(
        i
        for i, f in enumerate(engine.factories)
        if f[engine.wild] and sum(f) > f[engine.wild]
    )
    before = game.ply
    response = _post(
        client_for(_mover(game)),
        game,
        {
            "expected_ply": before,
            "kind": "take",
            "source": str(number),
            "colour": COLOURS[engine.wild],
        },
        **HTMX,
    )
    assert "is wild this round: take another colour" in response.text
    game.refresh_from_db()
    assert game.ply == before


def _place_position(engine: Any) -> bool:
    return engine.phase == "place" and any(
        isinstance(m, Place) for m in engine.legal_moves()
    )


def test_placement_offers_only_legal_spaces_and_suggests_fewest_wilds(
    client_for, players, start_game, seeded
):
    rng = seeded(8)
    game = start_game(players[:2], variant="pavilion")
    engine = _advance(
        game,
        lambda e: (
            _place_position(e)
            and any(isinstance(m, Place) and m.wilds for m in e.legal_moves())
        ),
        rng,
    )
    seat = engine.to_move()
    places = [m for m in engine.legal_moves() if isinstance(m, Place)]
    legal = {f"{STARS[m.star]}-{m.space}" for m in places}
    client = client_for(_mover(game))
    url = reverse("games:detail", args=[game.pk])
    page = client.get(url).text
    offered = set(__import__("re").findall(r'name="space" value="([a-z]+-\d)"', page))
    assert offered == legal
    # a space payable with more than one number of wilds
    target = next(m for m in places if m.wilds)
    space = f"{STARS[target.star]}-{target.space}"
    options = sorted(
        (m for m in places if (m.star, m.space) == (target.star, target.space)),
        key=lambda m: (m.wilds, m.colour),
    )
    page = client.get(url, {"space": space}).text
    checked = page.split(" checked>")[0].rsplit('value="', 1)[1].split('"')[0]
    assert checked == f"{COLOURS[options[0].colour]}:{options[0].wilds}"
    for option in options:
        assert f'value="{COLOURS[option.colour]}:{option.wilds}"' in page
    # the player pays with more wilds than suggested
    chosen = options[-1]
    before_hand = list(engine.hands[seat])
    response = _post(
        client,
        game,
        {
            "expected_ply": game.ply,
            "kind": "place",
            "space": space,
            "payment": f"{COLOURS[chosen.colour]}:{chosen.wilds}",
        },
        **HTMX,
    )
    assert 'class="error"' not in response.text
    engine = _engine(game)
    entry = next(e for e in reversed(engine.log) if e["type"] == "place")
    assert entry["wilds"] == chosen.wilds
    placed = zones(response.text)[f"board-{seat}"]
    assert placed[COLOURS[chosen.colour]] == sum(
        1 for c in engine.boards[seat] if c == chosen.colour
    )
    assert sum(placed.values()) == sum(1 for c in engine.boards[seat] if c >= 0)
    assert engine.hands[seat][engine.wild] <= before_hand[engine.wild] - chosen.wilds
    assert f"placed {COLOURS[chosen.colour]} on " in response.text


def _refused_placement(client, game, data, message):
    before = game.ply
    response = _post(client, game, {"expected_ply": before, **data}, **HTMX)
    assert response.status_code == 200
    assert message in response.text
    game.refresh_from_db()
    assert game.ply == before
    assert Move.objects.filter(game=game).count() == before


def test_unaffordable_space_is_refused(client_for, players, start_game, seeded):
    rng = seeded(8)
    game = start_game(players[:2], variant="pavilion")

    def unaffordable(engine: Any) -> bool:
        if engine.phase != "place":
            return False
        hand = engine.hands[engine.to_move()]
        board = engine.boards[engine.to_move()]
        return any(
            hand[c] and c != engine.wild and hand[c] + hand[engine.wild] < 6
            for c in range(6)
        ) and any(board[STARS.index(COLOURS[c]) * 6 + 5] < 0 for c in range(6))

    engine = _advance(game, unaffordable, rng)
    seat = engine.to_move()
    hand = engine.hands[seat]
    colour = next(
        c
        for c in range(6)
        if hand[c]
        and c != engine.wild
        and hand[c] + hand[engine.wild] < 6
        and engine.boards[seat][STARS.index(COLOURS[c]) * 6 + 5] < 0
    )
    wilds = min(hand[engine.wild], 5)
    name = COLOURS[colour]
    _refused_placement(
        client_for(_mover(game)),
        game,
        {"kind": "place", "space": f"{name}-6", "payment": f"{name}:{wilds}"},
        f"costs 6: with {wilds} wild you need {6 - wilds} {name}",
    )


def test_wild_only_payment_is_refused(client_for, players, start_game, seeded):
    rng = seeded(9)
    game = start_game(players[:2], variant="pavilion")

    def wild_rich(engine: Any) -> bool:
        if engine.phase != "place":
            return False
        seat = engine.to_move()
        return engine.hands[seat][engine.wild] >= 1 and any(
            engine.boards[seat][STARS.index(COLOURS[c]) * 6] < 0
            for c in range(6)
            if c != engine.wild
        )

    engine = _advance(game, wild_rich, rng)
    seat = engine.to_move()
    colour = next(
        c
        for c in range(6)
        if c != engine.wild and engine.boards[seat][STARS.index(COLOURS[c]) * 6] < 0
    )
    name = COLOURS[colour]
    # space 1 costs 1: paying it with one wild and no tile of its colour
    message = (
        "pay at least one"
        if engine.hands[seat][colour]
        else f"You need at least one {name} tile"
    )
    _refused_placement(
        client_for(_mover(game)),
        game,
        {"kind": "place", "space": f"{name}-1", "payment": f"{name}:1"},
        message,
    )


def test_colour_already_in_the_centre_star_is_refused(
    client_for, players, start_game, seeded
):
    rng = seeded(12)
    game = start_game(players[:2], variant="pavilion")

    def repeat_possible(engine: Any) -> bool:
        if engine.phase != "place":
            return False
        seat = engine.to_move()
        board = engine.boards[seat]
        centre = [board[i] for i in range(6)]
        hand = engine.hands[seat]
        return any(c >= 0 and hand[c] for c in centre) and -1 in centre

    engine = _advance(game, repeat_possible, rng)
    seat = engine.to_move()
    board = engine.boards[seat]
    colour = next(
        board[i] for i in range(6) if board[i] >= 0 and engine.hands[seat][board[i]]
    )
    empty = next(i for i in range(6) if board[i] < 0) + 1
    name = COLOURS[colour]
    _refused_placement(
        client_for(_mover(game)),
        game,
        {"kind": "place", "space": f"center-{empty}", "payment": f"{name}:0"},
        f"The centre star already holds {name}",
    )


def test_grey_star_with_two_colours_takes_only_new_colours(
    client_for, players, start_game, seeded
):
    rng = seeded(21)
    game = start_game(players[:2], variant="pavilion-grey")

    def mixed_star(engine: Any) -> bool:
        if engine.phase != "place":
            return False
        seat = engine.to_move()
        board, hand = engine.boards[seat], engine.hands[seat]
        for star in range(7):
            present = {board[star * 6 + i] for i in range(6)} - {-1}
            open_space = -1 in board[star * 6 : star * 6 + 6]
            if len(present) >= 2 and open_space and any(hand[c] for c in present):
                return True
        return False

    engine = _advance(game, mixed_star, rng)
    seat = engine.to_move()
    board, hand = engine.boards[seat], engine.hands[seat]
    for star in range(7):
        present = {board[star * 6 + i] for i in range(6)} - {-1}
        if len(present) >= 2 and -1 in board[star * 6 : star * 6 + 6]:
            repeated = [c for c in present if hand[c]]
            if repeated:
                break
    space = next(i for i in range(6) if board[star * 6 + i] < 0) + 1
    _refused_placement(
        client_for(_mover(game)),
        game,
        {
            "kind": "place",
            "space": f"{STARS[star]}-{space}",
            "payment": f"{COLOURS[repeated[0]]}:0",
        },
        "already holds",
    )


def test_bonus_tiles_are_chosen_after_completing_a_structure(
    client_for, players, start_game, seeded
):
    rng = seeded(2)
    game = start_game(players[:2], variant="pavilion")
    engine = _advance(game, lambda e: e.phase == "bonus", rng)
    seat = engine.to_move()
    owed = engine.bonus_owed
    client = client_for(_mover(game))
    page = client.get(reverse("games:detail", args=[game.pk])).text
    assert "bonus tile" in page and 'name="kind" value="bonus"' in page
    # too few tiles: refused, nothing changes
    colour = next(c for c in range(6) if engine.supply[c])
    if owed > 1:
        _refused_placement(
            client,
            game,
            {"kind": "bonus", f"bonus_{COLOURS[colour]}": 1},
            f"Choose exactly {owed} tiles from the supply",
        )
    # more of a colour than the supply holds: refused
    _refused_placement(
        client,
        game,
        {"kind": "bonus", f"bonus_{COLOURS[colour]}": engine.supply[colour] + 1},
        "Choose exactly" if engine.supply[colour] + 1 != owed else "The supply holds",
    )
    game.refresh_from_db()
    move = next(m for m in engine.legal_moves() if isinstance(m, Bonus))
    response = _post(client, game, pavilion_post_data(move, game.ply), **HTMX)
    assert 'class="error"' not in response.text
    engine = _engine(game)
    entry = next(e for e in reversed(engine.log) if e["type"] == "bonus")
    assert (entry["seat"], entry["tiles"]) == (seat, [COLOURS[c] for c in move.tiles])
    assert zones(response.text) == engine_zones(engine)
    name = game.seats.get(number=seat).name
    taken = ", ".join(COLOURS[c] for c in move.tiles)
    assert f"{name} took {taken} as a bonus" in response.text


def test_pass_shows_the_point_loss_then_keeps_the_chosen_tiles(
    client_for, players, start_game, seeded
):
    rng = seeded(6)
    game = start_game(players[:2], variant="pavilion")
    engine = _advance(
        game,
        lambda e: e.phase == "place" and e.round < 6 and sum(e.hands[e.to_move()]) >= 6,
        rng,
    )
    seat = engine.to_move()
    hand = engine.hands[seat]
    keep = [c for c in range(6) for _n in range(hand[c])][:3]
    query = {"pass": "1"}
    for c in keep:
        query[f"keep_{COLOURS[c]}"] = str(keep.count(c))
    score = engine.scores[seat]
    discarded = sum(hand) - 3
    lost = min(discarded, score - 1)
    client = client_for(_mover(game))
    url = reverse("games:detail", args=[game.pk])
    page = client.get(url, query).text
    assert (
        f"You discard {discarded} tiles and lose {lost} points "
        f"(score {score} → {score - lost})." in page
    )
    data = {"expected_ply": game.ply, "kind": "pass"}
    data.update({k: v for k, v in query.items() if k.startswith("keep_")})
    response = _post(client, game, data, **HTMX)
    assert 'class="error"' not in response.text
    engine = _engine(game)
    entry = next(e for e in reversed(engine.log) if e["type"] == "pass")
    assert entry["seat"] == seat
    assert entry["kept"] == [COLOURS[c] for c in sorted(keep)]
    assert len(entry["discarded"]) == discarded
    assert entry["penalty"] == lost
    assert zones(response.text)[f"corners-{seat}"] == Counter(COLOURS[c] for c in keep)
    assert zones(response.text)[f"hand-{seat}"] == Counter()
    assert "passed, keeping" in response.text


def test_keeping_five_tiles_is_refused(client_for, players, start_game, seeded):
    rng = seeded(6)
    game = start_game(players[:2], variant="pavilion")
    engine = _advance(
        game,
        lambda e: e.phase == "place" and e.round < 6 and sum(e.hands[e.to_move()]) >= 5,
        rng,
    )
    hand = engine.hands[engine.to_move()]
    keep = [c for c in range(6) for _n in range(hand[c])][:5]
    data = {"kind": "pass"}
    for c in keep:
        data[f"keep_{COLOURS[c]}"] = keep.count(c)
    client = client_for(_mover(game))
    _refused_placement(client, game, data, "You may keep at most 4 tiles.")
    # the preview refuses it too, and offers no pass button
    query = {"pass": "1", **{k: str(v) for k, v in data.items() if k != "kind"}}
    page = client.get(reverse("games:detail", args=[game.pk]), query).text
    assert "You may keep at most 4 tiles." in page
    assert "Pass now" not in page


# ------------------------------------------------- tiles chosen by clicking

STEP = re.compile(
    r'<a id="pv-(?:bonus|keep)-(add|remove)-([a-z]+)" class="pv-step[^"]*" '
    r'href="([^"]+)"'
)


def _steps(page: str) -> dict[tuple[str, str], str]:
    """The stepper links of a page: (add/remove, colour) → where they lead."""
    return {(m[1], m[2]): unescape(m[3]) for m in STEP.finditer(page)}


def _hidden_counts(page: str, prefix: str) -> dict[str, int]:
    found = re.findall(
        rf'<input type="hidden" name="({prefix}_[a-z]+)" value="(\d+)">', page
    )
    return {name: int(value) for name, value in found}


def _pass_cost(page: str) -> str:
    return unescape(page.split('class="pv-cost">', 1)[1].split("</span>", 1)[0])


def test_bonus_tiles_are_chosen_by_clicking_tiles_without_a_script(
    client_for, players, start_game, seeded
):
    rng = seeded(2)
    game = start_game(players[:2], variant="pavilion")
    engine = _advance(game, lambda e: e.phase == "bonus", rng)
    seat, owed, supply = engine.to_move(), engine.bonus_owed, list(engine.supply)
    client = client_for(_mover(game))
    page = client.get(reverse("games:detail", args=[game.pk])).text
    assert 'type="number"' not in page
    assert re.search(r'class="dest legal pv-primary" disabled>Take the bonus', page)
    wanted: list[int] = []
    for colour in reversed(range(6)):
        while supply[colour] > wanted.count(colour) and len(wanted) < owed:
            wanted.append(colour)
    for index, colour in enumerate(wanted):
        page = client.get(_steps(page)[("add", COLOURS[colour])]).text
        chosen = wanted[: index + 1].count(colour)
        link = page.split(f'id="pv-bonus-add-{COLOURS[colour]}"', 1)[1]
        assert f"{chosen} of {supply[colour]}</span>" in link.split("</li>", 1)[0]
    # all owed tiles chosen: no tile takes one more, the button plays them
    assert not [key for key in _steps(page) if key[0] == "add"]
    assert 'class="dest legal pv-primary">Take the bonus tiles' in page
    data = {"expected_ply": game.ply, "kind": "bonus"}
    data.update(_hidden_counts(page, "bonus"))
    assert _post(client, game, data).status_code == 302
    engine = _engine(game)
    entry = next(e for e in reversed(engine.log) if e["type"] == "bonus")
    assert entry["seat"] == seat
    assert Counter(entry["tiles"]) == Counter(COLOURS[c] for c in wanted)


def test_each_tile_kept_redraws_the_cost_of_the_pass_without_a_script(
    client_for, players, start_game, seeded
):
    rng = seeded(6)
    game = start_game(players[:2], variant="pavilion")
    engine = _advance(
        game,
        lambda e: e.phase == "place" and e.round < 6 and sum(e.hands[e.to_move()]) >= 6,
        rng,
    )
    seat = engine.to_move()
    hand, score = engine.hands[seat], engine.scores[seat]

    def cost(keep: list[int]) -> str:
        probe = engine.copy()
        probe.play(Pass(seat, tuple(sorted(keep))))
        entry = probe.log[len(engine.log)]
        count, lost = len(entry["discarded"]), entry["penalty"]
        return (
            f"You discard {count} tile{'s' if count != 1 else ''} and lose {lost} "
            f"points (score {score} → {score - lost})."
        )

    client = client_for(_mover(game))
    page = client.get(reverse("games:detail", args=[game.pk])).text
    assert "Show what passing costs" not in page and 'type="number"' not in page
    assert _pass_cost(page) == cost([])  # shown before any choice
    kept: list[int] = []
    for colour in [c for c in range(6) for _n in range(hand[c])][:4]:
        page = client.get(_steps(page)[("add", COLOURS[colour])]).text
        kept.append(colour)
        assert _pass_cost(page) == cost(kept)
        assert _hidden_counts(page, "keep") == {
            f"keep_{name}": kept.count(c) for c, name in enumerate(COLOURS)
        }
    # four kept: no tile keeps one more; − keeps one fewer
    assert not [key for key in _steps(page) if key[0] == "add"]
    page = client.get(_steps(page)[("remove", COLOURS[kept[-1]])]).text
    kept.pop()
    assert _pass_cost(page) == cost(kept)
    data = {"expected_ply": game.ply, "kind": "pass"}
    data.update(_hidden_counts(page, "keep"))
    assert _post(client, game, data).status_code == 302
    entry = next(e for e in reversed(_engine(game).log) if e["type"] == "pass")
    assert entry["seat"] == seat and entry["kept"] == [COLOURS[c] for c in sorted(kept)]


def test_wrong_player_stale_page_and_forged_form_change_nothing(
    client_for, players, start_game, seeded
):
    rng = seeded(1)
    game = start_game(players[:2], variant="pavilion")
    engine = _engine(game)
    move = pavilion_choose(engine, rng)
    data = pavilion_post_data(move, game.ply)
    other = next(u for u in players[:2] if u.pk != _mover(game).pk)
    _refused_placement(client_for(other), game, data, "It is not your turn.")
    mover = client_for(_mover(game))
    _refused_placement(
        mover, game, {**data, "expected_ply": game.ply + 1}, "The board changed"
    )
    _refused_placement(mover, game, {**data, "kind": "castle"}, "could not be read")
    _refused_placement(mover, game, {**data, "source": "99"}, "not possible")
    # a second click of the same move: the first plays, the second is stale
    assert _post(mover, game, data).status_code == 302
    game.refresh_from_db()
    ply = game.ply
    _refused_placement(mover, game, data, "The board changed")
    assert game.ply == ply


def test_resigning_a_pavilion_game_ranks_by_current_score(
    client_for, players, start_game
):
    game = start_game(players[:2], variant="pavilion")
    client = client_for(players[1])
    response = client.post(reverse("games:resign", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    ranks = {s.user.username: (s.rank, s.score) for s in game.seats.all()}
    # Equal scores, but the one who resigned ranks after the one still playing.
    assert ranks["binh"] == (2, 5)
    assert ranks["ana"] == (1, 5)


def test_lobby_offers_both_pavilion_sides(client_for, players):
    client = client_for(players[0])
    page = client.get(reverse("games:new")).text
    assert 'value="pavilion"' in page and 'value="pavilion-grey"' in page
    response = client.post(
        reverse("games:new"),
        {"variant": "pavilion-grey", "players": "2", "time_control": "daily"},
    )
    assert response.status_code == 302
    assert Game.objects.get().variant == "pavilion-grey"


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_the_move_log_says_who_resigned_and_that_the_site_plays_on(
    client_for, players, start_game, variant
):
    game = start_game(players[:3], variant=variant)
    services.game_resign(game_id=game.pk, user=players[1])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    page = client_for(players[0]).get(reverse("games:detail", args=[game.pk]))
    text = page.content.decode()
    assert "binh resigned; the site plays their turns from now on." in text
    assert "binh resigned; the site plays their turns." in text  # beside the board
