"""Distributed switches through the real join: each host's proxy switch is one team (kind `dvs`)
holding every uplink the host gives the switch, LAG ports included, at the switch's MTU; its
port groups stay teams of their own. MT002, MT005 and MT008 read them."""

from __future__ import annotations

from pathlib import Path

from hostlint.check import check_snapshot
from hostlint.fixes import build_plan
from hostlint.join import build_facts
from hostlint.join.facts import TeamFact
from hostlint.report.locations import Locator
from hostlint.rules import load_rules, run_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import (
    DistributedSwitch,
    DvPortgroup,
    DvsHostMember,
    EsxiHost,
    Lag,
    PhysicalNic,
    Teaming,
    Vmk,
)
from hostlint.snapshot.switch import MultiChassis, PortChannel, Switch, SwitchPort

RULES = {rule.code: rule for rule in load_rules()}
LAB = Path(__file__).resolve().parent.parent / "fixtures" / "labs" / "dvs-jumbo-paths"


def _nic(name: str, port: str, switch: str) -> PhysicalNic:
    neighbour = Neighbour(protocol="lldp", device_id=switch, port_id=port, system_name=switch)
    return PhysicalNic(name=name, link_up=True, speed_mbps=25000, duplex="full", neighbour=neighbour)


def _port(name: str, mtu: int, channel: str | None = None) -> SwitchPort:
    state = "bundled" if channel else None
    return SwitchPort(
        name=name,
        status="up",
        mode="trunk",
        speed_mbps=25000,
        duplex="full",
        mtu=mtu,
        port_channel=channel,
        member_state=state,
    )


def _leaf(name: str, peer: str, channel_mtu: int, port_mtu: int = 9216) -> Switch:
    return Switch(
        name=name,
        platform="cisco_nxos",
        model="N9K-C93180YC-FX",
        ports=[_port("Ethernet1/1", 9216, "port-channel101"), _port("Ethernet1/11", port_mtu)],
        port_channels=[
            PortChannel(
                name="port-channel101",
                mode="lacp-active",
                members=["Ethernet1/1"],
                mtu=channel_mtu,
                status="up",
                multichassis_id=101,
            )
        ],
        multichassis=MultiChassis(kind="vpc", domain_id="20", peer=peer, peer_link_up=True),
    )


def _site(
    dvs_mtu: int | None = 9000,
    proxy_mtu: int | None = 9000,
    channel_mtu: int = 9216,
    port_mtu: int = 9216,
    vmk_mtu: int = 9000,
) -> Snapshot:
    host = EsxiHost(
        name="esx01",
        pnics=[
            _nic("vmnic0", "Ethernet1/1", "leaf1"),
            _nic("vmnic1", "Ethernet1/1", "leaf2"),
            _nic("vmnic2", "Ethernet1/11", "leaf1"),
            _nic("vmnic3", "Ethernet1/11", "leaf2"),
            _nic("vmnic4", "Ethernet1/12", "leaf1"),
        ],
        vmks=[Vmk(name="vmk1", portgroup="dv-vMotion", dvswitch="DSwitch1", mtu=vmk_mtu, services=["vmotion"])],
    )
    lag = Teaming(policy="loadbalance_ip", active=["lag1"], unused=["uplink1", "uplink2", "uplink3"])
    dvs = DistributedSwitch(
        name="DSwitch1",
        max_mtu=dvs_mtu,
        lags=[Lag(name="lag1", mode="active", load_balance="srcDestIp", uplink_count=2)],
        portgroups=[
            DvPortgroup(name="dv-vMotion", teaming=lag, uplink_lag="lag1"),
            DvPortgroup(name="dv-mgmt", teaming=Teaming(active=["uplink1"], standby=["uplink2"], unused=["lag1"])),
        ],
        hosts=[
            DvsHostMember(
                host="esx01",
                uplinks={
                    "uplink1": "vmnic2",
                    "uplink2": "vmnic3",
                    "uplink3": "vmnic4",
                    "lag1-0": "vmnic0",
                    "lag1-1": "vmnic1",
                },
                mtu=proxy_mtu,
            )
        ],
    )
    switches = [_leaf("leaf1", "leaf2", channel_mtu), _leaf("leaf2", "leaf1", channel_mtu, port_mtu)]
    return Snapshot(esxi_hosts=[host], distributed_switches=[dvs], switches=switches)


def _proxy(snapshot: Snapshot) -> TeamFact:
    return next(t for t in build_facts(snapshot).teams if t.kind == "dvs")


def _found(snapshot: Snapshot, *codes: str) -> set[tuple[str, str]]:
    result = run_rules([RULES[c] for c in codes], build_facts(snapshot))
    return {(f.code, f.object) for f in result.findings}


