"""Fix actions: one folder per action under this package, and the registry that finds and checks them.

`<action_with_underscores>/action.yaml` holds the action's Jinja2 text per platform (change, verify,
rollback; hostlint.fixes.actions.model), a switch action's being in each switch platform's folder
instead (hostlint/switches/<platform>/fixes.yaml); `<action_with_underscores>/__init__.py` its expander
(`EXPAND`: a fact and the rule's params to changes), its simulated applier (`APPLY`: what the change
does to a snapshot) and, where the target is out of service while the step runs, `UNDER_WAY`.
Adding an action touches one folder.

Checked when the actions load, each failure one line naming the file: every folder has both files,
an expander and an applier; every platform its YAML names is a fix target of hostlint.platforms;
a host action's YAML has text for at least one; a switch action's YAML names no platform: its text
is in each switch platform folder's `fixes.yaml` (hostlint/switches/<platform>/, merged in here),
which has text for every switch action (and names no other); every rule's fix step names an action
that has commands for every host kind the step reaches, and a `safe` fix has no DISRUPTIVE step
(`check_fix_steps`).
"""

from __future__ import annotations

import difflib
import functools
import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hostlint import platforms as registry
from hostlint import switches
from hostlint.data import data_dir
from hostlint.fixes.actions.model import (
    GUEST_PLATFORMS,
    HOST_PLATFORMS,
    KVM_HOST_PLATFORMS,
    Action,
    ActionError,
    Applier,
    Expander,
    Platform,
    PlatformText,
    folder_name,
    load_action,
)
from hostlint.rules import Rule, RuleError, load_rules
from hostlint.switches.base import FixTextError

__all__ = [
    "GUEST_PLATFORMS",
    "HOST_PLATFORMS",
    "KVM_HOST_PLATFORMS",
    "Action",
    "ActionError",
    "Applier",
    "Expander",
    "Platform",
    "PlatformText",
    "Unit",
    "applier_of",
    "check_fix_steps",
    "expander_of",
    "folder_name",
    "load_action",
    "load_actions",
    "load_units",
    "under_way_of",
    "units",
]

ACTIONS_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Unit:
    """One fix action: its templates, its expander, its simulated applier(s), and its folder."""

    action: Action
    expand: Expander
    apply: Applier
    # The state while the step runs, where its targets are out of service meanwhile.
    under_way: Applier | None
    file: Path


def _callable(module: Any, name: str, what: str, where: Path, required: bool = True) -> Any:
    found = getattr(module, name, None)
    if found is None and not required:
        return None
    if not callable(found):
        raise ActionError(f"{where}: no {name} ({what}); an action's module names it")
    return found


def _add_folder_text(action: Action, template_file: Path) -> None:
    """Each switch platform folder's text for `action` (its `fixes.yaml`), into `action.platforms`."""
    if action.platforms:
        raise ActionError(
            f"{template_file}: a switch action's text is in each switch platform's folder "
            f"(hostlint/switches/<platform>/fixes.yaml), not in its action file; this file names "
            f"{', '.join(action.platforms)}"
        )
    for name in registry.SWITCH_NAMES:
        try:
            text = switches.fix_text(name).get(action.action)
        except FixTextError as exc:
            raise ActionError(str(exc)) from exc
        if text is not None:
            action.platforms[name] = text


def _unknown_folder_text(actions: dict[str, Unit]) -> list[str]:
    """Actions a folder's `fixes.yaml` names that are no switch action (a typo would be silent)."""
    switch_actions = {name for name, unit in actions.items() if unit.action.device == "switch"}
    return [
        f"{switches.folder(name) / 'fixes.yaml'}: {written!r} is no switch action; "
        f"known: {', '.join(sorted(switch_actions))}"
        for name in registry.SWITCH_NAMES
        for written in switches.fix_text(name)
        if written not in switch_actions
    ]


