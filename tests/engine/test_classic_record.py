"""Classic game records (``docs/record.md``): export, import, replay, commands."""

from __future__ import annotations

import json

import pytest

from games.engine import record
from games.engine.__main__ import main
from games.engine.common import RecordError


def finished(variant: str = "classic", players: int = 2, seed: int = 7) -> dict:
    game = record.random_game(variant, players, seed)
    return record.export(game, record.default_names(players))


def test_export_has_the_spec_header_and_result() -> None:
    data = finished("classic", 3, 7)
    assert list(data)[:6] == [
        "format",
        "version",
        "variant",
        "players",
        "first_seat",
        "events",
    ]
    assert data["format"] == "azul-record" and data["version"] == 1
    assert data["players"] == ["ana", "binh", "chloe"]
    assert set(data["result"]) >= {"scores", "winners", "ranks"}
    assert "deal" in data["events"][0]


@pytest.mark.parametrize("variant", ["classic", "classic-grey"])
def test_export_import_round_trip(variant: str) -> None:
    data = finished(variant, 4, 11)
    loaded = record.load(json.dumps(data))
    assert loaded.names == data["players"]
    assert record.export(loaded.game, loaded.names) == data


def test_grey_record_has_wall_events() -> None:
    data = finished("classic-grey", 2, 3)
    assert any("wall" in event for event in data["events"])


def test_illegal_event_is_refused_with_index_and_reason() -> None:
    data = finished("classic", 2, 7)
    index = next(i for i, e in enumerate(data["events"]) if "from" in e)
    data["events"][index]["seat"] = 1 - data["events"][index]["seat"]
    with pytest.raises(RecordError, match=rf"^event {index}: it is seat \d's turn"):
        record.load(data)


def test_a_refused_event_keeps_the_engines_refusal_for_a_site_to_word() -> None:
    """``str()`` counts from 0 like the record (a bot author's view); the cause's
    code and params let a site count from 1 in its players' language."""
    data = finished("classic", 2, 7)
    data["events"][1] = {**data["events"][1], "from": 9}
    with pytest.raises(RecordError) as refused:
        record.load(data)
    error = refused.value
    assert str(error) == "event 1: there is no factory 9"
    assert (error.index, error.variant) == (1, "classic")
    assert error.cause is not None
    assert (error.cause.code, error.cause.params) == (
        "no_such_factory",
        {"source": 9, "factories": 5},
    )
    data["events"][1:] = [[]]
    with pytest.raises(RecordError) as refused:
        record.load(data)
    assert refused.value.cause is not None
    assert refused.value.cause.code == "not_an_object"


def test_wall_row_message_names_seat_colour_line_and_reason() -> None:
    events = [
        {"deal": [["red"] * 4, ["red"] * 4, ["blue"] * 4, ["blue"] * 4, ["white"] * 4]},
        {"seat": 0, "from": 0, "colour": "red", "to": 0},
        {"seat": 1, "from": 1, "colour": "red", "to": 0},
        {"seat": 0, "from": 2, "colour": "blue", "to": 3},
        {"seat": 1, "from": 3, "colour": "blue", "to": 3},
        {"seat": 0, "from": 4, "colour": "white", "to": 4},
        # nobody took from the centre: seat 0 starts round 2 again
        {"deal": [["red"] * 4] * 3 + [["yellow"] * 4] * 2},
        {"seat": 0, "from": 0, "colour": "red", "to": 0},
    ]
    data = {
        "format": "azul-record",
        "version": 1,
        "variant": "classic",
        "players": ["ana", "binh"],
        "first_seat": 0,
        "events": events,
    }
    with pytest.raises(RecordError) as info:
        record.load(data)
    assert str(info.value) == (
        "event 7: seat 0 cannot place red on line 0: wall row 0 already has red"
    )
    assert info.value.index == 7


def test_deal_must_list_every_factory() -> None:
    data = finished("classic", 2, 7)
    data["events"] = data["events"][:1]
    data["events"][0]["deal"].append([])
    with pytest.raises(RecordError, match="event 0: a deal lists 5 factories, not 6"):
        record.load(data)


def test_deal_out_of_turn_is_refused() -> None:
    data = finished("classic", 2, 7)
    data["events"].insert(1, data["events"][0])
    with pytest.raises(RecordError, match="event 1: no deal is due now"):
        record.load(data)


