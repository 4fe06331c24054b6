"""Per-host calls: only what can answer is asked, one call per host for all its linked pNICs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support.vcsim import launcher, needs_simulator

from hostlint.collect.vsphere import collect, connect, disconnect, fastretrieve, parse_server, tls_context

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "s3cret-for-hints"


pytestmark = needs_simulator


def _pnic(name: str, pci: str, up: bool, neighbour: str | None = None) -> dict:
    pnic = {"name": name, "driver": "ixgben", "pci": pci, "link_up": up}
    if up:
        pnic |= {"speed_mbps": 10000, "duplex": "full"}
    if neighbour:
        pnic["neighbour"] = {"protocol": "cdp", "device_id": neighbour, "port_id": f"Ethernet1/{pci[-1]}"}
    return pnic


SCENARIO = {
    "esxi_hosts": [
        {
            # one linked pNIC of two, a software and an independent iSCSI adapter
            "name": "esx-a.example.net",
            "vswitches": [{"name": "vSwitch0", "uplinks": ["vmnic0", "vmnic1"], "teaming": {"active": ["vmnic0"]}}],
            "portgroups": [{"name": "Management Network", "vswitch": "vSwitch0", "members": ["vmk0"]}],
            "vmks": [
                {
                    "name": "vmk0",
                    "portgroup": "Management Network",
                    "vswitch": "vSwitch0",
                    "ip": "10.0.0.1",
                    "prefix": 24,
                    "services": ["management"],
                }
            ],
            "pnics": [_pnic("vmnic0", "0000:3b:00.0", True, "leaf1"), _pnic("vmnic1", "0000:3b:00.1", False)],
            "iscsi_adapters": [
                {"name": "vmhba64", "kind": "software", "bound_vmks": ["vmk0"], "targets": ["10.0.0.9:3260"]},
                {"name": "vmhba2", "kind": "independent", "targets": ["10.0.0.9:3260"]},
            ],
        },
        {
            # no pNIC with a link: nothing to ask
            "name": "esx-b.example.net",
            "vswitches": [{"name": "vSwitch0", "uplinks": ["vmnic0"], "teaming": {"active": ["vmnic0"]}}],
            "portgroups": [{"name": "Management Network", "vswitch": "vSwitch0", "members": ["vmk0"]}],
            "vmks": [
                {
                    "name": "vmk0",
                    "portgroup": "Management Network",
                    "vswitch": "vSwitch0",
                    "ip": "10.0.0.2",
                    "prefix": 24,
                    "services": ["management"],
                }
            ],
            "pnics": [_pnic("vmnic0", "0000:3b:00.0", False)],
        },
    ]
}


@pytest.mark.parametrize("parser", fastretrieve.PARSERS)
def test_only_linked_pnics_and_bindable_adapters_are_asked(vcsim_binary, tmp_path, parser):
    scenario = tmp_path / "hints.json"
    scenario.write_text(json.dumps(SCENARIO))
    binary = vcsim_binary
    with launcher.Simulator(binary, scenario, password=PASSWORD) as sim:
        endpoint = parse_server(sim.url)
        service_instance = connect(endpoint, sim.user, PASSWORD, tls_context(ca_bundle=Path(sim.cert)))
        try:
            sim.stats(reset=True)
            snapshot = collect(service_instance, str(endpoint), parser=parser).snapshot
            methods = sim.stats()["methods"]
        finally:
            disconnect(service_instance)
    assert (methods.get("QueryNetworkHint"), methods.get("QueryBoundVnics")) == (1, 1)
    a, b = sorted(snapshot.esxi_hosts, key=lambda h: h.name)
    assert [(p.name, p.link_up, p.neighbour.device_id if p.neighbour else None) for p in a.pnics] == [
        ("vmnic0", True, "leaf1"),
        ("vmnic1", False, None),
    ]
    assert {i.name: (i.kind, i.bound_vmks) for i in a.iscsi_adapters} == {
        "vmhba64": ("software", ["vmk0"]),
        "vmhba2": ("independent", []),
    }
    assert [(p.name, p.link_up, p.neighbour) for p in b.pnics] == [("vmnic0", False, None)]
    assert snapshot.collection_errors == []


def test_hosts_asked_page_by_page_give_the_same_snapshot(vcsim_binary, tmp_path):
    """One host per page, two slices: the per-host calls start while pages still come, the facts do not change."""
    scenario = tmp_path / "hints.json"
    scenario.write_text(json.dumps(SCENARIO))
    binary = vcsim_binary
    with launcher.Simulator(binary, scenario, password=PASSWORD) as sim:
        endpoint = parse_server(sim.url)
        service_instance = connect(endpoint, sim.user, PASSWORD, tls_context(ca_bundle=Path(sim.cert)))
        try:
            whole = collect(service_instance, str(endpoint)).snapshot
            sim.stats(reset=True)
            paged = collect(service_instance, str(endpoint), page_size=1, parallel=2).snapshot
            methods = sim.stats()["methods"]
        finally:
            disconnect(service_instance)
    assert (methods.get("QueryNetworkHint"), methods.get("QueryBoundVnics")) == (1, 1)
    assert paged.model_dump(exclude={"collected_at"}) == whole.model_dump(exclude={"collected_at"})
    assert paged.esxi_hosts[0].pnics[0].neighbour is not None


@pytest.mark.parametrize("parser", fastretrieve.PARSERS)
def test_refused_hint_and_iscsi_calls_name_privilege_and_object(vcsim_binary, tmp_path, parser):
    """A role without Host.Config.Network / Host.Config.Storage: each refusal names the privilege and the object
    called, as a refused retrieval does, and the rest of the host is kept."""
    scenario = tmp_path / "hints.json"
    scenario.write_text(json.dumps(SCENARIO))
    binary = vcsim_binary
    denied = ("-deny", "QueryNetworkHint=Host.Config.Network", "-deny", "QueryBoundVnics=Host.Config.Storage")
    with launcher.Simulator(binary, scenario, password=PASSWORD, extra_args=denied) as sim:
        endpoint = parse_server(sim.url)
        service_instance = connect(endpoint, sim.user, PASSWORD, tls_context(ca_bundle=Path(sim.cert)))
        try:
            snapshot = collect(service_instance, str(endpoint), parser=parser).snapshot
        finally:
            disconnect(service_instance)
    reasons = sorted(e.reason for e in snapshot.collection_errors if e.target == "esx-a.example.net")
    assert len(reasons) == 2, reasons
    assert re.fullmatch(
        r"CDP/LLDP hints: NoPermission: privilege Host\.Config\.Network on HostNetworkSystem \S+", reasons[0]
    )
    assert re.fullmatch(
        r"iSCSI bindings of vmhba64: NoPermission: privilege Host\.Config\.Storage on IscsiManager \S+",
        reasons[1],
    )
    a = next(h for h in snapshot.esxi_hosts if h.name == "esx-a.example.net")
    assert [p.name for p in a.pnics] == ["vmnic0", "vmnic1"] and a.pnics[0].neighbour is None
