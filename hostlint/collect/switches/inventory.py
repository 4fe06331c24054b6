"""Switch inventories as network teams keep them: Nornir simple inventory or Ansible YAML.

Nornir: `hosts.yaml` (`name: {hostname, port, platform, username, groups, data}`)
with `groups.yaml` and `defaults.yaml` beside it when present. Ansible: a YAML
inventory (`all: {vars, children, hosts}`) with `ansible_host`, `ansible_port`,
`ansible_network_os`, `ansible_user`.

Passwords never come from the inventory: see `password_for`.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from hostlint.collect.switches.platforms import UnsupportedPlatform, canonical_platform

log = logging.getLogger(__name__)

PASSWORD_ENV = "HOSTLINT_SWITCH_PASSWORD"
KEYRING_SERVICE = "hostlint"


class InventoryError(ValueError):
    """An inventory that cannot be used; the message names the file and the device."""


@dataclass(frozen=True)
class Device:
    """One switch to collect. Holds no password: it is looked up when connecting."""

    name: str
    hostname: str
    platform: str
    username: str | None = None
    port: int = 22
    password_env: str | None = None
    # Why this device cannot be collected (no or an unsupported platform): a collection error for it
    # alone, the rest of the inventory is still collected.
    problem: str | None = None


def password_for(device: Device) -> str | None:
    """The device's own variable (named in the inventory), then HOSTLINT_SWITCH_PASSWORD, then the keyring."""
    for variable in (device.password_env, PASSWORD_ENV):
        if variable and os.environ.get(variable):
            return os.environ[variable]
    try:
        import keyring
    except ImportError:
        return None
    try:
        return keyring.get_password(KEYRING_SERVICE, device.name) or (
            keyring.get_password(KEYRING_SERVICE, device.username) if device.username else None
        )
    except Exception as exc:  # no usable keyring backend is "no password", not a crash
        log.debug("keyring lookup failed: %s", exc)
        return None


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InventoryError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except yaml.YAMLError as exc:
        raise InventoryError(f"{path}: not valid YAML: {exc}") from exc


def _warn_password(path: Path, name: str, fields: dict[str, Any]) -> None:
    if any(key in fields for key in ("password", "ansible_password", "ansible_ssh_pass")):
        log.warning("%s: %s: a password in the inventory is ignored; use %s or the keyring", path, name, PASSWORD_ENV)


def _port(path: Path, name: str, value: Any) -> int:
    try:
        port = int(value)
    except (TypeError, ValueError):
        raise InventoryError(f"{path}: {name}: port {value!r} is not a number") from None
    if not 0 < port < 65536:
        raise InventoryError(f"{path}: {name}: port {port} is out of range")
    return port


# Nornir -------------------------------------------------------------------------------------------

_NORNIR_FIELDS = ("hostname", "port", "platform", "username")


def _nornir_resolve(
    entry: dict[str, Any],
    groups: dict[str, Any],
    defaults: dict[str, Any],
    path: Path,
    name: str,
    seen: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Nornir inheritance: the entry, then its groups depth first in order, then defaults."""
    resolved = {key: entry[key] for key in _NORNIR_FIELDS if entry.get(key) is not None}
    data = dict(entry.get("data") or {})
    for group_name in entry.get("groups") or []:
        if group_name in seen:
            raise InventoryError(f"{path}: {name}: group {group_name!r} includes itself")
        if group_name not in groups:
            raise InventoryError(f"{path}: {name}: group {group_name!r} is not in groups.yaml")
        inherited = _nornir_resolve(groups[group_name] or {}, groups, {}, path, name, (*seen, group_name))
        for key, value in inherited.items():
            if key == "data":
                data = {**value, **data}
            else:
                resolved.setdefault(key, value)
    for key in _NORNIR_FIELDS:
        if defaults.get(key) is not None:
            resolved.setdefault(key, defaults[key])
    resolved["data"] = {**(defaults.get("data") or {}), **data}
    return resolved


def _load_nornir(path: Path, hosts: dict[str, Any]) -> list[Device]:
    groups = _read_yaml(path.parent / "groups.yaml") if (path.parent / "groups.yaml").is_file() else {}
    defaults = _read_yaml(path.parent / "defaults.yaml") if (path.parent / "defaults.yaml").is_file() else {}
    devices = []
    for name, entry in hosts.items():
        entry = entry or {}
        if not isinstance(entry, dict):
            raise InventoryError(f"{path}: {name}: a host is a mapping of hostname, platform, ...")
        _warn_password(path, name, entry)
        fields = _nornir_resolve(entry, groups or {}, defaults or {}, path, str(name))
        data = fields["data"]
        devices.append(
            _device(
                path,
                str(name),
                fields.get("hostname") or str(name),
                fields.get("platform"),
                fields.get("username"),
                fields.get("port", 22),
                data.get("password_env"),
            )
        )
    return devices


# Ansible ------------------------------------------------------------------------------------------


def _ansible_walk(group: dict[str, Any], inherited: dict[str, Any], hosts: dict[str, dict[str, Any]]) -> None:
    variables = {**inherited, **(group.get("vars") or {})}
    for name, host_vars in (group.get("hosts") or {}).items():
        merged = {**hosts.get(name, {}), **variables, **(host_vars or {})}
        hosts[name] = merged
    for child in (group.get("children") or {}).values():
        _ansible_walk(child or {}, variables, hosts)


def _load_ansible(path: Path, raw: dict[str, Any]) -> list[Device]:
    hosts: dict[str, dict[str, Any]] = {}
    for group in raw.values():
        _ansible_walk(group or {}, {}, hosts)
    devices = []
    for name, fields in hosts.items():
        _warn_password(path, name, fields)
        devices.append(
            _device(
                path,
                name,
                fields.get("ansible_host") or name,
                fields.get("ansible_network_os"),
                fields.get("ansible_user"),
                fields.get("ansible_port", 22),
                fields.get("hostlint_password_env"),
            )
        )
    return devices


# Both ---------------------------------------------------------------------------------------------


def _device(path: Path, name: str, hostname: Any, platform: Any, username: Any, port: Any, password_env: Any) -> Device:
    problem = None
    canonical = str(platform or "")
    if not platform:
        problem = "no platform in the inventory (Nornir `platform`, Ansible `ansible_network_os`)"
    else:
        try:
            canonical = canonical_platform(str(platform))
        except UnsupportedPlatform as exc:
            problem = str(exc)
    if problem:
        log.warning("%s: %s: %s; the other devices are still collected", path, name, problem)
    return Device(
        name=name,
        hostname=str(hostname),
        platform=canonical,
        username=str(username) if username is not None else None,
        port=_port(path, name, port),
        password_env=str(password_env) if password_env else None,
        problem=problem,
    )


def _is_ansible(raw: dict[str, Any]) -> bool:
    return "all" in raw and isinstance(raw["all"], dict) and bool({"hosts", "children", "vars"} & set(raw["all"]))


def load_inventory(path: Path) -> list[Device]:
    """Every device of a Nornir or Ansible inventory; platforms checked before anything connects.

    A device without a platform hostlint collects carries the reason in `problem`: it becomes
    a collection error for that device, the others are collected.
    """
    raw = _read_yaml(path)
    if not isinstance(raw, dict) or not raw:
        raise InventoryError(f"{path}: an inventory is a mapping of hosts (Nornir) or groups (Ansible)")
    devices = _load_ansible(path, raw) if _is_ansible(raw) else _load_nornir(path, raw)
    if not devices:
        raise InventoryError(f"{path}: no hosts in this inventory")
    return devices
