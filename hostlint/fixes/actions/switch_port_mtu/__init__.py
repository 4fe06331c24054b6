"""switch-port-mtu: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint import platforms as registry
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _channel, _port
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import known, uplinks_of
from hostlint.fixes.site import Site, channel, port
from hostlint.fixes.spelling import channel_interface, jumbo, jumbo_ip_mtu
from hostlint.fixes.steps import CannotFix, Change
from hostlint.fixes.switch_steps import _by_switch, _number, _switch
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort


def _mtu(switch: Switch, name: str, mtu: int | None) -> int:
    if mtu is None:
        raise CannotFix(f"the MTU of {name} on {switch.name} was not read: its rollback would not know it")
    return mtu


def _tag(mode: str | None) -> int:
    """The 802.1Q tag a trunk's frames carry on top of the IP packet and Ethernet header."""
    return 4 if mode == "trunk" else 0


def _limit(switch: Switch, item: SwitchPort | PortChannel, mode: str | None, mtu: int) -> dict[str, Any] | None:
    """The figure that limits the host's frames at `item` (hostlint.platforms.MtuFamily), when it is below
    `mtu`: `figure` `l3` (the interface `mtu`) or `l2` (EOS `l2 mtu`), `before` in IP bytes and, for an L2
    figure, `before_frame` as configured (`default` when the configuration is silent)."""
    limiting = registry.switch(switch.platform).limiting_figure(switch.model, mode)
    if isinstance(limiting, str):
        raise CannotFix(f"which MTU limits the frames of {item.name} on {switch.name} is unknown ({limiting})")
    figure, family = limiting
    if figure == "mtu":
        before = _mtu(switch, item.name, item.mtu)
        return {"name": item.name, "figure": "l3", "before": before} if before < mtu else None
    if family is None or not family.writes_bridged or family.l2_default_frame is None:
        setting, why = (family.bridged_setting, family.not_written) if family else ("an L2 MTU", "a global setting")
        raise CannotFix(f"{switch.name} limits bridged frames by {setting}, {why}: hostlint does not script it")
    before = _mtu(switch, item.name, item.l2_mtu)
    if before >= mtu:
        return None
    frame = before + family.l2_header + _tag(mode)
    return {
        "name": item.name,
        "figure": "l2",
        "before": before,
        "before_frame": frame,
        "default": family.l2_default_frame,
    }


def _mtu_interfaces(switch: Switch, ports: list[str], mtu: int) -> list[dict[str, Any]]:
    """Interfaces to raise, with the figure that limits them and its value before: the port-channel where
    the platform sets it there (members follow), the physical port otherwise; IOS wants both.
    """
    interfaces: dict[str, dict[str, Any]] = {}
    for name in ports:
        found = port(switch, name)
        if found is None:
            continue
        existing = channel(switch, found.port_channel)
        if existing is not None and (limit := _limit(switch, existing, existing.switchport or found.mode, mtu)):
            number = _number(switch, existing)
            interfaces[channel_interface(number, switch.platform)] = {
                **limit,
                "name": channel_interface(number, switch.platform),
            }
        own_mode = found.mode or (existing.switchport if existing is not None else None)
        if (existing is None or registry.switch(switch.platform).mtu_on_members) and (
            limit := _limit(switch, found, own_mode, mtu)
        ):
            interfaces[found.name] = limit
    return list(interfaces.values())


def port_mtu(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    mtu = int(params["mtu"])
    changes = []
    for name, uplinks in _by_switch(uplinks_of(fact, site)).items():
        switch = _switch(site, name)
        if mtu > jumbo_ip_mtu(switch.platform):
            raise CannotFix(f"{name} ({switch.platform}) passes IP packets of at most {jumbo_ip_mtu(switch.platform)}")
        interfaces = _mtu_interfaces(switch, sorted({known(u.port, u) for u in uplinks}), mtu)
        if interfaces:
            changes.append(
                Change(
                    action="switch-port-mtu",
                    device=name,
                    platforms=(switch.platform,),
                    target=",".join(i["name"] for i in interfaces),
                    values={"interfaces": interfaces},
                    after=jumbo(switch.platform),
                )
            )
    return changes


def _switch_port_mtu(snapshot: Snapshot, change: Change) -> None:
    switch = _switch_in(snapshot, change.device)
    mtu = jumbo_ip_mtu(switch.platform)
    frame = jumbo(switch.platform)
    for interface in change.values["interfaces"]:
        channel = _channel(switch, interface["name"])
        items: list[SwitchPort | PortChannel] = [channel] if channel is not None else []
        # Members follow the port-channel's MTU.
        items += [_port(switch, member) for member in channel.members] if channel is not None else []
        items += [_port(switch, interface["name"])] if channel is None else []
        for item in items:
            if interface.get("figure") == "l2":
                mode = item.switchport if isinstance(item, PortChannel) else item.mode
                family = registry.switch(switch.platform).mtu_family(switch.model)
                item.l2_mtu = frame - (family.l2_header if family else 0) - _tag(mode)
            else:
                item.mtu = mtu


EXPAND: Expander = port_mtu
APPLY: Applier = _switch_port_mtu
