"""HPE Comware and Huawei VRP templates on the project's own samples (hostlint/switches/hp_comware,
hostlint/switches/huawei_vrp): what each command's records hold, and that a record the template misses is
reported by the independent count, never lost in silence (that every folder's sample parses without a
warning: tests/test_collector_specs.py, over the registry); bench/parsers.py scores them on real output."""

from __future__ import annotations

from pathlib import Path

from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.collect.switches.platforms import load_folder

ROOT = Path(__file__).resolve().parent.parent


def _folder(platform: str) -> Path:
    """A platform's collector: its folder under hostlint/switches/."""
    return ROOT / "hostlint" / "switches" / platform


def _parse(platform: str, command: str, text: str | None = None) -> Parsed:
    spec = next(c for c in load_folder(_folder(platform)).commands if c.command == command)
    if text is None:
        text = (spec.template.parent / f"{spec.slug}.txt").read_text(encoding="utf-8")
    return parse_output(spec, text, "sw1")


# HPE Comware --------------------------------------------------------------------------------------


def test_comware_aggregation_modes_members_and_their_status() -> None:
    parsed = _parse("hp_comware", "display link-aggregation verbose")
    modes = {r["name"]: r["mode"] for r in parsed.get("channels")}
    assert modes == {
        "Bridge-Aggregation10": "Dynamic",
        "Bridge-Aggregation20": "Dynamic",
        "Bridge-Aggregation30": "Static",
    }
    members = {(r["channel"], r["port"]): r["status"] for r in parsed.get("members")}
    # The reference port's `(R)` is not part of its name; the partner's rows are no members.
    assert members == {
        ("Bridge-Aggregation10", "XGE1/0/1"): "S",
        ("Bridge-Aggregation10", "XGE2/0/1"): "S",
        ("Bridge-Aggregation20", "XGE1/0/3"): "S",
        ("Bridge-Aggregation20", "XGE2/0/3"): "U",
        ("Bridge-Aggregation30", "XGE1/0/5"): "S",
        ("Bridge-Aggregation30", "XGE2/0/5"): "S",
    }


def test_comware_interfaces_keep_the_ip_mtu_and_the_frame_length_apart() -> None:
    interfaces = {r["name"]: r for r in _parse("hp_comware", "display interface").get("interfaces")}
    port = interfaces["Ten-GigabitEthernet1/0/1"]
    assert (port["state"], port["frame_length"], port["speed"], port["duplex"]) == ("UP", "9416", "10Gbps", "full")
    assert "mtu" not in port
    assert interfaces["Vlan-interface100"]["mtu"] == "9000" and "frame_length" not in interfaces["Vlan-interface100"]
    assert interfaces["Ten-GigabitEthernet1/0/2"]["state"] == "Administratively DOWN"


def test_comware_5_headers_and_router_speed_lines() -> None:
    text = (
        " GigabitEthernet1/0/1 current state: UP\n"
        " Line protocol current state: UP\n"
        " 1000M, Full, link type is autonegotiation\n"
        " The Maximum Frame Length is 9216\n"
    )
    (record,) = _parse("hp_comware", "display interface", text).get("interfaces")
    assert record == {
        "name": "GigabitEthernet1/0/1",
        "state": "UP",
        "protocol": "UP",
        "speed": "1000M",
        "duplex": "Full",
        "frame_length": "9216",
    }


def test_comware_configuration_lacp_static_irf_and_hash() -> None:
    parsed = _parse("hp_comware", "display current-configuration")
    interfaces = {r["name"]: r for r in parsed.get("configured")}
    assert interfaces["Bridge-Aggregation10"]["aggregation_mode"] == "dynamic"
    assert "aggregation_mode" not in interfaces["Bridge-Aggregation30"]  # static: no LACP
    assert interfaces["Ten-GigabitEthernet2/0/3"]["lacp_mode"] == "passive"
    assert interfaces["Ten-GigabitEthernet1/0/3"]["deny_vlans"] == "1"
    assert interfaces["Bridge-Aggregation20"]["load_sharing"].split() == [
        "destination-ip",
        "source-ip",
        "destination-port",
        "source-port",
    ]
    assert parsed.get("load_balance") == [{"fields": "destination-ip source-ip"}]
    assert {r["member"] for r in parsed.get("irf")} == {"1", "2"}
    assert parsed.get("irf_ports")[0]["ports"].split() == ["Ten-GigabitEthernet1/0/49", "Ten-GigabitEthernet1/0/50"]


