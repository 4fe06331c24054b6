"""Names are data, never code: hostile names fuzzed through every fix script language.

A name in the test site is replaced by a generated one (quotes, `$()`, backticks, `;`, `|`, `&`,
newlines, CR, NUL, unicode line separators, braces, very long, and valid but odd names). Either
the fix carrying it is withheld (and the name reaches no command), or every script is the benign
one with exactly that name swapped in: shell scripts run under /bin/sh with logging stubs and run
the same commands with the same argv, the pyvmomi script has the same syntax tree, PowerShell the
same tokens, switch snippets the same command lines.
"""

from __future__ import annotations

import copy
import subprocess
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from support.fix_sites import PLATFORMS, findings_for, site
from support.kvm_sites import SWITCH_NAMES, kvm_site, lab, lab_result
from support.script_probe import (
    code_lines,
    files_in,
    make_stubs,
    powershell_tokens,
    python_strings,
    python_tree,
    python_tree_renamed,
    read_argv_log,
    rename_everywhere,
    run_shell,
    switch_comment,
    syntax_ok,
)

from hostlint import platforms as registry
from hostlint.fixes import build_plan, identifiers
from hostlint.fixes.actions import load_actions
from hostlint.fixes.identifiers import control_character
from hostlint.fixes.render import render
from hostlint.fixes.scripts import safe_name
from hostlint.fixes.steps import Change, Step
from hostlint.fixes.withhold import unsafe_reason
from hostlint.fixes.write import write_plan

MARK = "Qz"
_HOSTILE_PARTS = [
    "$(touch pwned)",
    "`touch pwned`",
    "'; touch pwned; '",
    '"; touch pwned; "',
    '"""\nimport os\n"""',
    "\ninterface Vlan1\n shutdown",
    "\r\nreboot",
    "\x00",
    "\u2028x",
    "\u2029",
    "\u0085",
    "{ }",
    "; delete interfaces",
    "| tee x",
    "& calc",
    "'' ''",
    "\u2019; Remove-Item x; \u2019",
    "$env:PATH",
    "@(1)",
    "<script>alert(1)</script>",
    "-rf",
    " VM Network (prod)",
    "a" * 300,
]
names = st.builds(
    lambda parts, tail: MARK + "".join(parts) + tail,
    st.lists(st.sampled_from(_HOSTILE_PARTS), min_size=0, max_size=3),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8),
)
FUZZ = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


_renamed = rename_everywhere


@cache
def _site(platform: str):
    """The test site for a switch platform (findings built as the rules would), or the KVM lab checked."""
    if platform == "kvm":
        snapshot = lab()
        return snapshot, lab_result(snapshot)
    snapshot = site(platform)
    return snapshot, findings_for(snapshot)


def _scripts(platform: str, old: str, new: str, directory: Path):
    snapshot, result = (copy.deepcopy(item) for item in _site(platform))
    if new != old:
        _renamed(snapshot, old, new)
        for finding in result.findings:
            _renamed(finding, old, new)
    plan = build_plan(result, snapshot)
    write_plan(plan, snapshot, directory)
    return plan, files_in(directory)


def _no_name_in_code(files: dict[str, str], directory: Path, stubs: Path) -> None:
    """A withheld name reaches no command: not in any argv, Python literal, PowerShell token or switch line."""
    for name, text in files.items():
        if name.endswith(".sh"):
            for calls in run_shell(directory / name, stubs, directory).values():
                assert not any(MARK in arg for call in calls for arg in call), (name, calls)
        elif name.endswith(".py"):
            assert not any(MARK in s for s in python_strings(text)), name
        elif name.endswith(".ps1"):
            assert not any(MARK in v for _, v in powershell_tokens(text)), name
        elif name.endswith(".txt"):
            assert not any(MARK in line for line in code_lines(text, switch_comment(name))), name


def _same_but_name(benign: dict[str, str], hostile: dict[str, str], old: str, new: str, dirs, stubs) -> None:
    # A renamed device renames its files (safe_name); nothing else may differ.
    renamed_files = {name.replace(old, safe_name(new)) if name != "PLAN.md" else name: name for name in benign}
    assert sorted(renamed_files) == sorted(hostile)
    benign_dir, hostile_dir = dirs
    for name, text in hostile.items():
        before = benign[renamed_files[name]]
        if name.endswith(".sh"):
            expected = run_shell(benign_dir / renamed_files[name], stubs, benign_dir)
            ran = run_shell(hostile_dir / name, stubs, hostile_dir)
            renamed = {s: [[a.replace(old, new) for a in call] for call in calls] for s, calls in expected.items()}
            assert ran == renamed, name
        elif name.endswith(".py"):
            assert python_tree(text) == python_tree_renamed(before, old, new), name
        elif name.endswith(".ps1"):
            swapped = [(k, v.replace(old, new) if k == "str" else v) for k, v in powershell_tokens(before)]
            assert powershell_tokens(text) == swapped, name
        elif name.endswith(".txt"):
            comment = switch_comment(name)
            assert code_lines(text, comment) == [line.replace(old, new) for line in code_lines(before, comment)], name
        assert len(text.splitlines()) == len(before.splitlines()), f"{name}: a name added lines"


