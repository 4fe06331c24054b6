"""The fix-script writer: order across devices, rollback, merging, advice, per-platform goldens.

Golden files live under tests/golden/fixes/<platform>/; regenerate them after a deliberate change with
`HOSTLINT_UPDATE_GOLDEN=1 pytest tests/test_fixes.py` and review the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from hostlint.check import check_snapshot
from hostlint.fixes import build_plan, write_scripts
from hostlint.fixes.actions import GUEST_PLATFORMS, HOST_PLATFORMS, KVM_HOST_PLATFORMS, load_actions
from hostlint.join import build_facts
from hostlint.results import CheckResult, Finding, FixRequest
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic, PortGroup, StandardVSwitch, Teaming, Vmk
from hostlint.snapshot.switch import LoadBalance, MultiChassis, PortChannel, Switch, SwitchPort

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "fixes"
UPDATE = os.environ.get("HOSTLINT_UPDATE_GOLDEN") == "1"

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


# --- a small site per switch platform -------------------------------------------------------------


def _member_vlans(platform: str, in_channel: int | None) -> dict[str, Any]:
    """A channel member's own VLAN lines as its switch shows them: IOS and NX-OS members carry their
    channel's (they must match it to bundle); an EOS member keeps its own, here a bare trunk (all VLANs);
    a Junos member has no unit of its own while in an ae."""
    if in_channel is None or platform == "juniper_junos":
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


def _finding(
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
        _finding(
            "LG001", teams["esx01/vSwitch1"], [ip_hash[0], ("switch-static-port-channel", "switch", {}), ip_hash[2]]
        ),
        _finding(
            "LG002", teams["esx01/vSwitch3"], [ip_hash[0], ("switch-channel-mode-static", "switch", {}), ip_hash[2]]
        ),
        _finding("LG003", teams["esx01/vSwitch1"], [("switch-hash", "switch", {"hash": "src-dst-ip"})]),
        _finding(
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
        _finding("LG006", teams["esx01/vSwitch2"], [("switch-remove-port-channel", "switch", {})]),
        _finding(
            "LK001", uplinks["esx01/vmnic0"], [("switch-port-autoneg", "switch", {}), ("host-nic-autoneg", "host", {})]
        ),
        _finding(
            "MT002",
            teams["esx01/vSwitch1"],
            [("switch-port-mtu", "switch", {"mtu": 9000}), ("host-vswitch-mtu", "host", {"mtu": 9000})],
        ),
        _finding("MT003", vmk, [("vmk-mtu", "vmk", {"mtu": 9000})]),
        _finding(
            "LK003",
            teams["esx01/vSwitch2"],
            [],
            applicability="display-only",
            message="mixes uplink speeds in one team",
        ),
        _finding(
            "VL001", vm_100, [("switch-trunk-allow-vlan", "switch", {"vlans": [[100, 100]]})], applicability="safe"
        ),
        _finding("VL003", teams["esx01/vSwitch0"], [("switch-trunk-native-vlan", "switch", {"vlan": 1})]),
    ]
    return CheckResult(findings=findings)


# --- goldens --------------------------------------------------------------------------------------


# The host scripts and PLAN.md are compared once (with NX-OS); each platform's switch files every time.
def _compared(name: str, platform: str) -> bool:
    return platform == "cisco_nxos" or name.endswith(f".{platform}.txt")


@pytest.mark.parametrize("platform", sorted(PLATFORMS))
def test_golden_scripts(platform: str, tmp_path: Path) -> None:
    snapshot = site(platform)
    written = write_scripts(findings_for(snapshot), snapshot, tmp_path)
    produced = {p.name: p.read_text(encoding="utf-8") for p in written if _compared(p.name, platform)}
    golden = GOLDEN / platform
    if UPDATE:
        golden.mkdir(parents=True, exist_ok=True)
        for stale in golden.iterdir():
            stale.unlink()
        for name, text in produced.items():
            (golden / name).write_text(text, encoding="utf-8")
    expected = {p.name: p.read_text(encoding="utf-8") for p in golden.iterdir()} if golden.is_dir() else {}
    assert sorted(produced) == sorted(expected), "set HOSTLINT_UPDATE_GOLDEN=1 to (re)write the goldens"
    for name, text in produced.items():
        assert text == expected[name], f"{platform}/{name} differs from its golden file"


# Actions for KVM hosts and guests, and the switch side only a KVM bond asks for: tests/test_fixes_kvm.py.
KVM_ACTIONS = {"bond-mode", "guest-nic-mtu", "guest-nic-model", "switch-channel-mode-lacp"}


def test_every_action_has_every_platform() -> None:
    """A host action renders for every ESXi platform, every KVM host platform, or libvirt (vCenter-only
    changes, such as moving a vmk to a distributed port group, for PowerCLI); a switch action for all."""
    actions = load_actions()
    host_sets = [set(HOST_PLATFORMS), set(KVM_HOST_PLATFORMS), set(GUEST_PLATFORMS), {"powercli"}]
    for action in actions.values():
        if action.device == "host":
            assert set(action.platforms) in host_sets, action.action
        else:
            assert set(action.platforms) == set(PLATFORMS), action.action


@pytest.mark.parametrize("platform", sorted(PLATFORMS))
def test_every_action_is_planned(platform: str) -> None:
    """The scenario exercises all ESXi and switch actions on every platform, none left to manual work."""
    snapshot = site(platform)
    plan = build_plan(findings_for(snapshot), snapshot)
    # vmk-migrate is asked for by `hostlint plan --set`, not by a rule: tests/test_whatif.py covers it.
    assert {s.action.action for s in plan.steps} == set(load_actions()) - KVM_ACTIONS - {"vmk-migrate"}
    assert [(m.source.code, m.reason) for m in plan.manual] == []


# --- order ----------------------------------------------------------------------------------------


def _step_numbers(plan_md: str) -> dict[str, int]:
    """`device action detail` -> step number, from the PLAN.md overview table."""
    rows = re.findall(r"^\| (\d+) \| [\w-]+ \| ([^|]+) \| ([^|]+) \|", plan_md, flags=re.M)
    return {f"{device.strip()} {what.strip()}": int(number) for number, device, what in rows}


def broken_clean_lab() -> Snapshot:
    """The clean lab with esx01's vmnic3 (nx2 Eth1/11) out of its vPC channel and the switches on a MAC hash."""
    snapshot = load_site([ROOT / "fixtures" / "labs" / "clean"])
    for switch in snapshot.switches:
        switch.load_balance = LoadBalance(hash="src-dst-mac", raw="src-dst mac")
        if switch.name == "nx2":
            next(p for p in switch.ports if p.name == "Ethernet1/11").port_channel = None
            next(c for c in switch.port_channels if c.name == "port-channel11").members = []
    return snapshot


