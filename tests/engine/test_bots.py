"""Computer players (games/engine/bots.py): legal, deterministic, honest; suggest."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine import bots
from games.engine.__main__ import main
from games.engine.record import default_names, dumps, export, load, new_game
from games.engine.variants import VARIANT_NAMES

TINY = 0.01  # strong's budget in these tests: the minimum node count


def play_until(
    variant: str, players: int, seed: int, stop: Any, limit: int = 2000
) -> Any:
    """A game played at random from ``seed`` until ``stop(game)`` (or its end)."""
    rng = random.Random(seed)
    game = new_game(variant, players, first_seat=rng.randrange(players))
    for _ in range(limit):
        if game.is_over():
            break
        if game.needs_chance():
            game.chance(rng)
            continue
        if stop(game):
            break
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    return game


def positions(variant: str, players: int) -> list[Any]:
    """Random positions covering every decision phase of ``variant``."""
    if variant.startswith("classic"):
        wanted = ["offer", "offer"] + (["tiling"] if variant == "classic-grey" else [])
    else:
        wanted = ["take", "place", "bonus"]
    found: list[Any] = []
    for index, phase in enumerate(wanted):
        for seed in range(40):
            skip = (seed * 7 + index * 13) % 30
            seen = iter(range(10_000))

            def stop(
                game: Any, phase: str = phase, skip: int = skip, seen: Any = seen
            ) -> bool:
                return bool(
                    next(seen) > skip
                    and game.phase == phase
                    and len(game.legal_moves()) > 1
                )

            game = play_until(variant, players, 1000 * index + seed, stop)
            if game.phase == phase and not game.is_over():
                found.append(game)
                break
        else:
            pytest.fail(f"no {phase} position found for {variant}")
    return found


def snapshot(game: Any) -> Any:
    return (
        json.dumps(game.events()),
        list(game.scores),
        game.phase,
        game.to_move(),
        [str(m) for m in game.legal_moves()],
        repr(sorted((k, repr(v)) for k, v in _state(game).items())),
    )


def _state(game: Any) -> dict[str, Any]:
    names = getattr(type(game), "__slots__", None) or vars(game).keys()
    result = {}
    for name in names:
        value = getattr(game, name)
        if name == "boards" and game.variant.startswith("classic"):
            value = [
                (b.score, b.line_colour, b.line_count, b.wall, b.floor, b.allowed)
                for b in value
            ]
        result[name] = value
    return result


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_returns_a_legal_move_without_changing_the_game(
    variant: str, players: int
) -> None:
    for game in positions(variant, players):
        before = snapshot(game)
        legal = game.legal_moves()
        for level in bots.LEVELS + bots.REFERENCE_LEVELS:
            move = bots.choose(game, level, seconds=TINY, seed=3)
            assert move in legal, (level, game.phase, move)
            assert snapshot(game) == before
        game.play(move)  # the checked entry point accepts it too


@pytest.mark.parametrize("variant", ["classic", "classic-grey", "pavilion"])
def test_the_same_seed_gives_the_same_decision(variant: str) -> None:
    for game in positions(variant, 2):
        for level in bots.LEVELS + bots.REFERENCE_LEVELS:
            first = bots.choose(game, level, seconds=0.05, seed=11)
            again = bots.choose(game.copy(), level, seconds=0.05, seed=11)
            assert first == again


def test_the_bot_leaves_the_global_random_generator_alone() -> None:
    game = positions("pavilion", 3)[1]
    state = random.getstate()
    bots.choose(game, "strong", seconds=0.05, seed=5)
    assert random.getstate() == state


def _shuffled_draws(events: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """The same events with every draw listed in another order (another history)."""
    rng = random.Random(seed)
    result = []
    for event in events:
        event = json.loads(json.dumps(event))
        if "deal" in event:
            for tiles in event["deal"]:
                rng.shuffle(tiles)
        result.append(event)
    return result


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_decision_depends_only_on_public_state(variant: str) -> None:
    # Two records that differ only in the order tiles came out of the bag: the
    # tables look the same, so the decision must be the same.
    game = play_until(variant, 2, 21, lambda g: len(g.events()) > 30)
    record = export(game, default_names(2))
    other = dict(record, events=_shuffled_draws(record["events"], 4))
    assert other["events"] != record["events"]
    twin = load(other).game
    assert twin.legal_moves() == game.legal_moves()
    for level in bots.LEVELS:
        assert bots.choose(game, level, seconds=0.05, seed=2) == bots.choose(
            twin, level, seconds=0.05, seed=2
        )


# ---------------------------------------------------------------- suggest


def _write(tmp_path: Path, record: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else dumps(record))
    return path


def test_suggest_prints_one_event_for_the_seat_to_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for variant in ("classic-grey", "pavilion"):
        game = play_until(variant, 3, 8, lambda g: len(g.events()) > 25)
        path = _write(tmp_path, export(game, default_names(3)))
        argv = ["suggest", "--level", "strong", "--seconds", "0.05", str(path)]
        assert main(argv) == 0
        out = capsys.readouterr().out
        event = json.loads(out)
        assert out.count("\n") == 1
        assert event["seat"] == game.to_move()
        game.apply_event(event)  # a legal record event
        assert main([*argv[:-1], "--seed", "4", str(path)]) == 0
        assert json.loads(capsys.readouterr().out)["seat"] == event["seat"]


def _refusal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert captured.out == ""
    return code, captured.err


def test_suggest_refuses_a_malformed_record_as_replay_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play_until("classic", 2, 3, lambda g: len(g.events()) > 10)
    record = export(game, default_names(2))
    record["events"][5] = {"seat": 7, "from": 0, "colour": "red", "to": 1}
    for bad in (record, "{not json", {"format": "azul-record", "version": 2}):
        path = _write(tmp_path, bad)
        replayed = _refusal(capsys, ["replay", str(path)])
        suggested = _refusal(capsys, ["suggest", "--level", "easy", str(path)])
        assert replayed[0] == suggested[0] == 1
        assert suggested[1] == replayed[1]


def test_suggest_refuses_a_finished_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play_until("pavilion", 2, 5, lambda g: False, limit=10_000)
    assert game.is_over()
    events = len(game.events())
    path = _write(tmp_path, export(game, default_names(2)))
    code, err = _refusal(capsys, ["suggest", "--level", "medium", str(path)])
    assert code == 1
    assert err.startswith(f"event {events}: the game is over")


def test_suggest_says_when_a_deal_is_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = new_game("classic", 2)
    rng = random.Random(6)
    while game.round < 2 or not game.needs_chance():
        if game.needs_chance():
            game.chance(rng)
        else:
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
    path = _write(tmp_path, export(game, default_names(2)))
    code, err = _refusal(capsys, ["suggest", "--level", "easy", str(path)])
    assert code != 0
    assert "deal" in err


# ---------------------------------------------------------------- strength


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_strong_beats_random_play_at_a_tiny_budget(variant: str) -> None:
    for seed in range(2):
        rng = random.Random(seed)
        game = new_game(variant, 2, first_seat=seed)
        while not game.is_over():
            if game.needs_chance():
                game.chance(rng)
            elif game.to_move() == 0:
                game.play(bots.choose(game, "strong", seconds=TINY, seed=seed))
            else:
                moves = game.legal_moves()
                game.push(moves[rng.randrange(len(moves))])
        assert game.scores[0] > game.scores[1]
