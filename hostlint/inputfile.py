"""Reading input files that someone else wrote: bounded, strict UTF-8, JSON and YAML without surprises.

Every file hostlint reads (snapshots, cabling, baseline, site parameters, rules,
inventories) comes through here, so each refuses the same things with one line
naming the file: more than a size cap, text that is not UTF-8 (UTF-16, binary,
an invalid byte), duplicate keys, nesting deeper than a sane limit (checked
before Python's recursion limit can be reached), strings longer than a cap, and
lone surrogates (which cannot be written back out as UTF-8). A UTF-8 byte order
mark is accepted.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import stat
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode

MiB = 1024 * 1024
# A 10,000-host snapshot is about 70 MB (bench/README.md); YAML files are written by hand.
MAX_JSON_BYTES = 1024 * MiB
# YAML files are written by hand or by hostlint (baselines); PyYAML reads about 1 MB a second.
MAX_YAML_BYTES = 8 * MiB
# No field of a snapshot or a configuration file is longer: port descriptions, reasons, CEL expressions.
MAX_STRING_CHARS = 64 * 1024
# Snapshots are 7 levels deep, configuration files fewer: 64 leaves room and stays far below the
# interpreter's recursion limit (the YAML composer and pydantic recurse per level).
MAX_DEPTH = 64
# YAML aliases can make a small file stand for a huge structure ("billion laughs").
MAX_YAML_NODES = 500_000

_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
# More characters without a quote than a string may hold: the only place such a string can be.
_QUOTELESS_RUN = re.compile(rb'[^"]{%d,}' % (MAX_STRING_CHARS + 1))
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS_ONLY = bytes(b for b in range(256) if b not in b"[]{}")
_BRACKET_STEP = [0] * 256
for _open in b"[{":
    _BRACKET_STEP[_open] = 1
for _close in b"]}":
    _BRACKET_STEP[_close] = -1


class InputError(ValueError):
    """An input file that cannot be read safely; the message is one line naming the file."""


_NOT_REGULAR = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def read_bytes(path: Path, max_bytes: int) -> bytes:
    """At most `max_bytes` of a regular file. A FIFO would block the open forever and /dev/zero would
    fill the cap before the size check: both are refused before a byte is read."""
    try:
        # Non-blocking, so opening a FIFO with no writer returns at once; the check is on what was opened.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        kind = next((name for test, name in _NOT_REGULAR if test(mode)), None if stat.S_ISREG(mode) else "not a file")
        if kind is not None:
            raise InputError(f"{path}: {kind}, not a regular file; refusing to read it")
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if len(data) > max_bytes:
        raise InputError(f"{path}: larger than {max_bytes // MiB} MiB; refusing to read it")
    return data


def decode(path: Path, data: bytes) -> str:
    """`data` as UTF-8 text (a leading BOM dropped), or an error saying what the file holds instead."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise InputError(f"{path}: UTF-32 text (byte order mark); save it as UTF-8")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise InputError(f"{path}: UTF-16 text (byte order mark); save it as UTF-8")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    nul = data.find(b"\x00")
    if nul >= 0:
        # ASCII saved as UTF-16 has a NUL beside every character.
        if len(data) >= 4 and ((data[1] == 0 and data[3] == 0) or (data[0] == 0 and data[2] == 0)):
            raise InputError(f"{path}: UTF-16 text (NUL byte at offset {nul}); save it as UTF-8")
        raise InputError(f"{path}: not text (NUL byte at offset {nul})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def read_text(path: Path, max_bytes: int = MAX_YAML_BYTES) -> str:
    return decode(path, read_bytes(path, max_bytes))


def _check_values(path: Path, root: Any, max_nodes: int | None) -> None:
    """Strings within the caps and valid Unicode; structure not nested too deep, not self-referring, not huge."""
    nodes = 0
    stack: list[tuple[Any, int, str]] = [(root, 1, "")]
    while stack:
        value, depth, where = stack.pop()
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise InputError(f"{path}: more than {max_nodes:,} values (YAML aliases expanding?); refusing it")
        if depth > MAX_DEPTH:
            raise InputError(f"{path}: nested deeper than {MAX_DEPTH} levels at {_short(where) or '(top level)'}")
        if isinstance(value, str):
            _check_string(path, value, where)
        elif isinstance(value, dict | list):
            # A YAML alias is walked (and counted) each time it is used; one that contains itself
            # ends at the depth limit.
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    _check_string(path, key, where)
                stack.append((item, depth + 1, f"{where}.{key}" if where else str(key)))


def _first_clause(exc: Exception) -> str:
    """The reason of a ValueError without Python's advice to the programmer (sys.set_int_max_str_digits)."""
    return " ".join(str(exc).split(";")[0].split()) or type(exc).__name__


def _short(where: str) -> str:
    return where if len(where) <= 80 else f"{where[:60]}...{where[-17:]}"


def _check_string(path: Path, value: str, where: str) -> None:
    where = _short(where)
    if len(value) > MAX_STRING_CHARS:
        raise InputError(
            f"{path}: {where or 'a value'}: a string of {len(value):,} characters (limit {MAX_STRING_CHARS:,})"
        )
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = ord(value[exc.start])
            raise InputError(f"{path}: {where or 'a value'}: lone surrogate U+{bad:04X} in a string") from None


def _json_depth(data: bytes) -> int:
    """The bracket nesting depth of JSON text, outside strings, without recursing."""

    def deepest(text: bytes) -> int:
        brackets = text.translate(None, _BRACKETS_ONLY)
        return max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)), default=0)

    depth = deepest(data)
    # Brackets inside strings count above; only when that matters are strings taken out (slower).
    return deepest(_JSON_STRING.sub(b'""', data)) if depth > MAX_DEPTH else depth


