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
            nic_fact = VmNicFact(
                object=f"{host.name}/vm:{vm.name}/{nic.label}",
                host=host.name,
                vm=vm.name,
                label=nic.label,
                model=nic.model,
                portgroup=nic.portgroup,
                portgroup_key=nic.portgroup_key,
                switch_kind=nic.switch_kind or _kind_by_name(nic.portgroup, standard, distributed_portgroups),
                missing=host_missing(host),
            )
            if nic_fact.switch_kind is None and nic.portgroup is not None:
                # The join's "don't know" is recorded, so a rule reading it is skipped, never passed.
                where = (
                    "on both a standard and a distributed switch"
                    if nic.portgroup in standard and nic.portgroup in distributed_portgroups
                    else "on no switch the snapshot holds"
                )
                nic_fact.missing["switch_kind"] = (
                    f"{host.name} vm:{vm.name} {nic.label}: switch kind unknown (its backing, vSphere "
                    f"VirtualEthernetCard.backing, was not read and port group {nic.portgroup} is {where})"
                )
            facts.vm_nics.append(nic_fact)


def _kind_by_name(portgroup: str | None, standard: set[str], distributed: set[str]) -> str | None:
    """For snapshots without the NIC's backing: the kind its port group's name says, None when the
    name is on both kinds of switch (a guess could call a distributed port group standard)."""
    kinds = {kind for kind, names in (("standard", standard), ("distributed", distributed)) if portgroup in names}
    return kinds.pop() if len(kinds) == 1 else None