def _load_unit(folder: Path, package: str) -> Unit:
    template_file, module_file = folder / "action.yaml", folder / "__init__.py"
    for needed, what in ((template_file, "its templates"), (module_file, "its expander and applier")):
        if not needed.is_file():
            raise ActionError(f"{folder}: an action folder holds {needed.name} ({what})")
    action = load_action(template_file)
    if action.device == "host" and not action.platforms:
        raise ActionError(f"{template_file}: a host action has text (`platforms:`) for at least one fix target")
    if action.device == "switch":
        _add_folder_text(action, template_file)
        missing = [name for name in registry.SWITCH_NAMES if name not in action.platforms]
        if missing:
            raise ActionError(
                f"{template_file}: a switch action has text for every switch platform; missing {', '.join(missing)} "
                "(in hostlint/switches/<platform>/fixes.yaml)"
            )
    module = importlib.import_module(f"{package}.{folder.name}")
    expand = _callable(module, "EXPAND", "the expander", module_file)
    apply = _callable(module, "APPLY", "the simulated applier", module_file)
    under_way = _callable(module, "UNDER_WAY", "the state while it runs", module_file, required=False)
    return Unit(action, expand, apply, under_way, template_file)


def load_units(directory: Path, package: str) -> dict[str, Unit]:
    """Every action folder under `directory` (the Python package `package`), each checked."""
    folders = sorted(p for p in directory.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    return {unit.action.action: unit for unit in (_load_unit(folder, package) for folder in folders)}


def _step_problems(rule: Rule, where: str, actions: dict[str, Unit]) -> list[str]:
    problems = []
    for written, step in rule.fix.labelled_steps() if rule.fix else []:
        label = f"{where}: {written}"
        unit = actions.get(step.action)
        if unit is None:
            close = difflib.get_close_matches(step.action, list(actions), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            problems.append(f"{label}: no fix action {step.action!r}{hint}")
            continue
        if rule.fix is not None and rule.fix.applicability == "safe" and unit.action.disruptive == "yes":
            # ruff's contract: a safe fix drops no traffic; a DISRUPTIVE step does (issue #26, invariant 1).
            problems.append(f"{label}: {step.action} is DISRUPTIVE, so the fix cannot be `applicability: safe`")
        if unit.action.device == "switch":
            continue  # text for every switch platform: checked when the action loaded
        for kind in rule.step_hosts(step):
            targets = registry.targets_for_host(kind)
            if not set(targets) & set(unit.action.platforms):
                problems.append(
                    f"{label}: {step.action} reaches {kind} hosts, but {unit.file} has no text for them "
                    f"({' or '.join(targets)}); add it, or limit the step with `hosts:`"
                )
    return problems


def check_fix_steps(rules: Iterable[Rule], where: Callable[[Rule], str | None], actions: dict[str, Unit]) -> None:
    """Every fix step of `rules` names an action with commands for every host kind it reaches.

    `where` names a rule's file (None: not checked here). RuleError, one line per problem.
    """
    problems = []
    for rule in rules:
        path = where(rule)
        if path is not None:
            problems += _step_problems(rule, path, actions)
    if problems:
        raise RuleError("\n".join(problems))


@functools.cache
def units() -> dict[str, Unit]:
    """hostlint's actions, by name, loaded and checked against hostlint's rules once per process."""
    found = load_units(ACTIONS_DIR, __name__)
    problems = _unknown_folder_text(found)
    if problems:
        raise ActionError("\n".join(problems))
    rules_dir = data_dir("rules")
    try:
        check_fix_steps(load_rules(rules_dir), lambda rule: str(rules_dir / f"{rule.code}.yaml"), found)
    except RuleError as exc:
        raise ActionError(str(exc)) from exc
    return found


def check_site_rules(rules: Iterable[Rule], directories: Iterable[Path]) -> None:
    """A site's own rules (those in `directories`, as loaded with them) against hostlint's actions."""
    folders = list(directories)
    if not folders:
        return

    def where(rule: Rule) -> str | None:
        return next((str(d / f"{rule.code}.yaml") for d in folders if (d / f"{rule.code}.yaml").is_file()), None)

    check_fix_steps(rules, where, units())


def load_actions() -> dict[str, Action]:
    """Every action's templates, by name: a copy the caller may change."""
    return {name: unit.action.model_copy(deep=True) for name, unit in units().items()}


def expander_of(action: str) -> Expander | None:
    unit = units().get(action)
    return unit.expand if unit else None


def applier_of(action: str) -> Applier | None:
    unit = units().get(action)
    return unit.apply if unit else None


def under_way_of(action: str) -> Applier | None:
    unit = units().get(action)
    return unit.under_way if unit else None
