"""No import cycle among the site's modules (issue #36 item 2).

The graph has one node per module of accounts, chat, games (its ``engine``
left out: the rules have their own check), notify and azulsite, and an edge for
each import, relative or absolute, at the top of a module or inside a function
(an import hidden in a function still closes a ring once it runs). An import
under ``if TYPE_CHECKING:`` is for the type checker only and is not an edge.
``from package import name`` is an edge to ``package.name`` when that is a
module, else to ``package``. Read with ``ast``, so nothing is imported to
check it; migrations are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "chat", "games", "notify", "azulsite")
LEFT_OUT = ("games.engine",)
"""The engine is checked on its own (issue #36 item 2 names it separately)."""


def _is_left_out(module: str) -> bool:
    return any(module == out or module.startswith(out + ".") for out in LEFT_OUT)


def site_modules(root: Path = ROOT) -> dict[str, Path]:
    """Each of the site's modules by dotted name."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.relative_to(root).parts:
                continue
            name = ".".join(
                p for p in path.relative_to(root).with_suffix("").parts
            ).removesuffix(".__init__")
            if not _is_left_out(name):
                found[name] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The site's modules that ``name`` (at ``path``) imports, anywhere in it."""
    is_package = path.name == "__init__.py"
    package_parts = name.split(".") if is_package else name.split(".")[:-1]
    edges: set[str] = set()

    def target(module: str) -> str | None:
        while module and module not in known:
            module = module.rpartition(".")[0]
        return module or None

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if found := target(alias.name):
                        edges.add(found)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package_parts[: len(package_parts) - child.level + 1]
                    module = ".".join([*base, child.module or ""]).rstrip(".")
                else:
                    module = child.module or ""
                for alias in child.names:
                    if found := target(f"{module}.{alias.name}"):
                        edges.add(found)
            visit(child)

    visit(ast.parse(path.read_text(), filename=str(path)))
    edges.discard(name)
    return edges


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = site_modules(root)
    known = set(modules)
    return {name: imported_modules(name, path, known) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted:
    every import cycle lies inside one of them (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(found)


def shortest_ring(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One shortest cycle through the component's first module, to print."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for other in sorted(graph[node] & members):
                if other == start:
                    return [*paths[node], start]
                if other not in paths:
                    paths[other] = [*paths[node], other]
                    following.append(other)
        frontier = following
    return component


def test_the_site_has_no_import_cycle() -> None:
    graph = import_graph()
    rings = [" → ".join(shortest_ring(graph, c)) for c in cycles(graph)]
    assert rings == []


def test_the_graph_reads_real_imports() -> None:
    graph = import_graph()
    assert "games.models" in graph["games.services.play"]
    assert "games.models" in graph["games.ratings.ratings"]


def test_the_check_sees_a_ring_closed_inside_a_function(tmp_path: Path) -> None:
    """A ring closed by an import inside a function, or by a relative import,
    is found (a check that could not fail would pass on anything)."""
    package = tmp_path / "games"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text("from . import two\n")
    (package / "two.py").write_text("def late():\n    from games.one import x\n")
    (package / "three.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import one\n"
    )
    for other in PACKAGES:
        (tmp_path / other).mkdir(exist_ok=True)
    graph = import_graph(tmp_path)
    assert cycles(graph) == [["games.one", "games.two"]]


if __name__ == "__main__":
    graph = import_graph()
    components = cycles(graph)
    for component in components:
        print(len(component), "modules:", " ".join(component))
        print("   e.g.", " → ".join(shortest_ring(graph, component)))
    print(len(components), "cycles (strongly connected components)")
