"""The platform registry (hostlint.platforms): every module asks it, and each entry is complete."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from support.fix_sites import PLATFORMS as FIX_SITES
from support.kvm_sites import SWITCH_NAMES as KVM_FIX_SITES
from switch_emulator.scenarios import NAMES, SCENARIOS

from hostlint import platforms as registry
from hostlint.collect.switches import load_platform
from hostlint.fixes.scripts import script_name
from hostlint.rules.load import RuleError, load_rule, load_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("switch", registry.SWITCHES, ids=lambda s: s.name)
def test_each_switch_has_its_collector_folder(switch: registry.SwitchPlatform) -> None:
    spec = load_platform(switch.name)
    raw = yaml.safe_load((spec.commands[0].template.parent / "spec.yaml").read_text(encoding="utf-8"))
    assert raw["platform"] == switch.name
    assert spec.commands and all(command.template.is_file() for command in spec.commands)
    # Every source an unknown-fact reason names is a command the collector runs.
    assert set(switch.sources.values()) <= {command.command for command in spec.commands}


def test_every_switch_has_its_tests() -> None:
    """A new platform's tests: its emulator scenario and sample switch, its fix-script sites. (Its text in
    every switch action is checked when the actions load: tests/test_action_files.py.)"""
    # A platform that came as a folder brings its emulator module (tests/switch_emulator/platforms/) and
    # is checked by the contract test instead of these tables (docs/design/platform-folders.md).
    folders = {
        name
        for name in registry.SWITCH_NAMES
        if (ROOT / "tests" / "switch_emulator" / "platforms" / f"{name}.py").is_file()
    }
    switches = set(registry.SWITCH_NAMES) - folders
    assert set(SCENARIOS) == set(NAMES) == switches
    assert set(FIX_SITES) == set(KVM_FIX_SITES) == switches


@pytest.mark.parametrize(
    ("spelling", "name"),
    [("nxos_ssh", "cisco_nxos"), ("Cisco.IOS.ios", "cisco_ios"), (" eos ", "arista_eos"), ("junos", "juniper_junos")],
)
def test_aliases_from_other_tools(spelling: str, name: str) -> None:
    assert registry.canonical_switch(spelling) == name


def test_an_unknown_platform_is_named_with_the_supported_ones() -> None:
    with pytest.raises(registry.UnsupportedPlatform, match="'hp_procurve' is not supported; supported: cisco_ios, "):
        registry.canonical_switch("hp_procurve")


def test_script_names_follow_the_target() -> None:
    assert script_name("esx01", "esxcli", rollback=True) == "esx01.rollback.esxcli.sh"
    # A name changed to fit a file name keeps a digest of the real one: `esx_01` is another host.
    assert script_name("esx 01", "esxcli", rollback=True).startswith("esx_01-")
    assert script_name("esx01", "powercli") == "esx01.ps1"
    assert script_name("esx01", "vsphere-api") == "esx01.vsphere_api.py"
    assert script_name("sw1", "juniper_junos") == "sw1.juniper_junos.txt"


def test_rule_platforms_follow_what_it_iterates_and_needs() -> None:
    rules = {rule.code: rule for rule in load_rules()}
    switches = list(registry.SWITCH_NAMES)
    assert rules["MT001"].platforms == ["esxi"]  # vmks, no switch data
    assert rules["LG101"].platforms == ["kvm", *switches]  # bonds, needs switch
    assert rules["LK002"].platforms == ["esxi", "kvm", *switches]  # uplinks, needs switch only to pass
    assert rules["PC001"].platforms == ["esxi", "kvm"]


def test_a_rule_that_still_lists_platforms_is_refused(tmp_path: Path) -> None:
    text = (ROOT / "rules" / "MT004.yaml").read_text(encoding="utf-8")
    path = tmp_path / "MT004.yaml"
    path.write_text("platforms: [esxi]\n" + text, encoding="utf-8")
    with pytest.raises(RuleError, match="`platforms` is no longer written"):
        load_rule(path)
