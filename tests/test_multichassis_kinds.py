"""Multichassis kinds are the vendors' own words (IRF, iStack, M-LAG beside stack, vPC, MLAG), and what a
rule reads of them is one thing: one control plane (the chassis are one switch) or two peers (a pair that
is one logical switch only while both agree and their peer link is up)."""

from __future__ import annotations

from typing import get_args

import pytest

from hostlint.join.switches import SwitchIndex
from hostlint.report.html import MULTICHASSIS
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import ONE_CONTROL_PLANE, TWO_PEERS, MultiChassis, MultiChassisKind, Switch


def test_every_kind_is_one_control_plane_or_two_peers_and_has_a_label() -> None:
    kinds = set(get_args(MultiChassisKind))
    assert set(ONE_CONTROL_PLANE) | set(TWO_PEERS) == kinds
    assert not set(ONE_CONTROL_PLANE) & set(TWO_PEERS)
    assert set(MULTICHASSIS) == kinds


def _pair(kind: str) -> Snapshot:
    switches = [
        Switch(
            name=name,
            platform="cisco_nxos",
            multichassis=MultiChassis(kind=kind, domain_id="7", peer=peer, peer_link_up=True),
        )
        for name, peer in (("sw1", "sw2"), ("sw2", "sw1"))
    ]
    return Snapshot(switches=switches)


def _logical(snapshot: Snapshot) -> list[str]:
    index = SwitchIndex(snapshot)
    found = [index.lookup(name) for name in ("sw1", "sw2")]
    return [switch.logical for switch in found if switch is not None]


@pytest.mark.parametrize("kind", TWO_PEERS)
def test_two_peers_that_agree_are_one_logical_switch_named_by_their_kind(kind: str) -> None:
    assert set(_logical(_pair(kind))) == {f"{kind}:7:sw1+sw2"}


@pytest.mark.parametrize("kind", ONE_CONTROL_PLANE)
def test_a_stack_like_system_is_one_switch_whatever_peer_it_names(kind: str) -> None:
    assert _logical(_pair(kind)) == ["sw1", "sw2"]
