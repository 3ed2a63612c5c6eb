"""The observation tensor's layout is declared once, as data (core/layout.py)."""

from __future__ import annotations

from mattis.core.layout import BLOCKS, FLAG_BLOCKS, ONE, PER_SEAT, layout, layout_doc


def test_the_blocks_are_data_and_layout_follows_them() -> None:
    names = [name for name, _, _, _ in BLOCKS]
    assert len(set(names)) == len(names)
    assert all(shape in (ONE, PER_SEAT) and size > 0 for _, size, shape, _ in BLOCKS)
    # the blocks flag_bits fills are declared blocks, in the declared order
    assert [b for b in names if b in FLAG_BLOCKS] == list(FLAG_BLOCKS)
    per_seat = sum(size for _, size, shape, _ in BLOCKS if shape == PER_SEAT)
    for n in range(2, 7):
        assert [name for name, _ in layout(n)] == names
        assert sum(size for _, size in layout(n + 1)) - sum(size for _, size in layout(n)) == per_seat
    assert dict(layout(3))["known"] == 3 * 52 and dict(layout(3))["hand"] == 52
    doc = layout_doc().splitlines()
    assert len(doc) == len(BLOCKS) and doc[4].split()[:2] == ["known", "n*52"]
