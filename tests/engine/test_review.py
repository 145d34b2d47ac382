"""The review of a finished game (games/engine/review.py, issue #27 item 3):
a planted blunder is labelled a blunder, forced decisions never are, luck
averages about zero over the draws, and only finished games are reviewed."""

from __future__ import annotations

import json
import random
import statistics
from dataclasses import replace
from pathlib import Path

import pytest

from games.engine import bots
from games.engine.__main__ import main
from games.engine.evaluate import evaluate
from games.engine.record import default_names, dumps, export, load, new_game
from games.engine.review import (
    ALTERNATIVES_KEPT,
    CANDIDATES,
    DEFAULT_SECONDS,
    FORMAT_VERSION,
    JUDGE_TIMES,
    THRESHOLDS,
    Review,
    _weigh,
    judge_nodes,
    label,
    luck,
    review,
)
from games.engine.variants import find_variant


def _medium_game(variant: str, seed: int, plant_at_round: int | None = None):
    """A game of two medium computers; with ``plant_at_round``, the first
    decision from that round on whose worst choice is 20 points worse than its
    best, by a deep search of each, is that worst choice.
    Returns the game and the planted event's index (or None)."""
    rng = random.Random(seed)
    game = new_game(variant, 2)
    planted = None
    while not game.is_over():
        if game.needs_chance():
            game.chance(rng)
            continue
        moves = game.legal_moves()
        if planted is None and plant_at_round and game.round >= plant_at_round:
            # the worst decision by a deep search of each (the review's
            # judge), where it is far worse than the best
            weighed = sorted(
                bots.weigh(game, moves, nodes=1000 * len(moves)),
                key=lambda w: w.value,
            )
            if len(weighed) > 1 and weighed[-1].value - weighed[0].value >= 20:
                planted = len(game.events())
                game.push(weighed[0].decision)
                continue
        game.push(bots.choose(game, "medium", seed=rng.randrange(10**6)))
    return game, planted


def _review(game, seconds: float = 0.2):
    """``game`` reviewed on the nodes ``seconds`` buy, in either family (the
    site's judge takes ``JUDGE_TIMES`` more a second: these tests need no
    more)."""
    family = find_variant(game.variant).family.name
    return review(
        game.events(),
        variant=game.variant,
        players=game.players,
        first_seat=game.first_seat,
        seconds=seconds / JUDGE_TIMES[family],
    )


def test_a_planted_blunder_is_labelled_a_blunder():
    game, planted = _medium_game("classic", 11, plant_at_round=2)
    done = _review(game, seconds=0.1)
    decision = next(d for d in done.decisions if d.event == planted)
    assert decision.label == "blunder"
    assert decision.lost >= 10
    assert decision.best != decision.played
    # the best decision is among the ones weighed, at the top
    assert done.decisions[0].alternatives[0][0] == done.decisions[0].best
    seat = done.seats[decision.seat]
    assert seat.labels["blunder"] >= 1
    assert seat.lost >= decision.lost
    assert 0 < seat.accuracy < 100


def test_forced_decisions_are_never_labelled():
    game, _ = _medium_game("classic-grey", 4)
    done = _review(game, seconds=0.05)
    replay = new_game(game.variant, 2, game.first_seat)
    forced = 0
    events = game.events()
    by_event = {d.event: d for d in done.decisions}
    for index, event in enumerate(events):
        if not replay.needs_chance() and len(replay.legal_moves()) == 1:
            forced += 1
            decision = by_event[index]
            assert (decision.forced, decision.label, decision.lost) == (True, "", 0.0)
        replay.apply_event(event)
    assert forced > 0  # a grey wall game has lines with one column left
    assert len(by_event) + len(done.chances) == len(events)
    assert len(done.timeline) == len(events)


def test_luck_averages_about_zero_over_many_deals():
    """Before a deal the evaluator averages over every deal the public counts
    allow, so a seat's luck over many deals from the same position is about
    zero (40 deals, a tolerance of 2 points: about three standard errors)."""
    rng = random.Random(8)
    game = new_game("classic", 2)
    while game.round < 2 or not game.needs_chance():
        if game.needs_chance():
            game.chance(rng)
        else:
            game.push(bots.choose(game, "medium", seed=rng.randrange(10**6)))
    before = evaluate(game, samples=600, seed=1).margins
    after_deals = []
    for draw in range(40):
        dealt = game.copy()
        event = dealt.copy().chance(random.Random(100 + draw))
        lucky, after = luck(dealt, event, samples=32, seed=draw)
        assert "deal" in event and dealt.events()[-1] == event
        assert lucky[0] == pytest.approx(-lucky[1])  # two players: one's gain
        after_deals.append(after[0])
    assert abs(statistics.fmean(after_deals) - before[0]) < 2.0


