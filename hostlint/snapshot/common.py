"""Types shared by the ESXi, KVM and switch parts of a snapshot."""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable
from typing import Annotated, Literal, TypeVar, cast, dataclass_transform, get_args

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, StrictInt
from pydantic.dataclasses import dataclass

from hostlint.fieldsets import SharedFieldsSet
from hostlint.strict import Strict

Duplex = Literal["full", "half"]
DUPLEXES: tuple[Duplex, ...] = get_args(Duplex)
ConnectionState = Literal["connected", "disconnected", "notResponding", "unreachable"]
# What kind of source a collection error names.
CollectionKind = Literal["esxi", "kvm", "switch", "vcenter"]

# Characters no name or text field may hold: they end lines in scripts and reports (C0 controls with
# NUL, DEL, C1 controls, U+2028/U+2029) or reorder what a reader sees (bidirectional overrides).
_FORBIDDEN_CATEGORIES = {"Cc", "Zl", "Zp"}
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def control_character(value: str, allow_tab: bool = True) -> int | None:
    """The offset of the first character no one-line name or text may hold, or None."""
    if value.isprintable():  # the common case, decided in C
        return None
    for offset, char in enumerate(value):
        if char == "\t" and allow_tab:
            continue
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES or char in _BIDI_CONTROLS:
            return offset
    return None


def _one_line(allow_tab: bool) -> Callable[[str], str]:
    def check(value: str) -> str:
        offset = control_character(value, allow_tab)
        if offset is not None:
            raise ValueError(f"control character U+{ord(value[offset]):04X} at position {offset}")
        return value

    return check


# A name of a device or an object on it (host, switch, port, vmnic, vmk, port group, bond, domain...):
# the longest any platform allows is 255 (DNS names, vSphere object names are 80, Linux IFNAMSIZ 15).
Name = Annotated[str, Field(min_length=1, max_length=255), AfterValidator(_one_line(allow_tab=False))]
TEXT_LIMIT = 4096
_ESCAPES = {"\n": "\\n", "\r": "\\r"}


def escape_controls(value: str) -> str:
    """`value` with every character no one-line text may hold written as an escape (`\\n`, `\\x1b`,
    `\\u202e`), cut to TEXT_LIMIT characters. Backslashes are left alone, so escaping twice changes
    nothing: a snapshot written and read again holds the same text."""
    if value.isprintable() and len(value) <= TEXT_LIMIT:
        return value
    if control_character(value) is not None:
        value = "".join(
            _ESCAPES.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
            if char != "\t" and (unicodedata.category(char) in _FORBIDDEN_CATEGORIES or char in _BIDI_CONTROLS)
            else char
            for char in value
        )
    return value if len(value) <= TEXT_LIMIT else value[: TEXT_LIMIT - 3] + "..."


def _escaped(value: object) -> object:
    return escape_controls(value) if isinstance(value, str) else value


# Free text a device reports (port descriptions, versions, models, LLDP/CDP text, hash names) or a
# reason hostlint wrote: data, never a reason to refuse a host. Control characters (a multi-line LLDP
# System Description) are kept escaped, on one line (tabs allowed); longer text is cut at 4096.
Text = Annotated[str, BeforeValidator(_escaped), Field(max_length=TEXT_LIMIT)]


def _as_one_line(value: object) -> object:
    if not isinstance(value, str) or (value.isprintable() and len(value) <= 4096):
        return value
    breaking = _FORBIDDEN_CATEGORIES
    spaced = "".join(" " if unicodedata.category(c) in breaking or c in _BIDI_CONTROLS else c for c in value)
    flat = " ".join(spaced.split())
    return flat if len(flat) <= 4096 else flat[:4093] + "..."


# A reason hostlint writes from what a library raised (exception text may span lines): kept, on one line.
Reason = Annotated[str, BeforeValidator(_as_one_line)]

