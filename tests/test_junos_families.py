"""Junos families: the model decides ELS / non-ELS / MX, the templates follow, an unknown model is no guess."""

from __future__ import annotations

import pytest
from support.fix_sites import findings_for, site

from hostlint.fixes import build_plan
from hostlint.fixes.render import render
from hostlint.switches.juniper_junos.families import family, unknown_reason


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("ex4300-48t", "els"),
        ("EX2300-C-12P", "els"),
        ("ex3400-48p", "els"),
        ("ex4650-48y-8c", "els"),
        ("ex9208", "els"),
        ("QFX5110-48S-AFI", "els"),
        ("qfx5100-48s-6q", "els"),
        ("qfx10002-72q", "els"),
        ("ex2200-48t-4g", "non-els"),
        ("ex3300-24p", "non-els"),
        ("ex4200-48t", "non-els"),
        ("ex4550-32f", "non-els"),
        ("ex8208", "non-els"),
        ("mx480", "mx"),
        ("qfx3500s", None),
        ("ex9999", None),
        ("srx345", None),
        ("", None),
        (None, None),
    ],
)
def test_family_from_model(model: str | None, expected: str | None) -> None:
    assert family(model) == expected


def test_unknown_reasons_name_the_cause() -> None:
    assert unknown_reason(None) == "Junos family unknown: model not collected (show version)"
    assert "depending on its release" in unknown_reason("qfx3600-i")
    assert "srx345" in unknown_reason("srx345")


def _junos_site(model: str | None):  # type: ignore[no-untyped-def]
    snapshot = site("juniper_junos")
    snapshot.switches[0].model = model
    return snapshot


def _lines(model: str | None, action: str, field: str) -> list[str]:
    snapshot = _junos_site(model)
    plan = build_plan(findings_for(snapshot), snapshot)
    steps = [s for s in plan.steps if s.action.action == action]
    assert steps, f"{action} not planned for {model}"
    return [line for s in steps for line in render(s, "juniper_junos", field).splitlines()]


def test_els_speed_on_the_interface_and_native_vlan_on_the_interface() -> None:
    assert "set interfaces xe-0/0/1 speed 1g" in _lines("ex4300-48t", "switch-port-autoneg", "rollback")
    assert "delete interfaces xe-0/0/1 speed" in _lines("ex4300-48t", "switch-port-autoneg", "change")
    assert _lines("qfx5120-48y", "switch-trunk-native-vlan", "change") == ["set interfaces xe-0/0/2 native-vlan-id 1"]


def test_non_els_speed_under_ether_options_and_native_vlan_under_the_family() -> None:
    rollback = _lines("ex4200-48t", "switch-port-autoneg", "rollback")
    assert rollback == [
        "set interfaces xe-0/0/1 ether-options speed 1g",
        "set interfaces xe-0/0/1 ether-options link-mode full-duplex",
        "set interfaces xe-0/0/1 ether-options no-auto-negotiation",
    ]
    assert not any(" speed" in line and "ether-options" not in line for line in rollback)
    assert _lines("ex4200-48t", "switch-trunk-native-vlan", "change") == [
        "set interfaces xe-0/0/2 unit 0 family ethernet-switching native-vlan-id 1"
    ]
    assert _lines("ex4200-48t", "switch-trunk-native-vlan", "rollback") == [
        "set interfaces xe-0/0/2 unit 0 family ethernet-switching native-vlan-id 5"
    ]


@pytest.mark.parametrize("model", [None, "qfx3500s"])
def test_unknown_family_leaves_the_family_dependent_fixes_to_a_person(model: str | None) -> None:
    snapshot = _junos_site(model)
    plan = build_plan(findings_for(snapshot), snapshot)
    planned = {s.action.action for s in plan.steps}
    manual = {m.action: m.reason for m in plan.manual}
    assert {"switch-port-autoneg", "switch-trunk-native-vlan"} <= set(manual)
    assert manual["switch-port-autoneg"] == f"sw1: {unknown_reason(model)}"
    assert not {"switch-port-autoneg", "switch-trunk-native-vlan"} & planned
    # What is the same in every family is still written.
    assert {"switch-port-mtu", "switch-channel-mode-static", "switch-trunk-allow-vlan"} <= planned


def test_mx_vlan_and_member_fixes_are_withheld_with_the_reason() -> None:
    snapshot = _junos_site("mx204")
    plan = build_plan(findings_for(snapshot), snapshot)
    manual = {m.action: m.reason for m in plan.manual}
    assert "family bridge" in manual["switch-trunk-allow-vlan"]
    assert "family bridge" in manual["switch-trunk-native-vlan"]
    assert "gigether-options 802.3ad" in manual["switch-static-port-channel"]
    autoneg = [s for s in plan.steps if s.action.action == "switch-port-autoneg"]
    assert render(autoneg[0], "juniper_junos", "rollback").splitlines()[-1] == (
        "set interfaces xe-0/0/1 gigether-options no-auto-negotiation"
    )
