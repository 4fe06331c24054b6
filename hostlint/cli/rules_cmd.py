"""`hostlint rules` (the catalogue) and `hostlint rule CODE` (one rule explained)."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from hostlint.cli.exit import Exit
from hostlint.cli.settings import config_options, echo_error, rules_dir_option
from hostlint.config import ConfigError, load_config
from hostlint.data import data_dir
from hostlint.fixes.actions import check_site_rules
from hostlint.rules import Rule, RuleError, find, load_rules
from hostlint.rules.cases import CaseError, load_cases, run_case
from hostlint.rules.docs import rule_markdown, write_docs


def _load(config_file: Path | None = None, isolated: bool = False, rules_dirs: tuple[Path, ...] = ()) -> list[Rule]:
    """hostlint's rules and the site's (settings file's rules_dirs and --rules-dir)."""
    try:
        config = load_config(config_file, isolated)
        site_dirs = [*config.rules_dirs, *rules_dirs]
        catalogue = load_rules(extra_dirs=site_dirs)
        check_site_rules(catalogue, site_dirs)
        return catalogue
    except (RuleError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from exc


@click.command()
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
@config_options
@rules_dir_option
def rules(fmt: str, config_file: Path | None, isolated: bool, rules_dirs: tuple[Path, ...]) -> int:
    """List every rule, the site's own too: code, name, severity, platforms, summary."""
    catalogue = _load(config_file, isolated, rules_dirs)
    if fmt == "json":
        rows = [
            {
                "code": r.code,
                "name": r.name,
                "severity": r.severity,
                "profile": r.profile,
                "platforms": r.platforms,
                "summary": r.summary,
            }
            for r in catalogue
        ]
        click.echo(json.dumps(rows, indent=2))
        return Exit.CLEAN
    table = Table("code", "name", "severity", "profile", "summary", box=None)
    for r in catalogue:
        table.add_row(r.code, r.name, r.severity, r.profile, r.summary)
    Console().print(table)
    return Exit.CLEAN


class _RuleGroup(click.Group):
    """`hostlint rule CODE` explains a rule; `hostlint rule test DIR` runs rule cases."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["explain", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_RuleGroup)
def rule() -> None:
    """Explain one rule (`hostlint rule CODE`), or test rules against their cases (`hostlint rule test DIR`)."""


@rule.command()
@click.argument("code")
@config_options
@rules_dir_option
def explain(code: str, config_file: Path | None, isolated: bool, rules_dirs: tuple[Path, ...]) -> int:
    """Explain one rule (by code or name): why it matters, examples, references, fix."""
    catalogue = _load(config_file, isolated, rules_dirs)
    found = find(catalogue, code)
    if found is None:
        close = difflib.get_close_matches(code.upper(), [r.code for r in catalogue], n=2)
        close = close or difflib.get_close_matches(code.lower(), [r.name for r in catalogue], n=2)
        hint = f"did you mean {' or '.join(close)}?" if close else "`hostlint rules` lists them"
        click.echo(f"hostlint: no rule {code!r}; {hint}", err=True)
        return Exit.USAGE
    Console().print(Markdown(rule_markdown(found)))
    return Exit.CLEAN


@rule.command("test")
@click.argument("directory", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option(
    "--cases",
    "cases_dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Where the cases files (CODE.yaml) are [default: DIRECTORY/cases].",
)
def test_rules(directory: Path, cases_dir: Path | None) -> int:
    """Run each rule in DIRECTORY against its own pass/fail/skip cases (CASES/CODE.yaml).

    Exit 0 when every case holds, 1 when one does not, 2 when a rule or cases file is broken
    or a rule has no cases.
    """
    cases_dir = cases_dir or directory / "cases"
    shipped = data_dir("rules").resolve() == directory.resolve()
    try:
        catalogue = load_rules(directory) if shipped else load_rules(extra_dirs=[directory])
        if not shipped:
            check_site_rules(catalogue, [directory])
        rules = [r for r in catalogue if shipped or (directory / f"{r.code}.yaml").is_file()]
        plans = []
        for found in rules:
            path = cases_dir / f"{found.code}.yaml"
            if not path.is_file():
                raise CaseError(
                    f"{path}: no cases for rule {found.code}; every rule needs a passing and a failing case"
                )
            plans.append((found, path, load_cases(path)))
    except (RuleError, CaseError) as exc:
        echo_error(exc)
        return Exit.USAGE
    failed = total = 0
    for found, path, cases in plans:
        for case in cases:
            total += 1
            outcome = run_case(found, case)
            if outcome.ok:
                continue
            failed += 1
            for problem in outcome.problems:
                click.echo(f"{path}: {found.code} case {case.name!r}: {problem}")
        missing = {"pass", "fail"} - {case.expect for case in cases}
        if missing:
            failed += 1
            click.echo(f"{path}: {found.code} has no {' and no '.join(sorted(missing))} case")
    click.echo(f"{total - failed} of {total} cases hold for {len(plans)} rules in {directory}")
    return Exit.FINDINGS if failed else Exit.CLEAN


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def docs(directory: Path) -> int:
    """Write one markdown page per rule, and an index, into DIRECTORY."""
    written = write_docs(_load(), directory)
    click.echo(f"hostlint: wrote {len(written)} pages to {directory}", err=True)
    return Exit.CLEAN
