"""bond-mode: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import KVM_HOST_PLATFORMS, Applier, Expander
from hostlint.fixes.apply import _bond, _kvm_host, _renegotiate
from hostlint.fixes.facts import require
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import BondFact, Fact
from hostlint.snapshot import Snapshot

# Modes whose transmit hash (xmit_hash_policy) picks the member; the others ignore it.
HASHING_MODES = ("802.3ad", "balance-xor")


LACP_MODES = ("lacp-active", "lacp-passive")


def _options(mode: str, miimon: int, xmit_hash_policy: str | None, lacp_rate: str | None) -> dict[str, Any]:
    """The bond options a mode keeps: the hash only where the mode hashes, the LACP rate only with LACP."""
    options: dict[str, Any] = {"mode": mode, "miimon": miimon}
    if mode in HASHING_MODES:
        options["xmit_hash_policy"] = xmit_hash_policy or "layer2"
    if mode == "802.3ad" and lacp_rate:
        options["lacp_rate"] = lacp_rate
    return options


def bond_mode(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    bond: BondFact = require(fact, BondFact)
    mode = params["mode"]
    if bond.implementation != "linux":
        raise CannotFix(f"{bond.object} is an Open vSwitch bond: set its bond_mode and lacp with ovs-vsctl")
    if bond.policy == mode:
        return []
    if bond.policy is None:
        raise CannotFix(f"{bond.object}: bonding mode not collected, so no rollback can be written; set it by hand")
    collected = site.bond(bond.host, bond.vswitch)
    miimon = collected.miimon if collected is not None and collected.miimon else 100
    before = _options(bond.policy, miimon, bond.xmit_hash_policy, bond.lacp_rate)
    after = _options(mode, miimon, bond.xmit_hash_policy, bond.lacp_rate)
    members = [u.nic for u in bond.uplinks]
    carrier = f"{bond.bridge} and everything on it" if bond.bridge else "everything on it"
    notes = [
        f"{bond.vswitch} is rebuilt: {carrier} loses the network for a few seconds; "
        f"run this from the console or a session that does not ride on {bond.vswitch}"
    ]
    if mode == "802.3ad":
        not_lacp = [f"{u.nic} -> {u.switch} {u.port}" for u in bond.uplinks if u.channel_mode not in LACP_MODES]
        if not_lacp:
            notes.append(f"not in an LACP port-channel yet: {', '.join(not_lacp)}; make the switch side LACP first")
    return [
        Change(
            action="bond-mode",
            device=bond.host,
            platforms=KVM_HOST_PLATFORMS,
            target=bond.vswitch,
            values={"bond": bond.vswitch, "members": members, "options": after, "before_options": before},
            after=mode,
            before=bond.policy,
            notes=notes,
        )
    ]


def _bond_mode(snapshot: Snapshot, change: Change) -> None:
    host = _kvm_host(snapshot, change.device)
    bond = _bond(host, change.values["bond"])
    options = change.values["options"]
    bond.mode = change.after
    bond.xmit_hash_policy = options.get("xmit_hash_policy", bond.xmit_hash_policy)
    bond.lacp_rate = options.get("lacp_rate")
    bond.miimon = options["miimon"]
    _renegotiate(snapshot, lambda fact: fact.host == host.name and fact.vswitch == bond.name)


EXPAND: Expander = bond_mode
APPLY: Applier = _bond_mode
