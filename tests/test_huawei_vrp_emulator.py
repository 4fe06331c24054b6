"""The Huawei VRP stateful emulator (tests/switch_emulator/platforms/huawei_vrp.py): its display output,
rendered from the state made of the folder's own `Switch`, reads back through the folder's templates and
assembly into the same facts (round trip); its configuration grammar changes that state as VRP does and
refuses what VRP refuses; netmiko's `huawei` driver collects and configures it over SSH."""

from __future__ import annotations

from pathlib import Path

import pytest
from netmiko import ConnectHandler
from support.netmiko_login import login
from switch_emulator.platforms.huawei_vrp import (
    RENDER,
    UNRECOGNIZED,
    Interface,
    VrpSession,
    VrpState,
    VrpSwitch,
    from_switch,
    read_back,
    render,
    rendered,
    sample_switch,
)
from switch_emulator.server import EmulatedSwitch, SwitchEmulator

from hostlint.collect.switches.platforms import load_folder
from hostlint.snapshot.switch import Switch
from hostlint.switches.huawei_vrp import assemble

FOLDER = Path(assemble.__file__).parent
SPEC = load_folder(FOLDER)


def collect(outputs: dict[str, str]) -> tuple[Switch, list[str]]:
    return read_back(outputs)


def from_samples() -> Switch:
    return sample_switch()


def _known(switch: Switch) -> dict[str, object]:
    """Every fact the switch holds (None: not shown), per port and channel."""
    dump = switch.model_dump(mode="json")
    return {
        item["name"]: {k: v for k, v in item.items() if v is not None and v != []}
        for item in (*dump["ports"], *dump["port_channels"])
    }


def test_the_samples_switch_renders_and_reads_back_to_the_same_facts() -> None:
    original = from_samples()
    outputs = {c.command: RENDER(original, c.command) or "" for c in SPEC.commands}  # the hook: from a Switch
    again, warnings = read_back(outputs)
    assert warnings == []
    known, shown = _known(original), _known(again)
    # Every fact the samples gave reads back unchanged from the rendering (which shows more: every
    # port's state and frame length).
    for name, facts in known.items():
        assert {k: shown[name].get(k) for k in facts} == facts, name
    # And the rendering is a fixed point: rendered again from what it read, it reads the same.
    assert _known(rendered(from_switch(again))) == shown


def run(state: VrpState, *lines: str) -> list[str]:
    session = VrpSession(state)
    return [session.execute(line) for line in lines]


def test_a_trunk_becomes_lacp_only_without_members_and_reads_back() -> None:
    state = from_switch(from_samples())
    answers = run(state, "system-view", "interface Eth-Trunk3", "mode lacp")
    assert answers[-1].startswith("Error: The Eth-Trunk has member ports")
    members = ("XGigabitEthernet0/0/5", "XGigabitEthernet1/0/5")
    leave = [line for p in members for line in (f"interface {p}", "undo eth-trunk")]
    join = [line for p in members for line in (f"interface {p}", "eth-trunk 3")]
    answers = run(state, "system-view", *leave, "interface Eth-Trunk3", "mode lacp", *join, "return")
    assert not any(answer.startswith("Error") for answer in answers), answers
    trunk = next(c for c in rendered(state).port_channels if c.name == "Eth-Trunk3")
    assert (trunk.mode, trunk.members) == ("lacp-active", list(members))


def test_vlans_frames_and_shutdown_read_back() -> None:
    state = from_switch(from_samples())
    run(
        state,
        "system-view",
        "interface Eth-Trunk2",
        "port trunk allow-pass vlan 200 to 210",
        "undo port trunk allow-pass vlan 110",
        "port trunk pvid vlan 100",
        "jumboframe enable 9022",
        "quit",
        "interface XGigabitEthernet0/0/2",
        "undo shutdown",
        "port default vlan 110",
        "return",
    )
    switch = rendered(state)
    trunk = next(c for c in switch.port_channels if c.name == "Eth-Trunk2")
    assert (trunk.allowed_vlans, trunk.native_vlan) == ([(100, 100), (200, 210)], 100)
    ports = {p.name: p for p in switch.ports}
    assert ports["XGigabitEthernet0/0/3"].mtu == 9000  # the members follow the trunk's frame length
    assert (ports["XGigabitEthernet0/0/2"].status, ports["XGigabitEthernet0/0/2"].access_vlan) == ("up", 110)