def _check(platform: str, old: str, new: str, tmp_path: Path) -> None:
    stubs = make_stubs(tmp_path / "stubs")
    benign_dir, hostile_dir = tmp_path / "benign", tmp_path / "hostile"
    for directory in (benign_dir, hostile_dir):
        if directory.exists():
            for path in directory.iterdir():
                path.unlink()
    _, benign = _scripts(platform, old, old, benign_dir)
    plan, hostile = _scripts(platform, old, new, hostile_dir)
    # No raw HTML from a name in PLAN.md, as a Markdown renderer (GFM tables on) reads it.
    html = MarkdownIt("commonmark").enable("table").render(hostile["PLAN.md"])
    assert "<script" not in html
    if plan.withheld:
        assert all(w.reason for w in plan.withheld)
        _no_name_in_code(hostile, hostile_dir, stubs)
    else:
        _same_but_name(benign, hostile, old, new, (benign_dir, hostile_dir), stubs)


@FUZZ
@given(name=names)
def test_vswitch_names_in_esxcli_powercli_and_pyvmomi(name: str, tmp_path_factory) -> None:
    _check("cisco_nxos", "vSwitch1", name, tmp_path_factory.mktemp("vswitch"))


@FUZZ
@given(name=names)
def test_pnic_names(name: str, tmp_path_factory) -> None:
    _check("cisco_ios", "vmnic0", name, tmp_path_factory.mktemp("pnic"))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=names, platform=st.sampled_from(sorted(PLATFORMS)))
def test_switch_port_names(name: str, platform: str, tmp_path_factory) -> None:
    old = PLATFORMS[platform]["port"].format(11)
    _check(platform, old, name, tmp_path_factory.mktemp("port"))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=names)
def test_host_names(name: str, tmp_path_factory) -> None:
    _check("cisco_nxos", "esx01", name, tmp_path_factory.mktemp("host"))


@FUZZ
@given(name=names)
def test_linux_bond_names_in_nmcli_and_iproute2(name: str, tmp_path_factory) -> None:
    _check("kvm", "bond0", name, tmp_path_factory.mktemp("bond"))


@FUZZ
@given(name=names)
def test_linux_bridge_names_in_the_host_path_mtu_step(name: str, tmp_path_factory) -> None:
    """br0 is the top of db01's host path, raised by host-path-mtu (nmcli and iproute2)."""
    _check("kvm", "br0", name, tmp_path_factory.mktemp("bridge"))


@FUZZ
@given(name=names)
def test_libvirt_domain_names_in_virsh(name: str, tmp_path_factory) -> None:
    _check("kvm", "db01", name, tmp_path_factory.mktemp("domain"))


def test_valid_but_odd_vswitch_name_is_quoted_not_refused(tmp_path: Path) -> None:
    """A name with spaces, quotes and `$` fits a vSwitch's grammar: written, quoted, never refused."""
    odd = "vSwitch 'prod' $HOME"
    _check("cisco_nxos", "vSwitch1", odd, tmp_path)
    plan, files = _scripts("cisco_nxos", "vSwitch1", odd, tmp_path / "again")
    assert plan.withheld == []
    assert "-v 'vSwitch '\"'\"'prod'\"'\"' $HOME'" in files["esx01.esxcli.sh"]
    assert "$_.Name -ceq 'vSwitch ''prod'' $HOME'" in files["esx01.ps1"]


# --- every action, every platform: each name a step carries, swapped for a hostile one -------------


def _kvm_switch_steps() -> list:
    steps = []
    for platform in SWITCH_NAMES:
        snapshot = kvm_site(platform)
        steps += build_plan(lab_result(snapshot), snapshot).steps
    return steps


def _extra_steps(esxi_steps: list) -> list:
    """Changes no test site asks for: a port group's teaming and uplinks, a vmk moved to a distributed switch."""
    actions = load_actions()
    extra = []
    for step in esxi_steps:
        if step.change.action in ("host-teaming", "host-active-uplinks"):
            change = copy.deepcopy(step.change)
            change.values.update(kind="vss-portgroup", portgroup="VM Network")
            extra.append(Step(action=step.action, stage=step.stage, change=change, sources=[], seq=-1))
    move = {
        "vmk": "vmk1",
        "dvswitch": "DSwitch",
        "portgroup": "DPG-A",
        "from_portgroup": "iSCSI",
        "from_switch": "vSwitch1",
    }
    change = Change("vmk-migrate", "esx01", ("powercli",), "vmk1", {"moves": [move]}, "DSwitch/DPG-A", "vSwitch1/iSCSI")
    extra.append(Step(action=actions["vmk-migrate"], stage="host", change=change, sources=[], seq=-1))
    return extra


