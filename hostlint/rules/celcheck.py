"""Static checks of a rule's CEL expressions against the fact model it reads.

The `cel` package compiles an expression but exposes no syntax tree, and a field that does
not exist is only an error when the expression runs, on a fact that reaches that branch: a
misspelt field would skip every check quietly. So each expression is tokenized here (strings,
numbers and comments skipped as CEL defines them) and every dotted path `var.field.sub` is
resolved against the pydantic model the variable stands for. Macro variables (`u` in
`team.uplinks.exists(u, ...)`) are bound to the element type of the list they range over, and
`list[0].field` to the list's element. A path through something whose type is unknown here (the
result of a function call, a map's value of any type) is not checked further: a check that
cannot be sure says nothing rather than something wrong.
"""

from __future__ import annotations

import difflib
import re
import types
from dataclasses import dataclass, field
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

_TOKEN = re.compile(
    r"""
    (?P<space>\s+|//[^\n]*)
  | (?P<string>[rRbB]{0,2}(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'))
  | (?P<number>0[xX][0-9a-fA-F]+[uU]?|\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+(?:[eE][+-]?\d+)?[uU]?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>\|\||&&|==|!=|<=|>=|\.\?|[-+*/%!<>?:.,()\[\]{}])
    """,
    re.VERBOSE,
)
# Names that are not variables: literals, `in`, and type names usable as values (`type(x) == int`).
_NOT_VARIABLES = {
    "true", "false", "null", "in",
    "int", "uint", "double", "bool", "string", "bytes", "list", "map", "type", "null_type", "dyn",
}  # fmt: skip
_MACROS = {"all", "exists", "exists_one", "filter", "map"}


class CelSyntaxError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass
class Problem:
    """A name an expression reads that its fact does not have; `offset` is into the expression."""

    offset: int
    path: str
    message: str


@dataclass
class _Token:
    kind: str
    text: str
    offset: int


@dataclass
class _Frame:
    closer: str
    bindings: dict[str, Any] = field(default_factory=dict)
    # A macro's element type, bound to its first argument once that is seen.
    binds: Any = None
    is_macro: bool = False
    # After `]`: the indexed value's element type, for a path that goes on (`xs[0].name`).
    resume: Any = None
    path: str = ""


_UNKNOWN = object()


def tokenize(source: str) -> list[_Token]:
    tokens = []
    position = 0
    while position < len(source):
        match = _TOKEN.match(source, position)
        if match is None:
            # Syntax this tokenizer does not know (cel.compile has accepted it): not a path.
            tokens.append(_Token("other", source[position], position))
            position += 1
            continue
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append(_Token(kind, match.group(), position))
        position = match.end()
    return tokens


def _strip_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        return members[0] if len(members) == 1 else _UNKNOWN
    return annotation


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def element_type(annotation: Any) -> Any:
    """What a macro variable ranging over a value of `annotation` stands for."""
    annotation = _strip_optional(annotation)
    origin = get_origin(annotation)
    if origin in (list, set, tuple):
        args = get_args(annotation)
        return args[0] if args else _UNKNOWN
    if origin is dict:
        return get_args(annotation)[0] if get_args(annotation) else _UNKNOWN
    return _UNKNOWN


def _index_type(annotation: Any) -> Any:
    annotation = _strip_optional(annotation)
    if get_origin(annotation) is dict:
        args = get_args(annotation)
        return args[1] if args else _UNKNOWN
    return element_type(annotation)


def _describe(annotation: Any) -> str:
    annotation = _strip_optional(annotation)
    if get_origin(annotation) is list:
        return "list"
    return annotation.__name__ if isinstance(annotation, type) else str(annotation)