@pytest.mark.parametrize(
    ("lines", "refusal"),
    [
        (["interface XGigabitEthernet0/0/1", "port link-type access"], "Eth-Trunk member"),
        (["interface Eth-Trunk1", "load-balance enhanced"], "Wrong parameter"),
        (["interface XGigabitEthernet0/0/2", "speed 1000"], "auto-negotiation"),
        (["undo interface Eth-Trunk1"], "member ports"),
        (["interface XGigabitEthernet0/0/2", "eth-trunk 1"], "VLAN configuration"),
        (["commit"], "Unrecognized"),
    ],
)
def test_what_vrp_refuses_leaves_the_state_unchanged(lines: list[str], refusal: str) -> None:
    state = from_switch(from_samples())
    before = render(state, "display current-configuration")
    answers = run(state, "system-view", *lines)
    assert refusal in answers[-1] and answers[-1].startswith("Error:")
    assert render(state, "display current-configuration") == before


def test_vrp8_changes_wait_for_commit() -> None:
    state = from_switch(from_samples(), version="8.180")
    run(state, "system-view", "interface XGigabitEthernet0/0/2", "undo shutdown", "return")
    assert state.interfaces["XGigabitEthernet0/0/2"].shutdown
    run(state, "system-view", "interface XGigabitEthernet0/0/2", "undo shutdown", "commit", "return")
    assert not state.interfaces["XGigabitEthernet0/0/2"].shutdown


def test_netmiko_huawei_collects_and_configures_over_ssh() -> None:
    state = from_switch(from_samples())
    expected = _known(rendered(from_switch(from_samples())))
    switch = VrpSwitch(state)
    with SwitchEmulator() as emulator:
        port = emulator.add(EmulatedSwitch("hw-tor1", "huawei_vrp", stateful=switch))
        device = login("huawei", port, "lab-secret")
        with ConnectHandler(**device) as connection:
            assert connection.base_prompt == "hw-tor1"
            outputs = {c.command: connection.send_command(c.command) for c in SPEC.commands}
            connection.send_config_set(["interface Eth-Trunk1", "load-balance src-dst-mac"])
            after = connection.send_command("display eth-trunk 1")
            refused = connection.send_command("display nonsense")
    collected, warnings = collect(outputs)
    assert warnings == [] and _known(collected) == expected
    # The samples' M-LAG (`dfs-group 1`, a `peer-link` Eth-Trunk): two peers, in Huawei's own word.
    assert collected.multichassis is not None
    assert (collected.multichassis.kind, collected.multichassis.domain_id) == ("m-lag", "1")
    assert "Hash arithmetic: According to SA-XOR-DA" in after
    assert UNRECOGNIZED in refused
    assert ("load-balance src-dst-mac", "") in switch.log


# --- the folder's fix text, rehearsed on the emulator and rolled back exactly -----------------------------


def _text(action: str, field: str, **values: object) -> list[str]:
    import yaml

    from hostlint.fixes.render import environment

    texts = yaml.safe_load((FOLDER / "fixes.yaml").read_text(encoding="utf-8"))
    rendered_text = environment("cli").from_string(texts[action][field]).render(platform="huawei_vrp", **values)
    return [line for line in str(rendered_text).split("\n") if line.strip()]


_TRUNK3 = {"interface": "Eth-Trunk3", "number": 3, "members": ["XGigabitEthernet0/0/5", "XGigabitEthernet1/0/5"]}
_TRUNK2 = {"interface": "Eth-Trunk2", "number": 2, "members": ["XGigabitEthernet0/0/3", "XGigabitEthernet1/0/3"]}
REHEARSALS: list[tuple[str, dict[str, object], str]] = [
    ("switch-channel-mode-lacp", {**_TRUNK3, "before": "static"}, "Eth-Trunk3"),
    ("switch-channel-mode-static", {**_TRUNK2, "before": "lacp-active"}, "Eth-Trunk2"),
    (
        "switch-port-admin",
        {"ports": ["XGigabitEthernet0/0/2"], "after": "up", "before": "down"},
        "XGigabitEthernet0/0/2",
    ),
    (
        "switch-port-mtu",
        {"after": 9000, "before": 1578, "interfaces": [{"name": "Eth-Trunk3", "figure": "l3", "before": 1578}]},
        "Eth-Trunk3",
    ),
    (
        "switch-trunk-allow-vlan",
        {"interface": "Eth-Trunk2", "vlans": ["120", "200-210"], "before": ["100", "110"]},
        "Eth-Trunk2",
    ),
    ("switch-trunk-native-vlan", {"interface": "Eth-Trunk2", "before": 1, "after": 100}, "Eth-Trunk2"),
    (
        "switch-port-autoneg",
        {"port": "GigabitEthernet0/0/48", "before": {"speed": 1000, "duplex": "half"}},
        "GigabitEthernet0/0/48",
    ),
    (
        "switch-remove-port-channel",
        {
            **_TRUNK3,
            "carry": [{"port": "XGigabitEthernet0/0/5"}, {"port": "XGigabitEthernet1/0/5"}],
            "remove_interface": True,
            "load_balance": "src-dst-ip",
            "mode": "static",
            "config": {
                "mode": "trunk",
                "native_vlan": 1,
                "allowed": ["100", "110"],
                "allowed_vlans": [[100, 100], [110, 110]],
            },
        },
        "XGigabitEthernet0/0/5",
    ),
]


