"""Where each collected fact comes from, per platform: what a skip names when the fact is unknown.

A fact the source did not show is None in the snapshot; the join turns it into a
reason in `fact.missing[field]` ("cat-a Te1/1/3: MTU not shown by `show interfaces`"),
which the rule engine reports when a rule reads that field (hostlint.rules.engine).
"""

from __future__ import annotations

from hostlint import platforms as registry

# What each switch fact is called in a message, and which part of the collection shows it (each
# switch platform names the command that shows each part: hostlint.platforms).
_SWITCH_FIELDS: dict[str, tuple[str, str]] = {
    "mtu": ("MTU", "interfaces"),
    "status": ("status", "interfaces"),
    "speed": ("speed", "interfaces"),
    "duplex": ("duplex", "interfaces"),
    "channel_mode": ("mode", "channel_mode"),
    "channel_mtu": ("MTU", "interfaces"),
    "channel_status": ("status", "interfaces"),
    "member_state": ("member state", "member_state"),
    "peer_link": ("peer link state", "peer_link"),
    "vlan_mode": ("switchport mode", "config"),
    "allowed_vlans": ("trunk allowed VLANs", "config"),
    "native_vlan": ("native VLAN", "config"),
    "access_vlan": ("access VLAN", "config"),
}

# ESXi facts: the vSphere API property that holds each one.
ESXI_PROPERTIES: dict[str, str] = {
    "link_up": "PhysicalNic.linkSpeed",
    "speed_mbps": "PhysicalNic.linkSpeed.speedMb",
    "duplex": "PhysicalNic.linkSpeed.duplex",
    "mtu": "HostVirtualSwitch.mtu",
    "policy": "HostNicTeamingPolicy.policy",
    "failure_detection": "HostNicFailureCriteria.checkBeacon",
    "max_mtu": "VMwareDVSConfigInfo.maxMtu",
    "proxy_mtu": "HostProxySwitch.mtu",
    "lag_mode": "VMwareDvsLacpGroupConfig.mode",
    "lag_hash": "VMwareDvsLacpGroupConfig.loadbalanceAlgorithm",
    "lag_uplink_count": "VMwareDvsLacpGroupConfig.uplinkNum",
    "vmk_mtu": "HostVirtualNicSpec.mtu",
    "vcpus": "VirtualHardware.numCPU",
    "cpu_hot_add": "VirtualMachineConfigInfo.cpuHotAddEnabled",
    "nic_model": "VirtualEthernetCard (device type)",
    "vlan": "HostPortGroupSpec.vlanId",
    "dvs_vlan": "VMwareDVSPortSetting.vlan",
}

# KVM facts: the file (or command) on the host that holds each one.
KVM_FILES: dict[str, str] = {
    "mtu": "/sys/class/net/IFACE/mtu",
    "link_up": "/proc/net/bonding/BOND (MII Status)",
    "operstate": "/sys/class/net/IFACE/operstate",
    "speed": "/sys/class/net/IFACE/speed",
    "duplex": "/sys/class/net/IFACE/duplex",
    "bond_mode": "/proc/net/bonding/BOND (Bonding Mode)",
    "ovs_bond_mode": "`ovs-appctl bond/show` for BOND",
    "ovs_lacp_partner": "`ovs-appctl lacp/show` for BOND",
    "lacp_partner": "/proc/net/bonding/BOND (802.3ad partner)",
    "ovs_port_vlan": "`ovs-vsctl list Port`",
    "nic_model": "libvirt domain XML <model type=...>",
}


def switch_source(platform: str | None, fact: str) -> str:
    """The command that shows `fact` on `platform` (`show interfaces`), or a generic phrase."""
    part = _SWITCH_FIELDS[fact][1]
    switch = registry.find_switch(platform)
    command = switch.sources.get(part) if switch else None
    return f"`{command}`" if command else "the switch's output"


def switch_unknown(switch: str, platform: str | None, obj: str, fact: str) -> str:
    """`cat-a Te1/1/3: MTU not shown by `show interfaces``: why a switch fact is unknown."""
    label = _SWITCH_FIELDS[fact][0]
    return f"{switch} {obj}: {label} not shown by {switch_source(platform, fact)}"


def esxi_unknown(host: str, obj: str, fact: str) -> str:
    """Why an ESXi fact is unknown, naming the vSphere property that was not read."""
    return f"{host} {obj}: {fact.replace('_', ' ')} unknown (vSphere {ESXI_PROPERTIES.get(fact, fact)} not read)"


def kvm_unknown(host: str, obj: str, fact: str, bond: str | None = None) -> str:
    """Why a KVM fact is unknown, naming the host file that was not read (a member's: its `bond`'s file)."""
    source = KVM_FILES.get(fact, fact).replace("IFACE", obj).replace("BOND", bond or obj)
    return f"{host} {obj}: {fact.replace('_', ' ')} unknown ({source} not read)"
