"""What the KVM guest fix actions (hostlint/fixes/actions/guest_nic_*) share: the interface's MAC.

Bond changes render for NetworkManager (nmcli, persistent) and iproute2 (runtime only); guest
interface changes render for libvirt (virsh / virt-xml) and run on the domain's host.
"""

from __future__ import annotations

import re

from hostlint.fixes.steps import CannotFix
from hostlint.join.facts import GuestNicFact

_MAC = re.compile(r"^[0-9a-f]{2}(:[0-9a-f]{2}){5}$", re.I)


def _mac(nic: GuestNicFact) -> str:
    """The interface's MAC, the last part of its object name; libvirt and virt-xml select it by MAC."""
    mac = nic.object.rsplit("/", 1)[-1]
    if not _MAC.match(mac):
        raise CannotFix(f"{nic.object} has no MAC address in the snapshot: edit the domain with virsh edit by hand")
    return mac.lower()
