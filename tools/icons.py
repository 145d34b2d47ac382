"""The installable site's icons (issue #18): four of the game's own tiles, two by
two, on the board's dark ink, drawn by Debian's Chromium from the SVGs in
``static/img/tiles/`` and saved as PNG.

    .venv/bin/python tools/icons.py [--out static/img]

Writes ``icon-192.png`` and ``icon-512.png`` (the manifest's icons, also the
Apple touch icon) and ``badge-96.png`` (the monochrome notification badge).
The tiles sit inside the central 80 % of the square, so the icons are also
"maskable" (a launcher may cut them to a circle).
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
TILES = ("blue", "yellow", "red", "black")
INK = "#1d2330"


def _icon_svg() -> str:
    tiles = ROOT / "static" / "img" / "tiles"
    images = []
    for index, colour in enumerate(TILES):
        x = 14 + (index % 2) * 37
        y = 14 + (index // 2) * 37
        inner = (tiles / f"{colour}.svg").read_text().split(">", 1)[1]
        inner = inner.rsplit("</svg>", 1)[0]
        images.append(
            f'<svg x="{x}" y="{y}" width="35" height="35" viewBox="0 0 40 40">'
            f'<clipPath id="c{index}"><rect width="40" height="40" rx="4"/></clipPath>'
            f'<g clip-path="url(#c{index})">{inner}</g></svg>'
        )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" fill="{INK}"/>{"".join(images)}</svg>'
    )


def _badge_svg() -> str:
    """White on transparent: Android draws the badge as a silhouette."""
    squares = "".join(
        f'<rect x="{10 + (i % 2) * 42}" y="{10 + (i // 2) * 42}" width="38" '
        'height="38" rx="5" fill="#fff"/>'
        for i in range(4)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{squares}</svg>'
    )


def _draw(page: object, svg: str, size: int, path: Path, transparent: bool) -> None:
    page.set_viewport_size({"width": size, "height": size})  # type: ignore[attr-defined]
    page.set_content(  # type: ignore[attr-defined]
        "<!doctype html><style>html,body{margin:0;background:transparent}"
        f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
    )
    page.screenshot(path=str(path), omit_background=transparent)  # type: ignore[attr-defined]
    print(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "static" / "img")
    out = parser.parse_args().out
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        for size in (192, 512):
            _draw(page, _icon_svg(), size, out / f"icon-{size}.png", False)
        _draw(page, _badge_svg(), 96, out / "badge-96.png", True)
        browser.close()


if __name__ == "__main__":
    main()
