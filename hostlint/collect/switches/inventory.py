"""Switch inventories as network teams keep them: Nornir simple inventory, Ansible YAML or INI.

Nornir: `hosts.yaml` (`name: {hostname, port, platform, username, groups, data}`)
with `groups.yaml` and `defaults.yaml` beside it when present
(hostlint.collect.switches.nornir_inventory). Ansible: a YAML inventory
(`all: {vars, children, hosts}`) or an INI one (`[group]`, `[group:vars]`,
`[group:children]`), with `ansible_host`, `ansible_port`, `ansible_network_os`,
`ansible_user` (hostlint.collect.switches.ansible_inventory). As in Ansible, a
file ending `.yaml`, `.yml` or `.json` is YAML and any other is INI.

Passwords never come from the inventory: see `password_for`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hostlint.collect.credentials import SWITCH, find_password
from hostlint.collect.switches import ansible_inventory as ansible
from hostlint.collect.switches.inventory_file import InventoryError, read_inventory_text, read_inventory_yaml
from hostlint.collect.switches.nornir_inventory import nornir_hosts
from hostlint.platforms import UnsupportedPlatform, canonical_switch

__all__ = ["Device", "InventoryError", "load_inventory", "missing_passwords", "password_for"]

log = logging.getLogger(__name__)

PASSWORD_ENV = SWITCH.env
KEYRING_SERVICE = SWITCH.keyring_service
YAML_SUFFIXES = (".yaml", ".yml", ".json")


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
    """The device's own variable (named in the inventory), then HOSTLINT_SWITCH_PASSWORD, then the keyring
    (service `hostlint`, the device's name, then its user name): hostlint.collect.credentials."""
    return find_password(SWITCH, variable=device.password_env, keys=(device.name, device.username))


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


# Both ---------------------------------------------------------------------------------------------


def _device(path: Path, name: str, hostname: Any, platform: Any, username: Any, port: Any, password_env: Any) -> Device:
    problem = None
    canonical = str(platform or "")
    if not platform:
        problem = "no platform in the inventory (Nornir `platform`, Ansible `ansible_network_os`)"
    else:
        try:
            canonical = canonical_switch(str(platform))
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


def _nornir_devices(path: Path, raw: dict[str, Any]) -> list[Device]:
    devices = []
    for name, fields in nornir_hosts(path, raw).items():
        _warn_password(path, name, raw[name] or {})
        data = fields["data"]
        devices.append(
            _device(
                path,
                name,
                fields.get("hostname") or name,
                fields.get("platform"),
                fields.get("username"),
                fields.get("port", 22),
                data.get("password_env"),
            )
        )
    return devices


def _ansible_devices(path: Path, groups: dict[str, ansible.Group]) -> list[Device]:
    devices = []
    for name, fields in ansible.host_vars(path, groups).items():
        _warn_password(path, name, fields)
        devices.append(
            _device(
                path,
                name,
                fields.get(ansible.HOST_VAR) or name,
                fields.get(ansible.PLATFORM_VAR),
                fields.get(ansible.USER_VAR),
                fields.get(ansible.PORT_VAR, 22),
                fields.get(ansible.PASSWORD_ENV_VAR),
            )
        )
    return devices


def load_inventory(path: Path) -> list[Device]:
    """Every device of a Nornir or Ansible inventory; platforms checked before anything connects.

    A device without a platform hostlint collects carries the reason in `problem`: it becomes
    a collection error for that device, the others are collected.
    """
    if path.suffix.lower() in YAML_SUFFIXES:
        raw = read_inventory_yaml(path)
        if not isinstance(raw, dict) or not raw:
            raise InventoryError(f"{path}: an inventory is a mapping of hosts (Nornir) or groups (Ansible)")
        if _is_ansible(raw):
            devices = _ansible_devices(path, ansible.groups_from_yaml(path, raw))
        else:
            devices = _nornir_devices(path, raw)
    else:
        devices = _ansible_devices(path, ansible.groups_from_ini(path, read_inventory_text(path)))
    if not devices:
        raise InventoryError(f"{path}: no hosts in this inventory")
    return devices


def missing_passwords(devices: list[Device]) -> str | None:
    """One line naming the devices no password can be found for (and where to set one), or None."""
    missing = [device for device in devices if password_for(device) is None]
    if not missing:
        return None
    names = ", ".join(device.name for device in missing[:5])
    if len(missing) > 5:
        names += f" and {len(missing) - 5} more"
    variables = " or ".join(sorted({device.password_env or PASSWORD_ENV for device in missing}))
    return f"no password for {names}: set {variables} or store one in the keyring (service {KEYRING_SERVICE!r})"