def _paste(state: VrpState, lines: list[str]) -> None:
    answers = run(state, "system-view", *lines, "return")
    assert not [a for a in answers if a.startswith("Error")], list(zip(["system-view", *lines], answers, strict=False))


@pytest.mark.parametrize(("action", "values", "changed"), REHEARSALS, ids=[r[0] for r in REHEARSALS])
def test_every_switch_action_changes_the_emulator_and_its_rollback_restores_it_exactly(
    action: str, values: dict[str, object], changed: str
) -> None:
    state = from_switch(from_samples())
    state.interfaces.setdefault("XGigabitEthernet0/0/9", Interface(name="XGigabitEthernet0/0/9"))
    before = render(state, "display current-configuration")
    _paste(state, _text(action, "change", **values))
    after = render(state, "display current-configuration")
    assert after != before
    assert changed in {
        line.removeprefix("interface ") for line in after.split("\n") if line not in before.split("\n")
    } | {line.removeprefix("interface ") for line in _text(action, "change", **values)}
    if "rollback" in yaml_fields(action):
        _paste(state, _text(action, "rollback", **values))
    else:  # a mirrored rollback: the change with before and after swapped
        _paste(state, _text(action, "change", **{**values, "before": values["after"], "after": values["before"]}))
    assert render(state, "display current-configuration") == before


def yaml_fields(action: str) -> set[str]:
    import yaml

    return set(yaml.safe_load((FOLDER / "fixes.yaml").read_text(encoding="utf-8"))[action])


_OWN = ["port link-type trunk", "port trunk allow-pass vlan 100 110", "jumboframe enable 9022"]


def _static(members: list[dict[str, object]], create: bool = True) -> dict[str, object]:
    return {
        "interface": "Eth-Trunk9",
        "number": 9,
        "create": create,
        "existing_mode": None if create else "static",
        "multichassis": None,
        "ports": [m["port"] for m in members],
        "members": members,
    }


def _member(port: str, lines: list[str] | None, from_channel: int | None = None) -> dict[str, object]:
    return {"port": port, "from_channel": from_channel, "from_mode": None, "lines": lines}


@pytest.mark.parametrize("family", [None, "vrp8"])
def test_a_new_static_trunk_takes_its_members_vlans_and_the_rollback_gives_them_back(family: str | None) -> None:
    """Members with the same own VLAN and frame lines: the new Eth-Trunk gets them, the members lose theirs
    and join; the rollback takes them out with their own lines back and removes the Eth-Trunk. Pasted on
    the emulator (VRP 8: candidate until the block's commit), the running configuration is as before."""
    state = from_switch(from_samples(), version="8.180" if family else None)
    for name in ("XGigabitEthernet0/0/8", "XGigabitEthernet0/0/9"):
        state.interfaces[name] = Interface(name=name, link_type="trunk", allowed={1, 100, 110}, jumbo=9022)
    before = render(state, "display current-configuration")
    assert [
        line.strip() for line in before.split("interface XGigabitEthernet0/0/9\n")[1].split("#")[0].splitlines()
    ] == _OWN
    values = {
        **_static([_member(p, _OWN) for p in ("XGigabitEthernet0/0/8", "XGigabitEthernet0/0/9")]),
        "family": family,
    }
    change = _text("switch-static-port-channel", "change", **values)
    assert not [line for line in change if line.startswith("#")]
    assert change[:5] == ["interface Eth-Trunk9", " mode manual load-balance", *(f" {line}" for line in _OWN)]
    assert ("commit" in change) == (family == "vrp8")
    _paste(state, change)
    after = render(state, "display current-configuration")
    assert after != before
    shown = render(state, "display eth-trunk 9")
    assert "WorkingMode: NORMAL" in shown and "XGigabitEthernet0/0/9" in shown
    _paste(state, _text("switch-static-port-channel", "rollback", **values))
    assert render(state, "display current-configuration") == before