@cache
def _every_step() -> list:
    steps = []
    for platform in [*sorted(PLATFORMS), "kvm"]:
        snapshot, result = _site(platform)
        plan = build_plan(result, snapshot)
        steps += plan.steps + [s for advised in plan.advice_steps.values() for s in advised]
    steps += _kvm_switch_steps()
    steps += _extra_steps(steps)
    return steps


def _names_in(step) -> list[str]:
    """The names a step carries (not vocabulary words): its device and every name-like value."""
    found = {step.change.device}
    for platform in step.change.platforms:
        keys = identifiers._keys(platform)
        for top, value in step.change.values.items():
            for kind, _path, leaf in identifiers._leaves(value, top, top, keys):
                if isinstance(leaf, str) and kind not in ("token", "switch_words") and len(leaf) >= 4:
                    found.add(leaf)
    # A name inside another (iSCSI in DPG-iSCSI) cannot be told apart by replacing text: left out.
    return sorted(n for n in found if not any(n in other for other in found if other != n))


@cache
def _cases() -> list[tuple[int, str, str]]:
    steps = _every_step()
    return [
        (i, platform, name) for i, s in enumerate(steps) for platform in s.change.platforms for name in _names_in(s)
    ]


def _renamed_step(step, old: str, new: str):
    change = copy.deepcopy(step.change)
    change.device = _renamed(change.device, old, new)
    change.values = _renamed(change.values, old, new)
    return Step(action=step.action, stage=step.stage, change=change, sources=[], seq=-1)


def _run_fragment(text: str, stubs: Path, workdir: Path) -> list[list[str]]:
    """Commands a step's shell text runs under /bin/sh with only the logging stubs on PATH."""
    script = workdir / "fragment.sh"
    script.write_text(text + "\n", encoding="utf-8")
    syntax_ok(script)
    log = workdir / "argv.log"
    log.unlink(missing_ok=True)
    env = {"PATH": str(stubs), "HOSTLINT_ARGV_LOG": str(log), "LC_ALL": "C.UTF-8"}
    outcome = subprocess.run(["/bin/sh", str(script)], cwd=workdir, env=env, capture_output=True, timeout=30)
    assert outcome.returncode == 0, outcome.stderr.decode(errors="replace")
    return read_argv_log(log)


def _same_command(language: str, benign: str, hostile: str, old: str, new: str, workdir: Path) -> None:
    assert len(hostile.splitlines()) == len(benign.splitlines())
    if language == "sh":
        stubs = make_stubs(workdir / "stubs")
        # Sorted: the two sides of a pipeline log in either order.
        expected = sorted([arg.replace(old, new) for arg in call] for call in _run_fragment(benign, stubs, workdir))
        assert sorted(_run_fragment(hostile, stubs, workdir)) == expected
    elif language == "ps":
        swapped = [(k, v.replace(old, new) if k == "str" else v) for k, v in powershell_tokens(benign)]
        assert powershell_tokens(hostile) == swapped
    elif language == "py":
        assert python_tree(hostile) == python_tree_renamed(benign, old, new)
    else:
        assert hostile.splitlines() == [line.replace(old, new) for line in benign.splitlines()]


def test_every_action_and_platform_is_covered() -> None:
    covered = {(s.change.action, p) for s in _every_step() for p in s.change.platforms}
    expected = {(a.action, p) for a in load_actions().values() for p in a.platforms}
    assert covered == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), name=names)
def test_every_action_and_platform_with_a_hostile_name(data, name: str, tmp_path_factory) -> None:
    index, platform, old = data.draw(st.sampled_from(_cases()))
    step = _every_step()[index]
    hostile = _renamed_step(step, old, name)
    reason = unsafe_reason(hostile.change, hostile.action, hostile.stage)
    if control_character(name) is not None:
        assert reason is not None, "a name with a control character must be withheld"
    if reason is not None:
        return
    language = registry.target(platform).language
    for field in ("change", "verify", "rollback"):
        workdir = tmp_path_factory.mktemp("fragment")
        _same_command(language, render(step, platform, field), render(hostile, platform, field), old, name, workdir)
    for field in ("expect", "rollback_expect"):
        text = render(hostile, platform, field)
        assert len(text.splitlines()) == len(render(step, platform, field).splitlines())
        assert control_character(text.replace("\n", "")) is None
