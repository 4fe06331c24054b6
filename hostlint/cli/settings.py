"""Options every checking command shares: the settings file, extra rule folders, rule selection."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import click

from hostlint.baseline import Baseline, check_baseline_codes
from hostlint.config import Config
from hostlint.fixes.actions import check_site_rules
from hostlint.results import SEVERITY_RANK, Finding
from hostlint.rules import Rule, RuleError, load_rules, select
from hostlint.rules.load import check_selectors


def echo_error(exc: Exception) -> None:
    """Each line of an error as its own `hostlint: ...` line on stderr."""
    for line in str(exc).splitlines() or [type(exc).__name__]:
        click.echo(f"hostlint: {line}", err=True)


def config_options(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option(
        "--isolated", is_flag=True, help="Ignore every settings file (hostlint.toml, pyproject.toml)."
    )(command)
    command = click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Settings from this file (hostlint.toml, or pyproject.toml with [tool.hostlint]) instead of the "
        "one found in the current directory or above.",
    )(command)
    return command


def rules_dir_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--rules-dir",
        "rules_dirs",
        multiple=True,
        type=click.Path(file_okay=False, path_type=Path),
        help="A folder of your own rules (same YAML + CEL format), added to the settings file's rules_dirs.",
    )(command)


def prefixes(values: tuple[str, ...] | list[str]) -> list[str]:
    return [p.strip() for value in values for p in value.split(",") if p.strip()]


def chosen_rules(
    config: Config,
    selected: tuple[str, ...],
    ignored: tuple[str, ...],
    profile: str | None,
    rules_dirs: tuple[Path, ...] = (),
    baseline: Baseline | None = None,
    baseline_file: Path | None = None,
) -> list[Rule]:
    """The rules to run: flags over the settings file; every selector and baseline code must name a rule."""
    site_dirs = [*config.rules_dirs, *rules_dirs]
    catalogue = load_rules(extra_dirs=site_dirs)
    check_site_rules(catalogue, site_dirs)
    if baseline is not None and baseline_file is not None:
        check_baseline_codes(baseline, catalogue, baseline_file)
    where = f"{config.source}: " if config.source else ""
    check_selectors(catalogue, prefixes(config.select), f"{where}select")
    check_selectors(catalogue, prefixes(config.ignore), f"{where}ignore")
    chosen_select = prefixes(selected) or prefixes(config.select)
    chosen_ignore = prefixes(config.ignore) + prefixes(ignored)
    chosen_profile = profile or config.profile or "recommended"
    rules = select(catalogue, chosen_select, chosen_ignore, chosen_profile)
    if not rules:
        # "Clean" from zero rules would pass a gate that checked nothing.
        asked = [f"profile {chosen_profile}"]
        asked += [f"select {','.join(chosen_select)}"] if chosen_select else []
        asked += [f"ignore {','.join(chosen_ignore)}"] if chosen_ignore else []
        raise RuleError(f"no rule is selected ({'; '.join(asked)}); nothing would be checked")
    return rules


FAIL_ON = ("error", "warning", "info")


def fail_on_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--fail-on",
        type=click.Choice(FAIL_ON),
        help="Exit 1 only for findings of this severity or worse [default: the settings file's fail_on, else "
        "info: any finding].",
    )(command)


def failing(findings: Iterable[Finding], fail_on: str) -> bool:
    """Whether a finding is at least as severe as `fail_on`."""
    worst = SEVERITY_RANK[fail_on]
    return any(SEVERITY_RANK[finding.severity] <= worst for finding in findings)
