"""Names are data, never code: identifier grammars, quoting enforced by the template environment,
withheld fixes, and the five injections of issue 17 through the real CLI path.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.fix_sites import findings_for, site
from support.script_probe import (
    code_lines,
    files_in,
    make_stubs,
    powershell_tokens,
    python_strings,
    rename_everywhere,
    run_shell,
    switch_comment,
)

from hostlint.check import check_snapshot
from hostlint.cli.main import cli
from hostlint.fixes import build_plan
from hostlint.fixes.actions import load_actions
from hostlint.fixes.identifiers import interface_kind, problem
from hostlint.fixes.plan_md import md, md_code
from hostlint.fixes.quoting import UnsafeValue, ps, py, sh
from hostlint.fixes.render import _environment
from hostlint.fixes.write import write_plan
from hostlint.rules import load_rules
from hostlint.snapshot import load_site

# Junos's interface names: its folder's grammar (hostlint/switches/juniper_junos/names.py).
JUNOS_INTERFACE = interface_kind("juniper_junos")

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"

# --- grammars -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        ("portgroup", "VM Network"),
        ("portgroup", "iSCSI (A) 'prod' & $HOME; `x` | y"),
        ("vswitch", "vSwitch-iSCSI"),
        ("vmnic", "vmnic12"),
        ("vmk", "vmk0"),
        ("linux_interface", "enp3s0f1.100"),
        ("libvirt_domain", "web 01 (prod)"),
        ("cisco_like_interface", "TenGigabitEthernet1/1/3"),
        ("cisco_like_interface", "Ethernet1/1/1"),
        ("cisco_like_interface", "Ethernet55/1"),
        (JUNOS_INTERFACE, "et-0/0/48:1"),
        (JUNOS_INTERFACE, "ae10"),
        # Issue 29: AOS-CX names (a port by member/slot/port alone, a channel `lagN`) and Huawei's and
        # Comware's channels fit the switch interface grammar, so their fixes are not withheld.
        ("cisco_like_interface", "1/1/1"),
        ("cisco_like_interface", "1/1/49:2"),
        ("cisco_like_interface", "1/1/1.100"),
        ("cisco_like_interface", "lag1"),
        ("cisco_like_interface", "Eth-Trunk1"),
        ("cisco_like_interface", "Bridge-Aggregation10"),
        ("host", "esx01.corp.example.com"),
    ],
)
def test_legal_names_are_accepted(kind: str, name: str) -> None:
    assert problem(kind, name) is None


@pytest.mark.parametrize(
    ("kind", "name", "reason"),
    [
        ("portgroup", "VM\nNetwork", "port group name contains a newline"),
        ("portgroup", "VM\rNetwork", "port group name contains a carriage return"),
        ("portgroup", "VM\x00", "port group name contains a NUL byte"),
        ("portgroup", "VM\u2028x", "port group name contains a unicode line separator"),
        ("portgroup", "a\u202ex", "port group name contains the control character U+202E"),
        ("portgroup", "x" * 256, "port group name is 256 characters long (at most 255)"),
        ("portgroup", "-rf", "port group name starts with '-' (a command would read it as an option)"),
        ("vmnic", "vmnic0$(touch x)", "physical NIC name 'vmnic0$(touch x)' is not vmnicN or vusbN"),
        ("linux_interface", "averyverylongname", "interface name is 17 characters long (at most 15)"),
        ("linux_interface", "eth/0", "interface name 'eth/0' is not letters, digits and '_', '.', '-', '@', '+', '='"),
        ("libvirt_domain", "a/b", "domain name 'a/b' is not anything but '/'"),
        ("cisco_like_interface", "Te1/1/3\ninterface Vlan1\n shutdown", "interface name contains a newline"),
        (
            "cisco_like_interface",
            "1",
            "interface name '1' is not a type word and slot/port numbers, or slot/port numbers",
        ),
        ("cisco_like_interface", "1/1/1 shutdown", None),
        ("cisco_like_interface", "1/1/1;", None),
        (JUNOS_INTERFACE, "xe-0/0/1; delete", None),
        ("host", "esx01'; Remove-Item x; '", None),
        ("host", 'esx01"""', None),
    ],
)
def test_illegal_names_are_refused_with_a_reason(kind: str, name: str, reason: str | None) -> None:
    found = problem(kind, name)
    assert found is not None
    if reason is not None:
        assert found == reason


