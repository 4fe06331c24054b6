"""switch-port-mtu: its expander and simulated applier; its templates and rollback are in action.yaml."""

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
from hostlint.snapshot.switch import Switch


def _mtu(switch: Switch, name: str, mtu: int | None) -> int:
    if mtu is None:
        raise CannotFix(f"the MTU of {name} on {switch.name} was not read: its rollback would not know it")
    return mtu


def _mtu_interfaces(switch: Switch, ports: list[str], mtu: int) -> list[dict[str, Any]]:
    """Interfaces to raise, with their MTU before: the port-channel where the platform sets it there
    (members follow), the physical port otherwise; IOS wants both.
    """
    interfaces: dict[str, int] = {}
    for name in ports:
        found = port(switch, name)
        if found is None:
            continue
        existing = channel(switch, found.port_channel)
        if existing is not None and (channel_mtu := _mtu(switch, existing.name, existing.mtu)) < mtu:
            number = _number(switch, existing)
            interfaces[channel_interface(number, switch.platform)] = channel_mtu
        if (existing is None or registry.switch(switch.platform).mtu_on_members) and (
            own_mtu := _mtu(switch, found.name, found.mtu)
        ) < mtu:
            interfaces[found.name] = own_mtu
    return [{"name": name, "before": before} for name, before in interfaces.items()]


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
    for interface in change.values["interfaces"]:
        channel = _channel(switch, interface["name"])
        if channel is not None:
            channel.mtu = mtu
            # Members follow the port-channel's MTU.
            for member in channel.members:
                _port(switch, member).mtu = mtu
        else:
            _port(switch, interface["name"]).mtu = mtu


EXPAND: Expander = port_mtu
APPLY: Applier = _switch_port_mtu
