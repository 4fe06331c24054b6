"""guest-nic-model: its expander and simulated applier; its templates and rollback are in action.yaml."""

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


def guest_nic_model(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    nic: GuestNicFact = require(fact, GuestNicFact)
    model = params.get("model", "virtio")
    if nic.model == model:
        return []
    mac = _mac(nic)
    notes = [
        f"install the {model} drivers in {nic.domain} first (Windows: virtio-win): without them it has no network",
        "the guest sees a new NIC: its interface name may change, so its network configuration must match the MAC",
    ]
    return [
        Change(
            action="guest-nic-model",
            device=nic.host,
            platforms=GUEST_PLATFORMS,
            target=f"{nic.domain}/{mac}",
            values={"domain": nic.domain, "mac": mac},
            after=model,
            before=nic.model,
            notes=notes,
        )
    ]


def _guest_nic_model(snapshot: Snapshot, change: Change) -> None:
    host = _kvm_host(snapshot, change.device)
    _domain_interface(host, change.values["domain"], change.values["mac"]).model = change.after


EXPAND: Expander = guest_nic_model
APPLY: Applier = _guest_nic_model
