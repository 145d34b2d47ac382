"""Summer Pavilion records (``docs/record.md``): round trips, import errors, CLI."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from games.engine.__main__ import main
from games.engine.common import RecordError
from games.engine.pavilion import PavilionGame
from games.engine.record import (
    default_names,
    export,
    load,
    random_game,
    replay_summary,
)


def record_of(variant: str, players: int, seed: int) -> dict[str, Any]:
    game = random_game(variant, players, seed)
    return export(game, default_names(players))


@pytest.mark.parametrize("variant", ["pavilion", "pavilion-grey"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_record_round_trip_reproduces_state_and_result(
    variant: str, players: int
) -> None:
    game = random_game(variant, players, 11)
    assert isinstance(game, PavilionGame)
    record = json.loads(json.dumps(export(game, default_names(players))))
    assert record["variant"] == variant
    again = load(record).game
    assert isinstance(again, PavilionGame)
    assert again.events() == game.events() == record["events"]
    assert again.result() == game.result() == record["result"]
    assert again.boards == game.boards and again.scores == game.scores
    assert again.round_scores == game.round_scores and len(game.round_scores) == 6
    assert again.log == game.log
    assert again.score_log == game.score_log


def test_record_events_have_the_spec_shapes() -> None:
    record = record_of("pavilion", 3, 4)
    events = record["events"]
    assert set(events[0]) == {"supply"} and len(events[0]["supply"]) == 10
    assert set(events[1]) == {"deal"} and len(events[1]["deal"]) == 7
    keys = {
        frozenset(k for k in event if k != "seat")
        for event in events
        if "seat" in event
    }
    assert keys <= {
        frozenset({"from", "colour"}),
        frozenset({"star", "space", "colour", "wilds"}),
        frozenset({"bonus"}),
        frozenset({"pass"}),
    }
    assert "pass" in events[-1]
    assert sum("deal" in event for event in events) == 6
    assert set(record["result"]) >= {"scores", "winners", "ranks"}


def test_unfinished_record_exports_and_loads_but_replay_refuses_it() -> None:
    record = record_of("pavilion", 2, 3)
    record["events"] = record["events"][:40]
    del record["result"]
    game = load(record).game
    assert not game.is_over()
    assert export(game, ["ana", "binh"]) == record
    with pytest.raises(RecordError, match="event 40: the record ends before"):
        replay_summary(record)


def first_index(events: list[dict[str, Any]], key: str) -> int:
    return next(i for i, event in enumerate(events) if key in event)


def test_illegal_event_names_its_index_and_reason() -> None:
    record = record_of("pavilion", 2, 5)
    bad = copy.deepcopy(record)
    index = first_index(bad["events"], "from")
    bad["events"][index]["seat"] = 1 - bad["events"][index]["seat"]
    with pytest.raises(RecordError) as error:
        load(bad)
    assert error.value.index == index
    assert str(error.value).startswith(f"event {index}: it is seat ")

    bad = copy.deepcopy(record)
    index = first_index(bad["events"], "star")
    bad["events"][index]["wilds"] = 9
    with pytest.raises(RecordError, match=rf"event {index}: .*wild"):
        load(bad)

    bad = copy.deepcopy(record)
    bad["events"][1]["deal"][0] = bad["events"][1]["deal"][0][:3]
    with pytest.raises(RecordError, match="event 1: factory 0 gets 3 tiles"):
        load(bad)

    bad = copy.deepcopy(record)
    bad["events"].append({"seat": 0, "pass": {"keep": []}})
    with pytest.raises(RecordError, match=f"event {len(record['events'])}: "):
        load(bad)


def test_cli_random_and_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for variant in ("pavilion", "pavilion-grey"):
        assert (
            main(["random", "--variant", variant, "--players", "3", "--seed", "7"]) == 0
        )
        text = capsys.readouterr().out
        record = json.loads(text)
        assert record["variant"] == variant and len(record["players"]) == 3
        assert (
            main(["random", "--variant", variant, "--players", "3", "--seed", "7"]) == 0
        )
        assert capsys.readouterr().out == text  # the same for the same seed
        path = tmp_path / f"{variant}.json"
        path.write_text(text)
        assert main(["replay", str(path)]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary == {
            "round_scores": record["result"]["round_scores"],
            "final_scores": record["result"]["scores"],
            "winners": record["result"]["winners"],
        }
        assert len(summary["round_scores"]) == 6


def test_cli_replay_of_an_illegal_record_fails_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_of("pavilion-grey", 4, 2)
    index = first_index(record["events"], "bonus")
    record["events"][index]["bonus"] = []
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"event {index}: you must choose ")
