"""Words in messages that depend on a count."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 host`, `2 hosts`, `3 switches` (given `nouns`)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