# --- quoting enforced by the environment -----------------------------------------------------------


@pytest.mark.parametrize("language", ["sh", "ps", "py", "cli"])
def test_a_raw_value_in_a_command_template_refuses_to_render(language: str) -> None:
    template = _environment(language).from_string("do {{ nic }}")
    with pytest.raises(UnsafeValue, match="raw str"):
        template.render(nic="vmnic0")


def test_a_value_quoted_for_another_language_refuses_to_render() -> None:
    with pytest.raises(UnsafeValue, match="quoted for ps in a sh template"):
        _environment("sh").from_string("do {{ nic | ps }}").render(nic="vmnic0")


def test_numbers_vocabulary_and_quoted_lists_render() -> None:
    env = _environment("sh")
    text = env.from_string("x -m {{ mtu }} -l {{ p | esxcli_policy }} -a {{ nics | join(',') | sh }}").render(
        mtu=9000, p="loadbalance_ip", nics=["vmnic0", "vmnic1"]
    )
    assert text == "x -m 9000 -l iphash -a vmnic0,vmnic1"
    ps_text = _environment("ps").from_string("-Name {{ nics | map('ps') | join(', ') }}").render(nics=["a'b", "c"])
    assert ps_text == "-Name 'a''b', 'c'"


def test_escaping_functions() -> None:
    assert sh("a'b $(x)") == "'a'\"'\"'b $(x)'"
    assert ps("a'b\u2019c $x") == "'a''b\u2019\u2019c $x'"
    assert py('x"""\n') == repr('x"""\n')
    with pytest.raises(UnsafeValue):
        sh("a\nb")
    with pytest.raises(UnsafeValue):
        ps("a\x00b")


def test_a_template_that_writes_a_raw_name_withholds_its_fix() -> None:
    """A defect in an action.yaml (a raw `{{ nic }}`) fails loudly: the fix is withheld, never written raw."""
    actions = load_actions()
    action = actions["host-nic-autoneg"]
    broken = action.model_copy(deep=True)
    broken.platforms["esxcli"].change = "esxcli network nic set -n {{ nic }} -a\n"
    actions["host-nic-autoneg"] = broken
    snapshot = site("cisco_ios")
    plan = build_plan(findings_for(snapshot), snapshot, actions=actions)
    assert "host-nic-autoneg" not in {s.action.action for s in plan.steps}
    [withheld] = [w for w in plan.withheld if w.action == "host-nic-autoneg"]
    assert "raw str in a sh template" in withheld.reason


def test_a_switch_platforms_broken_text_withholds_its_fix_naming_the_folders_file() -> None:
    """A switch platform's text is its folder's `fixes.yaml`: a raw value there withholds the fix, and the
    reason names that file, not the action's."""
    actions = load_actions()
    broken = actions["switch-trunk-native-vlan"].model_copy(deep=True)
    broken.platforms["cisco_nxos"].verify = "show interface {{ interface }} trunk\n"
    actions["switch-trunk-native-vlan"] = broken
    snapshot = site("cisco_nxos")
    plan = build_plan(findings_for(snapshot), snapshot, unsafe=True, actions=actions)
    assert "switch-trunk-native-vlan" not in {s.action.action for s in plan.steps}
    reasons = {w.reason for w in plan.withheld if w.action == "switch-trunk-native-vlan"}
    named = "a value cannot be written safely: hostlint/switches/cisco_nxos/fixes.yaml: cisco_nxos.verify: "
    assert reasons and all(reason.startswith(named) for reason in reasons), reasons


def test_markdown_escaping() -> None:
    assert md("<script>alert(1)</script>|x\ny") == "\\<script>alert(1)\\</script>\\|x\\\\ny"
    assert md_code("a`b") == "``a`b``"
    assert md_code("`a") == "`` `a ``"


# --- the five injections of issue 17, through `hostlint check --fix-script --unsafe-fixes` ----------


