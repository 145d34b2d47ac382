"""Read a drawn position off a page through its machine-readable marks.

Every page that draws a position marks each tile with ``data-colour`` (and
``data-count`` when one element stands for several tiles) inside an element with
``data-zone``. ``zones(html)`` returns ``{zone: Counter({colour: count})}`` for
every zone on the page (empty zones included), so a test compares a page with the
engine's position without knowing its markup.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class _Marks(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str | None] = []  # the zone each open element opened
        self.zones: dict[str, Counter[str]] = {}
        self.standings: list[dict[str, str]] = []
        self.last: dict[str, Counter[str]] = {}  # tiles marked data-last-move
        self.last_from: list[str] = []  # zones marked data-last-move="from"
        self.best: list[dict[str, str]] = []  # elements marked data-best

    def _zone(self) -> str | None:
        return next((z for z in reversed(self.stack) if z is not None), None)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        zone = values.get("data-zone")
        if zone is not None:
            self.zones.setdefault(zone, Counter())
        colour = values.get("data-colour")
        if colour is not None:
            where = zone if zone is not None else self._zone()
            assert where is not None, f"a tile ({colour}) outside any data-zone"
            self.zones[where][colour] += int(values.get("data-count") or 1)
            if "data-last-move" in values:
                self.last.setdefault(where, Counter())[colour] += 1
        if zone is not None and values.get("data-last-move") == "from":
            self.last_from.append(zone)
        if "data-best" in values:
            where = zone if zone is not None else self._zone()
            self.best.append({**values, "zone": where or ""})
        if "data-seat" in values and "data-rank" in values:
            self.standings.append(values)
        if tag not in VOID:
            self.stack.append(zone)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()


def zones(html: str) -> dict[str, Counter[str]]:
    """Tiles by zone and colour, as the page marks them."""
    parser = _Marks()
    parser.feed(html)
    return {zone: Counter(+counts) for zone, counts in parser.zones.items()}


def standings(html: str) -> dict[int, tuple[int, int]]:
    """The final standings the page marks: seat → (rank, score)."""
    parser = _Marks()
    parser.feed(html)
    return {
        int(row["data-seat"]): (int(row["data-rank"]), int(row["data-score"]))
        for row in parser.standings
    }


def last_move(html: str) -> tuple[dict[str, Counter[str]], list[str]]:
    """The last move as the page marks it: the tiles it placed, by zone and
    colour (``data-last-move``), and the zones it took from (``="from"``)."""
    parser = _Marks()
    parser.feed(html)
    return parser.last, parser.last_from


def best_marks(html: str) -> dict[str, list[dict[str, str]]]:
    """The review's best decision as the page marks it (``data-best``): for
    each mark (``source``, ``tile``, ``target``, ``pass``) the elements that
    carry it, each as its attributes plus ``zone``, the zone it is or lies in."""
    parser = _Marks()
    parser.feed(html)
    found: dict[str, list[dict[str, str]]] = {}
    for element in parser.best:
        found.setdefault(element["data-best"], []).append(element)
    return found


def best_tiles(html: str) -> dict[str, Counter[str]]:
    """The tiles the best decision moves (``data-best="tile"``), by zone and
    colour."""
    tiles: dict[str, Counter[str]] = {}
    for element in best_marks(html).get("tile", []):
        tiles.setdefault(element["zone"], Counter())[element["data-colour"]] += 1
    return tiles
