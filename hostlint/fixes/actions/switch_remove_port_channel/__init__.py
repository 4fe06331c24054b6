"""switch-remove-port-channel: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint import names
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _channel, _on_switch, _port, _renegotiate
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import uplinks_of
from hostlint.fixes.site import Site
from hostlint.fixes.spelling import channel_interface
from hostlint.fixes.steps import Change
from hostlint.fixes.switch_steps import _channels_of, _number
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot


def remove_port_channel(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    changes = []
    for switch, existing, ports in _channels_of(uplinks_of(fact, site), site):
        number = _number(switch, existing)
        remove_interface = {names.interface_key(m) for m in existing.members} <= {names.interface_key(p) for p in ports}
        notes = ["the port-channel interface's own settings are not in the snapshot"] if remove_interface else []
        changes.append(
            Change(
                action="switch-remove-port-channel",
                device=switch.name,
                platforms=(switch.platform,),
                target=",".join(ports),
                values={
                    "number": number,
                    "interface": channel_interface(number, switch.platform),
                    "members": ports,
                    "mode": existing.mode,
                    "remove_interface": remove_interface,
                    "multichassis_id": existing.multichassis_id,
                    "mtu": existing.mtu,
                },
                after="no channel",
                notes=notes,
            )
        )
    return changes


def _switch_remove_port_channel(snapshot: Snapshot, change: Change) -> None:
    switch = _switch_in(snapshot, change.device)
    channel = _channel(switch, change.values["interface"])
    leaving = {names.interface_key(p) for p in change.values["members"]}
    for name in change.values["members"]:
        port = _port(switch, name)
        port.port_channel = None
        port.member_state = None
    if channel is not None:
        channel.members = [m for m in channel.members if names.interface_key(m) not in leaving]
        if not channel.members and change.values.get("remove_interface"):
            switch.port_channels.remove(channel)
    _renegotiate(snapshot, _on_switch(change.device))


EXPAND: Expander = remove_port_channel
APPLY: Applier = _switch_remove_port_channel
