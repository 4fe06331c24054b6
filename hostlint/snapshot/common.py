"""Types shared by the ESXi, KVM and switch parts of a snapshot."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict
from pydantic.dataclasses import dataclass

Duplex = Literal["full", "half"]
ConnectionState = Literal["connected", "disconnected", "notResponding", "unreachable"]


class Model(BaseModel):
    """Base for every snapshot model: unknown fields are errors, not silently dropped."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


def leaf(cls: type) -> type:
    """The small, numerous parts of a snapshot (NICs, ports, port groups, VMs) as slotted pydantic
    dataclasses: the same validation (unknown fields are errors) at a sixth of a model's memory,
    which is what keeps a 10,000-host site under 1 GiB.
    """
    return dataclass(slots=True, config=ConfigDict(extra="forbid"))(cls)


@leaf
class Neighbour:
    """What CDP or LLDP says is at the other end of a link."""

    protocol: Literal["cdp", "lldp"]
    device_id: str
    port_id: str
    # LLDP port description: Junos sends the ifIndex as port ID and the interface name here.
    port_description: str | None = None
    system_name: str | None = None
    mgmt_address: str | None = None
    platform: str | None = None


@leaf
class PciLink:
    """A PCI device with its capable (LnkCap) and negotiated (LnkSta) PCIe link."""

    address: str
    vendor: str | None = None
    device: str | None = None
    device_class: str | None = None
    nic: str | None = None
    width_capable: int | None = None
    width_negotiated: int | None = None
    speed_capable_gts: float | None = None
    speed_negotiated_gts: float | None = None


class CollectionError(Model):
    """A target that could not be collected (fully or partly), and why."""

    target: str
    kind: Literal["esxi", "kvm", "switch", "vcenter"]
    reason: str