def test_the_proxy_team_holds_every_uplink_a_port_group_uses_with_its_role() -> None:
    facts = build_facts(_site())
    proxy = next(t for t in facts.teams if t.kind == "dvs")
    assert proxy.object == "esx01/DSwitch1"
    assert (proxy.mtu, proxy.proxy_mtu, proxy.policy) == (9000, 9000, "per-portgroup")
    assert proxy.active == ["uplink1", "lag1-0", "lag1-1"]
    assert proxy.standby == ["uplink2"]
    assert proxy.unused == ["uplink3"]
    assert {u.nic: u.role for u in proxy.uplinks} == {
        "vmnic2": "active",
        "vmnic0": "active",
        "vmnic1": "active",
        "vmnic3": "standby",
    }
    # Every uplink is listed once in the site's uplinks, with the proxy team's role (vmnic4 unused).
    roles = {u.nic: u.role for u in facts.uplinks if u.team == proxy.object}
    assert roles == {
        "vmnic0": "active",
        "vmnic1": "active",
        "vmnic2": "active",
        "vmnic3": "standby",
        "vmnic4": "unused",
    }
    # The LAG's switch path is on the LAG ports: their vPC channel's MTU.
    lag_ports = [u for u in proxy.uplinks if u.nic in ("vmnic0", "vmnic1")]
    assert {(u.port_channel, u.channel_mtu) for u in lag_ports} == {("port-channel101", 9216)}


def test_mt002_sees_a_short_vpc_channel_under_the_lag() -> None:
    assert _found(_site(channel_mtu=1500), "MT002") == {("MT002", "esx01/DSwitch1")}
    assert _found(_site(), "MT002") == set()


def test_mt002_sees_a_short_plain_uplink_port_and_ignores_an_unused_one() -> None:
    assert _found(_site(port_mtu=1500), "MT002") == {("MT002", "esx01/DSwitch1")}


def test_mt008_proxy_switch_out_of_sync_and_unknown() -> None:
    assert _found(_site(proxy_mtu=1500), "MT008") == {("MT008", "esx01/DSwitch1")}
    result = run_rules([RULES["MT008"]], build_facts(_site(proxy_mtu=None)))
    assert result.findings == []
    assert [(s.object, s.reason) for s in result.skipped] == [
        ("esx01/DSwitch1", "esx01 DSwitch1: proxy mtu unknown (vSphere HostProxySwitch.mtu not read)")
    ]


def test_a_dvs_mtu_not_read_leaves_the_vmk_path_to_mt005() -> None:
    site = _site(dvs_mtu=None, channel_mtu=1500)
    facts = build_facts(site)
    vmk = facts.vmks[0]
    assert vmk.vswitch_mtu is None and "maxMtu" in vmk.missing["vswitch_mtu"]
    assert vmk.path_mtu == 1500
    result = run_rules([RULES[c] for c in ("MT001", "MT002", "MT005")], facts)
    assert {(f.code, f.object) for f in result.findings} == {("MT005", "esx01/vmk1")}
    assert {s.code for s in result.skipped} == {"MT001", "MT002"}
    # Known: MT002 names the hop, MT005 stays out of it.
    assert _found(_site(channel_mtu=1500), "MT001", "MT002", "MT005") == {("MT002", "esx01/DSwitch1")}


def test_team_rules_leave_the_proxy_team_to_its_port_groups() -> None:
    """LG006 (channel without IP hash) and LK003 (mixed speeds) judge each port group, not the proxy
    team holding a LAG's channel ports beside plain uplinks."""
    result = check_snapshot(_site(), [RULES["LG006"], RULES["LK003"]])
    assert result.findings == []
    assert "esx01/DSwitch1" not in {p.object for p in result.passed}


def test_mt001_on_a_distributed_switch_says_where_the_mtu_is_raised() -> None:
    snapshot = load_site([LAB])
    result = check_snapshot(snapshot, list(RULES.values()))
    plan = build_plan(result, snapshot, unsafe=True)
    manual = {(item.source.code, item.source.object): item.reason for item in plan.manual}
    reason = manual[("MT001", "esx-par-01.dc.example.fr/vmk3")]
    assert "par-dvs-repl is a distributed switch" in reason and "in vCenter" in reason


def test_a_proxy_switch_finding_points_at_the_hosts_member_entry() -> None:
    location = Locator([LAB]).locate("esx-par-04.dc.example.fr/par-dvs01")
    assert location is not None
    assert location.uri.endswith("dvs-jumbo-paths/hosts.json") and location.pointer == "/distributed_switches/0"
    line = (LAB / "hosts.json").read_text(encoding="utf-8").splitlines()[location.line - 1]
    assert line.strip() == '"host": "esx-par-04.dc.example.fr",'
