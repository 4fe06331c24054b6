"""A snapshot as inventory tables, one per object type (the tabs VMware admins know from RVTools),
plus what hostlint adds: the switch port at the other end of every physical NIC (from the join).

Every cell is what the snapshot holds; a fact the collector did not read is None, exported as an
empty cell, never a default.
"""

from __future__ import annotations

from hostlint.export.sheet import Sheet, joined
from hostlint.join.facts import UplinkFact
from hostlint.join.switches import SwitchIndex
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import Teaming

_TEAMING = ("Teaming policy", "Active uplinks", "Standby uplinks", "Unused uplinks", "Failure detection")
_SWITCH_END = (
    "Found via",
    "Switch",
    "Switch port",
    "Port status",
    "Port speed Mb/s",
    "Port duplex",
    "Port MTU",
    "Port-channel",
    "Member state",
    "Switch end unknown because",
)


def _teaming(teaming: Teaming | None) -> tuple[str | None, ...]:
    if teaming is None:
        return (None,) * len(_TEAMING)
    return (
        teaming.policy,
        joined(teaming.active),
        joined(teaming.standby),
        joined(teaming.unused),
        teaming.failure_detection,
    )


def _switch_end(
    index: SwitchIndex, host: str, host_kind: str, nic: str, neighbour: Neighbour | None
) -> tuple[str | int | None, ...]:
    uplink = UplinkFact(object=f"{host}/{nic}", host=host, host_kind=host_kind, nic=nic)
    index.resolve(uplink, neighbour)
    return (
        uplink.via,
        uplink.switch,
        uplink.port,
        uplink.port_status,
        uplink.port_speed_mbps,
        uplink.port_duplex,
        uplink.port_mtu,
        uplink.port_channel,
        uplink.member_state,
        uplink.missing.get("switch"),
    )


def _neighbour(neighbour: Neighbour | None) -> tuple[str | None, str | None]:
    if neighbour is None:
        return None, None
    return neighbour.system_name or neighbour.device_id, neighbour.port_id or None


def _vswitches(snapshot: Snapshot) -> Sheet:
    sheet = Sheet("vSwitches", "vswitches", ("Host", "vSwitch", "MTU", "Uplinks", *_TEAMING, "Discovery protocol"))
    for host in snapshot.esxi_hosts:
        for vswitch in host.vswitches:
            sheet.add(
                host.name,
                vswitch.name,
                vswitch.mtu,
                joined(vswitch.uplinks),
                *_teaming(vswitch.teaming),
                vswitch.discovery.protocol if vswitch.discovery else None,
            )
    return sheet


def _portgroups(snapshot: Snapshot) -> Sheet:
    sheet = Sheet("Port groups", "portgroups", ("Host", "Port group", "vSwitch", "VLAN", "Teaming override", *_TEAMING))
    for host in snapshot.esxi_hosts:
        vswitches = {v.name: v for v in host.vswitches}
        for pg in host.portgroups:
            # The effective policy: the port group's own, or the one it inherits from its vSwitch.
            parent = vswitches.get(pg.vswitch)
            effective = pg.teaming or (parent.teaming if parent else None)
            sheet.add(host.name, pg.name, pg.vswitch, pg.vlan, pg.teaming is not None, *_teaming(effective))
    return sheet


def _vmks(snapshot: Snapshot) -> Sheet:
    sheet = Sheet(
        "VMkernel ports",
        "vmks",
        (
            "Host",
            "vmk",
            "Port group",
            "vSwitch",
            "Distributed switch",
            "MTU",
            "IP",
            "Prefix",
            "MAC",
            "Services",
            "TCP/IP stack",
        ),
    )
    for host in snapshot.esxi_hosts:
        for vmk in host.vmks:
            sheet.add(
                host.name,
                vmk.name,
                vmk.portgroup,
                vmk.vswitch,
                vmk.dvswitch,
                vmk.mtu,
                vmk.ip,
                vmk.prefix,
                vmk.mac,
                joined(vmk.services),
                vmk.netstack,
            )
    return sheet


def _esxi_users(snapshot: Snapshot) -> dict[tuple[str, str], list[str]]:
    """Which virtual switches each (host, pNIC) is an uplink of, built once for the site."""
    users: dict[tuple[str, str], list[str]] = {}
    for esxi in snapshot.esxi_hosts:
        for vswitch in esxi.vswitches:
            for nic in vswitch.uplinks:
                users.setdefault((esxi.name, nic), []).append(vswitch.name)
    for dvs in snapshot.distributed_switches:
        for member in dvs.hosts:
            for nic in member.uplinks.values():
                users.setdefault((member.host, nic), []).append(dvs.name)
    return users


