"""Reading rule files and selecting rules by code prefix."""

from __future__ import annotations

from pathlib import Path

from hostlint.data import data_dir
from hostlint.rules.model import PROFILES, Rule
from hostlint.yamlfile import load_model


class RuleError(Exception):
    """A rule file that cannot be used; the message names the file and the field."""


def load_rule(path: Path) -> Rule:
    rule = load_model(path, Rule, "rule", RuleError)
    if path.stem != rule.code:
        raise RuleError(f"{path}: file name must be the rule code ({rule.code}.yaml)")
    return rule


def load_rules(directory: Path | None = None) -> list[Rule]:
    directory = directory or data_dir("rules")
    rules = [load_rule(p) for p in sorted(directory.glob("*.yaml"))]
    codes = [r.code for r in rules]
    dupes = {c for c in codes if codes.count(c) > 1}
    if dupes:
        raise RuleError(f"{directory}: duplicate rule codes {sorted(dupes)}")
    return rules


def select(
    rules: list[Rule], select: list[str] | None, ignore: list[str] | None, profile: str = "strict"
) -> list[Rule]:
    """Rules in `profile` (or a smaller one) whose code has a `select` prefix and no `ignore` prefix.

    A code named in full in `select` is run whatever its profile.
    """
    ceiling = PROFILES.index(profile)
    explicit = {p.upper() for p in select or []}
    chosen = []
    for rule in rules:
        if PROFILES.index(rule.profile) > ceiling and rule.code not in explicit:
            continue
        if select and not any(rule.code.startswith(p.upper()) for p in select):
            continue
        if ignore and any(rule.code.startswith(p.upper()) for p in ignore):
            continue
        chosen.append(rule)
    return chosen


def find(rules: list[Rule], code_or_name: str) -> Rule | None:
    key = code_or_name.strip()
    for rule in rules:
        if key.upper() == rule.code or key.lower() in (rule.name, *rule.aliases):
            return rule
    return None
