"""hostlint/switches/huawei_vrp/fixes.yaml: text for every switch action, rendered with the project's own
template environment (its quoting filters), in VRP's syntax, with VRP 8's `commit`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hostlint.fixes.render import environment

ROOT = Path(__file__).resolve().parent.parent
TEXT: dict[str, dict[str, str]] = yaml.safe_load(
    (ROOT / "hostlint" / "switches" / "huawei_vrp" / "fixes.yaml").read_text(encoding="utf-8")
)
FIELDS = ("change", "verify", "expect", "rollback", "rollback_expect")


def _switch_actions() -> list[str]:
    found = []
    for path in sorted((ROOT / "hostlint" / "fixes" / "actions").glob("*/action.yaml")):
        action = yaml.safe_load(path.read_text(encoding="utf-8"))
        if action.get("device") == "switch":
            found.append(action["action"])
    return found


def _render(action: str, field: str, **values: Any) -> str:
    return str(environment("cli").from_string(TEXT[action][field]).render(platform="huawei_vrp", **values))


def test_every_switch_action_has_vrp_text() -> None:
    assert sorted(TEXT) == sorted(_switch_actions())
    for action, text in TEXT.items():
        assert set(text) <= set(FIELDS) and {"change", "verify", "expect"} <= set(text), action


_CHANNEL = {"interface": "Eth-Trunk1", "number": 1, "members": ["XGigabitEthernet0/0/1", "XGigabitEthernet1/0/1"]}


@pytest.mark.parametrize(("family", "mode"), [(None, "lacp"), ("vrp8", "lacp-static")])
def test_lacp_takes_the_members_out_changes_the_mode_and_puts_them_back(family: str | None, mode: str) -> None:
    values = {**_CHANNEL, "before": "static", **({"family": family} if family else {})}
    change = _render("switch-channel-mode-lacp", "change", **values).split("\n")
    assert change[:4] == [
        "interface XGigabitEthernet0/0/1",
        " undo eth-trunk",
        "interface XGigabitEthernet1/0/1",
        " undo eth-trunk",
    ]
    assert change[4:6] == ["interface Eth-Trunk1", f" mode {mode}"]
    assert change[6:8] == ["interface XGigabitEthernet0/0/1", " eth-trunk 1"]
    assert ("commit" in change) == (family == "vrp8")
    rollback = _render("switch-channel-mode-lacp", "rollback", **values)
    assert " mode manual load-balance\n" in rollback


def test_a_removed_trunk_gives_its_vlans_to_the_members_and_takes_them_back() -> None:
    config = {"mode": "trunk", "native_vlan": 1, "allowed": ["100-110"], "allowed_vlans": [[100, 110]]}
    values = {
        **_CHANNEL,
        "carry": [{"port": "XGigabitEthernet0/0/1"}],
        "config": config,
        "remove_interface": True,
        "mode": "lacp-active",
    }
    change = _render("switch-remove-port-channel", "change", **values)
    assert change.split("\n")[:6] == [
        "interface XGigabitEthernet0/0/1",
        " undo eth-trunk",
        " port link-type trunk",
        " port trunk pvid vlan 1",
        " port trunk allow-pass vlan 100 to 110",
        " undo port trunk allow-pass vlan 1",
    ]
    assert "undo interface Eth-Trunk1" in change
    rollback = _render("switch-remove-port-channel", "rollback", **values)
    assert rollback.startswith("interface Eth-Trunk1\n mode lacp\n port link-type trunk\n")
    # The carried lines go before the link type (VRP changes it only from the defaults), then the port rejoins.
    assert (
        "interface XGigabitEthernet0/0/1\n undo port trunk allow-pass vlan all\n undo port trunk pvid vlan\n"
        " undo port link-type\n eth-trunk 1\n"
    ) in rollback


def test_mtu_writes_the_frame_length_and_restores_the_one_read() -> None:
    values = {"after": 9000, "interfaces": [{"name": "Eth-Trunk1", "figure": "l3", "before": 1578}]}
    assert _render("switch-port-mtu", "change", **values) == "interface Eth-Trunk1\n jumboframe enable 9022\n"
    # 1578 is the default frame (1600) read: the rollback restores the default, as IOS's `no mtu` does.
    assert _render("switch-port-mtu", "rollback", **values) == "interface Eth-Trunk1\n undo jumboframe enable\n"
    values = {"after": 9000, "interfaces": [{"name": "Eth-Trunk1", "figure": "l3", "before": 4000}]}
    assert _render("switch-port-mtu", "rollback", **values) == "interface Eth-Trunk1\n jumboframe enable 4022\n"


def test_vlans_are_written_in_vrp_ranges_and_refuse_what_is_not_a_switch_word() -> None:
    values = {"interface": "Eth-Trunk1", "vlans": ["100", "200-210"], "before": ["1"]}
    change = _render("switch-trunk-allow-vlan", "change", **values)
    assert change == "interface Eth-Trunk1\n port trunk allow-pass vlan 100\n port trunk allow-pass vlan 200 to 210\n"
    with pytest.raises(Exception, match="newline"):
        _render("switch-trunk-allow-vlan", "change", **{**values, "interface": "Eth-Trunk1\nreboot"})
