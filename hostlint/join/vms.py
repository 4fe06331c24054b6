"""Virtual machines and their virtual NICs, for the vNIC and VM advisories."""

from __future__ import annotations

from hostlint.join.facts import Facts, VmFact, VmNicFact
from hostlint.join.sources import esxi_unknown
from hostlint.join.state import host_missing
from hostlint.snapshot.esxi import EsxiHost


def vm_facts(host: EsxiHost, distributed_portgroups: set[str], facts: Facts) -> None:
    standard = {pg.name for pg in host.portgroups}
    for vm in host.vms:
        fact = VmFact(
            object=f"{host.name}/vm:{vm.name}",
            host=host.name,
            vm=vm.name,
            vcpus=vm.vcpus,
            cpu_hot_add=vm.cpu_hot_add,
            missing=host_missing(host),
        )
        for field in ("vcpus", "cpu_hot_add"):
            if getattr(vm, field) is None:
                fact.missing[field] = esxi_unknown(host.name, f"vm:{vm.name}", field)
        facts.vms.append(fact)
        for nic in vm.nics:
            facts.vm_nics.append(
                VmNicFact(
                    object=f"{host.name}/vm:{vm.name}/{nic.label}",
                    host=host.name,
                    vm=vm.name,
                    label=nic.label,
                    model=nic.model,
                    portgroup=nic.portgroup,
                    switch_kind="standard"
                    if nic.portgroup in standard
                    else "distributed"
                    if nic.portgroup in distributed_portgroups
                    else None,
                    missing=host_missing(host),
                )
            )
