"""Which Junos family a switch belongs to, from the model `show version` reports.

The configuration statements hostlint's Junos templates write differ by family:

- `els` (Enhanced Layer 2 Software): EX2300, EX3400, EX4100, EX4300, EX4400, EX4600, EX4650,
  EX9200; QFX5100, QFX5110, QFX5120, QFX5130, QFX5200, QFX5210, QFX5220, QFX5700, QFX10000.
  `speed 1g` and `link-mode` on the interface (`ether-options speed` takes no speed value);
  `unit 0 family ethernet-switching interface-mode`; `native-vlan-id` on the interface.
- `non-els` (the original EX CLI): EX2200, EX3200, EX3300, EX4200, EX4500, EX4550, EX6200,
  EX8200. `ether-options speed`, `ether-options link-mode`; `unit 0 family ethernet-switching
  port-mode`; `native-vlan-id` under `unit 0 family ethernet-switching`.
- `mx`: `speed` on the interface, `gigether-options` (also for `802.3ad`); VLANs in `family
  bridge` / `flexible-ethernet-services`, which hostlint does not write.

Sources: Junos OS "speed (Ethernet)", hierarchy `[edit interfaces interface-name]`, "introduced in
Junos OS Release 13.2X50-D10 for EX Series switches" (the first ELS release); "speed (EX Series)",
hierarchy `[edit interfaces interface-name ether-options]` (the non-ELS statement); "ether-options
(QFX Series)", where `speed` takes only `auto-negotiation | no-auto-negotiation`; "Configuring
Gigabit and 10-Gigabit Ethernet Interfaces" (ELS: `family ethernet-switching interface-mode trunk`);
"Getting Started with Enhanced Layer 2 Software" (ELS renames `port-mode` to `interface-mode` and
moves `native-vlan-id` to the physical interface); "gigether-options" (MX).

A model hostlint does not place (QFX3500/QFX3600 run either CLI depending on the release, any
unknown model, or no model collected) has no family: a fix whose Junos text depends on the family
(reads `family` in fixes.yaml) is then not scripted, never guessed.

The folder's `families` piece (hostlint.switches.base): `family`, `unknown_reason`, `UNSUPPORTED`.
This module imports nothing of hostlint's.
"""

from __future__ import annotations

import re
from typing import Literal

Family = Literal["els", "non-els", "mx"]
FAMILIES: tuple[Family, ...] = ("els", "non-els", "mx")

_EX_ELS = frozenset({2300, 3400, 4100, 4300, 4400, 4600, 4650, 9200, 9204, 9208, 9214, 9250, 9251, 9253})
_EX_NON_ELS = frozenset({2200, 3200, 3300, 4200, 4500, 4550, 6200, 6210, 8200, 8208, 8216})
_QFX_ELS = frozenset({5100, 5110, 5120, 5130, 5200, 5210, 5220, 5230, 5700, 10002, 10003, 10008, 10016})
# Both CLIs exist for these, depending on the release: the model alone does not say.
_QFX_EITHER = frozenset({3500, 3600})

_MODEL = re.compile(r"^(ex|qfx|mx)(\d+)", re.IGNORECASE)

# What hostlint does not write for a family, and why (the manual step says it).
_MX_VLANS = (
    "MX: VLANs on a trunk live in `family bridge` / bridge domains or `flexible-ethernet-services`, "
    "which this site's templates do not know; change them by hand"
)
_MX_MEMBERS = (
    "MX: an ae's members join it under `gigether-options 802.3ad` and its unit 0 is `family bridge`, "
    "which this site's templates do not write; change the bundle by hand"
)
UNSUPPORTED: dict[str, dict[str, str]] = {
    "mx": {
        "switch-trunk-allow-vlan": _MX_VLANS,
        "switch-trunk-native-vlan": _MX_VLANS,
        "switch-static-port-channel": _MX_MEMBERS,
        "switch-remove-port-channel": _MX_MEMBERS,
    },
}


def family(model: str | None) -> Family | None:
    """The family of a Junos switch `model` (`ex4300-48t`, `QFX5110-48S-AFI`, `mx480`); None when
    the model was not collected or is not one hostlint places."""
    match = _MODEL.match((model or "").strip())
    if not match:
        return None
    series, number = match.group(1).lower(), int(match.group(2))
    if series == "mx":
        return "mx"
    if series == "ex":
        return "els" if number in _EX_ELS else "non-els" if number in _EX_NON_ELS else None
    return "els" if number in _QFX_ELS else None


def unknown_reason(model: str | None) -> str:
    """Why a switch has no family: said in the manual step that replaces the family's commands."""
    if not (model or "").strip():
        return "Junos family unknown: model not collected (show version)"
    match = _MODEL.match((model or "").strip())
    if match and match.group(1).lower() == "qfx" and int(match.group(2)) in _QFX_EITHER:
        return f"Junos family unknown: {model} runs ELS or the original CLI depending on its release"
    return f"Junos family unknown: model {model} is not one hostlint places (EX ELS, EX non-ELS, QFX, MX)"
