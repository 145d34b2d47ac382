"""Issue #36 item 3: a deal that is no list of factories, or a factory that
is no list of colours, is refused with the same code in both families
(deal_size, deal_overfull), as Summer Pavilion always did."""

from __future__ import annotations

import pytest

from games.engine import record
from games.engine.common import EngineError


@pytest.mark.parametrize(
    ("deal", "code"), [("x", "deal_size"), (["x"] * 5, "deal_overfull")]
)
def test_the_same_deal_fault_has_the_same_code_as_summer_pavilion(deal, code):
    game = record.new_game("classic", 2, 0)
    assert game.needs_chance()
    with pytest.raises(EngineError) as refused:
        game.apply_event({"deal": deal})
    assert refused.value.code == code
