"""The variant registry (``games.engine.variants``): every variant is found by its
name and makes its engine game, and no other place in the site spells a variant's
name (issue #24: one place for each fact)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.engine import variants
from games.engine.variants import (
    FAMILIES,
    GREY_SUFFIX,
    VARIANTS,
    UnknownVariantError,
    find_family,
    find_variant,
)

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("games", "accounts", "notify", "templates", "static")
REGISTRY = "games/engine/variants.py"
TEMPLATE_LINKS = {
    # A template's {% url %} names its family as a literal argument.
    "templates/base.html": {"classic": 1},
    "templates/games/home.html": {"classic": 1, "pavilion": 1},  # the welcome
    "templates/games/rules/classic.html": {"pavilion": 1},
    "templates/games/rules/pavilion.html": {"classic": 1},
}
"""The places outside the registry still spelling a name (issue #24, left)."""


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_each_variant_is_found_by_its_name_and_makes_its_game(
    variant: variants.Variant,
) -> None:
    assert find_variant(variant.name) is variant
    for players in variant.players:
        game = variant.new_game(players, first_seat=players - 1)
        assert (game.variant, game.grey) == (variant.name, variant.grey)
        assert (game.players, game.first_seat) == (players, players - 1)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_a_variant_refuses_a_player_count_outside_its_range(
    variant: variants.Variant,
) -> None:
    for players in (variant.players[0] - 1, variant.players[-1] + 1):
        with pytest.raises(ValueError):
            variant.new_game(players)


def test_the_variants_are_those_the_site_offers_in_order() -> None:
    assert [(v.name, v.family.name, v.grey, list(v.players)) for v in VARIANTS] == [
        ("classic", "classic", False, [2, 3, 4]),
        ("classic-grey", "classic", True, [2, 3, 4]),
        ("pavilion", "pavilion", False, [2, 3, 4]),
        ("pavilion-grey", "pavilion", True, [2, 3, 4]),
    ]
    assert [f.name for f in FAMILIES] == ["classic", "pavilion"]


def test_a_variants_family_is_its_name_without_the_grey_suffix() -> None:
    # The database derives Game.family this way (games.models, a GeneratedField).
    for variant in VARIANTS:
        assert variant.name.removesuffix(GREY_SUFFIX) == variant.family.name
        assert variant.name.endswith(GREY_SUFFIX) is variant.grey
        assert variant.family.variant(grey=variant.grey) is variant
        assert variant in variant.family.variants()
        assert find_family(variant.family.name) is variant.family


@pytest.mark.parametrize("name", ["chess", "Classic", "", None, ["classic"]])
def test_an_unknown_name_is_refused_with_the_known_ones(name: object) -> None:
    with pytest.raises(UnknownVariantError, match="one of classic, classic-grey"):
        find_variant(name)  # type: ignore[arg-type]
    assert issubclass(UnknownVariantError, ValueError)


def test_an_unknown_family_is_refused() -> None:
    with pytest.raises(UnknownVariantError, match="one of classic, pavilion"):
        find_family("classic-grey")


# ------------------------------------------------ no name outside the registry


def _python_literals(source: str) -> list[str]:
    return [
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _quoted(source: str) -> list[str]:
    return re.findall(r"""["']([^"'\s]*)["']""", source)


def spelled_names(root: Path) -> dict[str, dict[str, int]]:
    """Per file under ``root``'s sources (migrations are history, left out): how
    many string literals equal each variant or family name."""
    names = {v.name for v in VARIANTS} | {f.name for f in FAMILIES}
    found: dict[str, dict[str, int]] = {}
    for top in SOURCES:
        for path in sorted((root / top).rglob("*")):
            if not path.is_file() or "migrations" in path.parts:
                continue
            if path.suffix == ".py":
                literals = _python_literals(path.read_text(encoding="utf-8"))
            elif path.suffix in (".html", ".txt", ".js", ".css", ".svg"):
                literals = _quoted(path.read_text(encoding="utf-8"))
            else:
                continue
            counts = {name: literals.count(name) for name in sorted(names)}
            if counts := {name: n for name, n in counts.items() if n}:
                found[str(path.relative_to(root))] = counts
    return found


def test_the_count_sees_a_name_in_code_and_in_a_template(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "x.py").write_text('V = ("classic", "pavilion-grey")\n')
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "x.html").write_text("{% url 'rules' 'pavilion' %}\n")
    assert spelled_names(tmp_path) == {
        "games/x.py": {"classic": 1, "pavilion-grey": 1},
        "templates/x.html": {"pavilion": 1},
    }


def test_only_the_registry_spells_a_variants_name() -> None:
    found = spelled_names(ROOT)
    registry = found.pop(REGISTRY)
    assert registry == {
        "classic": 2,
        "classic-grey": 1,
        "pavilion": 2,
        "pavilion-grey": 1,
    }
    assert found == TEMPLATE_LINKS