def test_ip_hash_order_with_real_rules(tmp_path: Path) -> None:
    snapshot = broken_clean_lab()
    result = check_snapshot(snapshot, load_rules())
    assert "LG001" in {f.code for f in result.findings}
    write_scripts(result, snapshot, tmp_path)
    steps = _step_numbers((tmp_path / "PLAN.md").read_text(encoding="utf-8"))
    undo = steps["esx01.lab.example.net vSwitch1: load balancing loadbalance_ip -> loadbalance_srcid"]
    hash_nx2 = steps["nx2 global port-channel hash src-dst mac -> src-dst ip"]
    channel = steps["nx2 Ethernet1/11 into static port-channel11"]
    ip_hash = steps["esx01.lab.example.net vSwitch1: load balancing loadbalance_srcid -> loadbalance_ip"]
    assert undo < hash_nx2 < channel < ip_hash
    # nx1's member is already a static member of vPC 11: only nx2 changes, and it reuses channel 11.
    assert not any(key.startswith("nx1 Ethernet1/11") for key in steps)
    nx2 = (tmp_path / "nx2.cisco_nxos.txt").read_text(encoding="utf-8")
    assert "interface Ethernet1/11\n  channel-group 11 mode on\n" in nx2


def test_new_channel_takes_a_number_free_on_both_peers() -> None:
    snapshot = site("cisco_nxos")
    plan = build_plan(findings_for(snapshot), snapshot)
    built = [s for s in plan.steps if s.action.action == "switch-static-port-channel"]
    assert [(s.device, s.change.values["number"], s.change.values["multichassis"]) for s in built] == [
        ("sw1", 3, "vpc"),
        ("sw2", 3, "vpc"),
    ]


