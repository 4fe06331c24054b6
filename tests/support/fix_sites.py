"""The small ESXi site per switch platform that the fix-writer tests plan for, and the findings raised
on it (built here, not by the rules, so goldens follow the fix writer, not rule wording).

Used by tests/test_fixes.py (its goldens), the rehearsals and the plan-invariant tests.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from hostlint.join import build_facts
from hostlint.results import CheckResult, Finding, FixRequest
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic, PortGroup, StandardVSwitch, Teaming, Vmk
from hostlint.snapshot.switch import LoadBalance, MultiChassis, PortChannel, Switch, SwitchPort
from hostlint.switches import SWITCH_NAMES

# Per platform: port name, channel name, the hash collected, and the pair the two switches form.
PLATFORMS: dict[str, dict[str, Any]] = {
    "cisco_ios": {
        "port": "TenGigabitEthernet1/0/{}",
        "channel": "Port-channel{}",
        "hash": ("src-mac", "src-mac"),
        "pair": None,
        "model": "C9300-48P",
    },
    "cisco_nxos": {
        "port": "Ethernet1/{}",
        "channel": "port-channel{}",
        "hash": ("src-dst-mac", "src-dst mac"),
        "pair": "vpc",
        "model": "N9K-C93180YC-FX",
    },
    # `l2 mtu 1500` on the stand-alone ports: on EOS that, not the IP `mtu`, limits the hosts' bridged
    # frames; the channels bridge at the default (the platform maximum) whatever their IP `mtu`.
    "arista_eos": {
        "port": "Ethernet{}",
        "channel": "Port-Channel{}",
        "hash": ("src-dst-mac", None),
        "pair": "mlag",
        "model": "DCS-7050SX3-48YC8",
        "l2_mtu": 1500 - 14 - 4,
        "channel_l2_mtu": 9214 - 14 - 4,
    },
    "juniper_junos": {
        "port": "xe-0/0/{}",
        "channel": "ae{}",
        "hash": ("src-dst-ip-port", None),
        "pair": None,
        # An EX ELS switch; tests/test_junos_families.py varies the family.
        "model": "ex4300-48t",
    },
}


def _folder_sites() -> dict[str, dict[str, Any]]:
    """Platforms that came as folders bring their entry with their emulator (tests/switch_emulator/platforms/
    <platform>.py `SITE`), so no table here names them."""
    found = {}
    for name in SWITCH_NAMES:
        if name not in PLATFORMS and importlib.util.find_spec(f"switch_emulator.platforms.{name}") is not None:
            site_entry = getattr(importlib.import_module(f"switch_emulator.platforms.{name}"), "SITE", None)
            if site_entry is not None:
                found[name] = dict(site_entry)
    return found


PLATFORMS.update(_folder_sites())


# --- a small site per switch platform -------------------------------------------------------------


def _member_vlans(platform: str, in_channel: int | None) -> dict[str, Any]:
    """A channel member's own VLAN lines as its switch shows them: IOS and NX-OS members carry their
    channel's (they must match it to bundle); an EOS member keeps its own, here a bare trunk (all VLANs);
    a Junos member has no unit of its own while in an ae."""
    if in_channel is None or platform == "juniper_junos" or PLATFORMS[platform].get("member_vlans") is False:
        return {}
    if platform == "arista_eos":
        return {"native_vlan": 1, "allowed_vlans": [(1, 4094)]}
    return {"native_vlan": 1, "allowed_vlans": [(10, 10), (20, 30)]}


def _switch(name: str, platform: str, ports: dict[int, int | None], lacp: set[int], peer: str | None) -> Switch:
    """`ports`: port number -> channel number (or None); channels in `lacp` negotiate, the others are static."""
    spec = PLATFORMS[platform]
    port, channel = spec["port"].format, spec["channel"].format
    channels: dict[int, list[str]] = {}
    for number, in_channel in ports.items():
        if in_channel is not None:
            channels.setdefault(in_channel, []).append(port(number))
    hash_name, raw = spec["hash"]
    return Switch(
        name=name,
        platform=platform,
        model=spec.get("model"),
        load_balance=LoadBalance(hash=hash_name, raw=raw),
        ports=[
            SwitchPort(
                name=port(number),
                status="up",
                mode="trunk",
                mtu=1500,
                l2_mtu=spec.get("l2_mtu") if in_channel is None else spec.get("channel_l2_mtu"),
                port_channel=channel(in_channel) if in_channel is not None else None,
                member_state="bundled" if in_channel is not None else None,
                configured_speed_mbps=1000 if number == 1 else None,
                configured_duplex="full" if number == 1 else None,
                **_member_vlans(platform, in_channel),
            )
            for number, in_channel in ports.items()
        ],
        port_channels=[
            PortChannel(
                name=channel(number),
                mode="lacp-active" if number in lacp else "static",
                switchport="trunk",
                native_vlan=1,
                allowed_vlans=[(10, 10), (20, 30)],
                members=members,
                mtu=1500,
                l2_mtu=spec.get("channel_l2_mtu"),
                status="up",
                multichassis_id=number if peer and number != 1 else None,
            )
            for number, members in sorted(channels.items())
        ],
        multichassis=MultiChassis(kind=spec["pair"], domain_id="1", peer=peer, peer_link_up=True) if peer else None,
    )


def _nic(name: str, switch: str, port: str, forced: bool = False) -> PhysicalNic:
    return PhysicalNic(
        name=name,
        link_up=True,
        speed_mbps=10000,
        duplex="full",
        configured_speed_mbps=1000 if forced else None,
        configured_duplex="full" if forced else None,
        neighbour=Neighbour(protocol="lldp", device_id=switch, port_id=port),
    )


def site(platform: str) -> Snapshot:
    """esx01 with four teams on one switch, or on a vPC/MLAG pair where the platform has one.

    vSwitch0: active vmnic0 (forced 1000/full on both ends), standby vmnic1.
    vSwitch1: IP hash, MTU 1500, vmnic2 + vmnic3 in no channel, vmk1 (vMotion) on it.
    vSwitch2: port ID, vmnic4 + vmnic5 in LACP channel 20.
    vSwitch3: IP hash, vmnic6 + vmnic7 in LACP channel 30.
    Channel 1 (a peer link) exists on every switch, channel 2 on sw2, so a new channel takes 2 or 3.
    VLANs: vSwitch0's port group VM-100 (VLAN 100) on trunks allowing only 10, native VLAN 1 on
    vmnic0's port and 5 on vmnic1's.
    """
    spec = PLATFORMS[platform]
    paired = spec["pair"] is not None
    port = spec["port"].format
    sw1_ports = {1: None, 2: None, 11: None, 21: 20, 22: 20, 31: 30, 32: 30, 49: 1}
    switches = [_switch("sw1", platform, sw1_ports, {20, 30}, "sw2" if paired else None)]
    if paired:
        switches.append(_switch("sw2", platform, {11: None, 48: 2, 49: 1}, set(), "sw1"))
        vmnic3 = _nic("vmnic3", "sw2", port(11))
    else:
        switches[0].ports.append(SwitchPort(name=port(12), status="up", mode="trunk", mtu=1500))
        vmnic3 = _nic("vmnic3", "sw1", port(12))
    for switch_port in switches[0].ports:
        if switch_port.name in (port(1), port(2)):
            switch_port.allowed_vlans = [(10, 10)]
            switch_port.native_vlan = 1 if switch_port.name == port(1) else 5
    esx01 = EsxiHost(
        name="esx01",
        vcenter="vc01",
        vswitches=[
            StandardVSwitch(
                name="vSwitch0",
                mtu=1500,
                uplinks=["vmnic0", "vmnic1"],
                teaming=Teaming(active=["vmnic0"], standby=["vmnic1"], failure_detection="beacon"),
            ),
            StandardVSwitch(
                name="vSwitch1",
                mtu=1500,
                uplinks=["vmnic2", "vmnic3"],
                teaming=Teaming(policy="loadbalance_ip", active=["vmnic2", "vmnic3"]),
            ),
            StandardVSwitch(
                name="vSwitch2", mtu=1500, uplinks=["vmnic4", "vmnic5"], teaming=Teaming(active=["vmnic4", "vmnic5"])
            ),
            StandardVSwitch(
                name="vSwitch3",
                mtu=1500,
                uplinks=["vmnic6", "vmnic7"],
                teaming=Teaming(policy="loadbalance_ip", active=["vmnic6", "vmnic7"]),
            ),
        ],
        portgroups=[
            PortGroup(name="vMotion", vswitch="vSwitch1", vlan=20),
            PortGroup(name="VM-100", vswitch="vSwitch0", vlan=100),
        ],
        vmks=[
            Vmk(
                name="vmk1",
                mtu=1500,
                portgroup="vMotion",
                vswitch="vSwitch1",
                ip="10.20.20.11",
                prefix=24,
                services=["vmotion"],
            )
        ],
        pnics=[
            _nic("vmnic0", "sw1", port(1), forced=True),
            _nic("vmnic1", "sw1", port(2)),
            _nic("vmnic2", "sw1", port(11)),
            vmnic3,
            *(_nic(f"vmnic{n}", "sw1", port(p)) for n, p in ((4, 21), (5, 22), (6, 31), (7, 32))),
        ],
    )
    esx02 = EsxiHost(
        name="esx02",
        portgroups=[PortGroup(name="vMotion", vswitch="vSwitch1", vlan=20)],
        vmks=[Vmk(name="vmk1", mtu=1500, portgroup="vMotion", ip="10.20.20.12", prefix=24, services=["vmotion"])],
    )
    return Snapshot(source="test:fixes", esxi_hosts=[esx01, esx02], switches=switches)


def finding(
    code: str, fact: Any, steps: list[tuple[str, str, dict[str, Any]]], applicability: str = "unsafe", message: str = ""
) -> Finding:
    return Finding(
        code=code,
        name=code.lower(),
        severity="error",
        object=fact.object,
        host=fact.host,
        message=message or f"{code} on {fact.object}",
        expected=None,
        actual=None,
        applicability=applicability,
        fix=[FixRequest(action=action, stage=stage, params=params) for action, stage, params in steps],
        fact=fact.model_dump(),
    )


def findings_for(snapshot: Snapshot) -> CheckResult:
    """Findings as the rules would raise them, built here so goldens follow the fix writer, not rule wording."""
    facts = build_facts(snapshot)
    teams = {t.object: t for t in facts.teams}
    uplinks = {u.object: u for u in facts.uplinks}
    vmk = next(v for v in facts.vmks if v.object == "esx01/vmk1")
    vm_100 = next(p for p in facts.portgroups if p.object == "esx01/vSwitch0/VM-100")
    ip_hash = [
        ("host-teaming", "host-undo", {"policy": "loadbalance_srcid"}),
        None,
        ("host-teaming", "host", {"policy": "loadbalance_ip"}),
    ]
    findings = [
        finding(
            "LG001", teams["esx01/vSwitch1"], [ip_hash[0], ("switch-static-port-channel", "switch", {}), ip_hash[2]]
        ),
        finding(
            "LG002", teams["esx01/vSwitch3"], [ip_hash[0], ("switch-channel-mode-static", "switch", {}), ip_hash[2]]
        ),
        finding("LG003", teams["esx01/vSwitch1"], [("switch-hash", "switch", {"hash": "src-dst-ip"})]),
        finding(
            "LG005",
            teams["esx01/vSwitch0"],
            [
                (
                    "host-active-uplinks",
                    "host",
                    {"active": ["vmnic0"], "remove": ["vmnic1"], "failure_detection": "link"},
                )
            ],
            applicability="safe",
        ),
        finding("LG006", teams["esx01/vSwitch2"], [("switch-remove-port-channel", "switch", {})]),
        finding(
            "LK001", uplinks["esx01/vmnic0"], [("switch-port-autoneg", "switch", {}), ("host-nic-autoneg", "host", {})]
        ),
        finding(
            "MT002",
            teams["esx01/vSwitch1"],
            [("switch-port-mtu", "switch", {"mtu": 9000}), ("host-vswitch-mtu", "host", {"mtu": 9000})],
        ),
        finding("MT003", vmk, [("vmk-mtu", "vmk", {"mtu": 9000})]),
        finding(
            "LK003",
            teams["esx01/vSwitch2"],
            [],
            applicability="display-only",
            message="mixes uplink speeds in one team",
        ),
        finding(
            "VL001", vm_100, [("switch-trunk-allow-vlan", "switch", {"vlans": [[100, 100]]})], applicability="safe"
        ),
        finding("VL003", teams["esx01/vSwitch0"], [("switch-trunk-native-vlan", "switch", {"vlan": 1})]),
    ]
    return CheckResult(findings=findings)
