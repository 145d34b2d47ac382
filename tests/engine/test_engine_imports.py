"""No import cycle among the engine's modules and no import inside a function
(issue #36 item 2, the engine's half; ``tests/test_import_cycles.py`` checks the
site and leaves ``games.engine`` to this file).

The graph is built as that file builds the site's (``ast``, nothing imported; an
import under ``if TYPE_CHECKING:`` is no edge). The families' modules import the
registry (``variants``), which imports neither: each family registers its game
class as it loads.
"""

from __future__ import annotations

import ast
from pathlib import Path

from games.engine import classic, pavilion
from games.engine.variants import FAMILIES
from tests.test_import_cycles import cycles, imported_modules, shortest_ring

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"


def engine_modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ENGINE.glob("*.py")):
        name = "games.engine" + ("" if path.stem == "__init__" else f".{path.stem}")
        found[name] = path
    return found


def engine_graph() -> dict[str, set[str]]:
    modules = engine_modules()
    known = set(modules)
    return {name: imported_modules(name, path, known) for name, path in modules.items()}


def imports_inside_functions(path: Path) -> list[int]:
    """The lines of ``path`` that import inside a function or method."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    lines.append(inner.lineno)
    return sorted(set(lines))


def test_the_engine_has_no_import_cycle() -> None:
    graph = engine_graph()
    rings = [" → ".join(shortest_ring(graph, c)) for c in cycles(graph)]
    assert rings == []


def test_the_engine_imports_nothing_inside_a_function() -> None:
    found = {
        name: lines
        for name, path in engine_modules().items()
        if (lines := imports_inside_functions(path))
    }
    assert found == {}


def test_the_graph_reads_the_engine_s_real_imports() -> None:
    graph = engine_graph()
    assert "games.engine.variants" in graph["games.engine.classic"]
    assert "games.engine.value" in graph["games.engine.bots"]
    assert len(graph) >= 12


def test_every_family_registered_its_game_class() -> None:
    classes = {family.name: family.game_class for family in FAMILIES}
    assert set(classes.values()) == {classic.ClassicGame, pavilion.PavilionGame}
    for family in FAMILIES:
        assert family.game_class.family is family
