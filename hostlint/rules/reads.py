"""Which parts of a fact a CEL expression can read, and a hashable key made of just those parts.

The engine evaluates a rule's `when` and `violation` once per distinct key instead of once per
fact: on a site where thousands of hosts are built alike, a team rule that reads a team's policy
and its uplinks' roles and channel modes sees a handful of distinct keys, not one per host.

The analysis reads the expression's tokens, not a syntax tree (the CEL package exposes none), so
it is conservative: a chain `team.a.b` is a read of `a.b` as a whole; `team.uplinks.exists(u, ..)`
(and `all`, `exists_one`, `map`, `filter`) reads each uplink only through `u`; anything it does
not understand (an unknown name, a string with escapes, `team` used as a whole, a filtered list
that is not narrowed again) makes the key the whole fact, or the answer None (no key at all).
A key never leaves out something the expression can see, so two facts with the same key give the
same result, the same error or the same missing field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from typing import Any

# A read: None is "the whole value"; a dict maps a field (or ITEMS, each element of a list) to what
# is read of it. An empty dict reads only the value's shape (a list's length, a field's presence).
# NULLNESS and SIZE read one property of a value that is used only as `x == null` / `x != null` or
# as `size(x)`: two channel ids that are both set, or two lists of one element, key alike.
Read = dict[str, "Read | str | None"]
ITEMS = "[]"
NULLNESS = "null?"
SIZE = "size?"
# Tokens around `x == null` that keep it a whole operand (nothing binds tighter to `x`).
_SAFE_BEFORE = frozenset({"", "(", "&&", "||", ",", "?", ":", "["})
_SAFE_AFTER = frozenset({"", ")", "&&", "||", ",", "?", ":", "]", "}"})

_TOKEN = re.compile(
    r"""\s+
    | (?P<string>[rRbB]{0,2}(?:\"\"\"[^\\]*?\"\"\"|'''[^\\]*?'''|"[^"\\\n]*"|'[^'\\\n]*'))
    | (?P<number>(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[uU]?)
    | (?P<ident>[_a-zA-Z][_a-zA-Z0-9]*)
    | (?P<punct>&&|\|\||==|!=|<=|>=|[-+*/%!<>?:.,()\[\]{}])
    """,
    re.VERBOSE,
)
# Macros that bind a name to each element of their receiver.
MACROS = frozenset({"all", "exists", "exists_one", "filter", "map"})
# Names that are literals or operators, never a variable.
KEYWORDS = frozenset({"true", "false", "null", "in"})


class _Opaque(Exception):
    """The expression does something the analysis does not follow."""


def _tokens(source: str) -> list[tuple[str, str]]:
    tokens = []
    position = 0
    while position < len(source):
        match = _TOKEN.match(source, position)
        if match is None or match.end() == position:
            raise _Opaque(f"cannot read {source[position : position + 10]!r}")
        position = match.end()
        if match.lastgroup:
            tokens.append((match.lastgroup, match.group()))
    return tokens


def _record(read: Read, path: list[str], use: str | None = None) -> None:
    """Add `path` to `read`, read as a whole at its end (or only for `use`, NULLNESS or SIZE)."""
    if not path:
        raise _Opaque("the variable is read as a whole")
    node: Read = read
    for step in path[:-1]:
        child = node.setdefault(step, {})
        if child is None:
            return
        if isinstance(child, str):
            node[step] = None
            return
        node = child
    last = path[-1]
    if use is None:
        node[last] = None
    elif last not in node:
        node[last] = use
    elif node[last] != use:
        node[last] = None


def _touch(read: Read, path: list[str]) -> None:
    """Mark `path` read for its shape only (kept whole if a whole read of it or above is recorded)."""
    node: Read = read
    for step in path:
        child = node.setdefault(step, {})
        if child is None:
            return
        if isinstance(child, str):
            node[step] = None
            return
        node = child


def _text(tokens: list[tuple[str, str]], index: int) -> str:
    return tokens[index][1] if 0 <= index < len(tokens) else ""


def _use(tokens: list[tuple[str, str]], start: int, end: int, method: str | None) -> str | None:
    """How the chain at tokens[start:end] is used: only as `size(x)`, `x.size()`, `x == null`,
    `x != null` (or `null == x`), or else None (as a whole)."""
    before, following = _text(tokens, start - 1), _text(tokens, end)
    if method == "size":
        return SIZE if _text(tokens, end + 1) == ")" else None
    if method is not None:
        return None
    if before == "(" and following == ")" and _text(tokens, start - 2) == "size" and _text(tokens, start - 3) != ".":
        return SIZE
    null_after = following in ("==", "!=") and _text(tokens, end + 1) == "null"
    if null_after and before in _SAFE_BEFORE and _text(tokens, end + 2) in _SAFE_AFTER:
        return NULLNESS
    null_before = before in ("==", "!=") and _text(tokens, start - 2) == "null"
    if null_before and _text(tokens, start - 3) in _SAFE_BEFORE and following in _SAFE_AFTER:
        return NULLNESS
    return None


def _closing(tokens: list[tuple[str, str]], opening: int) -> int:
    depth = 0
    for index in range(opening, len(tokens)):
        text = tokens[index][1]
        if tokens[index][0] != "punct":
            continue
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return index
    raise _Opaque("unbalanced brackets")


def _macro_binding(tokens: list[tuple[str, str]], index: int) -> str | None:
    """The name bound by the macro call whose `(` is at `index` (`exists(u, ...)`), if it has one."""
    if index + 2 < len(tokens) and tokens[index + 1][0] == "ident" and tokens[index + 2][1] == ",":
        return tokens[index + 1][1]
    return None


def _reads(source: str, variable: str, names: list[str]) -> Read:
    tokens = _tokens(source)
    read: Read = {}
    # Each bound name's sources: paths of lists whose elements it stands for; None is a value built
    # only from parts already recorded (safe to read in full).
    bindings: dict[str, list[list[str] | None]] = {}
    bound_at: set[int] = set()

    def resolve(name: str) -> list[list[str] | None]:
        found: list[list[str] | None] = [[]] if name == variable else []
        found.extend(bindings.get(name, []))
        if not found:
            raise _Opaque(f"unknown name {name!r}")
        return found

    index = 0
    while index < len(tokens):
        kind, text = tokens[index]
        if kind != "ident" or index in bound_at or text in KEYWORDS:
            index += 1
            continue
        if index and tokens[index - 1][1] == ".":
            # `.name` after a computed value (a call, a literal, a bracket) reads only what built
            # that value, all of it recorded already; a macro binds its name to such values.
            if text in MACROS and index + 1 < len(tokens) and tokens[index + 1][1] == "(":
                name = _macro_binding(tokens, index + 1)
                if name is not None:
                    bindings.setdefault(name, []).append(None)
                    bound_at.add(index + 2)
            index += 1
            continue
        chain = [text]
        end = index + 1
        while end + 1 < len(tokens) and tokens[end][1] == "." and tokens[end + 1][0] == "ident":
            chain.append(tokens[end + 1][1])
            end += 2
        following = tokens[end][1] if end < len(tokens) else ""
        if following == ".":
            raise _Opaque("an access the analysis does not follow")
        if following == "(" and len(chain) == 1:
            index = end  # a function call: its arguments are read on their own
            continue
        method = chain.pop() if following == "(" else None
        binding = _macro_binding(tokens, end) if method in MACROS else None
        for base in resolve(chain[0]):
            if base is None:
                # Built from recorded parts: reading it reads nothing new; its elements neither.
                if binding is not None:
                    bindings.setdefault(binding, []).append(None)
                continue
            path = [*base, *chain[1:]]
            if binding is None:
                _record(read, path, _use(tokens, index, end, method))
                continue
            _touch(read, [*path, ITEMS])
            bindings.setdefault(binding, []).append([*path, ITEMS])
            if method == "filter" and not _filter_narrowed(tokens, end, bindings, path):
                _record(read, path)
        if binding is not None:
            bound_at.add(end + 1)
        index = end
    unknown = [name for name in names if name != variable and name not in bindings]
    if unknown:
        raise _Opaque(f"names the analysis did not bind: {unknown}")
    return read


def _filter_narrowed(
    tokens: list[tuple[str, str]], opening: int, bindings: dict[str, list[list[str] | None]], path: list[str]
) -> bool:
    """Whether a `filter` result (whole elements of `path`) is only narrowed again, by another macro
    that binds a name to its elements or by `.size()`; binds that name to `path`'s elements."""
    close = _closing(tokens, opening)
    after = tokens[close + 1 : close + 4]
    if len(after) == 3 and after[0][1] == "." and after[1][1] == "size" and after[2][1] == "(":
        return True
    if len(after) == 3 and after[0][1] == "." and after[1][1] in MACROS and after[2][1] == "(":
        name = _macro_binding(tokens, close + 3)
        if name is None:
            return False
        bindings.setdefault(name, []).append([*path, ITEMS])
        return after[1][1] != "filter" or _filter_narrowed(tokens, close + 3, bindings, path)
    return False


def fields_read(source: str, variable: str, program: Any) -> Read | None:
    """What `source` (compiled as `program`) can read of `variable`; None when the whole of it."""
    try:
        return _reads(source, variable, program.variables())
    except _Opaque:
        return None


class _Absent:
    """A field that is not there: equal only to itself, never to any value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


_ABSENT = _Absent()
# Values that are their own key: CEL tells them apart as Python does (a str never equals an int).
# bool and float are tagged with their type, since True == 1 == 1.0 in Python but not in CEL.
_PLAIN = frozenset({str, int, type(None)})


def _freeze(value: Any) -> Hashable:
    """`value` as a hashable key that tells apart what CEL tells apart (1, 1.0 and true differ)."""
    kind = type(value)
    if kind in _PLAIN:
        return value  # type: ignore[no-any-return]
    if kind is list:
        return (list, *[_freeze(item) for item in value])
    if kind is dict:
        return (dict, *[(key, _freeze(item)) for key, item in value.items()])
    if kind is float:
        return (float, value.hex())
    return (kind, value)


Projector = Callable[[Any], Hashable]


def _is_null(value: Any) -> Hashable:
    return value is None


def _size(value: Any) -> Hashable:
    kind = type(value)
    if kind is list or kind is str or kind is dict or kind is bytes:
        return (kind, len(value))
    return _freeze(value)  # `size` fails on it, or not: either way, the whole value decides


def projector(read: Read | str | None) -> Projector:
    """A function from a value (a fact's CEL view, or a part of it) to the key of what `read` names.

    Parts that are not there are marked absent; a value not shaped as `read` expects (a dict where
    a list is read, or the reverse) is keyed whole.
    """
    if read is None:
        return _freeze
    if read == NULLNESS:
        return _is_null
    if read == SIZE:
        return _size
    assert isinstance(read, dict)
    if ITEMS in read:
        if len(read) > 1:
            return _freeze
        item = projector(read[ITEMS])

        def items(value: Any) -> Hashable:
            if type(value) is not list:
                return _freeze(value)
            return (list, *[item(element) for element in value])

        return items
    names = tuple(read)
    if all(sub is None for sub in read.values()):

        def flat(value: Any) -> Hashable:
            if type(value) is not dict:
                return _freeze(value)
            return tuple([_freeze(value[name]) if name in value else _ABSENT for name in names])

        return flat
    parts = tuple((name, projector(sub)) for name, sub in read.items())

    def nested(value: Any) -> Hashable:
        if type(value) is not dict:
            return _freeze(value)
        return tuple([part(value[name]) if name in value else _ABSENT for name, part in parts])

    return nested


def _canonical(read: Read | str | None) -> Read | str | None:
    if read is None or isinstance(read, str):
        return read
    return {name: _canonical(read[name]) for name in sorted(read)}


_PROJECTORS: dict[str, Projector] = {}


def key_function(source: str, variable: str, program: Any) -> Projector | None:
    """The key of `source` on a fact's view, shared by every expression that reads the same parts;
    None when the expression reads the fact as a whole (no key is smaller than the fact)."""
    read = _canonical(fields_read(source, variable, program))
    if read is None:
        return None
    return _PROJECTORS.setdefault(repr(read), projector(read))


def project(value: Any, read: Read | str | None) -> Hashable:
    """The parts of `value` that `read` names, as a hashable key; a part that is not there is marked absent."""
    return projector(read)(value)
