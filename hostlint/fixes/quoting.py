"""One escaping function per script language, and the types that tell a quoted value from a raw one.

The template environment (hostlint.fixes.render) writes a `{{ value }}` only when it is a number, a
`Quoted` value of the template's own language, or a `Token` of hostlint's vocabulary; anything else
raises `UnsafeValue`. So a template cannot interpolate a raw name: it must say `{{ nic | sh }}` in a
shell script, `{{ nic | ps }}` in PowerShell, `{{ nic | py }}` in Python, `{{ port | cli }}` on a switch.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from typing import Any

from hostlint.fixes.identifiers import control_character, printable


class UnsafeValue(Exception):
    """A value that cannot be written safely into a script: the step's fix is withheld."""


class Quoted(str):
    """Text already escaped for one language; joining quoted parts keeps it quoted."""

    language: str

    def __new__(cls, text: str, language: str) -> Quoted:
        quoted = super().__new__(cls, text)
        quoted.language = language
        return quoted


# A word of hostlint's own vocabulary (a policy, a channel interface, a mode): the same in every language.
_TOKEN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:+=/-]{0,63}")


class Token(str):
    def __new__(cls, text: object) -> Token:
        text = str(text)
        if not _TOKEN.fullmatch(text):
            raise UnsafeValue(f"{printable(text)[:40]!r} is not a plain word")
        return super().__new__(cls, text)


def _text(value: object) -> str:
    if isinstance(value, bool) or value is None or not isinstance(value, str | int | float):
        raise UnsafeValue(f"a {type(value).__name__} is not a name")
    text = str(value)
    control = control_character(text)
    if control is not None:
        raise UnsafeValue(f"a value contains {control}")
    return text


def sh(value: object) -> Quoted:
    """A POSIX shell word: single-quoted (shlex.quote), so nothing in it is expanded."""
    return Quoted(shlex.quote(_text(value)), "sh")


# PowerShell reads U+2018-U+201B as single quotes too; each is doubled like `'`.
_PS_SINGLE_QUOTES = re.compile("['\u2018\u2019\u201a\u201b]")


def ps(value: object) -> Quoted:
    """A PowerShell verbatim string: single quotes, every single quote doubled; nothing is expanded."""
    return Quoted("'" + _PS_SINGLE_QUOTES.sub(lambda m: m.group(0) * 2, _text(value)) + "'", "ps")


def _py_literal(value: Any) -> str:
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    if type(value) in (str, Quoted, Token):
        # repr of a str is a single-line literal: newlines and quotes come out as escapes.
        return repr(str(value))
    if isinstance(value, list | tuple):
        inner = ", ".join(_py_literal(item) for item in value)
        return f"[{inner}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py_literal(k)}: {_py_literal(v)}" for k, v in value.items()) + "}"
    raise UnsafeValue(f"a {type(value).__name__} has no Python literal")


def py(value: object) -> Quoted:
    """A Python literal (str, number, bool, None, lists and dicts of them), via repr of plain values."""
    return Quoted(_py_literal(value), "py")


_CLI_WORD = r"[A-Za-z0-9][A-Za-z0-9/.:_-]{0,63}"
_CLI = re.compile(_CLI_WORD)
_CLI_WORDS = re.compile(rf"{_CLI_WORD}(?: {_CLI_WORD}){{0,7}}")


def cli(value: object) -> Quoted:
    """A switch CLI argument. Switch CLIs cannot quote an interface name, so the word is checked
    instead: letters, digits, `/ . : _ -`, nothing that starts a comment, a block or a new line."""
    text = _text(value)
    if not _CLI.fullmatch(text):
        raise UnsafeValue(f"{printable(text)[:40]!r} is not a plain switch word")
    return Quoted(text, "cli")


def cli_words(value: object) -> Quoted:
    """Several plain switch words separated by single spaces (`src-dst ip-l4port`)."""
    text = _text(value)
    if not _CLI_WORDS.fullmatch(text):
        raise UnsafeValue(f"{printable(text)[:40]!r} is not plain switch words")
    return Quoted(text, "cli")


def config_line(value: object) -> Quoted:
    """A line the switch showed in its own running configuration (SwitchPort.config_lines), typed back
    as it was: one line, no control character (the switch's own text needs no quoting, and a line split
    in two would be two commands)."""
    text = _text(value)
    if not text.strip() or text != text.strip():
        raise UnsafeValue(f"{printable(text)[:40]!r} is not one configuration line")
    return Quoted(text, "cli")


def join(items: Any, separator: str = "") -> str:
    """Jinja's join, keeping quoted parts of one language quoted (the separator is template text)."""
    parts = list(items)
    languages = {getattr(part, "language", None) for part in parts}
    language = languages.pop() if len(languages) == 1 else None
    if parts and language is not None and all(isinstance(p, Quoted) for p in parts):
        return Quoted(separator.join(parts), language)
    return separator.join(str(part) for part in parts)


def finalizer(language: str) -> Callable[[Any], Any]:
    """The environment's `finalize` for templates of `language`: raw values raise UnsafeValue."""

    def finalize(value: Any) -> Any:
        if isinstance(value, Quoted):
            if value.language != language:
                raise UnsafeValue(f"a value quoted for {value.language} in a {language} template")
            return value
        if isinstance(value, Token) or value == "":
            return value
        if isinstance(value, bool | int | float):
            return value
        raise UnsafeValue(
            f"a raw {type(value).__name__} in a {language} template: pass it through the `{language}` filter"
        )

    return finalize


def display(value: Any) -> str:
    """`finalize` for text shown to people (describe, expect): any value, control characters escaped."""
    return printable(value)
