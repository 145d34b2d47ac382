"""Korean and Vietnamese pages render with real glyphs (no tofu, no clipping).

Each character is drawn on a canvas in the page's own font: a font without the
glyph draws the same box for every character, so distinct characters must give
distinct pixels, different from an unassigned code point's box. Screenshots go
to the pytest temporary directory for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

GLYPHS_DIFFER = """
(chars) => {
  const family = getComputedStyle(document.body).fontFamily;
  const draw = (ch) => {
    const c = document.createElement('canvas'); c.width = 48; c.height = 48;
    const g = c.getContext('2d'); g.font = '32px ' + family; g.fillText(ch, 4, 36);
    return Array.from(g.getImageData(0, 0, 48, 48).data).join(',');
  };
  const tofu = draw('\\u{10FFFD}');
  const seen = new Set();
  const bad = [];
  for (const ch of chars) {
    const img = draw(ch);
    if (img === tofu || seen.has(img)) bad.push(ch);
    seen.add(img);
  }
  return bad;
}
"""


@pytest.mark.parametrize(
    ("language", "sample", "heading"),
    [
        ("ko", "한글공장바닥줄벽별기둥", "아줄 게임 방법"),
        ("vi", "ẤẦẨẪẬắằẳẵặỗộờởỡợ", "Cách chơi Azul"),
    ],
)
def test_hangul_and_vietnamese_render_without_tofu(
    browser: Browser,
    live_url: str,
    tmp_path: Path,
    language: str,
    sample: str,
    heading: str,
) -> None:
    context = browser.new_context(
        locale=language, viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    page.goto(f"{live_url}/rules/classic/")
    assert page.locator("html").get_attribute("lang") == language
    title = page.locator("h1")
    assert title.inner_text() == heading
    assert page.evaluate(GLYPHS_DIFFER, sample) == []
    # diacritics are not clipped: the heading's box holds its text
    box = page.evaluate(
        "() => { const h = document.querySelector('h1');"
        " return [h.scrollHeight, h.clientHeight, h.getBoundingClientRect().height]; }"
    )
    assert box[2] > 0 and box[0] <= box[1] + 1
    page.screenshot(path=str(tmp_path / f"rules-{language}.png"), full_page=True)
    context.close()
