"""Fix actions load through the YAML loader (hostlint.yamlfile) and the registry's checks: one line naming the file."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from support.cli import run
from support.fix_sites import findings_for, site

from hostlint import switches
from hostlint.cli.exit import Exit
from hostlint.fixes import build_plan
from hostlint.fixes.actions import ActionError, check_site_rules, load_action, load_actions, load_units, units
from hostlint.fixes.render import render
from hostlint.join.facts import Facts, UplinkFact
from hostlint.rules import RuleError, load_rules
from hostlint.rules.engine import run_rules
from hostlint.rules.load import load_rule

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "hostlint" / "fixes" / "actions" / "switch_hash" / "action.yaml"
HOST_SOURCE = ROOT / "hostlint" / "fixes" / "actions" / "vmk_mtu" / "action.yaml"


def _write(tmp_path: Path, text: str, name: str = "switch_hash") -> Path:
    path = tmp_path / name / "action.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_an_unknown_platform_names_the_registrys(tmp_path: Path) -> None:
    text = HOST_SOURCE.read_text(encoding="utf-8").replace("  esxcli:", "  esxclu:", 1)
    path = _write(tmp_path, text, name="vmk_mtu")
    with pytest.raises(ActionError) as error:
        load_action(path)
    message = str(error.value)
    assert message.startswith(f"{path}: field platforms.esxclu.[key]: Value error, unknown platform 'esxclu'")
    assert "known: esxcli, powercli" in message and "\n" not in message


def test_a_misspelt_field_and_a_duplicate_key_are_errors(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    path = _write(tmp_path, text.replace("summary:", "sumary:", 1))
    with pytest.raises(ActionError, match=r"field sumary: Extra inputs are not permitted"):
        load_action(path)
    path = _write(tmp_path, text + "summary: again\n")
    with pytest.raises(ActionError, match="summary"):
        load_action(path)


def test_the_folder_is_named_after_the_action(tmp_path: Path) -> None:
    path = _write(tmp_path, SOURCE.read_text(encoding="utf-8"), name="other")
    with pytest.raises(ActionError, match=r"the folder must be named after the action \(switch_hash\)"):
        load_action(path)


def _swapped(template: str) -> str:
    return re.sub(r"\b(before|after)\b", lambda m: "after" if m.group(1) == "before" else "before", template)


def test_no_written_rollback_is_the_changes_mirror_image() -> None:
    """A rollback that is the change with before and after swapped is left out (derived), not written."""
    for action in load_actions().values():
        for platform, text in action.platforms.items():
            if text.rollback is not None:
                assert text.rollback != _swapped(text.change), f"{action.action} {platform}: leave `rollback` out"
            if text.mirrored and text.rollback_expect is not None:
                assert text.rollback_expect != _swapped(text.expect), f"{action.action} {platform}: leave it out"


def test_a_mirrored_rollback_sets_the_value_from_before() -> None:
    snapshot = site("cisco_nxos")
    plan = build_plan(findings_for(snapshot), snapshot)
    steps = [s for s in plan.steps if s.action.action in ("host-vswitch-mtu", "vmk-mtu")]
    assert steps
    for step in steps:
        before, after = str(step.change.before), str(step.change.after)
        assert before != after
        for platform in step.change.platforms:
            assert step.action.platforms[platform].mirrored
            change = render(step, platform, "change")
            assert after in change
            assert render(step, platform, "rollback") == change.replace(after, before)
        expect = render(step, "vsphere-api", "rollback_expect")
        assert expect == render(step, "vsphere-api", "expect").replace(after, before)


# --- the registry's load-time checks ---------------------------------------------------------------

ACTIONS = ROOT / "hostlint" / "fixes" / "actions"


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *folders: str) -> Path:
    """A package of copies of some of hostlint's action folders, importable as `site_actions`."""
    package = tmp_path / "site_actions"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for folder in folders:
        shutil.copytree(ACTIONS / folder, package / folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "site_actions" or m.startswith("site_actions.")]:
        monkeypatch.delitem(sys.modules, name)
    return package