@pytest.mark.parametrize(
    "members",
    [
        [_member("XGigabitEthernet0/0/9", None)],  # lines not collected
        [_member("XGigabitEthernet0/0/8", _OWN), _member("XGigabitEthernet0/0/9", _OWN[:2])],  # they differ
        [_member("XGigabitEthernet0/0/9", [], from_channel=3)],  # out of another Eth-Trunk
        [_member("XGigabitEthernet0/0/9", ["port link-type hybrid", "port hybrid untagged vlan 10"])],
    ],
    ids=["not-collected", "members-differ", "from-another-trunk", "hybrid"],
)
def test_a_new_static_trunk_hostlint_cannot_write_safely_is_left_to_a_person(members: list[dict[str, object]]) -> None:
    """Where the members' own lines are unknown or differ, or a member leaves another Eth-Trunk, the text is
    a manual step with what to type, no line VRP would refuse half-way."""
    values = _static(members)
    lines = _text("switch-static-port-channel", "change", **values) + _text(
        "switch-static-port-channel", "rollback", **values
    )
    assert lines and all(line.startswith("#") for line in lines)
    assert "`eth-trunk 9`" in " ".join(lines) and "`undo interface Eth-Trunk9`" in " ".join(lines)


def _blocks(script: str) -> list[list[str]]:
    """The pasted blocks of a switch script (between `system-view` and `return`), comments left out."""
    found: list[list[str]] = []
    block: list[str] | None = None
    for line in script.splitlines():
        if line == "system-view":
            block = []
        elif line == "return" and block is not None:
            found.append(block)
            block = None
        elif block is not None and not line.startswith("#"):
            block.append(line)
    return found


def test_the_planned_scripts_run_on_the_emulator_and_their_rollback_restores_it_exactly() -> None:
    """The fix writer's own scripts for the small site (tests/golden/fixes/huawei_vrp, written by the plan
    builder from tests/support/fix_sites.py): every block pasted in order with no refusal, then every undo."""
    from support.fix_sites import site

    switch = next(s for s in site("huawei_vrp").switches if s.name == "sw1")
    state = from_switch(switch)
    before = render(state, "display current-configuration")
    golden = Path(__file__).resolve().parent / "golden" / "fixes" / "huawei_vrp"
    for name in ("sw1.huawei_vrp.txt", "sw1.rollback.huawei_vrp.txt"):
        blocks = _blocks((golden / name).read_text(encoding="utf-8"))
        assert len(blocks) >= 8, name
        for block in blocks:
            _paste(state, block)
        if name == "sw1.huawei_vrp.txt":
            assert render(state, "display current-configuration") != before
    assert render(state, "display current-configuration") == before


@pytest.mark.parametrize("committed", [False, True], ids=["without-commit", "with-commit"])
def test_a_vrp8_plan_takes_effect_only_with_its_commit(committed: bool, tmp_path: Path) -> None:
    """A CloudEngine (VRP 8) switch's plan carries `commit` in every block (its family, from the model, is
    vrp8): pasted over SSH with netmiko's `huawei_vrpv8`, which stays in system view as VRP 8 wants, the
    blocks without their `commit` leave the running configuration as it was (the changes wait in the
    candidate), and with it they take effect as the step's expect says."""
    from support.kvm_sites import kvm_site, lab_plan

    from hostlint.fixes.write import write_plan

    snapshot = kvm_site("huawei_vrp")
    (switch,) = snapshot.switches
    switch.model = "CE6881-48S6CQ"
    plan = lab_plan(snapshot)
    [step] = [s for s in plan.steps if s.device == switch.name]
    assert step.change.values["family"] == "vrp8"
    write_plan(plan, snapshot, tmp_path)
    blocks = _blocks((tmp_path / f"{switch.name}.huawei_vrp.txt").read_text(encoding="utf-8"))
    assert blocks and all(block[-1] == "commit" for block in blocks)
    state = from_switch(switch)
    assert state.vrp8
    before = render(state, "display current-configuration")
    with SwitchEmulator() as emulator:
        port = emulator.add(EmulatedSwitch(switch.name, "huawei_vrp", stateful=VrpSwitch(state)))
        with ConnectHandler(**login("huawei_vrpv8", port, "lab-secret")) as connection:
            for block in blocks:
                pasted = block if committed else [line for line in block if line != "commit"]
                connection.send_config_set(pasted, error_pattern=r"Error:")
            shown = connection.send_command("display eth-trunk 20")
    after = render(state, "display current-configuration")
    if not committed:
        assert after == before
        assert "WorkingMode: NORMAL" in shown
    else:
        assert after != before and " mode lacp-static" in after
        assert "WorkingMode: STATIC" in shown
        assert all(f"{m:<23}Selected" in shown for m in ("XGigabitEthernet0/0/3", "XGigabitEthernet0/0/4"))