def test_twenty_first_tile_of_a_colour_is_refused() -> None:
    deal = [["blue"] * 4] * 5
    data = {
        "format": "azul-record",
        "version": 1,
        "variant": "classic",
        "players": ["a", "b"],
        "first_seat": 0,
        "events": [{"deal": deal}],
    }
    record.load(data)
    data["events"][0]["deal"] = [["blue"] * 4] * 4 + [["blue", "blue", "blue", "red"]]
    record.load(data)
    data = {
        **data,
        "variant": "classic",
        "players": ["a", "b", "c"],
        "events": [{"deal": [["blue"] * 4] * 6 + [["red"] * 4]}],
    }
    with pytest.raises(RecordError, match="event 0: factory 5: no blue tile"):
        record.load(data)


def test_event_after_the_end_is_refused() -> None:
    data = finished("classic", 2, 7)
    data["events"].append(data["events"][-1])
    with pytest.raises(RecordError, match=rf"event {len(data['events']) - 1}: "):
        record.load(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "pgn"}, 'record: "format" must be "azul-record"'),
        ({"version": 2}, 'record: "version" must be 1'),
        ({"version": True}, 'record: "version" must be 1'),
        ({"variant": "chess"}, 'record: "variant" must be one of'),
        ({"players": ["solo"]}, 'record: "players" must list 2 to 4 names'),
        ({"first_seat": 2}, 'record: "first_seat" must be a seat number'),
        ({"events": {}}, 'record: "events" must be a list'),
    ],
)
def test_malformed_header_is_refused(change: dict, message: str) -> None:
    data = {**finished(), **change}
    with pytest.raises(RecordError, match=message):
        record.load(data)


def test_event_with_two_kinds_or_none_is_refused() -> None:
    data = finished()
    data["events"][1]["deal"] = []
    with pytest.raises(RecordError, match="event 1: an event holds exactly one of"):
        record.load(data)
    data["events"][1] = {"seat": 0}
    with pytest.raises(RecordError, match="event 1: an event holds exactly one of"):
        record.load(data)


def test_unknown_keys_are_ignored() -> None:
    data = finished()
    data["events"][1]["comment"] = "a later version's field"
    data["annotator"] = "someone"
    assert record.load(data).game.is_over()


def test_result_is_ignored_and_recomputed_on_import() -> None:
    data = finished()
    true_result = data["result"]
    data["result"] = {"scores": [999, 999], "winners": [0, 1], "ranks": [1, 1]}
    loaded = record.load(data)
    assert loaded.game.result() == true_result


def test_pavilion_events_are_illegal_in_classic() -> None:
    data = finished()
    data["events"][1] = {"seat": 0, "pass": {"keep": []}}
    with pytest.raises(RecordError, match='event 1: a classic game has no "pass"'):
        record.load(data)


def test_colour_and_source_syntax() -> None:
    data = finished()
    take = next(e for e in data["events"] if "from" in e)
    index = data["events"].index(take)
    take["colour"] = "Blue"
    with pytest.raises(RecordError, match=rf"event {index}: 'Blue' is not a classic"):
        record.load(data)
    take["colour"] = "blue"
    take["from"] = "centre"
    with pytest.raises(RecordError, match=f'event {index}: "from" is a factory'):
        record.load(data)


def test_replay_summary_matches_the_game() -> None:
    game = record.random_game("classic", 3, 21)
    data = record.export(game, ["a", "b", "c"])
    summary = record.replay_summary(data)
    assert summary["final_scores"] == list(game.outcome().scores)
    assert summary["winners"] == list(game.outcome().winners)
    assert summary["round_scores"] == game.round_scores
    assert len(summary["round_scores"]) == game.round


def test_unfinished_record_is_refused_by_replay() -> None:
    data = finished()
    del data["result"]
    data["events"] = data["events"][:12]
    assert not record.load(data).game.is_over()  # importable, to view
    with pytest.raises(RecordError, match="^event 12: the record ends before"):
        record.replay_summary(data)


def test_replay_command_prints_the_summary(tmp_path, capsys) -> None:
    data = finished("classic-grey", 3, 5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["round_scores", "final_scores", "winners"]
    assert out["final_scores"] == data["result"]["scores"]


def test_replay_command_refuses_illegal_record(tmp_path, capsys) -> None:
    data = finished()
    data["events"][1]["to"] = 9
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("event 1: ")


def test_replay_command_refuses_bad_json(tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err.startswith("record: not valid JSON")


def test_random_command_is_deterministic_and_replayable(tmp_path, capsys) -> None:
    args = ["random", "--variant", "classic", "--players", "3", "--seed", "7"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert data["variant"] == "classic" and len(data["players"]) == 3
    assert record.replay_summary(data)["final_scores"] == data["result"]["scores"]
    assert main([*args[:-1], "8"]) == 0
    assert capsys.readouterr().out != first