def test_the_copied_actions_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch, "switch_hash", "vmk_migrate")
    loaded = load_units(package, "site_actions")
    assert sorted(loaded) == ["switch-hash", "vmk-migrate"]
    assert loaded["vmk-migrate"].under_way is not None and loaded["switch-hash"].under_way is None


def test_a_switch_action_without_text_for_a_switch_platform_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A switch action no platform folder's `fixes.yaml` has text for is refused, naming every platform."""
    package = _package(tmp_path, monkeypatch, "switch_hash")
    (package / "switch_hash").rename(package / "switch_rehash")
    path = package / "switch_rehash" / "action.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("action: switch-hash", "action: switch-rehash"), encoding="utf-8"
    )
    with pytest.raises(ActionError) as error:
        load_units(package, "site_actions")
    assert str(error.value) == (
        f"{path}: a switch action has text for every switch platform; missing {', '.join(switches.SWITCH_NAMES)} "
        "(in hostlint/switches/<platform>/fixes.yaml)"
    )


def test_a_switch_actions_text_comes_from_the_platform_folders_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each platform's text is in its folder (hostlint/switches/<platform>/fixes.yaml), merged in when the
    action loads; a switch action's file that names a platform is refused, naming it."""
    package = _package(tmp_path, monkeypatch, "switch_hash")
    loaded = load_units(package, "site_actions")["switch-hash"].action.platforms
    assert list(loaded) == list(switches.SWITCH_NAMES)
    assert all(loaded[name] == switches.fix_text(name)["switch-hash"] for name in switches.SWITCH_NAMES)
    path = package / "switch_hash" / "action.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "platforms" not in data
    data["platforms"] = {"cisco_ios": loaded["cisco_ios"].model_dump(exclude_none=True)}
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(ActionError) as error:
        load_units(package, "site_actions")
    assert str(error.value) == (
        f"{path}: a switch action's text is in each switch platform's folder "
        "(hostlint/switches/<platform>/fixes.yaml), not in its action file; this file names cisco_ios"
    )


def test_a_host_action_without_text_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch, "vmk_mtu")
    path = package / "vmk_mtu" / "action.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    del data["platforms"]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(ActionError) as error:
        load_units(package, "site_actions")
    assert str(error.value) == f"{path}: a host action has text (`platforms:`) for at least one fix target"


@pytest.mark.parametrize(("name", "what"), [("EXPAND", "the expander"), ("APPLY", "the simulated applier")])
def test_an_action_without_its_expander_or_applier_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, what: str
) -> None:
    package = _package(tmp_path, monkeypatch, "vmk_mtu")
    module = package / "vmk_mtu" / "__init__.py"
    text = module.read_text(encoding="utf-8")
    module.write_text(re.sub(rf"^{name}: .*$", "", text, flags=re.M), encoding="utf-8")
    with pytest.raises(ActionError) as error:
        load_units(package, "site_actions")
    assert str(error.value) == f"{module}: no {name} ({what}); an action's module names it"


def test_an_action_folder_without_its_templates_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch, "vmk_mtu")
    (package / "vmk_mtu" / "action.yaml").unlink()
    with pytest.raises(ActionError, match=r"vmk_mtu: an action folder holds action.yaml \(its templates\)$"):
        load_units(package, "site_actions")


def _site_rule(tmp_path: Path, source: str, edit: dict[str, str]) -> Path:
    """A site rule ACME001, made from hostlint's rule `source` with `edit` (old -> new text)."""
    text = (ROOT / "rules" / f"{source}.yaml").read_text(encoding="utf-8")
    name = yaml.safe_load(text)["name"]
    text = text.replace(f"code: {source}", "code: ACME001").replace(f"name: {name}", "name: acme-rule")
    for old, new in edit.items():
        assert old in text, old
        text = text.replace(old, new)
    folder = tmp_path / "site-rules"
    folder.mkdir(exist_ok=True)
    path = folder / "ACME001.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# LK001's host-side step says it is for ESXi hosts only: without that, it reaches KVM uplinks too.