def test_comware_vlans_keep_tagged_and_untagged_ports_apart() -> None:
    vlans = {r["vlan_id"]: r for r in _parse("hp_comware", "display vlan all").get("vlans")}
    assert vlans["100"]["tagged"]["ports"].split()[:2] == ["Bridge-Aggregation10", "Bridge-Aggregation20"]
    assert vlans["100"]["untagged"]["ports"].split() == ["Ten-GigabitEthernet1/0/2", "GigabitEthernet1/0/48"]
    assert "untagged" not in vlans["110"]


def test_a_comware_vlan_the_template_misses_is_reported_not_lost() -> None:
    text = " VLAN ID: 1\n Name: VLAN 0001\n\n VLAN ID: 5 (dynamic)\n Name: guest\n"
    parsed = _parse("hp_comware", "display vlan all", text)
    assert [r["vlan_id"] for r in parsed.get("vlans")] == ["1"]
    assert parsed.warnings == ["sw1: display vlan all: 1 of 2 VLANs not parsed (5); their facts stay unknown"]


# Huawei VRP ---------------------------------------------------------------------------------------


def test_vrp_trunk_modes_manual_lacp_and_lacp_static() -> None:
    parsed = _parse("huawei_vrp", "display eth-trunk")
    channels = {r["name"]: (r["mode"], r.get("hash")) for r in parsed.get("channels")}
    assert channels == {
        "Eth-Trunk1": ("LACP", "According to SIP-XOR-DIP"),
        "Eth-Trunk2": ("STATIC", "According to SIP-XOR-DIP"),
        "Eth-Trunk3": ("NORMAL", "According to SIP-XOR-DIP"),
    }
    members = {(r["channel"], r["port"]): r["status"] for r in parsed.get("members")}
    assert members[("Eth-Trunk2", "XGigabitEthernet1/0/3")] == "Unselect"
    assert members[("Eth-Trunk3", "XGigabitEthernet0/0/5")] == "Up"
    assert len(members) == 6  # the partner rows are not members


def test_vrp_configuration_modes_mlag_and_stack() -> None:
    parsed = _parse("huawei_vrp", "display current-configuration")
    interfaces = {r["name"]: r for r in parsed.get("configured")}
    assert interfaces["Eth-Trunk1"]["trunk_mode"] == "lacp"
    assert interfaces["Eth-Trunk2"]["trunk_mode"] == "lacp-static"
    assert "trunk_mode" not in interfaces["Eth-Trunk3"]  # manual load balancing, the default
    assert (interfaces["Eth-Trunk1"]["dfs_group"], interfaces["Eth-Trunk1"]["mlag_id"]) == ("1", "1")
    assert interfaces["Eth-Trunk0"]["peer_link"] == "1"
    assert interfaces["XGigabitEthernet0/0/1"]["channel_group"] == "1"
    assert parsed.get("mlag") == [{"dfs_group": "1", "priority": "150", "source_ip": "198.51.100.1"}]
    assert [r["member"] for r in parsed.get("stack")] == ["0", "1"]


def test_vrp_interfaces_frame_length_on_switch_ports_mtu_on_routed_ones() -> None:
    interfaces = {r["name"]: r for r in _parse("huawei_vrp", "display interface").get("interfaces")}
    assert interfaces["XGigabitEthernet0/0/1"]["frame_length"] == "9216"
    assert interfaces["Vlanif100"]["mtu"] == "9000"
    assert interfaces["XGigabitEthernet0/0/2"]["state"] == "Administratively DOWN"


def test_vrp_port_vlan_lists_wrap() -> None:
    rows = {r["name"]: r for r in _parse("huawei_vrp", "display port vlan").get("port_vlans")}
    assert rows["XGigabitEthernet0/0/8"]["vlans"].split()[-3:] == ["280", "290", "300"]
    assert (rows["GigabitEthernet0/0/48"]["link_type"], rows["GigabitEthernet0/0/48"]["pvid"]) == ("access", "100")


def test_a_vrp_neighbour_whose_port_id_is_not_read_is_reported() -> None:
    text = "10GE1/0/1 has 1 neighbor(s):\n\nNeighbor index :1\nChassis ID :0050-5601-0a01\nPort ID :vmnic0  (dvs)\n"
    parsed = _parse("huawei_vrp", "display lldp neighbor", text)
    assert parsed.get("neighbours")[0]["local_port"] == "10GE1/0/1"
    assert any("port id shown but not parsed" in w for w in parsed.warnings), parsed.warnings
