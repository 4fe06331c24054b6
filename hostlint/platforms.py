"""Every platform hostlint knows, in one place: the registry every other module asks.

Two kinds of entry:

- a **host kind** (`esxi`, `kvm`): which fact kinds its join yields and which fix targets change it;
- a **fix target** (`esxcli`, `nmcli`, `cisco_nxos`, ...): the language its scripts are written in,
  which renderer writes them, how the file is named and run, and its command vocabulary (comment
  character, how a block enters and leaves configuration mode, what confirms a commit).

A **switch platform** is a fix target that is also collected: its names in other tools (netmiko
`device_type`, napalm, Ansible `ansible_network_os`), its collector folder under `collectors/`, and
how it spells what hostlint names once (port-channel interfaces, jumbo MTU, interface grammar).

Adding a switch platform: one `SwitchPlatform` below, its folder under `collectors/` (spec.yaml, ttp
templates, samples), its text in each switch action (hostlint/fixes/actions/switch_*/action.yaml; checked
when the actions load), and its tests.

This module imports nothing of hostlint's: collect, join, rules and fixes all read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Language = Literal["sh", "ps", "py", "cli"]
Renderer = Literal["shell", "powershell", "python", "switch"]
# What a fix target changes: an ESXi host (or its vCenter), a KVM host, a libvirt guest, a switch.
Changes = Literal["esxi", "kvm", "guest", "switch"]


@dataclass(frozen=True, kw_only=True)
class Vocabulary:
    """How a script for the target writes a comment and wraps a block of commands."""

    comment: str
    enter: tuple[str, ...] = ()
    leave: tuple[str, ...] = ()
    # Pasted on its own once the step's verify passes: what makes a confirmed commit permanent, and
    # the minutes after which an unconfirmed commit rolls itself back.
    confirm: tuple[str, ...] = ()
    confirm_minutes: int = 0

    @property
    def commit(self) -> tuple[str, ...]:
        """The confirm lines that are neither the block's entry nor its exit (Junos: `commit`)."""
        return tuple(line for line in self.confirm if line not in self.enter and line not in self.leave)


SHELL_VOCABULARY = Vocabulary(comment="#")


@dataclass(frozen=True, kw_only=True)
class Target:
    """A platform fix scripts are written for."""

    name: str
    changes: Changes
    language: Language
    renderer: Renderer
    # The script's file name: `{device}`, `{kind}` (`.rollback` or nothing) and `{platform}`.
    file: str
    # How PLAN.md says to run step `{number}` of script `{name}`.
    run: str
    vocabulary: Vocabulary = SHELL_VOCABULARY
    # A shell script's usage lines (`{name}` is the script's file name).
    usage: tuple[str, ...] = ()

    def script_name(self, device: str, rollback: bool = False) -> str:
        return self.file.format(device=device, kind=".rollback" if rollback else "", platform=self.name)


# Which figure of a switch interface limits a frame: `mtu` (the interface MTU hostlint reads from the
# interface listing) or `l2_mtu` (a separate layer-2 figure: EOS `l2 mtu`, a global jumbo setting).
MtuFigure = Literal["mtu", "l2_mtu"]


@dataclass(frozen=True, kw_only=True)
class MtuFamily:
    """Which figure limits bridged frames on a family of a platform's switches (routed frames are always
    limited by the interface `mtu`). A family is recognised by its model (`show version`); the last family
    of a platform, with no `models`, is the rest."""

    family: str
    # A regular expression matched at the start of the switch's model; "" matches any model.
    models: str = ""
    bridged: MtuFigure
    # How the figure that limits bridged frames is set, and the command that shows it.
    bridged_setting: str
    bridged_source: str
    # Where the L2 figure is read from each interface's configuration, that line (`l2 mtu`), the frame
    # size it gives when the configuration is silent (the vendor's documented default) and the bytes of
    # a frame that are not IP packet (Ethernet header; an 802.1Q tag adds 4 on a trunk).
    l2_config: str | None = None
    l2_default_frame: int | None = None
    l2_header: int = 14
    # Whether hostlint's switch-port-mtu action writes the bridged figure (a global setting is left to a human).
    writes_bridged: bool = True
    # Why hostlint leaves the bridged figure to a human where it does not write it (said with the withheld fix).
    not_written: str = "a global setting"
    # Where a global L2 figure is read (hostlint.collect.switches.global_mtu): the network-qos policy under
    # NX-OS `system qos`, or IOS `show system mtu`. None: the figure is per interface.
    l2_global: Literal["network-qos", "system-mtu"] | None = None
    # The figure's name in findings and skips ("l2 mtu", "network-qos class-default mtu").
    figure: str = "mtu"
    # The figure that limits 10/100 ports where it is another (older Catalysts: `system mtu`; Gigabit and
    # faster ports: `system mtu jumbo`).
    fast_ethernet_figure: str | None = None
    reference: str

    def figure_at(self, interface: str, members: tuple[str, ...] = ()) -> str:
        """The name of the figure that limits bridged frames at `interface` (its long name; a channel's
        `members` say which ports it bundles)."""
        ports = members or (interface,)
        if self.fast_ethernet_figure and all(port.startswith("FastEthernet") for port in ports):
            return self.fast_ethernet_figure
        return self.figure if self.bridged == "l2_mtu" else "mtu"


