"""VLAN id sets as sorted, merged, inclusive ranges: `[(10, 10), (20, 30)]` is `10,20-30`.

A trunk's allowed list is such a set; 802.1Q VLAN ids on a trunk run 1-4094 (0 and 4095 are
reserved). IOS, NX-OS and EOS write the list as `10,20-30`, `all`, `none`, and change it with
`add`, `remove` and `except`, applied in order as the device does.
"""

from __future__ import annotations

import re

FIRST, LAST = 1, 4094
Ranges = list[tuple[int, int]]
ALL: Ranges = [(FIRST, LAST)]

_ITEM = re.compile(r"^(\d{1,4})(?:-(\d{1,4}))?$")


def merge(ranges: list[tuple[int, int]]) -> Ranges:
    """Sorted, with overlapping and adjacent ranges joined."""
    merged: Ranges = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def parse_list(text: str) -> Ranges:
    """`10,20-30` (spaces allowed after commas), `all` or `none`; anything else is a ValueError."""
    words = text.strip().lower()
    if words == "all":
        return list(ALL)
    if words == "none":
        return []
    ranges = []
    for item in (part.strip() for part in words.split(",")):
        found = _ITEM.match(item)
        if not found:
            raise ValueError(f"not a VLAN list: {text!r}")
        low = int(found.group(1))
        high = int(found.group(2) or low)
        if not FIRST <= low <= high <= LAST:
            raise ValueError(f"VLAN range {item} is outside {FIRST}-{LAST}")
        ranges.append((low, high))
    return merge(ranges)


def subtract(ranges: Ranges, removed: Ranges) -> Ranges:
    kept = []
    for low, high in ranges:
        pieces = [(low, high)]
        for r_low, r_high in removed:
            pieces = [
                piece
                for p_low, p_high in pieces
                for piece in ((p_low, min(p_high, r_low - 1)), (max(p_low, r_high + 1), p_high))
                if piece[0] <= piece[1]
            ]
        kept.extend(pieces)
    return merge(kept)


def apply_commands(commands: list[str]) -> Ranges:
    """The allowed list after `switchport trunk allowed vlan <each>` in order: a plain list or
    `all`/`none` replaces it, `add` and `remove` change it, `except` is all but the list. The
    starting list (no command yet) is all VLANs, the IOS/NX-OS/EOS default."""
    current = list(ALL)
    for command in commands:
        verb, _, rest = command.strip().partition(" ")
        verb = verb.lower()
        if verb == "add":
            current = merge(current + parse_list(rest))
        elif verb == "remove":
            current = subtract(current, parse_list(rest))
        elif verb == "except":
            current = subtract(list(ALL), parse_list(rest))
        else:
            current = parse_list(command)
    return current


def contains(ranges: Ranges, vlan: int) -> bool:
    return any(low <= vlan <= high for low, high in ranges)


def covers(ranges: Ranges, wanted: Ranges) -> bool:
    """Every VLAN of `wanted` is in `ranges` (both merged)."""
    return not subtract(wanted, ranges)


def text(ranges: Ranges) -> str:
    """`10,20-30`; `none` for the empty set."""
    if not ranges:
        return "none"
    return ",".join(str(low) if low == high else f"{low}-{high}" for low, high in ranges)
