"""Reading rule files (hostlint's and a site's own) and selecting rules by code, prefix or name."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path

from hostlint.data import data_dir
from hostlint.rules.model import PROFILES, Rule
from hostlint.rules.validate import rule_problems
from hostlint.yamlfile import load_model

# hostlint's own codes: an area of two letters and three digits. A site's rules may use any
# prefix of 2-8 letters (the model allows 3-4 digits) that does not start with one of hostlint's
# areas, so `--select LG` never picks up a site rule by accident.
SHIPPED_CODE = re.compile(r"[A-Z]{2}\d{3}")


# Static checks of a rule file, by path and contents: a process loads the same rules many times.
_CHECKED: dict[tuple[str, str], list[str]] = {}


class RuleError(Exception):
    """A rule file that cannot be used; each line of the message names a file and what is wrong."""


def load_rule(path: Path) -> Rule:
    rule = load_model(path, Rule, "rule", RuleError)
    if path.stem != rule.code:
        raise RuleError(f"{path}: file name must be the rule code ({rule.code}.yaml)")
    text = path.read_text(encoding="utf-8")
    key = (str(path), text)
    if key not in _CHECKED:
        _CHECKED[key] = rule_problems(rule, path, text)
    problems = _CHECKED[key]
    if problems:
        raise RuleError("\n".join(problems))
    return rule


def _load_dir(directory: Path, errors: list[str]) -> list[Rule]:
    if not directory.is_dir():
        errors.append(f"{directory}: rules directory does not exist")
        return []
    rules = []
    for path in sorted(directory.glob("*.yaml")):
        try:
            rules.append(load_rule(path))
        except RuleError as exc:
            errors.extend(str(exc).splitlines())
    return rules


def _area(code: str) -> str:
    match = re.match(r"[A-Z]*", code)  # always matches, perhaps the empty string
    return match.group() if match else ""


def load_rules(directory: Path | None = None, extra_dirs: Iterable[Path] = ()) -> list[Rule]:
    """hostlint's rules (or those in `directory`) and a site's rules from `extra_dirs`.

    Every problem in every file is reported, one line each, in one RuleError.
    """
    directory = directory or data_dir("rules")
    errors: list[str] = []
    rules = _load_dir(directory, errors)
    for rule in rules:
        if not SHIPPED_CODE.fullmatch(rule.code):
            errors.append(f"{directory / rule.code}.yaml: a hostlint rule code is two letters and three digits")
    areas = {_area(r.code) for r in rules}
    names = {n: r.code for r in rules for n in (r.name, *r.aliases)}
    codes = {r.code: directory for r in rules}
    for extra in extra_dirs:
        for rule in _load_dir(extra, errors):
            where = f"{extra / rule.code}.yaml"
            if rule.code in codes:
                errors.append(f"{where}: code {rule.code} is already a rule in {codes[rule.code]}")
                continue
            clash = next((a for a in sorted(areas) if rule.code.startswith(a)), None)
            if clash:
                errors.append(f"{where}: code {rule.code} starts with hostlint's prefix {clash}; use your own")
                continue
            taken = next((n for n in (rule.name, *rule.aliases) if n in names), None)
            if taken:
                errors.append(f"{where}: name {taken!r} is already rule {names[taken]}'s")
                continue
            codes[rule.code] = extra
            names.update({n: rule.code for n in (rule.name, *rule.aliases)})
            rules.append(rule)
    if errors:
        raise RuleError("\n".join(errors))
    return rules


def _matches(rule: Rule, selector: str) -> bool:
    return rule.code.startswith(selector.upper()) or selector.lower() in (rule.name, *rule.aliases)


def check_selectors(rules: list[Rule], selectors: Iterable[str], where: str) -> None:
    """Refuse a selector that names no rule (a typo would otherwise select or ignore nothing)."""
    for selector in selectors:
        if any(_matches(rule, selector) for rule in rules):
            continue
        candidates = sorted({r.code for r in rules} | {_area(r.code) for r in rules} | {r.name for r in rules})
        close = difflib.get_close_matches(selector.upper() if selector.isalnum() else selector, candidates, n=2)
        close = close or difflib.get_close_matches(selector, candidates, n=2)
        hint = f"; did you mean {' or '.join(close)}?" if close else "; `hostlint rules` lists them"
        raise RuleError(f"{where}: {selector!r} is no rule code, prefix or name{hint}")


def select(
    rules: list[Rule], select: list[str] | None, ignore: list[str] | None, profile: str = "strict"
) -> list[Rule]:
    """Rules in `profile` (or a smaller one) that a `select` entry names and no `ignore` entry does.

    An entry is a code prefix (LG, MT001) or a rule's name. A rule named in full in `select` is
    run whatever its profile. An entry that names no rule is a RuleError.
    """
    check_selectors(rules, select or [], "--select")
    check_selectors(rules, ignore or [], "--ignore")
    ceiling = PROFILES.index(profile)
    explicit = {p.upper() for p in select or []} | {p.lower() for p in select or []}
    chosen = []
    for rule in rules:
        if PROFILES.index(rule.profile) > ceiling and rule.code not in explicit and rule.name not in explicit:
            continue
        if select and not any(_matches(rule, p) for p in select):
            continue
        if ignore and any(_matches(rule, p) for p in ignore):
            continue
        chosen.append(rule)
    return chosen


def find(rules: list[Rule], code_or_name: str) -> Rule | None:
    key = code_or_name.strip()
    for rule in rules:
        if key.upper() == rule.code or key.lower() in (rule.name, *rule.aliases):
            return rule
    return None