def test_switch_before_vswitch_before_vmk_when_raising_mtu() -> None:
    snapshot = site("cisco_nxos")
    plan = build_plan(findings_for(snapshot), snapshot)
    number = {s.action.action: s.number for s in plan.steps}
    assert number["switch-port-mtu"] < number["host-vswitch-mtu"] < number["vmk-mtu"]


def test_later_stages_are_left_out_when_the_switch_step_cannot_be_written() -> None:
    """Two switches that are no pair cannot carry one channel: IP hash must not be set back alone."""
    snapshot = site("cisco_nxos")
    for switch in snapshot.switches:
        switch.multichassis = None
    result = CheckResult(findings=findings_for(snapshot).findings[:1])
    plan = build_plan(result, snapshot)
    assert [(s.stage, s.change.after) for s in plan.steps] == [("host-undo", "loadbalance_srcid")]
    assert [m.action for m in plan.manual] == ["switch-static-port-channel", "host-teaming"]
    assert "not one logical switch" in plan.manual[0].reason


# --- rollback -------------------------------------------------------------------------------------


def _blocks(script: str) -> list[tuple[int, str]]:
    """(step number, body) of each step function of an esxcli script, in file order."""
    return [(int(n), body) for n, body in re.findall(r"^step_(\d+)\(\) \{\n(.*?)^\}", script, flags=re.M | re.S)]


def test_rollback_runs_in_reverse_and_restores_values(tmp_path: Path) -> None:
    snapshot = site("cisco_nxos")
    write_scripts(findings_for(snapshot), snapshot, tmp_path)
    change = _blocks((tmp_path / "esx01.esxcli.sh").read_text(encoding="utf-8"))
    undo = _blocks((tmp_path / "esx01.rollback.esxcli.sh").read_text(encoding="utf-8"))
    assert [n for n, _ in undo] == sorted((n for n, _ in change), reverse=True)
    undo_body = dict(undo)
    teaming = [n for n, body in change if "failover set -v vSwitch1 -l" in body]
    first, last = teaming
    # Undoing IP hash goes back to port ID (set by the earlier step), undoing that restores the snapshot's IP hash.
    assert "-v vSwitch1 -l portid" in undo_body[last]
    assert "-v vSwitch1 -l iphash" in undo_body[first]
    vmk = next(n for n, body in change if "interface set -i vmk1" in body)
    assert "esxcli network ip interface set -i vmk1 -m 1500" in undo_body[vmk]
    nic = next(n for n, body in change if "nic set -n vmnic0 -a" in body)
    assert "esxcli network nic set -n vmnic0 -S 1000 -D full" in undo_body[nic]
    switch = (tmp_path / "sw1.rollback.cisco_nxos.txt").read_text(encoding="utf-8")
    assert "port-channel load-balance src-dst mac" in switch
    plan_md = (tmp_path / "PLAN.md").read_text(encoding="utf-8")
    order = [int(n) for n in re.findall(r"^\d+\. Undo step (\d+) ", plan_md, flags=re.M)]
    assert order == sorted(order, reverse=True) and len(order) == plan_md.count("\n### Step ")


# --- merging, conflicts, advice ------------------------------------------------------------------


