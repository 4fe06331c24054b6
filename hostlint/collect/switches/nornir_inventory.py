"""Nornir simple inventories: `hosts.yaml`, with `groups.yaml` and `defaults.yaml` beside it.

Nornir's schema is closed: a host or group has exactly these keys, and anything
of its own goes under `data`. So an unknown key (`hostnme`) is an error naming
the file and the host, as is a `data` that is not a mapping.

Inheritance is Nornir's: a host's own value, then each of its groups in order,
depth first (a group's own value, then its groups'), then defaults. Each group
is resolved once however many hosts or groups list it (memoised); a group that
contains itself is an error naming the cycle, and nesting is capped.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from hostlint.collect.switches.ansible_inventory import MAX_GROUP_DEPTH
from hostlint.collect.switches.inventory_file import InventoryError, read_inventory_yaml

FIELDS = ("hostname", "port", "platform", "username")
DEFAULTS_KEYS = (*FIELDS, "password", "data", "connection_options")
HOST_KEYS = (*DEFAULTS_KEYS, "groups")


def check_entry(path: Path, owner: str, entry: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    """A host, group or defaults entry: a mapping of Nornir's keys, `data` a mapping, `groups` a list."""
    if entry is None:
        return {}
    if not isinstance(entry, dict):
        raise InventoryError(f"{path}: {owner}: expected a mapping of {', '.join(allowed)}")
    for key in entry:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else " (put your own keys under data)"
            raise InventoryError(f"{path}: {owner}: unknown key {key!r}{hint}")
    if entry.get("data") is not None and not isinstance(entry["data"], dict):
        raise InventoryError(f"{path}: {owner}: data must be a mapping, found {type(entry['data']).__name__}")
    groups = entry.get("groups")
    if groups is not None and (not isinstance(groups, list) or not all(isinstance(g, str) for g in groups)):
        raise InventoryError(f"{path}: {owner}: groups must be a list of group names")
    return entry


class _Groups:
    """groups.yaml resolved one group at a time, each once."""

    def __init__(self, path: Path, raw: dict[str, Any]):
        self.path = path
        self.raw = {str(name): check_entry(path, f"group {name}", entry, HOST_KEYS) for name, entry in raw.items()}
        self.resolved: dict[str, dict[str, Any]] = {}

    def resolve(self, name: str, chain: tuple[str, ...], owner: str) -> dict[str, Any]:
        if name in self.resolved:
            return self.resolved[name]
        if name in chain:
            cycle = " -> ".join((*chain[chain.index(name) :], name))
            raise InventoryError(f"{self.path}: group cycle: {cycle}")
        if name not in self.raw:
            raise InventoryError(f"{self.path}: {owner}: group {name!r} is not in groups.yaml")
        if len(chain) >= MAX_GROUP_DEPTH:
            raise InventoryError(f"{self.path}: groups nested deeper than {MAX_GROUP_DEPTH} levels at {name!r}")
        self.resolved[name] = inherit(self.raw[name], self, (*chain, name), f"group {name}")
        return self.resolved[name]


def inherit(entry: dict[str, Any], groups: _Groups, chain: tuple[str, ...], owner: str) -> dict[str, Any]:
    """An entry's fields and data, with what it does not set taken from its groups in order."""
    fields = {key: entry[key] for key in FIELDS if entry.get(key) is not None}
    data = dict(entry.get("data") or {})
    for group_name in dict.fromkeys(entry.get("groups") or []):
        inherited = groups.resolve(group_name, chain, owner)
        for key, value in inherited.items():
            if key != "data":
                fields.setdefault(key, value)
        data = {**inherited["data"], **data}
    return {**fields, "data": data}


def _optional(path: Path) -> Any:
    return read_inventory_yaml(path) if path.is_file() else None


def nornir_hosts(path: Path, hosts: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every host's resolved `hostname`, `port`, `platform`, `username` and `data`."""
    groups_file, defaults_file = path.parent / "groups.yaml", path.parent / "defaults.yaml"
    raw_groups = _optional(groups_file) or {}
    if not isinstance(raw_groups, dict):
        raise InventoryError(f"{groups_file}: a mapping of group names to groups")
    groups = _Groups(groups_file, raw_groups)
    defaults = check_entry(defaults_file, "defaults", _optional(defaults_file), DEFAULTS_KEYS)
    resolved = {}
    for name, entry in hosts.items():
        entry = check_entry(path, str(name), entry, HOST_KEYS)
        fields = inherit(entry, groups, (), str(name))
        for key in FIELDS:
            if defaults.get(key) is not None:
                fields.setdefault(key, defaults[key])
        fields["data"] = {**(defaults.get("data") or {}), **fields["data"]}
        resolved[str(name)] = fields
    return resolved