_REACHES_KVM = {"      hosts: [esxi]  # hostlint writes host-side autonegotiation for ESXi only\n": ""}


def test_a_step_reaching_hosts_its_action_has_no_text_for_is_refused(tmp_path: Path) -> None:
    path = _site_rule(tmp_path, "LK001", _REACHES_KVM)
    with pytest.raises(RuleError) as error:
        check_site_rules(load_rules(extra_dirs=[path.parent]), [path.parent])
    template = ACTIONS / "host_nic_autoneg" / "action.yaml"
    assert str(error.value) == (
        f"{path}: fix.steps.1: host-nic-autoneg reaches kvm hosts, but {template} has no text for them "
        "(nmcli or iproute2 or virsh); add it, or limit the step with `hosts:`"
    )


def test_a_step_naming_no_action_is_refused_with_the_closest(tmp_path: Path) -> None:
    path = _site_rule(tmp_path, "LK001", {"action: host-nic-autoneg": "action: host-nic-autonegotiate"})
    with pytest.raises(RuleError) as error:
        check_site_rules(load_rules(extra_dirs=[path.parent]), [path.parent])
    assert str(error.value) == (
        f"{path}: fix.steps.1: no fix action 'host-nic-autonegotiate'; did you mean host-nic-autoneg?"
    )


def test_check_refuses_such_a_site_rule_with_exit_2_and_one_line(tmp_path: Path) -> None:
    path = _site_rule(tmp_path, "LK001", _REACHES_KVM)
    code, out, err = run(
        "check", str(ROOT / "fixtures" / "labs" / "clean"), "--isolated", "--rules-dir", str(path.parent)
    )
    assert code == Exit.USAGE
    assert out == ""
    assert err.startswith(f"hostlint: {path}: fix.steps.1: host-nic-autoneg reaches kvm hosts")
    assert len(err.splitlines()) == 1


def test_hostlints_own_rules_are_checked_when_the_actions_load() -> None:
    """The shipped rules pass the same check; LK001 without `hosts` would not (see above)."""
    assert "host-nic-autoneg" in units()
    rules = {rule.code: rule for rule in load_rules()}
    step = rules["LK001"].fix.steps[1]
    assert (step.action, rules["LK001"].step_hosts(step)) == ("host-nic-autoneg", ["esxi"])


def test_a_step_limited_to_a_host_kind_the_rule_never_reaches_is_refused(tmp_path: Path) -> None:
    path = _site_rule(tmp_path, "MT001", {"    - action: vmk-mtu\n": "    - action: vmk-mtu\n      hosts: [kvm]\n"})
    with pytest.raises(RuleError, match=r"fix.steps.1.hosts: kvm is not a host kind this rule reaches \(esxi\)"):
        load_rule(path)


def test_a_step_limited_to_esxi_is_left_out_of_kvm_findings(tmp_path: Path) -> None:
    """The engine honours `hosts`: the same forced-speed uplink on ESXi and KVM, one fix step apart."""
    path = _site_rule(
        tmp_path,
        "LK001",
        {
            'when: uplink.link_up && uplink.role != "unused"': 'when: "true"',
            "violation: >-": "violation: >-\n  true ||",
        },
    )
    rule = load_rule(path)
    forced = {"configured_speed_mbps": 1000, "configured_duplex": "full", "port_configured_speed_mbps": None}
    uplinks = [
        UplinkFact(object=f"{kind}01/nic0", host=f"{kind}01", host_kind=kind, nic="nic0", **forced)
        for kind in ("esxi", "kvm")
    ]
    result = run_rules([rule], Facts(uplinks=uplinks))
    steps = {f.host: [r.action for r in f.fix] for f in result.findings}
    assert steps == {"esxi01": ["host-nic-autoneg"], "kvm01": []}
