"""The switch platforms: one folder each under this package, and the registry that finds them.

A platform folder is a sub-package holding `platform.py` (its `PLATFORM`, hostlint.switches.base);
its other pieces are listed and checked by hostlint.switches.contract. The folders are found with
importlib.resources, without importing them; a folder's `platform.py` is imported the first time the
platform is asked for (sqlfluff's dialect selector). Adding a platform is adding its folder: no table
here or elsewhere names it.

Modules outside this package reach a platform only through `switch(name)` / `find_switch` /
`canonical_switch` / `SWITCH_NAMES`, never by importing `hostlint.switches.<platform>`.
"""

from __future__ import annotations

import functools
import importlib
from importlib import resources
from pathlib import Path

from hostlint.switches.base import (
    ConfigGrammar,
    Families,
    FixText,
    HashTable,
    MemberFlags,
    MtuLimits,
    NameGrammar,
    SwitchPlatform,
    load_fix_text,
)

__all__ = [
    "SWITCH_NAMES",
    "UnsupportedPlatform",
    "canonical_switch",
    "config",
    "families",
    "find_switch",
    "fix_text",
    "folder",
    "folder_names",
    "hashes",
    "member_flags",
    "mtu_limits",
    "name_grammars",
    "names",
    "switch",
]

# The platforms hostlint shipped first keep their place in listings (rule pages, the schema's enum,
# error messages); every other folder follows in name order.
_FIRST = ("cisco_ios", "cisco_nxos", "arista_eos", "juniper_junos")


class UnsupportedPlatform(ValueError):
    """A device whose platform hostlint has no collector for."""


def folder_names() -> tuple[str, ...]:
    """The sub-folders of this package holding a `platform.py`, in listing order (no folder imported)."""
    found = {
        entry.name
        for entry in resources.files(__name__).iterdir()
        if entry.is_dir() and not entry.name.startswith(("_", ".")) and entry.joinpath("platform.py").is_file()
    }
    first = [name for name in _FIRST if name in found]
    return (*first, *sorted(found - set(first)))


SWITCH_NAMES: tuple[str, ...] = folder_names()


@functools.cache
def _load(name: str) -> SwitchPlatform:
    module = importlib.import_module(f"{__name__}.{name}.platform")
    platform = getattr(module, "PLATFORM", None)
    if not isinstance(platform, SwitchPlatform):
        raise TypeError(f"hostlint/switches/{name}/platform.py: defines no PLATFORM (a SwitchPlatform)")
    if platform.name != name:
        raise TypeError(f"hostlint/switches/{name}/platform.py: PLATFORM is named {platform.name!r}, not its folder")
    return platform


def switch(name: str) -> SwitchPlatform:
    """The switch platform `name` (a folder name); KeyError for anything else."""
    if name not in SWITCH_NAMES:
        raise KeyError(name)
    return _load(name)


def find_switch(name: str | None) -> SwitchPlatform | None:
    """The switch platform `name`, None when it is not one (a host target, or unknown)."""
    return _load(name) if name in SWITCH_NAMES else None


@functools.cache
def _aliases() -> dict[str, str]:
    return {alias: name for name in SWITCH_NAMES for alias in _load(name).aliases}


def canonical_switch(name: str | None) -> str:
    """The registry name for a switch platform as inventories spell it; unsupported names are an error."""
    key = (name or "").strip().lower()
    key = _aliases().get(key, key)
    if key not in SWITCH_NAMES:
        raise UnsupportedPlatform(f"platform {name!r} is not supported; supported: {', '.join(SWITCH_NAMES)}")
    return key


def folder(name: str) -> Path:
    """The folder of switch platform `name` (its pieces: hostlint.switches.contract)."""
    return Path(__file__).resolve().parent / name


@functools.cache
def fix_text(name: str) -> dict[str, FixText]:
    """The platform's text per switch action, from its folder's `fixes.yaml` ({} while it has none);
    FixTextError naming the file when it does not load."""
    path = folder(name) / "fixes.yaml"
    return load_fix_text(path) if path.is_file() else {}


@functools.cache
def families(name: str) -> Families | None:
    """The platform's families (its folder's `families.py`); None for a platform without, or no platform."""
    if name not in SWITCH_NAMES or not (folder(name) / "families.py").is_file():
        return None
    module = importlib.import_module(f"{__name__}.{name}.families")
    return Families(
        family=module.family,
        unknown_reason=module.unknown_reason,
        unsupported=getattr(module, "UNSUPPORTED", {}),
    )


@functools.cache
def hashes(name: str) -> HashTable | None:
    """The platform's hash table (its folder's `hashes.py` `HASHES`); None while it has none."""
    if name not in SWITCH_NAMES or not (folder(name) / "hashes.py").is_file():
        return None
    table = importlib.import_module(f"{__name__}.{name}.hashes").HASHES
    if not isinstance(table, HashTable):
        raise TypeError(f"hostlint/switches/{name}/hashes.py: HASHES is not a HashTable")
    return table


@functools.cache
def names(name: str) -> NameGrammar | None:
    """The platform's interface name grammar (its folder's `names.py` `NAMES`); None while it has none."""
    if name not in SWITCH_NAMES or not (folder(name) / "names.py").is_file():
        return None
    grammar = importlib.import_module(f"{__name__}.{name}.names").NAMES
    if not isinstance(grammar, NameGrammar):
        raise TypeError(f"hostlint/switches/{name}/names.py: NAMES is not a NameGrammar")
    return grammar


@functools.cache
def name_grammars() -> tuple[NameGrammar, ...]:
    """Every platform's name grammar, in listing order (for names read without knowing their platform)."""
    return tuple(grammar for grammar in map(names, SWITCH_NAMES) if grammar is not None)


@functools.cache
def mtu_limits(name: str) -> MtuLimits:
    """Switch platform `name`'s MTU figures and limits (its folder's `mtu.py` `MTU`); KeyError for a name that
    is no switch platform."""
    if name not in SWITCH_NAMES:
        raise KeyError(name)
    limits = importlib.import_module(f"{__name__}.{name}.mtu").MTU
    if not isinstance(limits, MtuLimits):
        raise TypeError(f"hostlint/switches/{name}/mtu.py: MTU is not an MtuLimits")
    return limits


@functools.cache
def member_flags(name: str) -> MemberFlags | None:
    """The platform's member-state flags (its folder's `members.py` `MEMBER_FLAGS`); None while it has none."""
    if name not in SWITCH_NAMES or not (folder(name) / "members.py").is_file():
        return None
    flags = importlib.import_module(f"{__name__}.{name}.members").MEMBER_FLAGS
    if not isinstance(flags, MemberFlags):
        raise TypeError(f"hostlint/switches/{name}/members.py: MEMBER_FLAGS is not a MemberFlags")
    return flags


@functools.cache
def config(name: str) -> ConfigGrammar:
    """What the fixes read of switch platform `name`'s configuration grammar (its folder's `config.py`
    `CONFIG`; every folder has one: hostlint.switches.contract); KeyError for a name that is no switch platform."""
    if name not in SWITCH_NAMES:
        raise KeyError(name)
    grammar = getattr(importlib.import_module(f"{__name__}.{name}.config"), "CONFIG", None)
    if not isinstance(grammar, ConfigGrammar):
        raise TypeError(f"hostlint/switches/{name}/config.py: CONFIG is not a ConfigGrammar")
    return grammar