def _poison(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        if value == old:
            return new
        parts = value.split("/")
        return "/".join(new if p == old else p for p in parts) if old in parts else value
    if isinstance(value, list):
        return [_poison(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _poison(v, old, new) for k, v in value.items()}
    return value


def _poisoned_lab(tmp_path: Path, lab: str, replacements: dict[str, str]) -> Path:
    directory = tmp_path / lab
    shutil.copytree(LABS / lab, directory)
    for path in directory.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        for old, new in replacements.items():
            data = _poison(data, old, new)
        path.write_text(json.dumps(data), encoding="utf-8")
    return directory


def _check_lab(tmp_path: Path, lab: Path) -> tuple[int, str, Path]:
    out = tmp_path / "fixes"
    args = ["check", str(lab), "--fix-script", str(out), "--unsafe-fixes"]
    outcome = CliRunner().invoke(cli, args, standalone_mode=False)
    assert outcome.exception is None, outcome.exception
    return int(outcome.return_value), outcome.stderr, out


def _assert_no_payload(out: Path, tmp_path: Path, payload: str) -> None:
    """No command anywhere carries the payload: shell steps run with stubs, Python, PowerShell, switches."""
    stubs = make_stubs(tmp_path / "stubs")
    work = tmp_path / "work"
    work.mkdir()
    for name, text in files_in(out).items():
        assert "\n" not in payload or payload not in text, f"{name} holds the raw payload"
        if name.endswith(".sh"):
            for calls in run_shell(out / name, stubs, work).values():
                assert not any(payload in arg for call in calls for arg in call), name
        elif name.endswith(".py"):
            assert not any(payload in s for s in python_strings(text)), name
        elif name.endswith(".ps1"):
            assert not any(payload in v for _, v in powershell_tokens(text)), name
        elif name.endswith(".txt"):
            assert not any(payload in line for line in code_lines(text, switch_comment(name))), name
    assert list(work.iterdir()) == [] or all(p.name.startswith(".argv") for p in work.iterdir())
    assert not (work / "x").exists()


INJECTIONS = [
    pytest.param(
        "duplex-mismatch",
        {"vmnic2": "vmnic2$(touch x)"},
        "LK001",
        "physical NIC name 'vmnic2$(touch x)' is not vmnicN or vusbN",
        "$(touch x)",
        id="pnic-command-substitution",
    ),
    pytest.param(
        "ip-hash-no-port-channel",
        {"vSwitch1": "vSwitch1\nreboot"},
        "LG001",
        "vSwitch name contains a newline",
        "reboot",
        id="vswitch-newline",
    ),
    pytest.param(
        "ip-hash-no-port-channel",
        {"esx-ber-03.corp.example.com": "esx-ber-03'; Remove-Item -Recurse C:\\; '"},
        "LG001",
        "host name 'esx-ber-03'; Remove-Item -Recurse",
        "Remove-Item",
        id="powercli-host-quote",
    ),
    pytest.param(
        "ip-hash-no-port-channel",
        {"esx-ber-03.corp.example.com": 'esx-ber-03"""\nimport os; os.system("touch x")\n"""'},
        "LG001",
        "host name contains a newline",
        "os.system",
        id="pyvmomi-docstring",
    ),
    pytest.param(
        "ip-hash-no-port-channel",
        {
            # The host's LLDP neighbour port and the switch port, poisoned alike so the uplink resolves.
            "TenGigabitEthernet1/1/3": "TenGigabitEthernet1/1/3\ninterface Vlan1\n shutdown",
            "Te1/1/3": "TenGigabitEthernet1/1/3\ninterface Vlan1\n shutdown",
        },
        "LG001",
        "interface name contains a newline",
        "interface Vlan1",
        id="ios-port-newline",
    ),
]


@pytest.mark.parametrize(("lab", "replacements", "code", "reason", "payload"), INJECTIONS)
def test_issue_17_injections_are_withheld(tmp_path: Path, lab, replacements, code, reason, payload) -> None:
    code_, stderr, out = _check_lab(tmp_path, _poisoned_lab(tmp_path, lab, replacements))
    if code_ == 2:
        # The snapshot loader refused the name at load time: one line, nothing written.
        assert len(stderr.strip().splitlines()) == 1 and not out.exists()
        return
    assert code_ == 1, stderr
    withheld = [line for line in stderr.splitlines() if line.startswith(f"hostlint: fix withheld for {code} ")]
    assert withheld, stderr
    assert any(reason in line for line in withheld), withheld
    plan_md = (out / "PLAN.md").read_text(encoding="utf-8")
    assert "## Withheld fixes" in plan_md
    _assert_no_payload(out, tmp_path, payload)


# --- how a withheld step affects the rest of the plan -----------------------------------------------


def test_a_withheld_switch_step_withholds_the_host_step_that_needs_it_and_keeps_the_rest(tmp_path: Path) -> None:
    """LG001: port ID on the host, then the switch channel, then IP hash on the host. With the channel's
    port name poisoned (in memory, past any loader check), the channel and IP hash (which would recreate
    the outage alone) are withheld; the port ID step, safe on its own, and the finding stay."""
    poisoned = "TenGigabitEthernet1/1/3\ninterface Vlan1\n shutdown"
    snapshot = load_site([LABS / "ip-hash-no-port-channel"])
    for old in ("TenGigabitEthernet1/1/3", "Te1/1/3"):
        rename_everywhere(snapshot, old, poisoned)
    result = check_snapshot(snapshot, load_rules())
    plan = build_plan(result, snapshot)
    assert [w.message for w in plan.withheld] == [
        "fix withheld for LG001 esx-ber-03.corp.example.com/vSwitch1 (switch-static-port-channel): "
        "interface name contains a newline",
        "fix withheld for LG001 esx-ber-03.corp.example.com/vSwitch1 (host-teaming): "
        "safe only after switch-static-port-channel, whose fix was withheld",
    ]
    assert [(s.stage, s.action.action, s.change.after) for s in plan.steps] == [
        ("host-undo", "host-teaming", "loadbalance_srcid")
    ]
    assert [f.code for f in result.findings] == ["LG001"]
    write_plan(plan, snapshot, tmp_path)
    assert not list(tmp_path.glob("*.cisco_ios.txt"))
    script = (tmp_path / "esx-ber-03.corp.example.com.esxcli.sh").read_text(encoding="utf-8")
    assert "-l portid" in script and "-l iphash" not in script
    assert "## Withheld fixes" in (tmp_path / "PLAN.md").read_text(encoding="utf-8")


def test_display_only_advice_with_a_poisoned_name_shows_no_commands(tmp_path: Path) -> None:
    lab = _poisoned_lab(tmp_path, "kvm-bonds", {"legacy01": "legacy01\nrm -rf /"})
    code, stderr, out = _check_lab(tmp_path, lab)
    assert code in (1, 2)
    if code == 2:
        return
    assert "(guest-nic-model): domain name contains a newline" in stderr
    advice = (out / "PLAN.md").read_text(encoding="utf-8").split("## Advice")[1]
    # Unpoisoned, the advice shows the virt-xml commands to adapt; poisoned, none.
    assert "virt-xml" not in advice
    assert "\nrm -rf" not in advice


def test_a_requested_change_with_a_hostile_name_is_withheld_in_the_pre_change_plan(tmp_path: Path) -> None:
    """`hostlint plan --set`: a name typed by a person is data too."""
    from hostlint.change.whatif import what_if

    snapshot = site("cisco_nxos")
    result = what_if(snapshot, load_rules(), ["esx01/vmk1.portgroup=DSwitch1/iSCSI\nStop-Computer"])
    assert [s.change.action for s in result.plan.steps if s.change.action == "vmk-migrate"] == []
    [withheld] = [w for w in result.plan.withheld if w.action == "vmk-migrate"]
    assert withheld.reason == "port group name contains a newline"
    write_plan(result.plan, snapshot, tmp_path)
    assert all("Stop-Computer" not in p.read_text(encoding="utf-8") for p in tmp_path.glob("*.ps1"))


def test_a_switch_change_on_slot_port_names_and_a_lag_is_not_withheld() -> None:
    """Issue 29: `1/1/1` was refused by the switch interface grammar, so every fix on such a switch was
    withheld. The values a switch step carries are checked by the grammar its platform names."""
    from hostlint.fixes.identifiers import check_values

    values = {"port": "1/1/1", "members": [{"port": "1/1/1"}, {"port": "1/1/2"}], "name": "lag1", "mode": "active"}
    assert check_values(values, "cisco_nxos") is None
    assert check_values({**values, "port": "1/1/1\nexit"}, "cisco_nxos") == "interface name contains a newline"
