"""Every platform hostlint knows: the host kinds and the fix targets, the registry every other module asks.

Two kinds of entry:

- a **host kind** (`esxi`, `kvm`): which fact kinds its join yields and which fix targets change it;
- a **fix target** (`esxcli`, `nmcli`, `cisco_nxos`, ...): the language its scripts are written in,
  which renderer writes them, how the file is named and run, and its command vocabulary (comment
  character, how a block enters and leaves configuration mode, what confirms a commit).

A **switch platform** is a fix target that is also collected. Each is one folder under
hostlint/switches/ (docs/design/platform-folders.md); `SWITCHES` is what that registry discovers, so
a new platform needs no line here. The types are re-exported from hostlint.targets and
hostlint.switches.base for the modules that import them from here.

This module imports only hostlint.targets and the switch registry (hostlint.switches).
"""

from __future__ import annotations

from dataclasses import dataclass

from hostlint import switches as _switches
from hostlint.switches.base import MtuFamily, MtuFigure, SwitchPlatform
from hostlint.targets import SHELL_VOCABULARY, Changes, Language, Renderer, Target, Vocabulary

__all__ = [
    "HOST_KINDS",
    "HOST_KIND_NAMES",
    "HOST_TARGETS",
    "SHELL_VOCABULARY",
    "SWITCHES",
    "SWITCH_NAMES",
    "TARGETS",
    "Changes",
    "HostKind",
    "Language",
    "MtuFamily",
    "MtuFigure",
    "Renderer",
    "SwitchPlatform",
    "Target",
    "UnsupportedPlatform",
    "Vocabulary",
    "canonical_switch",
    "check_switch",
    "check_target",
    "find_switch",
    "host_kind",
    "rule_platforms",
    "switch",
    "target",
    "targets_changing",
    "targets_for_host",
]

_KVM_USAGE = "Usage, as root on the KVM host: sh {name} STEP"

_SH = "{device}{kind}.{platform}.sh"
_RUN_SH = "`sh {name} {number}`"

HOST_TARGETS: tuple[Target, ...] = (
    Target(
        name="esxcli",
        changes="esxi",
        language="sh",
        renderer="shell",
        file=_SH,
        run=_RUN_SH,
        usage=("Usage, in the ESXi shell: sh {name} STEP",),
    ),
    Target(
        name="powercli",
        changes="esxi",
        language="ps",
        renderer="powershell",
        file="{device}{kind}.ps1",
        run="`./{name} -Step {number}`",
    ),
    Target(
        name="vsphere-api",
        changes="esxi",
        language="py",
        renderer="python",
        file="{device}{kind}.vsphere_api.py",
        run="`python3 {name} --server VCENTER --user USER {number}`",
    ),
    Target(
        name="nmcli",
        changes="kvm",
        language="sh",
        renderer="shell",
        file=_SH,
        run=_RUN_SH,
        usage=(_KVM_USAGE, "NetworkManager keeps the change (it is in the connection profile)."),
    ),
    # The runtime variant of nmcli: lost at reboot.
    Target(
        name="iproute2",
        changes="kvm",
        language="sh",
        renderer="shell",
        file=_SH,
        run=_RUN_SH + " (runtime only, lost at reboot)",
        usage=(
            _KVM_USAGE,
            "RUNTIME ONLY: a reboot or a NetworkManager/ifupdown reload undoes these changes. Use this",
            "script where NetworkManager does not manage the interfaces, or the nmcli script; not both.",
        ),
    ),
    # A libvirt domain's definition, changed on its KVM host.
    Target(
        name="virsh",
        changes="guest",
        language="sh",
        renderer="shell",
        file=_SH,
        run=_RUN_SH,
        usage=(_KVM_USAGE, "virsh and virt-xml connect to LIBVIRT_DEFAULT_URI (qemu:///system for root by default)."),
    ),
)


@dataclass(frozen=True, kw_only=True)
class HostKind:
    """A kind of host hostlint collects: the fact kinds its join yields (hostlint.join), and what the
    fix targets that change it change (a KVM host's fixes change the host or a guest on it)."""

    name: str
    facts: tuple[str, ...]
    changed_as: tuple[Changes, ...]
    # The largest MTU hostlint may write on it (None: no limit below the switches'). ESXi: a standard or
    # distributed vSwitch and a vmk take at most 9000 (vSphere Configuration Maximums).
    max_mtu: int | None = None


HOST_KINDS: tuple[HostKind, ...] = (
    HostKind(
        name="esxi",
        facts=("teams", "uplinks", "vmks", "iscsi", "pcie", "vm_nics", "vms", "portgroups", "probes"),
        changed_as=("esxi",),
        max_mtu=9000,
    ),
    HostKind(name="kvm", facts=("uplinks", "pcie", "bonds", "guest_nics", "portgroups"), changed_as=("kvm", "guest")),
)
HOST_KIND_NAMES: tuple[str, ...] = tuple(kind.name for kind in HOST_KINDS)

SWITCH_NAMES: tuple[str, ...] = _switches.SWITCH_NAMES
SWITCHES: tuple[SwitchPlatform, ...] = tuple(_switches.switch(name) for name in SWITCH_NAMES)
TARGETS: dict[str, Target] = {t.name: t for t in (*HOST_TARGETS, *SWITCHES)}

UnsupportedPlatform = _switches.UnsupportedPlatform
canonical_switch = _switches.canonical_switch
switch = _switches.switch
find_switch = _switches.find_switch


def target(name: str) -> Target:
    """The fix target `name`; KeyError for anything else."""
    return TARGETS[name]


def targets_changing(*changes: Changes) -> tuple[str, ...]:
    """The fix targets that change these kinds of device, in registry order."""
    return tuple(t.name for t in TARGETS.values() if t.changes in changes)


def check_target(name: str) -> str:
    """Validator: `name` is a fix target of the registry."""
    if name not in TARGETS:
        raise ValueError(f"unknown platform {name!r}; known: {', '.join(TARGETS)}")
    return name


def check_switch(name: str) -> str:
    """Validator: `name` is a switch platform of the registry."""
    if name not in SWITCH_NAMES:
        raise ValueError(f"unknown switch platform {name!r}; known: {', '.join(SWITCH_NAMES)}")
    return name


def host_kind(name: str) -> HostKind:
    """The host kind `name` (`esxi`, `kvm`); StopIteration for anything else."""
    return next(kind for kind in HOST_KINDS if kind.name == name)


def targets_for_host(kind: str) -> tuple[str, ...]:
    """The fix targets a change on a host of this kind is written for (KVM: the host's and its guests')."""
    return targets_changing(*host_kind(kind).changed_as)


def rule_platforms(iterate: str, needs_switch: bool) -> list[str]:
    """Where a rule applies, from what it reads: the host kinds whose join yields the fact kind it
    iterates, then every switch platform when it needs switch data."""
    hosts = [kind.name for kind in HOST_KINDS if iterate in kind.facts]
    return hosts + (list(SWITCH_NAMES) if needs_switch else [])