# MTU is the largest IP packet an interface passes (bytes). 68 is the smallest IPv4 allows (RFC 791).
# ESXi: standard and distributed switches and VMkernel ports accept at most 9000 (vSphere Networking,
# "Enabling Jumbo Frames"; Broadcom KB 419088).
EsxiMtu = Annotated[StrictInt, Field(ge=68, le=9000)]
# Linux: ETH_MAX_MTU is 65535 and the loopback device runs at 65536 (include/uapi/linux/if_ether.h,
# drivers/net/loopback.c); most NICs stop at 9000-9710.
LinuxMtu = Annotated[StrictInt, Field(ge=68, le=65536)]
# Switches: the vendors' maxima. NX-OS `mtu` 9216 (Nexus 9000 Interfaces Configuration Guide); EOS
# `mtu` 9214 (EOS User Manual, Ethernet ports); IOS-XE `system mtu` 9198, 9216 on Catalyst 9500
# High Performance / 9500X (Catalyst 9500 "Configuring System MTU"); Junos EX/QFX interface `mtu`
# 9216 (media MTU; 9192 on older EX); Comware `jumboframe enable` frames up to 10000 (IP 9982); VRP
# CloudEngine `jumboframe enable` frames up to 12288 (IP 12266 in a tagged frame). hostlint stores the IP
# MTU, never above the media MTU. The ceiling is the largest any platform allows (each folder's `mtu.py`
# `MTU.largest`, tests/test_schema_mtu.py); the snapshot's Switch holds each platform to its own.
SWITCH_MTU_CEILING = 12266
SwitchMtu = Annotated[StrictInt, Field(ge=68, le=SWITCH_MTU_CEILING)]
# 802.1Q VLAN ids are 12 bits: 0 is "untagged" on an ESXi port group and 4095 "all VLANs" (VGT).
VlanId = Annotated[StrictInt, Field(ge=0, le=4095)]
# A VLAN id on a switch trunk (0 and 4095 are reserved by 802.1Q).
TrunkVlanId = Annotated[StrictInt, Field(ge=1, le=4094)]


def _ordered(pair: tuple[int, int]) -> tuple[int, int]:
    if pair[0] > pair[1]:
        raise ValueError(f"VLAN range {pair[0]}-{pair[1]} runs backwards")
    return pair


# An inclusive range of VLAN ids, `[20, 30]`; a set of VLANs is a sorted list of merged ranges
# (hostlint.vlans), `[]` being no VLAN at all.
VlanRange = Annotated[tuple[TrunkVlanId, TrunkVlanId], AfterValidator(_ordered)]
# Link speeds in Mb/s: IEEE 802.3 tops out at 1.6 Tb/s (802.3dj).
SpeedMbps = Annotated[StrictInt, Field(ge=0, le=1_600_000)]
# A vSphere LAG has at most 32 ports; an IPv4 or IPv6 prefix length at most 128 bits.
LagPorts = Annotated[StrictInt, Field(ge=1, le=32)]
PrefixLength = Annotated[StrictInt, Field(ge=0, le=128)]
# PCIe: up to x32 lanes, up to 64 GT/s (PCIe 6.0) with room for 7.0's 128.
PcieWidth = Annotated[StrictInt, Field(ge=0, le=32)]
PcieSpeedGts = Annotated[float, Field(ge=0, le=128)]


class Model(Strict, SharedFieldsSet):
    """Base for every snapshot model: unknown fields are errors, not silently dropped. A snapshot has
    100,000 of them at 10,000 hosts: they share one set of field names per class (hostlint.fieldsets)."""

    model_config = ConfigDict(populate_by_name=True)


_Leaf = TypeVar("_Leaf")


@dataclass_transform(field_specifiers=(dataclasses.field, Field))
def leaf(cls: type[_Leaf]) -> type[_Leaf]:
    """The small, numerous parts of a snapshot (NICs, ports, port groups, VMs) as slotted pydantic
    dataclasses: the same validation (unknown fields are errors) at a sixth of a model's memory,
    which is what keeps a 10,000-host site under 1 GiB.
    """
    # pydantic types the result as its PydanticDataclass protocol; it is the same class, validated.
    return cast("type[_Leaf]", dataclass(slots=True, config=Strict.model_config)(cls))


@leaf
class Neighbour:
    """What CDP or LLDP says is at the other end of a link."""

    protocol: Literal["cdp", "lldp"]
    device_id: Name
    # Empty when the neighbour sent none (CDP entries with an empty `Port ID`).
    port_id: Text
    # LLDP port description: Junos sends the ifIndex as port ID and the interface name here.
    port_description: Text | None = None
    system_name: Name | None = None
    mgmt_address: Text | None = None
    platform: Text | None = None


@leaf
class PciLink:
    """A PCI device with its capable (LnkCap) and negotiated (LnkSta) PCIe link."""

    address: Name
    vendor: Text | None = None
    device: Text | None = None
    device_class: Text | None = None
    nic: Name | None = None
    width_capable: PcieWidth | None = None
    width_negotiated: PcieWidth | None = None
    speed_capable_gts: PcieSpeedGts | None = None
    speed_negotiated_gts: PcieSpeedGts | None = None


class CollectionError(Model):
    """A target that could not be collected (fully or partly), and why."""

    target: Reason
    kind: CollectionKind
    reason: Reason