def _member(owner: Any, name: str, path: str, offset: int, problems: list[Problem]) -> Any:
    """The type of `owner.name`, recording a problem when `owner` has no such field."""
    if owner is _UNKNOWN:
        return _UNKNOWN
    owner = _strip_optional(owner)
    if owner is _UNKNOWN or owner is Any:
        return _UNKNOWN
    if get_origin(owner) is dict:
        return _index_type(owner)
    if _is_model(owner):
        fields = owner.model_fields
        if name in fields:
            return fields[name].annotation
        close = difflib.get_close_matches(name, list(fields), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        problems.append(Problem(offset, path, f"{path}: {owner.__name__} has no field {name!r}{hint}"))
        return _UNKNOWN
    problems.append(Problem(offset, path, f"{path}: a value of type {_describe(owner)} has no field {name!r}"))
    return _UNKNOWN


class _Checker:
    def __init__(self, source: str, variables: dict[str, Any]) -> None:
        self.tokens = tokenize(source)
        self.variables = variables
        self.frames: list[_Frame] = []
        self.problems: list[Problem] = []

    def _lookup(self, name: str) -> Any:
        for frame in reversed(self.frames):
            if name in frame.bindings:
                return frame.bindings[name]
        return self.variables.get(name, None)

    def _at(self, index: int, text: str) -> bool:
        return index < len(self.tokens) and self.tokens[index].text == text

    def run(self) -> list[Problem]:
        tokens = self.tokens
        i = 0
        while i < len(tokens):
            token = tokens[i]
            after_dot = i > 0 and tokens[i - 1].text in (".", ".?")
            if token.kind == "ident" and not after_dot:
                i = self._chain(i)
                continue
            if token.text in "([{" and token.kind == "punct":
                self.frames.append(_Frame(closer={"(": ")", "[": "]", "{": "}"}[token.text]))
            elif token.kind == "punct" and token.text in ")]}":
                if not self.frames or self.frames[-1].closer != token.text:
                    raise CelSyntaxError(f"unbalanced {token.text!r}", token.offset)
                frame = self.frames.pop()
                if self._at(i + 1, ".") or self._at(i + 1, "["):
                    path = f"{frame.path}(...)" if frame.closer == ")" else f"{frame.path}[...]"
                    owner = frame.resume if frame.closer == "]" else _UNKNOWN
                    i = self._continue(i + 1, owner, path)
                    continue
            i += 1
        if self.frames:
            raise CelSyntaxError(f"missing {self.frames[-1].closer!r}", len(self.tokens) and tokens[-1].offset)
        return self.problems

    def _chain(self, i: int) -> int:
        """Resolve the path starting at identifier `i`; the index of the first token after it."""
        token = self.tokens[i]
        name = token.text
        frame = self.frames[-1] if self.frames else None
        if frame is not None and frame.is_macro and self._at(i + 1, ",") and self.tokens[i - 1].text == "(":
            frame.bindings[name] = frame.binds
            return i + 1
        if self._at(i + 1, "("):
            return i + 1
        if name in _NOT_VARIABLES:
            return i + 1
        owner = self._lookup(name)
        if owner is None:
            known = [*self.variables, *(n for f in self.frames for n in f.bindings)]
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; this rule's fact is {'/'.join(self.variables)!r}"
            self.problems.append(Problem(token.offset, name, f"unknown name {name!r}{hint}"))
            owner = _UNKNOWN
        return self._continue(i + 1, owner, name)

    def _continue(self, i: int, owner: Any, path: str) -> int:
        tokens = self.tokens
        while i < len(tokens):
            if tokens[i].text in (".", ".?") and i + 1 < len(tokens) and tokens[i + 1].kind == "ident":
                name = tokens[i + 1].text
                if self._at(i + 2, "("):
                    is_macro = name in _MACROS
                    binds = element_type(owner) if is_macro and owner is not _UNKNOWN else _UNKNOWN
                    self.frames.append(_Frame(closer=")", binds=binds, is_macro=is_macro, path=f"{path}.{name}"))
                    return i + 3
                path = f"{path}.{name}"
                owner = _member(owner, name, path, tokens[i + 1].offset, self.problems)
                i += 2
                continue
            if tokens[i].text == "[":
                resume = _index_type(owner) if owner is not _UNKNOWN else _UNKNOWN
                self.frames.append(_Frame(closer="]", resume=resume, path=path))
                return i + 1
            break
        return i


def check_expression(source: str, variables: dict[str, type[BaseModel]]) -> list[Problem]:
    """Names `source` reads that `variables` (name -> fact model) do not have. Raises CelSyntaxError."""
    return _Checker(source, dict(variables)).run()
