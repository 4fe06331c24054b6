"""PCIe link capability and status from `lspci -vv` (pciutils format), for any collector.

One block per PCI function: a header line at column 0, then tab-indented fields.
The Express capability carries the two lines read here (samples: fixtures/esxi/)::

    0000:3b:00.0 Ethernet controller: Intel Corporation Ethernet Controller X710 for 10GbE SFP+ (rev 02)
        Subsystem: Intel Corporation Ethernet Converged Network Adapter X710-2
        Capabilities: [a0] Express (v2) Endpoint, MSI 00
            LnkCap:    Port #0, Speed 8GT/s, Width x8, ASPM L1, Exit Latency L1 <16us
            LnkSta:    Speed 8GT/s (ok), Width x4 (downgraded)

The domain (`0000:`) is printed by `lspci -D` and on multi-domain machines; without it the
address is in domain 0000. Older pciutils print `Speed 5GT/s, Width x4` without the
`(ok)` / `(downgraded)` notes. A device without an Express capability (conventional PCI)
has no link lines; without root, Linux prints `Capabilities: <access denied>`.

Text copied from a terminal may come with tabs expanded and long lines wrapped hard at the
terminal width: a line that is neither a header nor indented by a tab or 8 spaces continues
the line before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hostlint.snapshot.common import PciLink

_HEADER = re.compile(
    r"^(?:(?P<domain>[0-9a-fA-F]{4}):)?(?P<bus>[0-9a-fA-F]{2}):(?P<slot>[0-9a-fA-F]{2})\.(?P<function>[0-7])"
    r"\s+(?P<rest>.*)$"
)
_ADDRESS = re.compile(r"^(?:([0-9a-fA-F]{4}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])$")
_GTS = re.compile(r"(\d+(?:\.\d+)?)\s*GT/s")
_LINK_SPEED = re.compile(r"Speed\s*(?P<value>unknown|\d+(?:\.\d+)?\s*GT/s)")
_LINK_WIDTH = re.compile(r"Width\s*x(?P<value>\d+)")
_FIELD = re.compile(r"^\s*(?P<name>LnkCap|LnkSta):\s*(?P<value>.*)$")
# Widths and rates the PCIe specification defines (x12 and x32 exist on paper).
WIDTHS = frozenset({1, 2, 4, 8, 12, 16, 32})
SPEEDS_GTS = frozenset({2.5, 5.0, 8.0, 16.0, 32.0, 64.0})


def parse_gts(text: str | None) -> float | None:
    """`8GT/s`, `8.0 GT/s PCIe` (sysfs), `2.5GT/s` -> GT/s as a float; None when there is none."""
    match = _GTS.search(text or "")
    return float(match.group(1)) if match else None


def normalise_pci_address(address: str) -> str | None:
    """`3b:00.0`, `0000:3B:00.0` -> `0000:3b:00.0`; None when it is not a PCI address."""
    match = _ADDRESS.match(address.strip())
    if match is None:
        return None
    domain, bus, slot, function = match.groups()
    return f"{(domain or '0000').lower()}:{bus.lower()}:{slot.lower()}.{function}"


@dataclass(frozen=True)
class LspciWarning:
    """Something `lspci -vv` printed that could not be read; `address` None when about the whole output."""

    address: str | None
    text: str

    def __str__(self) -> str:
        return f"{self.address}: {self.text}" if self.address else self.text


@dataclass
class LspciDevices:
    """Every function `lspci -vv` printed, by normalised address, and what could not be read."""

    devices: dict[str, PciLink] = field(default_factory=dict)
    warnings: list[LspciWarning] = field(default_factory=list)

    def warnings_for(self, address: str) -> list[LspciWarning]:
        return [warning for warning in self.warnings if warning.address == address]


@dataclass
class _Block:
    address: str
    header: str
    lines: list[str] = field(default_factory=list)


def _logical_lines(text: str) -> list[str]:
    """Physical lines with terminal-wrapped pieces joined back onto the line they belong to."""
    lines: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        continuation = line and lines and lines[-1] and not _HEADER.match(line) and not line.startswith(("\t", " " * 8))
        if continuation:
            lines[-1] += line
        else:
            lines.append(line)
    return lines


def _blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    for line in _logical_lines(text):
        header = _HEADER.match(line)
        if header:
            address = normalise_pci_address(line.split(None, 1)[0])
            if address is not None:
                blocks.append(_Block(address=address, header=header.group("rest").strip()))
                continue
        if blocks and line.strip():
            blocks[-1].lines.append(line.strip())
    return blocks


def _link(value: str, address: str, name: str, warnings: list[LspciWarning]) -> tuple[int | None, float | None]:
    """(width, GT/s) of one LnkCap / LnkSta value; a warning for what is missing or out of range."""
    speed_match, width_match = _LINK_SPEED.search(value), _LINK_WIDTH.search(value)
    speed = parse_gts(speed_match.group("value")) if speed_match else None
    width = int(width_match.group("value")) if width_match else None
    if speed_match is None or width_match is None:
        warnings.append(LspciWarning(address, f"{name} incomplete: {value.strip()!r} (output cut off?)"))
        return (width if width in WIDTHS else None), (speed if speed in SPEEDS_GTS else None)
    if speed_match.group("value") == "unknown" or width == 0:
        warnings.append(LspciWarning(address, f"{name} reports no trained link: {value.strip()!r}"))
        return None, None
    if width not in WIDTHS or speed not in SPEEDS_GTS:
        warnings.append(LspciWarning(address, f"{name} width x{width} at {speed} GT/s is not a PCIe link"))
        return None, None
    return width, speed


def _device(block: _Block, warnings: list[LspciWarning]) -> PciLink:
    device_class, _, description = block.header.partition(": ")
    fields: dict[str, str] = {}
    for line in block.lines:
        match = _FIELD.match(line)
        if match:
            fields.setdefault(match.group("name"), match.group("value"))
    if "<access denied>" in " ".join(block.lines):
        warnings.append(LspciWarning(block.address, "capabilities not readable (lspci must run as root)"))
    width_capable = speed_capable = width_negotiated = speed_negotiated = None
    if "LnkCap" in fields:
        width_capable, speed_capable = _link(fields["LnkCap"], block.address, "LnkCap", warnings)
    if "LnkSta" in fields:
        width_negotiated, speed_negotiated = _link(fields["LnkSta"], block.address, "LnkSta", warnings)
    if ("LnkCap" in fields) != ("LnkSta" in fields):
        present, absent = ("LnkCap", "LnkSta") if "LnkCap" in fields else ("LnkSta", "LnkCap")
        warnings.append(LspciWarning(block.address, f"{present} without {absent} (output cut off?)"))
    return PciLink(
        address=block.address,
        device=description.strip() or None,
        device_class=device_class.strip() or None,
        width_capable=width_capable,
        width_negotiated=width_negotiated,
        speed_capable_gts=speed_capable,
        speed_negotiated_gts=speed_negotiated,
    )


def parse_lspci(text: str) -> LspciDevices:
    """`lspci -vv` output -> devices with their PCIe links; never raises, warns about what it cannot read."""
    parsed = LspciDevices()
    for block in _blocks(text):
        if block.address in parsed.devices:
            parsed.warnings.append(LspciWarning(block.address, "listed twice; the first is kept"))
            continue
        parsed.devices[block.address] = _device(block, parsed.warnings)
    if not parsed.devices and text.strip():
        parsed.warnings.append(LspciWarning(None, "no PCI device in the output (not `lspci -vv`?)"))
    return parsed