def test_identical_steps_appear_once_with_every_rule_code(tmp_path: Path) -> None:
    snapshot = site("cisco_nxos")
    result = findings_for(snapshot)
    result.findings.append(result.findings[0].model_copy(update={"code": "LG009"}))
    plan = build_plan(result, snapshot)
    hashes = [s for s in plan.steps if s.action.action == "switch-hash"]
    assert [(s.device, s.codes) for s in hashes] == [
        ("sw1", ["LG001", "LG003", "LG009"]),
        ("sw2", ["LG001", "LG003", "LG009"]),
    ]
    undo = [s for s in plan.steps if s.change.after == "loadbalance_srcid" and s.change.target == "vSwitch1"]
    assert [s.codes for s in undo] == [["LG001", "LG009"]]
    write_scripts(result, snapshot, tmp_path)
    sw1 = (tmp_path / "sw1.cisco_nxos.txt").read_text(encoding="utf-8")
    assert sw1.count("port-channel load-balance src-dst ip") == 1
    assert "! LG001 esx01/vSwitch1" in sw1 and "! LG003 esx01/vSwitch1" in sw1 and "! LG009 esx01/vSwitch1" in sw1


def test_conflicting_values_are_reported(tmp_path: Path) -> None:
    snapshot = site("cisco_nxos")
    vmk = next(v for v in build_facts(snapshot).vmks if v.object == "esx01/vmk1")
    result = CheckResult(
        findings=[_finding("MT001", vmk, [("vmk-mtu", "vmk", {"mtu": 1500 + delta})]) for delta in (1000, 7500)]
    )
    write_scripts(result, snapshot, tmp_path)
    plan_md = (tmp_path / "PLAN.md").read_text(encoding="utf-8")
    conflicts = plan_md.split("## Conflicts", 1)[1].split("\n## ", 1)[0]
    assert "esx01 `vmk1` (mtu, stage vmk): step 1 sets 2500 (MT001); step 2 sets 9000 (MT001)" in conflicts


def test_display_only_finding_is_advice_not_a_step(tmp_path: Path) -> None:
    snapshot = site("cisco_nxos")
    team = next(t for t in build_facts(snapshot).teams if t.object == "esx01/vSwitch1")
    advice = _finding(
        "LG004",
        team,
        [("host-teaming", "host", {"policy": "loadbalance_srcid"})],
        applicability="display-only",
        message="routes by IP hash across unpaired switches",
    )
    written = write_scripts(CheckResult(findings=[advice]), snapshot, tmp_path)
    assert [p.name for p in written] == ["PLAN.md"]
    plan_md = (tmp_path / "PLAN.md").read_text(encoding="utf-8")
    assert "No step to run." in plan_md
    section = plan_md.split("## Advice (not scripted)", 1)[1]
    assert "- LG004 `esx01/vSwitch1` (error): routes by IP hash across unpaired switches" in section
    assert "Suggested, display-only: host-teaming {'policy': 'loadbalance_srcid'}" in section


def test_scripts_run_one_step_only_and_hold_no_secrets(tmp_path: Path) -> None:
    snapshot = site("cisco_nxos")
    for path in write_scripts(findings_for(snapshot), snapshot, tmp_path):
        text = path.read_text(encoding="utf-8")
        if path.name.endswith(".vsphere_api.py"):
            # The pyvmomi script asks for the password at run time (environment or prompt), never holds one.
            assert 'os.environ.get("HOSTLINT_VSPHERE_PASSWORD") or getpass.getpass(' in text
            assert not re.search(r"pwd\s*=\s*['\"]", text), path.name
            compile(text, path.name, "exec")
            continue
        assert not re.search(r"password|-Password|secret", text, flags=re.I), path.name
        if path.suffix == ".sh":
            assert text.startswith("#!/bin/sh\n") and 'case "${1:-}" in' in text
        if path.suffix == ".ps1":
            assert "param([Parameter(Mandatory = $true)][int]$Step)" in text
