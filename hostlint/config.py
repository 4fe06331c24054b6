"""Settings from a file, found as ruff finds its own: `hostlint.toml`, or `[tool.hostlint]` in
`pyproject.toml`, in the current directory or the nearest one above it.

A flag given on the command line wins over the file (`--ignore` adds to the file's list).
Paths in the file are relative to the file's directory. A key the file does not know is an
error, never ignored: a misspelt `selcet` would otherwise run every rule.
"""

from __future__ import annotations

import difflib
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError
from pydantic_core import ErrorDetails

from hostlint.inputfile import InputError, read_text
from hostlint.rules.model import Profile
from hostlint.strict import Strict

CONFIG_NAMES = ("hostlint.toml", ".hostlint.toml", "pyproject.toml")
FormatName = Literal["human", "json", "sarif", "junit", "html", "github", "gitlab"]


class ConfigError(Exception):
    """A settings file that cannot be used; the message is one line naming the file."""


class Timeouts(Strict):
    """Seconds for live collection (`collect switches`): TCP + SSH login, and each command's answer."""

    connect: float | None = Field(default=None, gt=0)
    command: float | None = Field(default=None, gt=0)


class Config(Strict):
    select: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)
    profile: Profile | None = None
    site: Path | None = None
    baseline: Path | None = None
    rules_dirs: list[Path] = Field(default_factory=list)
    format: FormatName | None = None
    # The severity that fails `check` and `scan` (exit 1); --fail-on wins.
    fail_on: Literal["error", "warning", "info"] | None = None
    timeouts: Timeouts = Field(default_factory=Timeouts)
    # The file these settings came from, None when there is none.
    source: Path | None = Field(default=None, exclude=True)


def _table(path: Path) -> dict[str, Any] | None:
    """The hostlint settings in `path`, or None for a pyproject.toml without `[tool.hostlint]`."""
    try:
        document = tomllib.loads(read_text(path))
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: cannot read settings: {exc}") from exc
    except RecursionError:  # tomllib recurses per nested array or table: 5,000 levels exhaust the stack
        raise ConfigError(f"{path}: cannot read settings: nested too deep") from None
    except ValueError as exc:  # an integer longer than Python converts
        raise ConfigError(f"{path}: cannot read settings: {str(exc).split(';')[0]}") from None
    if path.name == "pyproject.toml":
        table = document.get("tool", {}).get("hostlint")
        return table if isinstance(table, dict) else None
    return document


def _problem(path: Path, where: str, error: ErrorDetails) -> str:
    loc = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":
        known = Config.model_fields if len(error["loc"]) == 1 else Timeouts.model_fields
        name = str(error["loc"][-1])
        keys = [k for k in known if k != "source"]
        close = difflib.get_close_matches(name, keys, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(keys)}"
        return f"{path}: {where}unknown key {loc!r}{hint}"
    return f"{path}: {where}{loc}: {error['msg']}"


def read_config(path: Path) -> Config:
    """The settings in `path`; relative paths in them are made relative to its directory."""
    table = _table(path)
    if table is None:
        raise ConfigError(f"{path}: no [tool.hostlint] table")
    where = "[tool.hostlint] " if path.name == "pyproject.toml" else ""
    try:
        config = Config.model_validate(table)
    except ValidationError as exc:
        raise ConfigError("; ".join(_problem(path, where, e) for e in exc.errors())) from exc
    base = path.resolve().parent
    config.site = base / config.site if config.site else None
    config.baseline = base / config.baseline if config.baseline else None
    config.rules_dirs = [base / d for d in config.rules_dirs]
    config.source = path
    return config


def discover(start: Path) -> Path | None:
    """The nearest settings file in `start` or above: hostlint.toml first, then pyproject.toml with a table."""
    for directory in (start.resolve(), *start.resolve().parents):
        for name in CONFIG_NAMES:
            candidate = directory / name
            if candidate.is_file() and (name != "pyproject.toml" or _table(candidate) is not None):
                return candidate
    return None


def load_config(config_file: Path | None, isolated: bool, start: Path | None = None) -> Config:
    """`--config FILE`, else (unless `--isolated`) the file discovered from `start` (the cwd), else defaults."""
    if config_file is not None and isolated:
        raise ConfigError("--config and --isolated exclude each other")
    if config_file is not None:
        if not config_file.is_file():
            raise ConfigError(f"{config_file}: no such settings file")
        return read_config(config_file)
    if isolated:
        return Config()
    found = discover(start or Path.cwd())
    return read_config(found) if found else Config()
