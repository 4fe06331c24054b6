"""Callbacks for a progress display, the same for every collector: the item count once known, then one call per item."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Progress:
    """`on_total(count)` once the number of hosts (or switches) is known, then `on_host(name)` as each is done."""

    on_total: Callable[[int], None] = lambda total: None
    on_host: Callable[[str], None] = lambda name: None
