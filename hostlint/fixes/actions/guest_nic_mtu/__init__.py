"""guest-nic-mtu: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import GUEST_PLATFORMS, Applier, Expander
from hostlint.fixes.apply import _domain_interface, _kvm_host
from hostlint.fixes.facts import require
from hostlint.fixes.kvm_steps import _mac
from hostlint.fixes.site import Site
from hostlint.fixes.steps import Change
from hostlint.join.facts import Fact, GuestNicFact
from hostlint.snapshot import Snapshot


def guest_nic_mtu(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    nic: GuestNicFact = require(fact, GuestNicFact)
    mtu = int(params["mtu"])
    if nic.mtu == mtu:
        return []
    mac = _mac(nic)
    notes = [
        f"libvirt applies the new MTU when {nic.domain} is next started (virsh shutdown, then virsh start; "
        "a reboot inside the guest keeps the old device): until then lower it inside the guest too "
        f"(ip link set dev <its interface> mtu {mtu}, and in the guest's network configuration)"
    ]
    return [
        Change(
            action="guest-nic-mtu",
            device=nic.host,
            platforms=GUEST_PLATFORMS,
            target=f"{nic.domain}/{mac}",
            values={"domain": nic.domain, "mac": mac},
            after=mtu,
            before=nic.mtu,
            notes=notes,
        )
    ]


def _guest_nic_mtu(snapshot: Snapshot, change: Change) -> None:
    host = _kvm_host(snapshot, change.device)
    _domain_interface(host, change.values["domain"], change.values["mac"]).mtu = int(change.after)


EXPAND: Expander = guest_nic_mtu
APPLY: Applier = _guest_nic_mtu
