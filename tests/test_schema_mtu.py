"""The snapshot's switch MTU ceiling is the largest any platform allows (each folder's `mtu.py`
`MTU.largest`), and every switch is held to its own platform's: a figure one platform's models take is
refused on a platform whose models do not, as the old ceiling (9216, every platform's then) refused it. The published
schema carries the ceiling (every lab still validates against it: tests/test_schemas.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from hostlint import switches
from hostlint.snapshot.common import SWITCH_MTU_CEILING
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort

ROOT = Path(__file__).resolve().parent.parent


def test_the_ceiling_is_the_largest_platform_limit() -> None:
    limits = {name: switches.mtu_limits(name).largest for name in switches.SWITCH_NAMES}
    assert max(limits.values()) == SWITCH_MTU_CEILING
    assert min(limits.values()) == 9216 < SWITCH_MTU_CEILING  # the platforms that predate folders
    for name, largest in limits.items():  # the jumbo a plan writes is one the platform holds
        platform = switches.switch(name)
        assert platform.jumbo - platform.l2_header <= largest, name


def test_the_published_schema_carries_the_ceiling() -> None:
    schema = json.loads((ROOT / "docs" / "schemas" / "snapshot.schema.json").read_text(encoding="utf-8"))
    maxima = {
        option["maximum"]
        for model in ("SwitchPort", "PortChannel")
        for figure in ("mtu", "l2_mtu")
        for option in schema["$defs"][model]["properties"][figure]["anyOf"]
        if "maximum" in option
    }
    assert maxima == {SWITCH_MTU_CEILING}


def _switch(platform: str, figure: int, channel: bool = False) -> Switch:
    if channel:
        return Switch(name="sw1", platform=platform, port_channels=[PortChannel(name="Port-Channel1", l2_mtu=figure)])
    return Switch(name="sw1", platform=platform, ports=[SwitchPort(name="Port1", mtu=figure)])


@pytest.mark.parametrize("platform", switches.SWITCH_NAMES)
def test_each_switch_is_held_to_its_platforms_limit(platform: str) -> None:
    largest = switches.mtu_limits(platform).largest
    assert _switch(platform, largest).ports[0].mtu == largest
    assert _switch(platform, largest, channel=True).port_channels[0].l2_mtu == largest
    if largest == SWITCH_MTU_CEILING:  # the schema's own maximum refuses more
        refused = f"less than or equal to {SWITCH_MTU_CEILING}"
        port, channel = refused, refused
    else:
        port = f"Port1: mtu {largest + 1} is more than {platform} allows \\({largest}\\)"
        channel = f"Port-Channel1: l2_mtu {largest + 1} is more than {platform} allows"
    with pytest.raises(ValidationError, match=port):
        _switch(platform, largest + 1)
    with pytest.raises(ValidationError, match=channel):
        _switch(platform, largest + 1, channel=True)
