"""vmk-mtu: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import HOST_PLATFORMS, Applier, Expander
from hostlint.fixes.apply import ApplyError, _host
from hostlint.fixes.facts import require
from hostlint.fixes.host_steps import _esxi_mtu
from hostlint.fixes.site import Site
from hostlint.fixes.steps import Change
from hostlint.join.facts import Fact, VmkFact
from hostlint.snapshot import Snapshot


def vmk_mtu(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    vmk: VmkFact = require(fact, VmkFact)
    mtu = _esxi_mtu(int(params["mtu"]), vmk.object)
    notes = []
    if vmk.vswitch_mtu is not None and vmk.vswitch_mtu < mtu:
        notes.append(f"{vmk.vswitch} has MTU {vmk.vswitch_mtu} in the snapshot: raise it before this step")
    # The probe leaves through the vmk's own TCP/IP stack (vMotion, provisioning): without -S it fails there.
    values = {
        "vmk": vmk.name,
        "netstack": vmk.netstack,
        "peer": site.vmk_peer(vmk),
        "subnet": f"{vmk.ip}/{vmk.prefix}",
    }
    return [
        Change(
            action="vmk-mtu",
            device=vmk.host,
            platforms=HOST_PLATFORMS,
            target=vmk.name,
            values=values,
            after=mtu,
            before=vmk.mtu,
            notes=notes,
        )
    ]


def _vmk_mtu(snapshot: Snapshot, change: Change) -> None:
    host = _host(snapshot, change.device)
    vmk = next((v for v in host.vmks if v.name == change.target), None)
    if vmk is None:
        raise ApplyError(f"no {change.target} on {host.name}")
    vmk.mtu = int(change.after)


EXPAND: Expander = vmk_mtu
APPLY: Applier = _vmk_mtu
