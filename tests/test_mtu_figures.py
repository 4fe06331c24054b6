"""Which MTU figure limits bridged and routed frames, per platform family (hostlint.platforms.MtuFamily),
and docs/mtu.md saying the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostlint import platforms as registry
from hostlint.switches import mtu_table

DOC = (Path(__file__).resolve().parent.parent / "docs" / "mtu.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("platform", "model", "mode", "figure"),
    [
        # EOS: `mtu` is the IP MTU; a switchport bridges up to its `l2 mtu`, a routed port routes up to `mtu`.
        ("arista_eos", "DCS-7050SX3-48YC8", "trunk", "l2_mtu"),
        ("arista_eos", "DCS-7050SX3-48YC8", "access", "l2_mtu"),
        ("arista_eos", None, "trunk", "l2_mtu"),
        ("arista_eos", "DCS-7050SX3-48YC8", "routed", "mtu"),
        # NX-OS: Nexus 3000/5000/6000 bridge up to the network-qos MTU, Nexus 9000 per interface.
        ("cisco_nxos", "N5K-C5672UP", "trunk", "l2_mtu"),
        ("cisco_nxos", "N3K-C3172PQ-10GE", "trunk", "l2_mtu"),
        ("cisco_nxos", "N9K-C93180YC-FX", "trunk", "mtu"),
        ("cisco_nxos", "C93180YC-FX3", "trunk", "mtu"),
        ("cisco_nxos", "N5K-C5672UP", "routed", "mtu"),
        # As `show version` names them (`cisco Nexus 5596 Chassis`, `cisco Nexus5548 Chassis`, `C3064PQ`);
        # Nexus 3000 models with a per-port MTU (Cisco Document 118994) bridge up to the interface mtu.
        ("cisco_nxos", "5596", "trunk", "l2_mtu"),
        ("cisco_nxos", "Nexus5548", "trunk", "l2_mtu"),
        ("cisco_nxos", "C3064PQ", "trunk", "l2_mtu"),
        ("cisco_nxos", "N3K-C3132Q-40GX", "trunk", "l2_mtu"),
        ("cisco_nxos", "N6K-C6001-64P", "access", "l2_mtu"),
        ("cisco_nxos", "N3K-C3132Q-V", "trunk", "mtu"),
        ("cisco_nxos", "N3K-C31108PC-V", "trunk", "mtu"),
        ("cisco_nxos", "C3232C", "trunk", "mtu"),
        ("cisco_nxos", "N3K-C3164Q-40GE", "trunk", "mtu"),
        # IOS: the older Catalysts' `system mtu jumbo`; Catalyst 9000 per interface.
        ("cisco_ios", "WS-C3750X-48P", "access", "l2_mtu"),
        ("cisco_ios", "WS-C2960X-48TD-L", "trunk", "l2_mtu"),
        ("cisco_ios", "C9300-48P", "trunk", "mtu"),
        ("cisco_ios", "WS-C3850-12XS", "trunk", "mtu"),
        # Junos: the media MTU per interface.
        ("juniper_junos", "QFX5110-48S-AFI", "trunk", "mtu"),
        ("juniper_junos", None, "trunk", "mtu"),
    ],
)
def test_the_figure_that_limits_a_frame(platform: str, model: str | None, mode: str, figure: str) -> None:
    limiting = registry.switch(platform).limiting_figure(model, mode)
    assert not isinstance(limiting, str) and limiting[0] == figure


def test_an_unknown_model_leaves_the_figure_unknown_where_families_differ() -> None:
    assert registry.switch("cisco_nxos").limiting_figure(None, "trunk") == "model not shown by `show version`"
    assert registry.switch("cisco_ios").limiting_figure(None, "access") == "model not shown by `show version`"
    # A routed port routes up to its interface MTU whatever the family.
    assert registry.switch("cisco_nxos").limiting_figure(None, "routed") == ("mtu", None)
    # An EOS port whose switchport mode was not shown: bridged or routed is unknown, so is its figure.
    assert registry.switch("arista_eos").limiting_figure("DCS-7050SX3-48YC8", None) == "switchport mode not shown"


def test_the_docs_table_is_written_from_the_folders() -> None:
    """docs/mtu.md's table is each folder's mtu.py as it stands: a platform's row is in its folder."""
    assert mtu_table.render(DOC) == DOC, "run `python -m hostlint.switches.mtu_table docs/mtu.md`"


def test_a_page_without_the_table_is_refused() -> None:
    with pytest.raises(mtu_table.TableMissing):
        mtu_table.render("# MTU\n\nno table here\n")


@pytest.mark.parametrize("platform", registry.SWITCHES, ids=registry.SWITCH_NAMES)
def test_docs_name_every_family_setting_and_reference(platform: registry.SwitchPlatform) -> None:
    assert platform.mtu_families and not platform.mtu_families[-1].models, "the last family is the rest"
    for family in platform.mtu_families:
        row = f"| {platform.name} | {family.family}"
        assert row in DOC, row
        assert f"| {family.bridged_setting} |" in DOC, family.bridged_setting
        assert family.reference.rsplit(" ", 1)[-1] in DOC, family.reference


@pytest.mark.parametrize(
    ("platform", "model", "interface", "figure"),
    [
        ("arista_eos", None, "Ethernet1", "l2 mtu"),
        ("cisco_nxos", "N5K-C5672UP", "Ethernet1/1", "network-qos class-default mtu"),
        ("cisco_ios", "WS-C3750X-48P-S", "GigabitEthernet1/0/1", "system mtu jumbo"),
        ("cisco_ios", "WS-C3750X-48P-S", "FastEthernet1/0/1", "system mtu"),
        ("cisco_ios", "C9300-48P", "GigabitEthernet1/0/1", "mtu"),
    ],
)
def test_each_family_names_the_figure_findings_compare(
    platform: str, model: str | None, interface: str, figure: str
) -> None:
    family = registry.switch(platform).mtu_family(model)
    assert family is not None and family.figure_at(interface) == figure
