"""VRP 5 (S-series campus and data-centre switches) and VRP 8 (CloudEngine): one platform, two families.

They share the display commands (this folder's templates read both) and differ where hostlint writes:
VRP 8 configuration is two-stage (changes wait for `commit`, CloudEngine 6800/5800 Configuration
Guide, "Configuration Committing"), names ports by speed (`10GE1/0/1`, hostlint.switches.huawei_vrp.names),
and spells LACP `mode lacp-static` (VRP 5 V200R005 and later: `mode lacp`; earlier `mode lacp-static`,
S-series Command Reference "mode (Eth-Trunk interface view)"). netmiko calls them `huawei` and
`huawei_vrpv8`.

The family comes from `display version`: `VRP (R) software, Version 8.x` is VRP 8, `5.x` is VRP 5;
the model line (`HUAWEI CE6881-48S6CQ`) when the version was not read.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    name: str  # "vrp5" or "vrp8": the keys of names.LONG and the `family` fix templates read
    label: str
    netmiko: str
    commit: bool
    lacp_mode: str


VRP5 = Family(name="vrp5", label="VRP 5 (S-series)", netmiko="huawei", commit=False, lacp_mode="lacp")
VRP8 = Family(name="vrp8", label="VRP 8 (CloudEngine)", netmiko="huawei_vrpv8", commit=True, lacp_mode="lacp-static")
FAMILIES = (VRP5, VRP8)


def family(model: str | None) -> str | None:
    """The registry's interface (hostlint.switches.base): the family's name (`vrp5`, `vrp8`) from the model,
    the `family` the fix text reads; None when the model does not say."""
    found = family_of(model)
    return found.name if found else None


def family_of(model: str | None, os_version: str | None = None) -> Family | None:
    """The family of a switch from its VRP version or, failing that, its model; None when neither says."""
    if os_version:
        major = os_version.strip().split(".", 1)[0]
        if major == "8":
            return VRP8
        if major == "5":
            return VRP5
    if model:
        text = model.strip().upper()
        if text.startswith(("CE", "CLOUDENGINE")):
            return VRP8
        if text.startswith(("S", "QUIDWAY")):
            return VRP5
    return None


def unknown_reason(model: str | None, os_version: str | None = None) -> str:
    """Why `family` gave None, for the withheld fix and the unknown fact."""
    if not model and not os_version:
        return "`display version` not read: VRP 5 or VRP 8 unknown"
    return f"neither VRP version {os_version!r} nor model {model!r} names VRP 5 or VRP 8"
