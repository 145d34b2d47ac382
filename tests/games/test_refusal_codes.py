"""One set of refusal codes for both engines (issue #36 item 3): every code the
engine raises is in ``common.Refusal``, every code there is raised, and each
family's words table words only codes of that set (``games/play/refusals.py`` words
the ones both families raise)."""

from __future__ import annotations

import ast
from pathlib import Path

from games.classic import words as classic_words
from games.engine import common
from games.pavilion import words as pavilion_words
from games.play import refusals

ENGINE = Path(common.__file__).resolve().parent


def raised_codes() -> dict[str, set[str]]:
    """Each code raised in the engine's sources and the modules raising it."""
    found: dict[str, set[str]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("IllegalMoveError", "InvalidMoveError")
            ):
                code = node.args[1]
                assert isinstance(code, ast.Constant), f"{path.name}:{node.lineno}"
                found.setdefault(code.value, set()).add(path.stem)
    return found


def test_the_engine_raises_exactly_the_one_set() -> None:
    assert set(raised_codes()) == common.REFUSALS


def test_the_families_word_only_codes_of_the_set() -> None:
    assert classic_words.CODES <= common.REFUSALS
    assert pavilion_words.CODES <= common.REFUSALS
    assert set(refusals.SHARED) <= classic_words.CODES & pavilion_words.CODES


def test_the_shared_words_cover_the_codes_raised_in_both_families() -> None:
    both = {
        code
        for code, modules in raised_codes().items()
        if {"classic", "pavilion"} <= modules
    }
    # the same code, worded by each family in its own colour and source names
    worded_apart = {"not_your_turn", "source_empty", "colour_absent", "deal_impossible"}
    assert both - set(refusals.SHARED) == worded_apart