def test_labels_follow_the_stated_thresholds():
    assert [label(x) for x in (0, 1.99, 2, 4.99, 5, 9.99, 10, 30)] == [
        "",
        "",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_only_a_finished_game_is_reviewed():
    game = new_game("classic", 2)
    game.chance(random.Random(1))
    with pytest.raises(ValueError, match="only a finished game"):
        review(game.events(), variant="classic", players=2, first_seat=0)


def test_the_command_line_prints_the_review_and_refuses_an_unfinished_record(
    tmp_path, capsys
):
    game, _ = _medium_game("classic", 2)
    record = export(game, default_names(2))
    path = tmp_path / "game.json"
    path.write_text(dumps(record))
    assert main(["review", "--seconds", "0.02", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert len(printed["decisions"]) + len(printed["chances"]) == len(record["events"])
    first = printed["decisions"][0]
    assert set(first) == {
        "event",
        "seat",
        "played",
        "best",
        "lost",
        "spread",
        "label",
        "forced",
    }
    assert {c["kind"] for c in printed["chances"]} <= {"deal", "supply"}
    assert [s["seat"] for s in printed["seats"]] == [0, 1]
    assert {"lost", "luck", "accuracy", "blunder", "mistake", "inaccuracy"} <= set(
        printed["seats"][0]
    )
    record["events"] = record["events"][:9]
    path.write_text(dumps(record))
    assert main(["review", str(path)]) == 1
    assert "the record ends before the game is over" in capsys.readouterr().err


def test_a_label_needs_the_loss_to_clear_its_threshold_with_its_spread():
    assert label(11.0, 0.5) == "blunder"
    assert label(11.0, 2.0) == "mistake"  # a blunder only at its best
    assert label(3.0, 1.5) == ""  # maybe 1.5: not surely an inaccuracy
    game, _ = _medium_game("classic", 2)
    done = _review(game, seconds=0.2)
    weighed = [d for d in done.decisions if not d.forced]
    for decision in weighed:
        if decision.label:
            limit = dict(THRESHOLDS)[decision.label]
            assert decision.lost - decision.spread >= limit
    unsure = [d for d in weighed if d.lost >= 2 and d.lost - d.spread < 2]
    assert unsure and all(d.label == "" for d in unsure)
    # the decision played is always among those weighed, at its own value
    for decision in weighed:
        values = dict(
            (json.dumps(e, sort_keys=True), v) for e, v in decision.alternatives
        )
        played = values[json.dumps(decision.played, sort_keys=True)]
        assert decision.alternatives[0][1] - played == pytest.approx(decision.lost)


def test_each_seats_story_adds_up_to_its_result():
    """Expected at the start, plus luck, less its own losses, plus the
    other's (issue #34 item 3), beside the actual margin and the gap."""
    game, _ = _medium_game("classic", 5)
    done = _review(game, seconds=0.1)
    scores = game.outcome().scores
    for seat, other in ((0, 1), (1, 0)):
        story = done.seats[seat]
        assert story.actual == scores[seat] - scores[other]
        assert story.others == pytest.approx(done.seats[other].lost)
        assert story.expected == pytest.approx(
            story.start + story.luck - story.lost + story.others
        )
        assert story.gap == pytest.approx(story.actual - story.expected)
    # at two players one seat's margin is the other's, turned round
    assert done.seats[0].start == pytest.approx(-done.seats[1].start)
    printed = done.to_json()["seats"][0]
    assert printed["actual"] == scores[0] - scores[1]
    assert {"start", "others", "actual"} <= set(printed)


def test_at_two_players_the_story_is_told_on_the_judges_yardstick():
    """The deal's luck, the losses and the chart all measured by the judge
    (issue #34 item 3): after a decision the chart gives the mover the value
    the judge gave the decision played; a draw's luck is the judge's value at
    the next decision weighed less its value before the draw (a round's end:
    ``bots.margins``); so the story's gap is only the judge's second thoughts,
    from one decision to the next, and nothing else."""
    game, _ = _medium_game("classic", 5)
    done = _review(game, seconds=0.1)
    by_event = {d.event: d for d in done.decisions}
    replay = new_game(game.variant, 2, game.first_seat)
    second_thoughts = 0.0
    held: float | None = None  # seat 0's margin as the chart last gave it
    before_draw: float | None = None
    luck = {c.event: c.luck for c in done.chances}
    for index, event in enumerate(game.events()):
        decision = by_event.get(index)
        if decision is None:  # a draw: from the round's end, by the leaves' value
            if before_draw is None:
                before_draw = bots.margins(replay)[0]
                if held is not None:
                    second_thoughts += before_draw - held
                drawn = index
        elif not decision.forced:
            sign = 1 if decision.seat == 0 else -1
            best = sign * decision.alternatives[0][1]
            if before_draw is not None:
                assert luck[drawn][0] == pytest.approx(best - before_draw)
                assert luck[drawn][1] == pytest.approx(before_draw - best)
                before_draw = None
            elif held is not None:
                second_thoughts += best - held
            held = best - sign * decision.lost
            assert done.timeline[index] == pytest.approx((held, -held))
        replay.apply_event(event)
    second_thoughts += done.seats[0].actual - held
    assert done.seats[0].start == pytest.approx(bots.margins(new_game("classic", 2))[0])
    assert done.seats[0].gap == pytest.approx(second_thoughts)


@pytest.mark.parametrize("variant", ["classic", "pavilion"])
def test_a_decision_played_is_worth_what_the_next_decision_finds(variant):
    """The judge does not change its mind from one decision to the next
    (issue #34 item 3): within a round, the value of the decision played is
    the value of the best decision the next seat found, turned round (past
    any forced decision between them: Summer Pavilion has many), so the
    story of each seat adds up to its actual margin."""
    game, _ = _medium_game(variant, 5)
    done = _review(game, seconds=0.1)
    replay = new_game(game.variant, 2, game.first_seat)
    rounds = {}
    for index, event in enumerate(game.events()):
        rounds[index] = replay.round
        replay.apply_event(event)
    weighed = [d for d in done.decisions if not d.forced]
    pairs = 0
    for before, after in zip(weighed, weighed[1:], strict=False):
        if rounds[before.event] != rounds[after.event]:
            continue
        decided = {d.event for d in done.decisions}
        if any(e not in decided for e in range(before.event + 1, after.event)):
            continue  # a draw between them: its luck
        played = before.alternatives[0][1] - before.lost
        found = after.alternatives[0][1]
        assert played == pytest.approx(found if after.seat == before.seat else -found)
        pairs += 1
    assert pairs > 20
    for seat in done.seats:
        assert abs(seat.gap) < 0.5


def _round_start(game, round_number: int):
    """``game``'s position at the first decision of round ``round_number``."""
    position = new_game(game.variant, 2, game.first_seat)
    for event in game.events():
        if position.round == round_number and not position.needs_chance():
            break
        position.apply_event(event)
    return position


def test_the_others_are_worth_as_much_more_than_the_played_as_they_were_weighed():
    """The decision played takes the next decision's verdict (issue #34 item
    3); the others move with it, so the loss and its spread stay what the
    weighing of them all, at one depth, found."""
    from games.engine.review import _weigh

    game, _ = _medium_game("classic", 5)
    position = _round_start(game, 2)
    played = bots.candidates(position, 1)[0]  # the strong level's first choice
    after = position.copy()
    after.push(played)
    key = json.dumps(played.to_event(), sort_keys=True)
    alone = _weigh(position, played, 4000, 0)
    values = {json.dumps(e, sort_keys=True): v for e, v in alone.valued}
    verdicts = bots.Verdicts()
    verdicts.decided(after, 30 - values[key])  # the next: 30 points worse for it
    weighed = _weigh(position, played, 4000, 0, verdicts=verdicts)
    moved = {json.dumps(e, sort_keys=True): v for e, v in weighed.valued}
    assert moved[key] == pytest.approx(values[key] - 30)  # the verdict, turned
    assert moved == pytest.approx({k: v - 30 for k, v in values.items()})
    assert (weighed.lost, weighed.spread) == (alone.lost, alone.spread)


def test_a_verdict_is_kept_for_both_seats():
    """One seat's verdict is the other's turned round (two players, on the
    margin alone); a position no verdict was kept for has none."""
    game, _ = _medium_game("classic", 5)
    position = _round_start(game, 2)
    first, second = bots.candidates(position, 2)
    after = position.copy()
    after.push(first)
    assert after.to_move() != position.to_move()
    verdicts = bots.Verdicts()
    verdicts.decided(after, 3.0)
    assert verdicts.after(position, first, seed=0) == -3.0
    assert verdicts.after(position, second, seed=0) is None


def test_the_decisions_weighed_together_are_valued_at_one_depth():
    """Each decision's search is deepened in step with the others' (issue
    #34): in Summer Pavilion's first phase, where a search's value swings
    with its depth, decisions that one share of the nodes each would take to
    different depths are all valued at the same one, but where the whole
    rest of the round was searched."""
    game, _ = _medium_game("pavilion", 3)
    position = _round_start(game, 3)
    choices = bots.candidates(position, 6)
    nodes = 6 * 3000
    alone = [bots.weigh(position, [c], nodes=nodes // 6)[0].depth for c in choices]
    assert len(set(alone)) > 1  # by its own share, each as deep as that went
    together = bots.weigh(position, choices, nodes=nodes)
    depth = max(w.depth for w in together)
    for w in together:
        assert w.depth == depth or w.value == w.earlier  # else exact
    assert sum(w.nodes for w in together) <= nodes


def test_a_rounds_budget_goes_to_its_decisions_that_need_it():
    """Pooled within a round: the decisions late in a round, searched whole
    on a fraction of their share, leave the rest to the earlier ones."""
    from games.engine.review import _judged, judge_nodes

    game, _ = _medium_game("classic", 5)
    start = new_game(game.variant, 2, game.first_seat)
    judged = _judged(game.events(), start, 0.1, 0, 2, None)
    first = min(judged)
    share = judge_nodes(start, 0.1)
    assert judged[first].spent > share  # more than its own share
    assert sum(w.spent for w in judged.values()) <= share * len(judged)


def _as_written(made: Review) -> Review:
    """``made`` as ``to_json`` writes it: points to two decimals, accuracy to
    one, each decision's ``ALTERNATIVES_KEPT`` best others."""
    return Review(
        decisions=tuple(
            replace(
                d,
                lost=round(d.lost, 2),
                spread=round(d.spread, 2),
                alternatives=tuple(
                    (event, round(value, 2))
                    for event, value in d.alternatives[:ALTERNATIVES_KEPT]
                ),
            )
            for d in made.decisions
        ),
        chances=tuple(
            replace(c, luck=tuple(round(v, 2) for v in c.luck)) for c in made.chances
        ),
        seats=tuple(
            replace(
                s,
                lost=round(s.lost, 2),
                luck=round(s.luck, 2),
                accuracy=round(s.accuracy, 1),
                start=round(s.start, 2),
                others=round(s.others, 2),
            )
            for s in made.seats
        ),
        timeline=tuple(tuple(round(v, 2) for v in point) for point in made.timeline),
    )


def test_a_review_reads_back_what_it_writes():
    """``Review.from_json`` rebuilds what ``to_json`` wrote (issue #36 item 4):
    through JSON text, as the site stores it, and again."""
    game, _ = _medium_game("classic", 2)
    made = _review(game, seconds=0.05)
    written = json.loads(json.dumps(made.to_json()))
    assert written["version"] == FORMAT_VERSION
    assert len(written["timeline"]) == len(game.events())
    assert any(len(d.alternatives) > ALTERNATIVES_KEPT for d in made.decisions)
    read = Review.from_json(written)
    assert read == _as_written(made)
    assert read.to_json() == written
    assert Review.from_json(read.to_json()) == read
    assert read.seats[0].gap == pytest.approx(made.seats[0].gap, abs=0.1)


def test_a_review_stored_before_the_format_had_a_version_reads():
    """A review stored before the version, the spread and the stories (the
    first format the site stored) reads as version 1: no spread, no story."""
    game, _ = _medium_game("classic", 2)
    made = _review(game, seconds=0.02)
    old = json.loads(json.dumps(made.to_json()))
    del old["version"]
    for decision in old["decisions"]:
        del decision["spread"]
    for seat in old["seats"]:
        for key in ("start", "others", "actual"):
            del seat[key]
    read = Review.from_json(old)
    expected = _as_written(made)
    assert read.decisions == tuple(replace(d, spread=0.0) for d in expected.decisions)
    assert read.chances == expected.chances
    assert read.timeline == expected.timeline
    assert read.seats == tuple(
        replace(s, start=0.0, others=0.0, actual=None) for s in expected.seats
    )
    assert all(s.gap is None for s in read.seats)


def test_a_review_of_another_version_or_shape_is_refused():
    game, _ = _medium_game("classic", 2)
    written = json.loads(json.dumps(_review(game, seconds=0.02).to_json()))
    with pytest.raises(ValueError, match="unknown format version 2"):
        Review.from_json({**written, "version": 2})
    with pytest.raises(ValueError, match="not a whole number"):
        Review.from_json({**written, "version": "1"})
    with pytest.raises(ValueError, match="not an object"):
        Review.from_json([written])
    with pytest.raises(ValueError, match="its seats are not a list"):
        Review.from_json({k: v for k, v in written.items() if k != "seats"})
    seats = [{k: v for k, v in s.items() if k != "accuracy"} for s in written["seats"]]
    with pytest.raises(ValueError, match="seat 0's accuracy is not a number"):
        Review.from_json({**written, "seats": seats})
    weighed = next(d for d in written["decisions"] if not d["forced"])
    alternatives = {**written["alternatives"], str(weighed["event"]): [[1, 2, 3]]}
    with pytest.raises(ValueError, match="not \\[event, value\\] pairs"):
        Review.from_json({**written, "alternatives": alternatives})


BENCH_GAMES = Path(__file__).resolve().parents[2] / "bench" / "games"


def _bench_position(name: str, event: int):
    """The position before event ``event`` of the benchmark's kept game
    ``name`` (``bench/review_trust.py``), and the decision played there."""
    game = load((BENCH_GAMES / f"review-trust-{name}.json").read_text()).game
    events = game.events()
    position = new_game(game.variant, 2, game.first_seat)
    for event_ in events[:event]:
        position.apply_event(event_)
    played = next(m for m in position.legal_moves() if m.to_event() == events[event])
    return position, played


def test_a_blunder_on_one_draw_of_the_refills_is_weighed_again_and_not_labelled():
    """Summer Pavilion, strong self-play (the benchmark's game 19), the last
    round's bonus pick: on the draw of the refills seeded 148 another pick
    is worth 12 points more, on others none is. Before a loss is called a
    mistake or worse it is weighed again, deeper and over other draws: that
    one draw is not a blunder."""
    position, played = _bench_position("pavilion-self-19", 148)
    nodes = judge_nodes(position, DEFAULT_SECONDS)
    choices = [played] + [
        c for c in bots.candidates(position, CANDIDATES) if c != played
    ]
    once = bots.weigh(position, choices, nodes=nodes, seed=148)
    assert max(w.value for w in once) - once[0].value >= 10  # one draw: a blunder
    done = _weigh(position, played, nodes, 148)
    assert done.lost < 2 and label(done.lost, done.spread) == ""
    assert done.valued[0][0] == played.to_event()  # the played pick is best


def test_a_loss_every_draw_bears_out_keeps_its_label():
    """The same benchmark's game 14, round 2: the red tiles taken from the
    first plate give away about eight points against the red of plate 4 on
    every draw (a blunder at a third of the judge's depth): weighed again,
    a mistake, sure beyond its spread."""
    position, played = _bench_position("pavilion-self-14", 26)
    nodes = 4 * judge_nodes(position, DEFAULT_SECONDS)  # an early decision's share
    done = _weigh(position, played, nodes, 26)
    assert done.lost - done.spread >= 5 and done.lost < 10
    assert label(done.lost, done.spread) == "mistake"
    assert done.valued[0][0] == {"seat": 0, "from": 4, "colour": "red"}
    assert played.to_event() == {"seat": 0, "from": 0, "colour": "red"}


def test_a_weighing_says_whether_its_search_drew_a_refill():
    """Azul draws nothing inside a round: its second weighing needs one
    seed. Summer Pavilion's last-round bonus picks are refilled from the bag:
    another seed could weigh them otherwise."""
    game, _ = _medium_game("classic", 5)
    position = _round_start(game, 2)
    choices = bots.candidates(position, 3)
    assert not any(w.drew for w in bots.weigh(position, choices, nodes=3000))
    position, played = _bench_position("pavilion-self-19", 148)
    weighed = bots.weigh(position, [played], nodes=3000, seed=148)
    assert weighed[0].drew