def _pnics(snapshot: Snapshot, index: SwitchIndex) -> Sheet:
    sheet = Sheet(
        "Physical NICs",
        "pnics",
        (
            "Host",
            "Host kind",
            "NIC",
            "Used by",
            "Driver",
            "MAC",
            "PCI",
            "Link",
            "Speed Mb/s",
            "Duplex",
            "Configured speed Mb/s",
            "Configured duplex",
            "MTU",
            "Neighbour",
            "Neighbour port",
            *_SWITCH_END,
        ),
    )
    users = _esxi_users(snapshot)
    for host in snapshot.esxi_hosts:
        for pnic in host.pnics:
            link = None if pnic.link_up is None else ("up" if pnic.link_up else "down")
            sheet.add(
                host.name,
                "esxi",
                pnic.name,
                joined(users.get((host.name, pnic.name))),
                pnic.driver,
                pnic.mac,
                pnic.pci,
                link,
                pnic.speed_mbps,
                pnic.duplex,
                pnic.configured_speed_mbps,
                pnic.configured_duplex,
                None,  # vSphere has no MTU of its own on a pNIC: its vSwitch's MTU is pushed onto it
                *_neighbour(pnic.neighbour),
                *_switch_end(index, host.name, "esxi", pnic.name, pnic.neighbour),
            )
    for kvm in snapshot.kvm_hosts:
        for interface in kvm.interfaces:
            if interface.kind != "physical":
                continue
            sheet.add(
                kvm.name,
                "kvm",
                interface.name,
                interface.master,
                None,  # the driver is not collected on KVM hosts
                interface.mac,
                interface.pci,
                interface.operstate,
                interface.speed_mbps,
                interface.duplex,
                None,
                None,
                interface.mtu,
                *_neighbour(interface.neighbour),
                *_switch_end(index, kvm.name, "kvm", interface.name, interface.neighbour),
            )
    return sheet


def _port_channels(snapshot: Snapshot) -> Sheet:
    sheet = Sheet(
        "Port-channels",
        "port_channels",
        ("Switch", "Port-channel", "Mode", "Members", "Status", "MTU", "Hash", "Switch hash", "Multi-chassis id"),
    )
    for switch in snapshot.switches:
        global_hash = switch.load_balance.hash if switch.load_balance else None
        for channel in switch.port_channels:
            sheet.add(
                switch.name,
                channel.name,
                channel.mode,
                joined(channel.members),
                channel.status,
                channel.mtu,
                channel.load_balance,
                global_hash,
                channel.multichassis_id,
            )
    return sheet


def _bonds(snapshot: Snapshot) -> Sheet:
    sheet = Sheet(
        "KVM bonds",
        "kvm_bonds",
        (
            "Host",
            "Bond",
            "Implementation",
            "Mode",
            "Transmit hash",
            "LACP rate",
            "MII monitor ms",
            "MTU",
            "Members",
            "Members up",
            "Active aggregator",
            "Partner MAC",
        ),
    )
    for kvm in snapshot.kvm_hosts:
        mtus = {i.name: i.mtu for i in kvm.interfaces}
        for bond in kvm.bonds:
            up = [m.name for m in bond.members if m.link_up]
            # Members up is unknown when any member's link state is unknown.
            members_up = None if any(m.link_up is None for m in bond.members) else joined(up)
            sheet.add(
                kvm.name,
                bond.name,
                bond.implementation,
                bond.mode,
                bond.xmit_hash_policy,
                bond.lacp_rate,
                bond.miimon,
                mtus.get(bond.name),
                joined(m.name for m in bond.members),
                members_up,
                bond.active_aggregator_id,
                bond.partner_mac,
            )
    return sheet


def _distributed(snapshot: Snapshot) -> list[Sheet]:
    switches = Sheet(
        "Distributed switches", "dvswitches", ("Distributed switch", "Max MTU", "LACP API", "Hosts", "Discovery")
    )
    portgroups = Sheet("DV port groups", "dvportgroups", ("Distributed switch", "Port group", "VLAN", "LAG", *_TEAMING))
    uplinks = Sheet("DVS uplinks", "dvs_uplinks", ("Distributed switch", "Host", "Uplink", "NIC", "Host proxy MTU"))
    lags = Sheet("DVS LAGs", "dvs_lags", ("Distributed switch", "LAG", "Mode", "Hash", "Ports"))
    for dvs in snapshot.distributed_switches:
        switches.add(
            dvs.name,
            dvs.max_mtu,
            dvs.lacp_api_version,
            joined(m.host for m in dvs.hosts),
            dvs.discovery.protocol if dvs.discovery else None,
        )
        for pg in dvs.portgroups:
            portgroups.add(dvs.name, pg.name, pg.vlan, pg.uplink_lag, *_teaming(pg.teaming))
        for member in dvs.hosts:
            for uplink, nic in member.uplinks.items():
                uplinks.add(dvs.name, member.host, uplink, nic, member.mtu)
        for lag in dvs.lags:
            lags.add(dvs.name, lag.name, lag.mode, lag.load_balance, lag.uplink_count)
    return [switches, portgroups, uplinks, lags]


def _probes(snapshot: Snapshot) -> Sheet:
    """`hostlint probe` evidence, one row per probe: the snapshot's record of what each path carried."""
    sheet = Sheet(
        "Probes",
        "probes",
        (
            *("Source host", "Source", "Netstack", "Target host", "Target", "Target IP", "Size", "MTU"),
            *("Don't fragment", "Purpose", "Via", "Sent", "Received", "Round trip ms", "Error kind", "Error", "At"),
        ),
    )
    for probe in snapshot.probes:
        sheet.add(
            *(probe.source_host, probe.source_vmk, probe.netstack, probe.target_host, probe.target_vmk),
            *(probe.target_ip, probe.size, probe.mtu, probe.dont_fragment, probe.purpose, probe.via),
            *(probe.sent, probe.received, probe.round_trip_ms, probe.error_kind, probe.error),
            probe.at.isoformat() if probe.at is not None else None,
        )
    return sheet


def inventory(snapshot: Snapshot) -> list[Sheet]:
    """Every table, in a fixed order, each present (with its header) even when it has no rows."""
    index = SwitchIndex(snapshot)
    return [
        _vswitches(snapshot),
        _portgroups(snapshot),
        _vmks(snapshot),
        _pnics(snapshot, index),
        _port_channels(snapshot),
        _bonds(snapshot),
        *_distributed(snapshot),
        _probes(snapshot),
    ]