_SWITCH_VOCABULARY = Vocabulary(comment="!", enter=("configure terminal",), leave=("end",))
_KVM_USAGE = "Usage, as root on the KVM host: sh {name} STEP"


@dataclass(frozen=True, kw_only=True)
class SwitchPlatform(Target):
    """A switch platform: collected over SSH and changed by pasted configuration blocks."""

    changes: Changes = "switch"
    language: Language = "cli"
    renderer: Renderer = "switch"
    file: str = "{device}{kind}.{platform}.txt"
    run: str = "step {number} of `{name}`"
    vocabulary: Vocabulary = _SWITCH_VOCABULARY
    # The vendor's short name in prose ("Junos rolls the commit back").
    label: str
    # Names other tools use for it: netmiko device types, napalm drivers, Ansible network OS names.
    aliases: tuple[str, ...] = ()
    # The collector folder under `collectors/` (spec.yaml, templates, samples).
    collector: str = ""
    # The port-channel interface for channel number N.
    channel_interface: str
    # How a channel summary abbreviates `EthernetN` (Eth1/1 on NX-OS, Et1 on EOS).
    ethernet_short: str = "Ethernet"
    # The grammar of its interface names (hostlint.fixes.identifiers).
    interface_names: Literal["cisco_like_interface", "junos_interface"] = "cisco_like_interface"
    # The largest interface MTU, and the bytes of it that are not IP packet (Junos counts the
    # Ethernet header: media MTU).
    jumbo: int
    l2_header: int = 0
    # How its global port-channel hash is read (hostlint.collect.switches.assemble) and whether
    # hostlint writes the hash command (elsewhere it depends on the ASIC family: set by hand).
    hash_source: Literal["ios", "nxos", "eos", "junos"]
    writes_hash: bool = False
    # The state of an LACP member whose partner does not answer: IOS keeps it stand-alone.
    unanswered_lacp_member: Literal["individual", "suspended"] = "suspended"
    # MTU is set on the port-channel and its members follow; IOS wants it on both.
    mtu_on_members: bool = False
    # Channel members carry their channel's switchport and VLAN lines (they must match it to bundle); where
    # they do not (EOS: the Port-Channel alone; Junos: the ae unit), a member leaving the channel falls back
    # to its own configuration, so removing a channel carries the channel's lines and MTU onto the members.
    members_match_channel: bool = False
    # Junos: a channel without LACP options is static, and static members have no summary.
    channel_static_unless_lacp: bool = False
    # How its configuration states VLANs: `switchport ... vlan` lines, or Junos `vlan members`.
    vlan_syntax: Literal["switchport", "junos"] = "switchport"
    # Said with a native VLAN change where the platform's families write it differently.
    native_vlan_note: str | None = None
    # Its multi-chassis channel feature when hostlint does not write it (left to a human), else None.
    multichassis_by_hand: str | None = None
    # The command whose output holds each part of what is collected (named in unknown-fact reasons).
    sources: dict[str, str] = field(default_factory=dict)
    # Which figure limits bridged frames, per family (docs/mtu.md); routed frames: the interface `mtu`.
    mtu_families: tuple[MtuFamily, ...]

    @property
    def folder(self) -> str:
        return self.collector or self.name

    def mtu_family(self, model: str | None) -> MtuFamily | None:
        """The family of a switch of this model; None when the model is unknown and the families differ."""
        if len({f.bridged for f in self.mtu_families}) == 1:
            return self.mtu_families[-1] if model is None else self._match(model)
        return None if model is None else self._match(model)

    def limiting_figure(self, model: str | None, mode: str | None) -> tuple[MtuFigure, MtuFamily | None] | str:
        """The figure that limits frames at an interface in `mode` (access/trunk bridge, routed routes) on a
        switch of this model, with its family; or why that is unknown."""
        family = self.mtu_family(model)
        if mode == "routed":
            return "mtu", family
        if family is None:
            return "model not shown by `show version`"
        if family.bridged == "l2_mtu" and mode is None:
            return "switchport mode not shown"
        return family.bridged, family

    def _match(self, model: str) -> MtuFamily:
        return next(f for f in self.mtu_families if not f.models or re.match(f.models, model, re.IGNORECASE))