def _unique_keys(path: Path) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        mapping = dict(pairs)
        if len(mapping) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise InputError(f"{path}: duplicate key {key!r}")
                seen.add(key)
        return mapping

    return hook


def read_json_text(path: Path, max_bytes: int = MAX_JSON_BYTES) -> tuple[bytes, str]:
    """The file's bytes and text, refused when too large, not UTF-8 or nested too deep (before parsing)."""
    data = read_bytes(path, max_bytes)
    text = decode(path, data)
    if _json_depth(data) > MAX_DEPTH:
        raise InputError(f"{path}: JSON nested deeper than {MAX_DEPTH} levels")
    return data, text


def needs_value_checks(data: bytes) -> bool:
    """Whether JSON text could hold a string over the cap or an escaped lone surrogate (rare: a stretch
    without a quote longer than the cap, an escaped quote, a surrogate escape). Otherwise the parsed
    values need no walk. (A regular expression, not data.split: the split's list of pieces cost 4x the
    file while its tree was alive.)"""
    long_run = _QUOTELESS_RUN.search(data) is not None
    return long_run or (b"\\" in data and (b'\\"' in data or _SURROGATE_ESCAPE.search(data) is not None))


def load_json(path: Path, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """A JSON document, refusing what this module's docstring lists."""
    data, text = read_json_text(path, max_bytes)
    try:
        raw = json.loads(text, object_pairs_hook=_unique_keys(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deep") from None
    except ValueError as exc:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise InputError(f"{path}: not usable JSON: {_first_clause(exc)}") from None
    # Long strings and escaped lone surrogates are rare: look for them only when the text could hold one.
    if needs_value_checks(data):
        _check_values(path, raw, None)
    return raw


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys and nesting deeper than MAX_DEPTH while composing."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        if self._depth > MAX_DEPTH:
            # types-PyYAML leaves Parser.peek_event unannotated (it returns a yaml.Event).
            event: yaml.Event = self.peek_event()  # type: ignore[no-untyped-call]
            mark = event.start_mark
            where = f" (line {mark.line + 1})" if mark is not None else ""
            raise InputError(f"nested deeper than {MAX_DEPTH} levels{where}")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=deep)
            if key is None or isinstance(key, bool):
                # YAML 1.1 reads yes/no/on/off/true/false/~ as booleans or null: a host or group named so
                # would become a key no model can look up.
                raise InputError(
                    f"key {key_node.value!r} (line {key_node.start_mark.line + 1}) reads as {key!r} in YAML; "
                    f"quote it: '{key_node.value}'"
                )
            try:
                duplicate = key in seen
            except TypeError:
                raise ConstructorError(
                    "while constructing a mapping", node.start_mark, "found an unhashable key", key_node.start_mark
                ) from None
            if duplicate:
                raise InputError(f"duplicate key {key!r} (line {key_node.start_mark.line + 1})")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_yaml(path: Path, max_bytes: int = MAX_YAML_BYTES) -> Any:
    """A YAML document (safe tags only), refusing what this module's docstring lists."""
    text = read_text(path, max_bytes)
    # A string over the cap is nearly always one long line: refused before the (slow) parser reads it.
    longest = max(text.splitlines(), key=len, default="")
    if len(longest) > MAX_STRING_CHARS:
        line = text.splitlines().index(longest) + 1
        raise InputError(f"{path}: line {line} is {len(longest):,} characters long (limit {MAX_STRING_CHARS:,})")
    try:
        raw = yaml.load(text, Loader=_StrictLoader)  # a SafeLoader: no arbitrary objects
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        reason = " ".join(str(exc).split())
        raise InputError(f"{path}: not valid YAML: {reason}") from None
    except RecursionError:
        raise InputError(f"{path}: YAML nested too deep") from None
    except (ValueError, OverflowError) as exc:  # a value the constructor cannot build: 2026-13-45, 5,000 digits
        raise InputError(f"{path}: not usable YAML: {_first_clause(exc)}") from None
    _check_values(path, raw, MAX_YAML_NODES)
    return raw
