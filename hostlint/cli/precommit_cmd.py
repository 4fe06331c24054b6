"""`hostlint pre-commit FILE...`: the pre-commit hook. Checks the whole site each changed snapshot belongs to.

pre-commit passes only the staged files. Checking those alone passes a commit that breaks the site: IP hash
set in `hosts.json` is only wrong against the switch port-channel in the unchanged `switches.json`. So each
changed snapshot stands for its site folder, and the folder is checked as `hostlint check FOLDER` would.
Files that are not hostlint inputs (package.json, a CI file) are passed over, not refused.
"""

from __future__ import annotations

from pathlib import Path

import click

from hostlint.cli.exit import Exit
from hostlint.cli.settings import FAIL_ON
from hostlint.snapshot.load import CABLING_NAMES

# hostlint writes `schema_version` first; a hand-edited snapshot keeps it near the top.
SNIFF_BYTES = 64 * 1024


def is_hostlint_input(path: Path) -> bool:
    """A snapshot (a JSON object with `schema_version`) or a cabling file, judged without reading it all."""
    if path.name in CABLING_NAMES:
        return True
    if path.suffix != ".json" or not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return False
    return head.lstrip().startswith(b"{") and b'"schema_version"' in head


def site_folder(path: Path, sites: Path | None) -> Path | None:
    """The folder a file's site is: its own folder, or with `sites`, the first folder below `sites` (None:
    the file is outside it)."""
    if sites is None:
        return path.parent
    try:
        relative = path.resolve().relative_to(sites.resolve())
    except ValueError:
        return None
    return sites / relative.parts[0] if len(relative.parts) > 1 else sites


@click.command("pre-commit")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--sites",
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder of sites: each folder below it is one site (files directly in it, one site). "
    "Without it, a snapshot's own folder is its site.",
)
@click.option("--fail-on", type=click.Choice(FAIL_ON), help="As check --fail-on.")
@click.option("--profile", help="Rule profile [default: the settings file's, else recommended].")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--isolated", is_flag=True, help="Ignore every settings file.")
def pre_commit(
    files: tuple[Path, ...],
    sites: Path | None,
    fail_on: str | None,
    profile: str | None,
    config_file: Path | None,
    isolated: bool,
) -> int:
    """Check the site of every changed hostlint snapshot or cabling file (for pre-commit's `hostlint` hook)."""
    from hostlint.cli.check_cmd import check

    folders: list[Path] = []
    for file in files:
        folder = site_folder(file, sites) if is_hostlint_input(file) else None
        if folder is not None and folder not in folders:
            folders.append(folder)
    options = [*(["--fail-on", fail_on] if fail_on else []), *(["--profile", profile] if profile else [])]
    options += [*(["--config", str(config_file)] if config_file else []), *(["--isolated"] if isolated else [])]
    worst = Exit.CLEAN
    for folder in folders:
        click.echo(f"hostlint: site {folder}", err=True)
        # The site's hostlint files only: a notes.json beside the snapshots is not one.
        inputs = [
            str(p) for p in sorted(folder.iterdir()) if p.suffix in (".json", ".yaml", ".yml") and is_hostlint_input(p)
        ]
        try:
            code = check.main([*inputs, *options], prog_name="hostlint check", standalone_mode=False)
        except click.ClickException as exc:
            exc.show()
            code = Exit.USAGE
        worst = max(worst, Exit(int(code or 0)))
    return worst
