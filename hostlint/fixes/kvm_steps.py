"""KVM fix actions: from a bond or guest NIC fact and the rule's params to changes on the KVM host.

Bond changes render for NetworkManager (nmcli, persistent) and iproute2 (runtime only); guest
interface changes render for libvirt (virsh / virt-xml) and run on the domain's host.
"""

from __future__ import annotations

import re
from typing import Any

from hostlint.fixes.actions import GUEST_PLATFORMS, KVM_HOST_PLATFORMS
from hostlint.fixes.facts import require
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import BondFact, Fact, GuestNicFact

# Modes whose transmit hash (xmit_hash_policy) picks the member; the others ignore it.
HASHING_MODES = ("802.3ad", "balance-xor")
LACP_MODES = ("lacp-active", "lacp-passive")
_MAC = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$", re.I)


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


def _mac(nic: GuestNicFact) -> str:
    """The interface's MAC, the last part of its object name; libvirt and virt-xml select it by MAC."""
    mac = nic.object.rsplit("/", 1)[-1]
    if not _MAC.match(mac):
        raise CannotFix(f"{nic.object} has no MAC address in the snapshot: edit the domain with virsh edit by hand")
    return mac.lower()


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
