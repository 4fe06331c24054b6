"""The PCIe model end to end: snapshot -> join (usable bandwidth per direction) -> PC001/PC002/PC003."""

from __future__ import annotations

import pytest

from hostlint.join import build_facts
from hostlint.rules import load_rules, run_rules
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import PciLink
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic
from hostlint.snapshot.kvm import KvmHost

PC_RULES = [rule for rule in load_rules() if rule.code.startswith("PC")]


def _card(ports: int, port_gbps: int, capable: tuple[int, float], negotiated: tuple[int, float]) -> EsxiHost:
    return EsxiHost(
        name="esx01",
        pnics=[PhysicalNic(name=f"vmnic{n}", pci=f"0000:3b:00.{n}", speed_mbps=port_gbps * 1000) for n in range(ports)],
        pci_devices=[
            PciLink(
                address=f"0000:3b:00.{n}",
                width_capable=capable[0],
                speed_capable_gts=capable[1],
                width_negotiated=negotiated[0],
                speed_negotiated_gts=negotiated[1],
            )
            for n in range(ports)
        ],
    )


@pytest.mark.parametrize(
    ("ports", "port_gbps", "capable", "negotiated", "usable", "codes"),
    [
        pytest.param(2, 25, (8, 8.0), (8, 8.0), 53.563, set(), id="2x25G Gen3 x8 clean"),
        pytest.param(1, 100, (16, 8.0), (16, 8.0), 107.126, set(), id="1x100G Gen3 x16 clean"),
        pytest.param(2, 100, (16, 16.0), (16, 16.0), 214.252, set(), id="2x100G Gen4 x16 clean"),
        pytest.param(2, 10, (8, 5.0), (4, 2.5), 6.8, {"PC001", "PC002"}, id="2x10G Gen2 x8 card at Gen1 x4 error"),
        pytest.param(2, 25, (8, 8.0), (4, 8.0), 26.782, {"PC001", "PC002"}, id="x8 card at x4 error"),
        pytest.param(2, 100, (16, 8.0), (16, 8.0), 107.126, {"PC003"}, id="2x100G Gen3 x16 card limit advisory"),
        pytest.param(1, 10, (8, 8.0), (4, 8.0), 26.782, {"PC002"}, id="x8 card at x4 still carries 10G"),
    ],
)
def test_pcie_model_cases(ports, port_gbps, capable, negotiated, usable, codes) -> None:
    facts = build_facts(Snapshot(esxi_hosts=[_card(ports, port_gbps, capable, negotiated)]))
    (fact,) = facts.pcie
    assert fact.ports_gbps == ports * port_gbps
    assert fact.usable_gbps == usable
    result = run_rules(PC_RULES, facts)
    assert not result.skipped, result.skipped
    assert {f.code for f in result.findings} == codes


def test_recommended_profile_only_errors_on_the_slot() -> None:
    """PC003 is strict-only: a card's own design limit is no error in the default profile."""
    by_code = {rule.code: rule for rule in PC_RULES}
    assert (by_code["PC001"].severity, by_code["PC001"].profile) == ("error", "recommended")
    assert (by_code["PC003"].severity, by_code["PC003"].profile) == ("info", "strict")


def test_unknown_rate_is_missing_not_guessed() -> None:
    facts = build_facts(Snapshot(esxi_hosts=[_card(2, 25, (8, 8.0), (8, 6.0))]))
    (fact,) = facts.pcie
    assert fact.usable_gbps is None and "6.0 GT/s" in fact.missing["pcie"]
    skipped = run_rules(PC_RULES, facts).skipped
    assert {s.code for s in skipped} == {"PC001", "PC002", "PC003"}


def test_skip_reason_names_each_platforms_source() -> None:
    esx = build_facts(Snapshot(esxi_hosts=[_card(1, 10, (8, 8.0), (8, 8.0)).model_copy(update={"pci_devices": None})]))
    assert "vSphere API" in esx.pcie[0].missing["pcie"] and "lspci" in esx.pcie[0].missing["pcie"]
    kvm = KvmHost.model_validate(
        {
            "name": "kvm01",
            "interfaces": [{"name": "eno1", "kind": "physical", "pci": "0000:3b:00.0", "speed_mbps": 10000}],
        }
    )
    reason = build_facts(Snapshot(kvm_hosts=[kvm])).pcie[0].missing["pcie"]
    assert "/sys/bus/pci/devices/" in reason and "vSphere" not in reason
