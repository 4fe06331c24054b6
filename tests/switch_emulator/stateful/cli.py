"""Industry-standard CLI machinery shared by the IOS, NX-OS and EOS sessions: command patterns,
matching a typed line against them, and where the parser gave up (for the caret or token number).

A pattern is words separated by spaces:

- `keyword`: the keyword, typed in full (or one of the abbreviations in ABBREVIATIONS);
- `{a|b|c}`: one of these keywords, captured;
- `[keyword]`: an optional keyword, captured as True/False;
- `<N-M>`: an integer from N to M, captured as int (out of range: rejected at that word, as the
  platforms' parsers do);
- `<word>`: any one word, captured; `<text>`: the rest of the line (at least one word), captured;
- `<if>`: an interface name, one word (`Ethernet1/1`, `Gi1/0/1`) or a type and a number
  (`GigabitEthernet 1/0/1`), captured as one string.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Abbreviations engineers type that every one of the three CLIs takes (unique prefixes there).
ABBREVIATIONS = {
    "configure": ("conf", "config"),
    "terminal": ("t", "term"),
    "interface": ("int",),
    "running-config": ("run",),
    "startup-config": ("start",),
    "memory": ("mem",),
    "write": ("wr",),
}

Args = list[Any]


class Reject(Exception):
    """A handler's refusal: `text` is what the platform prints (state untouched)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class BadWord(Exception):
    """A handler's refusal of word `index` of the line as invalid input (the platform's parser text)."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


@dataclass(frozen=True)
class Rule:
    """One command: its pattern, what it does, and the vendor reference it is written from."""

    pattern: str
    handler: Callable[[Args], str]
    cite: str


@dataclass(frozen=True)
class Outcome:
    """A line matched against a rule: `args` when it matched, else where it failed."""

    args: Args | None
    failed_at: int = 0
    incomplete: bool = False


def words_of(line: str) -> list[tuple[str, int]]:
    """The words of a line with their column."""
    return [(m.group(0), m.start()) for m in re.finditer(r"\S+", line)]


def _keyword(word: str, keyword: str) -> bool:
    typed = word.lower()
    return typed == keyword or typed in ABBREVIATIONS.get(keyword, ())


def match(pattern: str, words: list[str]) -> Outcome:
    tokens = pattern.split()
    args: Args = []
    at = 0
    for position, token in enumerate(tokens):
        if token.startswith("[") and token.endswith("]"):
            present = at < len(words) and _keyword(words[at], token[1:-1])
            args.append(present)
            at += present
            continue
        if at >= len(words):
            # Words ran out before the pattern did: an incomplete command (unless only optionals remain).
            if all(t.startswith("[") for t in tokens[position:]):
                args.extend(False for _ in tokens[position:])
                return Outcome(args)
            return Outcome(None, at, incomplete=True)
        word = words[at]
        if token.startswith("{"):
            choices = token[1:-1].split("|")
            if word.lower() not in choices:
                return Outcome(None, at)
            args.append(word.lower())
        elif token == "<word>":
            args.append(word)
        elif token == "<text>":
            args.append(" ".join(words[at:]))
            return Outcome(args)
        elif token == "<if>":
            # `GigabitEthernet 1/0/1`: a type without digits, then its number.
            if not any(c.isdigit() for c in word) and at + 1 < len(words) and words[at + 1][:1].isdigit():
                args.append(word + words[at + 1])
                at += 1
            else:
                args.append(word)
        elif token.startswith("<") and "-" in token:
            low, high = (int(n) for n in token[1:-1].split("-"))
            if not word.isdigit() or not low <= int(word) <= high:
                return Outcome(None, at)
            args.append(int(word))
        elif not _keyword(word, token):
            return Outcome(None, at)
        at += 1
    if at < len(words):
        return Outcome(None, at)
    return Outcome(args)


@dataclass(frozen=True)
class Parsed:
    """The best reading of a line among a mode's rules."""

    rule: Rule | None
    args: Args
    failed_at: int = 0
    incomplete: bool = False


def parse(rules: list[Rule], words: list[str]) -> Parsed:
    """The rule the line matches, or the deepest failure among them (where the caret goes)."""
    deepest = Parsed(None, [], 0)
    for rule in rules:
        outcome = match(rule.pattern, words)
        if outcome.args is not None:
            return Parsed(rule, outcome.args)
        deeper = outcome.failed_at > deepest.failed_at
        same_but_incomplete = outcome.failed_at == deepest.failed_at and outcome.incomplete
        if deeper or same_but_incomplete:
            deepest = Parsed(None, [], outcome.failed_at, outcome.incomplete)
    return deepest
