"""Facts the snapshot model refuses (a name holding a control character, an out-of-range value) become a
collection error naming the object and the field, never a crash: names are data, and nothing vanishes."""

from __future__ import annotations

from typing import Literal

from pydantic import ValidationError

from hostlint.snapshot.common import CollectionError

Kind = Literal["esxi", "kvm", "switch", "vcenter"]


def printable(value: object) -> str:
    """`value` as a reader can see it: control characters escaped (`a\\nb`), never interpreted."""
    text = str(value)
    return text if text.isprintable() else text.encode("unicode_escape").decode("ascii")


def refusal(exc: ValidationError) -> str:
    """Every field the model refused, with its path and why (`vswitches.0.name: control character ...`)."""
    parts = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "(top level)"
        parts.append(f"{where}: {error['msg']} (value {printable(error.get('input'))[:80]!s})")
    return "; ".join(parts)


def refused(target: object, kind: Kind, what: str, exc: ValidationError) -> CollectionError:
    """The collection error for `what` on `target` that the snapshot model refused."""
    return CollectionError(target=printable(target), kind=kind, reason=f"{what} not recorded: {refusal(exc)}")