SWITCHES: tuple[SwitchPlatform, ...] = (
    SwitchPlatform(
        name="cisco_ios",
        label="IOS",
        aliases=("cisco_xe", "ios", "cisco.ios.ios"),
        channel_interface="Port-channel{}",
        jumbo=9198,
        hash_source="ios",
        writes_hash=True,
        members_match_channel=True,
        unanswered_lacp_member="individual",
        mtu_on_members=True,
        sources={
            "interfaces": "show interfaces",
            "channel_mode": "show running-config",
            "config": "show running-config",
            "member_state": "show etherchannel summary",
            "peer_link": "show switch",
        },
        mtu_families=(
            MtuFamily(
                family="Catalyst 2960/3560/3750",
                models=r"WS-C(2960|3560|3750)",
                bridged="l2_mtu",
                bridged_setting="system mtu jumbo",
                bridged_source="show system mtu",
                writes_bridged=False,
                # Not in the running configuration (kept in NVRAM, applied at reload): `show system mtu` says it.
                # Its figure is the IP packet: Cisco omits the 18 bytes of Ethernet header and FCS (Document
                # 24048, "Jumbo/Giant Frame Support on Catalyst Switches").
                l2_global="system-mtu",
                not_written="a global setting that takes effect only after a reload of the switch",
                l2_header=0,
                figure="system mtu jumbo",
                fast_ethernet_figure="system mtu",
                reference="Catalyst 3750-X and 3560-X Software Configuration Guide, 'Configuring the System MTU': "
                "https://www.cisco.com/c/en/us/td/docs/switches/lan/catalyst3750x_3560x/software/release/15-0_2_se/"
                "configuration/guide/3750x_cg/swint.html",
            ),
            MtuFamily(
                family="Catalyst 9000 and other IOS-XE",
                bridged="mtu",
                bridged_setting="interface mtu (system mtu where not overridden)",
                bridged_source="show interfaces",
                reference="Troubleshoot MTU on Catalyst 9000 Series Switches: https://www.cisco.com/c/en/us/support/"
                "docs/switches/catalyst-9500-series-switches/217233-troubleshoot-mtu-on-catalyst-9000-series.html",
            ),
        ),
    ),
    SwitchPlatform(
        name="cisco_nxos",
        label="NX-OS",
        aliases=("nxos", "nxos_ssh", "cisco.nxos.nxos"),
        channel_interface="port-channel{}",
        ethernet_short="Eth",
        jumbo=9216,
        hash_source="nxos",
        writes_hash=True,
        members_match_channel=True,
        sources={
            "interfaces": "show interface",
            "channel_mode": "show running-config",
            "config": "show running-config",
            "member_state": "show port-channel summary",
            "peer_link": "show vpc brief",
        },
        mtu_families=(
            # An L2 port's `show interface` MTU stays 1500 on these: the network-qos class MTU limits it.
            # Which Nexus 3000 models use network-qos and which a per-port MTU: Cisco Document 118994, "Configure
            # and Verify Maximum Transmission Unit on Nexus Platforms" (network-qos: 3048, 3064, 3132Q, 3132Q-X,
            # 3132Q-XL, 3172, 3500, every 5000/5500/6000; per port: 3132Q-V, 3164, 31108, 31128PQ, 3200,
            # 36180YC-R). `show version` names them `N5K-C5672UP`, `C3064PQ`, `Nexus5548` or a bare `5596`.
            MtuFamily(
                family="Nexus 3000/5000/6000",
                models=r"(N[356]K-|Nexus ?)?C?(30(48|64)|3132Q(?!-V)|3172|35\d\d|5\d{3}|6\d{3})",
                bridged="l2_mtu",
                bridged_setting="system jumbomtu and a network-qos policy's class mtu",
                bridged_source="show running-config",
                writes_bridged=False,
                # The class MTU counts the frame's payload, as the interface `mtu` does: the IP packet.
                l2_global="network-qos",
                not_written="switch-wide QoS (the network-qos policy under `system qos`, every port and FEX port)",
                l2_header=0,
                figure="network-qos class-default mtu",
                reference="Cisco Nexus 5000 Series NX-OS Quality of Service Configuration Guide, "
                "'Configuring Jumbo MTU': https://www.cisco.com/c/en/us/support/docs/switches/"
                "nexus-5000-series-switches/112080-config-mtu-nexus.html; Cisco Document 118994: "
                "https://www.cisco.com/c/en/us/support/docs/switches/nexus-9000-series-switches/"
                "118994-config-nexus-00.html",
            ),
            MtuFamily(
                family="Nexus 9000 and other NX-OS",
                bridged="mtu",
                bridged_setting="interface mtu",
                bridged_source="show interface",
                reference="Cisco Nexus 9000 NX-OS Interfaces Configuration Guide, 'Configuring the MTU Interface': "
                "https://www.cisco.com/c/en/us/td/docs/dcn/nx-os/nexus9000/103x/configuration/interfaces/"
                "cisco-nexus-9000-nx-os-interfaces-configuration-guide-103x/m-configuring-layer-2-interfaces.html",
            ),
        ),
    ),
    SwitchPlatform(
        name="arista_eos",
        label="EOS",
        aliases=("eos", "arista.eos.eos"),
        channel_interface="Port-Channel{}",
        ethernet_short="Et",
        jumbo=9214,
        hash_source="eos",
        sources={
            "interfaces": "show interfaces",
            "channel_mode": "show running-config",
            "config": "show running-config",
            "member_state": "show port-channel summary",
            "peer_link": "show mlag",
        },
        mtu_families=(
            # `mtu` is the IP MTU, enforced on routed traffic only (EOS User Manual, "Layer 3 MTU"); bridged
            # frames are limited by the L2 MTU, the platform maximum unless `l2 mtu` lowers it.
            MtuFamily(
                family="(all)",
                bridged="l2_mtu",
                bridged_setting="l2 mtu (the platform maximum by default)",
                bridged_source="show running-config",
                l2_config="l2 mtu",
                l2_default_frame=9214,
                figure="l2 mtu",
                reference="EOS User Manual, Ethernet Ports, 'l2 mtu' and 'mtu' (Layer 3 only): "
                "https://www.arista.com/en/um-eos/eos-ethernet-ports",
            ),
        ),
    ),
    SwitchPlatform(
        name="juniper_junos",
        label="Junos",
        aliases=("juniper", "junos", "junipernetworks.junos.junos"),
        # `commit confirmed 10` rolls the change back by itself after 10 minutes unless a later
        # `commit` confirms it (Junos CLI User Guide, "commit confirmed"): every block is followed by
        # that confirm.
        vocabulary=Vocabulary(
            comment="#",
            enter=("configure private",),
            leave=("commit confirmed 10", "exit"),
            confirm=("configure private", "commit", "exit"),
            confirm_minutes=10,
        ),
        channel_interface="ae{}",
        interface_names="junos_interface",
        jumbo=9216,
        l2_header=14,
        hash_source="junos",
        channel_static_unless_lacp=True,
        vlan_syntax="junos",
        multichassis_by_hand="MC-LAG (mc-ae)",
        sources={
            "interfaces": "show interfaces extensive",
            "channel_mode": "show configuration | display set",
            "config": "show configuration | display set",
            "member_state": "show lacp interfaces",
            "peer_link": "show virtual-chassis",
        },
        mtu_families=(
            MtuFamily(
                family="(all)",
                bridged="mtu",
                bridged_setting="interface mtu (media MTU, Ethernet header included)",
                bridged_source="show interfaces extensive",
                reference="Junos, 'Media MTU Overview': https://www.juniper.net/documentation/us/en/software/junos/"
                "interfaces-ethernet-switches/topics/topic-map/switches-interface-mtu.html",
            ),
        ),
    ),
)

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

SWITCH_NAMES: tuple[str, ...] = tuple(s.name for s in SWITCHES)
TARGETS: dict[str, Target] = {t.name: t for t in (*HOST_TARGETS, *SWITCHES)}
_SWITCH_BY_NAME: dict[str, SwitchPlatform] = {s.name: s for s in SWITCHES}
_ALIASES: dict[str, str] = {alias: s.name for s in SWITCHES for alias in s.aliases}


class UnsupportedPlatform(ValueError):
    """A device whose platform hostlint has no collector for."""


def canonical_switch(name: str | None) -> str:
    """The registry name for a switch platform as inventories spell it; unsupported names are an error."""
    key = (name or "").strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _SWITCH_BY_NAME:
        raise UnsupportedPlatform(f"platform {name!r} is not supported; supported: {', '.join(SWITCH_NAMES)}")
    return key


def switch(name: str) -> SwitchPlatform:
    """The switch platform `name` (a registry name); KeyError for anything else."""
    return _SWITCH_BY_NAME[name]


def find_switch(name: str | None) -> SwitchPlatform | None:
    """The switch platform `name`, None when it is not one (a host target, or unknown)."""
    return _SWITCH_BY_NAME.get(name or "")


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
    if name not in _SWITCH_BY_NAME:
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
