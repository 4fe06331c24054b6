"""Building one host's or one distributed switch's snapshot objects so that one bad field never loses
the rest: a value the snapshot model refuses becomes unknown (null) with a collection error naming the
host or switch, the object, the field and what was wrong. Identifiers (vmnic, vmk, vSwitch and port
group names) have no unknown form: an object whose identifier is refused is left out, and named."""

from __future__ import annotations

import types
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import ValidationError
from pydantic.fields import FieldInfo

from hostlint.collect.refused import Kind, printable
from hostlint.snapshot.common import CollectionError

M = TypeVar("M")
# A model whose refusals keep changing (a field fixed reveals another) is given up after this many tries.
_ATTEMPTS = 4


def _fields(model: type[Any]) -> dict[str, FieldInfo]:
    found = getattr(model, "model_fields", None)
    if found is None:  # a pydantic dataclass (hostlint.snapshot.common.leaf)
        found = model.__pydantic_fields__
    return found  # type: ignore[no-any-return]


def _nullable(info: FieldInfo) -> bool:
    annotation = info.annotation
    return get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)


class Recorder:
    """The collection errors of one target (a host, a distributed switch) while its objects are built."""

    def __init__(self, target: str, kind: Kind) -> None:
        self.target = printable(target)
        self.kind: Kind = kind
        self.errors: list[CollectionError] = []

    def note(self, reason: str) -> None:
        self.errors.append(CollectionError(target=self.target, kind=self.kind, reason=reason))

    def append(self, into: list[M], model: type[M], what: str, /, **values: Any) -> None:
        """`build`, added to `into` unless left out."""
        built = self.build(model, what, **values)
        if built is not None:
            into.append(built)

    def build(self, model: type[M], what: str, /, **values: Any) -> M | None:
        """`model(**values)`; a refused optional field becomes None, a refused list item is left out
        (each with a collection error); a refused required field (an identifier) leaves the object
        out, named. `what` names the object for a reader: `vmnic0 neighbour`, `vmk1`."""
        fields = _fields(model)
        what = printable(what)  # it may hold a name the model is about to refuse
        for _ in range(_ATTEMPTS):
            try:
                return model(**values)
            except ValidationError as exc:
                refusals = exc.errors(include_url=False)
            dropped: dict[str, set[int]] = {}
            for error in refusals:
                loc = error["loc"]
                name = str(loc[0]) if loc else ""
                where = ".".join(str(part) for part in loc) or "(top level)"
                problem = f"{error['msg']} (value {printable(error.get('input'))[:80]})"
                info = fields.get(name)
                if info is not None and len(loc) == 1 and _nullable(info):
                    values[name] = None
                    self.note(f"{what}: {where} recorded as unknown: {problem}")
                elif (
                    info is not None
                    and len(loc) >= 2
                    and isinstance(loc[1], int)
                    and isinstance(values.get(name), list)
                ):
                    dropped.setdefault(name, set()).add(loc[1])
                    self.note(f"{what}: {where} left out: {problem}")
                else:
                    self.note(f"{what} not recorded: {where}: {problem}")
                    return None
            for name, items in dropped.items():
                values[name] = [item for index, item in enumerate(values[name]) if index not in items]
        self.note(f"{what} not recorded: its fields were refused {_ATTEMPTS} times")
        return None
