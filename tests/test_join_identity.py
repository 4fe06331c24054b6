"""Hosts of two vCenters that share names (a lab copied into two vCenters): both kept, findings name each
qualified by its vCenter, and a cabling entry is used only where it says which host it means."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from hostlint.check import check_snapshot
from hostlint.history.drift import snapshot_drift
from hostlint.join import build_facts
from hostlint.report.locations import Locator
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.esxi import DistributedSwitch

LAB = Path(__file__).resolve().parents[1] / "fixtures" / "labs" / "jumbo-mismatch"


def two_vcenters(tmp_path: Path, cabling: dict | None = None) -> Path:
    hosts = json.loads((LAB / "hosts.json").read_text())
    for vcenter in ("vc-a", "vc-b"):
        part = json.loads(json.dumps(hosts))
        part["schema_version"] = 3
        for number, host in enumerate(part["esxi_hosts"]):
            host.update(vcenter=f"{vcenter}.example", vcenter_uuid=f"uuid-{vcenter}", moid=f"host-{number}")
        for switch in part.get("distributed_switches", []):
            switch.update(uuid=f"{vcenter}-{switch['name']}", vcenter=f"{vcenter}.example")
        (tmp_path / f"hosts-{vcenter}.json").write_text(json.dumps(part))
    (tmp_path / "switches.json").write_text((LAB / "switches.json").read_text())
    (tmp_path / "cabling.yaml").write_text(yaml.safe_dump(cabling) if cabling else (LAB / "cabling.yaml").read_text())
    return tmp_path


def test_a_bare_cabling_entry_for_a_shared_host_name_is_ambiguous_not_guessed(tmp_path):
    facts = build_facts(load_site([two_vcenters(tmp_path)]))
    reasons = {u.object: u.reason for u in facts.unresolved}
    cabled = {e["host"] for e in yaml.safe_load((LAB / "cabling.yaml").read_text())["cabling"]}
    assert reasons and all("could be either host named" in reason for reason in reasons.values())
    assert {obj.split("@")[0].split(".")[0] for obj in reasons} == cabled


def test_qualified_cabling_joins_each_host_and_findings_double_with_the_hosts(tmp_path):
    cabling = yaml.safe_load((LAB / "cabling.yaml").read_text())
    hosts = {h["name"].split(".")[0]: h["name"] for h in json.loads((LAB / "hosts.json").read_text())["esxi_hosts"]}
    entries = [
        {**entry, "host": f"{hosts[entry['host'].split('.')[0]]}@{vcenter}.example"}
        for vcenter in ("vc-a", "vc-b")
        for entry in cabling["cabling"]
    ]
    site = load_site([two_vcenters(tmp_path, {"cabling": entries})])
    assert build_facts(site).unresolved == []
    rules = load_rules()
    single = check_snapshot(load_site([LAB]), rules)
    double = check_snapshot(site, rules)
    assert len(double.findings) == 2 * len(single.findings) > 0
    objects = sorted(f.object for f in double.findings)
    for finding in single.findings:
        host, _, rest = finding.object.partition("/")
        assert f"{host}@vc-a.example/{rest}" in objects and f"{host}@vc-b.example/{rest}" in objects


def test_drift_tells_two_datacenters_switches_of_one_name_apart():
    def site(east_mtu: int) -> Snapshot:
        return Snapshot(
            distributed_switches=[
                DistributedSwitch(name="DSwitch", uuid="u-west", datacenter="DC-West", max_mtu=9000),
                DistributedSwitch(name="DSwitch", uuid="u-east", datacenter="DC-East", max_mtu=east_mtu),
            ]
        )

    drift = snapshot_drift(site(1500), site(9000))
    assert [(d.object, d.field, d.before, d.after) for d in drift] == [("DSwitch@DC-East", "max_mtu", 1500, 9000)]


def test_a_findings_location_is_its_own_switch_among_same_named_ones(tmp_path):
    site = {
        "schema_version": 3,
        "esxi_hosts": [{"name": "esx28"}, {"name": "esx22", "datacenter": "DC-East"}],
        "distributed_switches": [
            {"name": "DSwitch", "uuid": "u-west", "hosts": [{"host": "esx28", "mtu": 9000}]},
            {"name": "DSwitch", "uuid": "u-east", "datacenter": "DC-East", "hosts": [{"host": "esx22", "mtu": 1500}]},
        ],
    }
    path = tmp_path / "site.json"
    path.write_text(json.dumps(site, indent=2))
    locator = Locator([path])
    assert locator.locate("esx28/DSwitch").pointer == "/distributed_switches/0"
    east = locator.locate("esx22/DSwitch")
    assert east.pointer == "/distributed_switches/1"
    assert '"host": "esx22"' in path.read_text().splitlines()[east.line - 1]
