"""libvirt's view of a KVM host: each domain's interfaces and each virtual network.

Read through libvirt-python (the `kvm` extra), from each object's XML::

    <interface type='bridge'>
      <mac address='52:54:00:4f:1a:01'/>
      <source bridge='br0'/>
      <target dev='vnet0'/>
      <model type='virtio'/>
      <driver name='vhost' queues='4'/>
      <mtu size='9000'/>
    </interface>

    <network><name>default</name><forward mode='nat'/><bridge name='virbr0'/><mtu size='1500'/></network>
"""

from __future__ import annotations

import os
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hostlint.snapshot.kvm import DomainInterface, LibvirtDomain, LibvirtNetwork, SourceType

# virDomainState values, as `virsh domstate` names them.
DOMAIN_STATES = {
    0: "nostate",
    1: "running",
    2: "blocked",
    3: "paused",
    4: "shutdown",
    5: "shutoff",
    6: "crashed",
    7: "pmsuspended",
}
_SOURCE_TYPES: tuple[SourceType, ...] = ("bridge", "network", "direct", "user", "hostdev")
_SOURCE_ATTRIBUTE = {"bridge": "bridge", "network": "network", "direct": "dev"}


class LibvirtError(Exception):
    """libvirt cannot be used: the library is missing or the connection failed; the message says which."""


def load_libvirt() -> Any:
    try:
        import libvirt
    except ImportError as exc:
        raise LibvirtError(
            "libvirt-python is not installed (pip install 'hostlint[kvm]'; it builds against libvirt-dev)"
        ) from exc
    return libvirt


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """libvirt's C libraries (libxml2) write warnings straight to fd 2; the libvirtError says it better."""
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _int(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def _pci_address(source: ET.Element | None) -> str | None:
    """`0000:3b:10.2` from a hostdev's `<source><address type='pci' domain='0x0000' bus='0x3b' slot='0x10'
    function='0x2'/></source>` (libvirt's domain XML, "PCI passthrough"), the form sysfs names it by."""
    address = source.find("address") if source is not None else None
    if address is None or address.get("type", "pci") != "pci":
        return None
    try:
        parts = [int(address.get(key, "0"), 0) for key in ("domain", "bus", "slot", "function")]
    except ValueError:
        return None
    domain, bus, slot, function = parts
    return f"{domain:04x}:{bus:02x}:{slot:02x}.{function:x}"


def parse_interface(element: ET.Element) -> DomainInterface:
    kind = element.get("type", "other")
    source_type: SourceType = kind if kind in _SOURCE_TYPES else "other"
    source = element.find("source")
    attribute = _SOURCE_ATTRIBUTE.get(kind)
    model = element.find("model")
    driver = element.find("driver")
    mtu = element.find("mtu")
    mac = element.find("mac")
    target = element.find("target")
    if model is not None:
        model_type: str | None = model.get("type", "default")
    else:
        # With no <model>, the hypervisor picks its machine type's default NIC; a hostdev NIC has none to
        # pick: the guest sees the passed-through function's own hardware (unknown here, never "emulated").
        model_type = None if kind == "hostdev" else "default"
    return DomainInterface(
        mac=mac.get("address") if mac is not None else None,
        model=model_type,
        source_type=source_type,
        source=_pci_address(source)
        if kind == "hostdev"
        else source.get(attribute)
        if source is not None and attribute
        else None,
        mtu=_int(mtu.get("size")) if mtu is not None else None,
        driver=driver.get("name") if driver is not None else None,
        queues=_int(driver.get("queues")) if driver is not None else None,
        target=target.get("dev") if target is not None else None,
    )


def parse_domain(xml: str, state: str = "running") -> LibvirtDomain:
    root = ET.fromstring(xml)
    return LibvirtDomain(
        name=root.findtext("name", default="?"),
        state=state,
        interfaces=[parse_interface(e) for e in root.findall("./devices/interface")],
    )


def parse_network(xml: str) -> LibvirtNetwork:
    root = ET.fromstring(xml)
    forward, bridge, mtu = root.find("forward"), root.find("bridge"), root.find("mtu")
    return LibvirtNetwork(
        name=root.findtext("name", default="?"),
        # A network without <forward> is isolated.
        forward_mode=forward.get("mode", "nat") if forward is not None else "isolated",
        bridge=bridge.get("name") if bridge is not None else None,
        mtu=_int(mtu.get("size")) if mtu is not None else None,
    )


def read_libvirt(uri: str) -> tuple[list[LibvirtDomain], list[LibvirtNetwork]]:
    """All domains (running or not) and all networks libvirt at `uri` knows."""
    libvirt = load_libvirt()
    libvirt.registerErrorHandler(lambda _ctx, _err: None, None)
    try:
        with quiet_stderr():
            conn = libvirt.openReadOnly(uri)
    except libvirt.libvirtError as exc:
        raise LibvirtError(f"libvirt {uri}: {exc.get_error_message() or exc}") from exc
    try:
        domains = [
            parse_domain(d.XMLDesc(0), DOMAIN_STATES.get(d.state()[0], "nostate")) for d in conn.listAllDomains()
        ]
        networks = [parse_network(n.XMLDesc(0)) for n in conn.listAllNetworks()]
    except libvirt.libvirtError as exc:
        raise LibvirtError(f"libvirt {uri}: {exc.get_error_message() or exc}") from exc
    except ET.ParseError as exc:
        raise LibvirtError(f"libvirt {uri}: XML not read: {exc}") from exc
    finally:
        conn.close()
    return sorted(domains, key=lambda d: d.name), sorted(networks, key=lambda n: n.name)
