"""Reading a large snapshot element by element: its hosts and switches never all exist as parsed JSON.

`json.loads` of a 10,000-host snapshot (82 MB) builds a tree of about 300 MiB of dicts, lists and
strings before a single model exists; once the models are built and the tree is freed, the holes it
leaves in Python's arenas are not given back, and they were the larger part of a check's peak RSS
(bench/README.md, "Memory, issue 27"). Here the top-level object is walked with the standard
library's decoder (`JSONDecoder.raw_decode`, the same C scanner `json.loads` uses) and each element of
the large lists (ESXi hosts, switches, KVM hosts, distributed switches) is parsed, validated into its
model and dropped before the next: the next element's dicts reuse the memory the last one freed.

Repeated strings (`active`, `vmnic0`, `Ethernet1/1`, speeds' units, switch names in every neighbour)
are shared: each distinct value is kept once while the file is read.

Only the happy path lives here. Any problem (not JSON, a duplicate key, a field that does not
validate, a value `inputfile.load_json` would refuse) returns None, and the caller reads the file the
old way, which produces the same one-line error as always: errors are rare, the memory they cost is
not the common case's.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from hostlint.snapshot.model import Snapshot

# The lists worth streaming: one element per host or switch. Others (cabling, errors, probes) are small.
_STREAMED: dict[str, type[BaseModel]] = {
    name: Snapshot.model_fields[name].annotation.__args__[0]  # type: ignore[union-attr]
    for name in ("esxi_hosts", "switches", "kvm_hosts", "distributed_switches")
}
_WHITESPACE = " \t\n\r"


class _Refused(Exception):
    """Something the streamed read does not handle; the caller reads the file the ordinary way."""


def _sharing_hook() -> Any:
    """An `object_pairs_hook` that refuses duplicate keys and keeps one copy of each string value."""
    strings: dict[str, str] = {}

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        mapping = {}
        for key, value in pairs:
            if key in mapping:
                raise _Refused
            mapping[key] = strings.setdefault(value, value) if type(value) is str else value
        return mapping

    return hook


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.decoder = json.JSONDecoder(object_pairs_hook=_sharing_hook())

    def skip(self) -> str:
        """The next character that is not whitespace ('' at the end)."""
        text, at = self.text, self.at
        while at < len(text) and text[at] in _WHITESPACE:
            at += 1
        self.at = at
        return text[at : at + 1]

    def expect(self, char: str) -> None:
        if self.skip() != char:
            raise _Refused
        self.at += 1

    def value(self) -> Any:
        self.skip()
        value, self.at = self.decoder.raw_decode(self.text, self.at)
        return value

    def models(self, model: type[BaseModel]) -> list[BaseModel]:
        """A JSON array, each element validated as `model` as soon as it is read."""
        self.expect("[")
        built: list[BaseModel] = []
        if self.skip() == "]":
            self.at += 1
            return built
        while True:
            built.append(model.model_validate(self.value()))
            following = self.skip()
            self.at += 1
            if following == "]":
                return built
            if following != ",":
                raise _Refused


def _top_level(reader: _Reader) -> dict[str, Any]:
    reader.expect("{")
    top: dict[str, Any] = {}
    if reader.skip() == "}":
        reader.at += 1
        return top
    while True:
        key = reader.value()
        if not isinstance(key, str) or key in top:
            raise _Refused
        reader.expect(":")
        model = _STREAMED.get(key)
        top[key] = reader.models(model) if model is not None and reader.skip() == "[" else reader.value()
        following = reader.skip()
        reader.at += 1
        if following == "}":
            break
        if following != ",":
            raise _Refused
    if reader.skip():
        raise _Refused  # text after the object
    return top


def read_streamed(text: str) -> Snapshot | None:
    """The snapshot in `text` (already checked for size, encoding and depth), or None to read it the
    ordinary way because something in it is not the plain case."""
    try:
        top = _top_level(_Reader(text))
        if "schema_version" not in top:
            return None
        # Built models are taken as they are (pydantic does not validate an instance again).
        return Snapshot.model_validate(top)
    except (_Refused, ValidationError, ValueError, RecursionError):
        return None
