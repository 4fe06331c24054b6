"""netmiko against the SSH switch emulator (asyncssh on 127.0.0.1): all four platforms and the faults."""

from __future__ import annotations

import json
import socket

import pytest
from click.testing import CliRunner
from switch_emulator import EmulatedSwitch, SwitchEmulator, build

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import Device, Timeouts, collect_switches
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.snapshot import load_snapshot

PASSWORD = "lab-secret"
NAMES = {"cisco_ios": "sw-ios1", "cisco_nxos": "nx1", "arista_eos": "eos1", "juniper_junos": "ex1"}


@pytest.fixture(scope="module")
def emulator():
    with SwitchEmulator() as running:
        yield running


@pytest.fixture(autouse=True)
def _password(monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)


@pytest.fixture
def trusted(emulator, tmp_path):
    """A host-key policy trusting the emulator's key on every port it listens on when called."""
    return lambda: HostKeyPolicy(emulator.write_known_hosts(tmp_path / "known_hosts"))


def _device(name: str, platform: str, port: int) -> Device:
    return Device(name=name, hostname="127.0.0.1", port=port, platform=platform, username="netadmin")


def test_collects_all_four_platforms_over_ssh(emulator, trusted):
    devices = [
        _device(name, platform, emulator.add(EmulatedSwitch(name=name, platform=platform, outputs=build(platform))))
        for platform, name in NAMES.items()
    ]
    snapshot = collect_switches(devices, concurrency=4, policy=trusted())
    assert snapshot.collection_errors == []
    switches = {s.name: s for s in snapshot.switches}
    assert [s.name for s in snapshot.switches] == list(NAMES.values())
    channels = {name: {c.name: c for c in s.port_channels} for name, s in switches.items()}
    assert channels["sw-ios1"]["Port-channel10"].members == ["GigabitEthernet1/0/3", "GigabitEthernet1/0/4"]
    assert channels["nx1"]["Port-channel11"].multichassis_id == 11
    assert channels["eos1"]["Port-channel1000"].mode == "lacp-active"
    assert channels["ex1"]["ae0"].mode == "static"
    assert {name: s.load_balance.hash for name, s in switches.items()} == {
        "sw-ios1": "src-dst-ip",
        "nx1": "src-dst-ip",
        "eos1": "src-dst-ip-port",
        "ex1": "src-dst-ip",
    }
    assert switches["nx1"].multichassis.kind == "vpc" and switches["eos1"].multichassis.kind == "mlag"
    assert {name: (s.model, s.os_version) for name, s in switches.items()} == {
        "sw-ios1": ("WS-C3850-48T", "16.12.10a"),
        "nx1": ("C93180YC-FX", "10.2(5)"),
        "eos1": ("DCS-7050SX3-48YC8", "4.30.4M"),
        "ex1": ("ex4300-48t", "21.4R3-S5.4"),
    }
    assert all(s.connection_state == "connected" and s.mgmt_address == "127.0.0.1" for s in snapshot.switches)


def test_faults_are_named_and_the_rest_is_collected(emulator, trusted):
    good = emulator.add(EmulatedSwitch(name="sw-ios1", platform="cisco_ios", outputs=build("cisco_ios")))
    wrong_password = emulator.add(
        EmulatedSwitch(name="sw-auth", platform="cisco_ios", outputs=build("cisco_ios"), password="other")
    )
    rejecting = emulator.add(
        EmulatedSwitch(
            name="eos-old",
            platform="arista_eos",
            outputs=build("arista_eos", drop=("show port-channel summary",)),
        )
    )
    no_vpc = emulator.add(
        EmulatedSwitch(
            name="nx-novpc",
            platform="cisco_nxos",
            outputs=build("cisco_nxos", drop=("show vpc brief",)),
        )
    )
    devices = [
        _device("sw-ios1", "cisco_ios", good),
        _device("sw-auth", "cisco_ios", wrong_password),
        _device("sw-refused", "juniper_junos", emulator.closed_port()),
        _device("sw-silent", "cisco_nxos", emulator.add_silent()),
        _device("eos-old", "arista_eos", rejecting),
        _device("nx-novpc", "cisco_nxos", no_vpc),
    ]
    snapshot = collect_switches(devices, concurrency=6, timeouts=Timeouts(connect=2, command=10), policy=trusted())
    errors = {(e.target, e.reason) for e in snapshot.collection_errors}
    assert errors == {
        ("sw-auth", f"auth: authentication failed for user 'netadmin' on 127.0.0.1:{wrong_password}"),
        ("sw-refused", f"connect: connection refused by 127.0.0.1:{devices[2].port}"),
        ("sw-silent", f"connect: timed out after 2s (no SSH banner and key exchange from 127.0.0.1:{devices[3].port})"),
        ("eos-old", "command 'show port-channel summary' rejected: % Invalid input (at token 1: 'port-channel')"),
    }
    states = {s.name: s.connection_state for s in snapshot.switches}
    assert states == {
        "sw-ios1": "connected",
        "sw-auth": "unreachable",
        "sw-refused": "unreachable",
        "sw-silent": "unreachable",
        "eos-old": "connected",
        "nx-novpc": "connected",
    }
    switches = {s.name: s for s in snapshot.switches}
    # The rejected command's facts are missing; the other commands' are there.
    assert {c.name for c in switches["eos-old"].port_channels} >= {"Port-channel11", "Port-channel1000"}
    # `show vpc brief` is optional: a Nexus without `feature vpc` rejects it and is simply not in a pair.
    assert switches["nx-novpc"].multichassis is None
    assert all(PASSWORD not in json.dumps(e.reason) for e in snapshot.collection_errors)


def test_a_command_that_hangs_times_out_and_keeps_what_was_collected(emulator, trusted):
    slow = EmulatedSwitch(
        name="sw-slow", platform="cisco_ios", outputs=build("cisco_ios"), delays={"show interfaces": 5}
    )
    device = _device("sw-slow", "cisco_ios", emulator.add(slow))
    snapshot = collect_switches([device], timeouts=Timeouts(connect=5, command=1), policy=trusted())
    assert [e.reason for e in snapshot.collection_errors] == ["command 'show interfaces': timed out after 1s"]
    (switch,) = snapshot.switches
    assert switch.connection_state == "connected" and switch.ports == []
    # `show running-config` ran before the hang: its port-channels are kept.
    assert [c.name for c in switch.port_channels] == [
        "Port-channel1",
        "Port-channel10",
        "Port-channel20",
        "Port-channel30",
    ]


def test_no_password_is_a_named_error_before_connecting(emulator, monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV)
    monkeypatch.setitem(__import__("sys").modules, "keyring", None)
    port = emulator.closed_port()  # nothing listens: a connect attempt would say "refused"
    snapshot = collect_switches([_device("sw-nopass", "cisco_ios", port)])
    assert [e.reason for e in snapshot.collection_errors] == [
        "no password: set HOSTLINT_SWITCH_PASSWORD or store one in the keyring"
    ]


def test_cli_writes_a_partial_snapshot_without_passwords_and_exits_3(emulator, tmp_path, trusted):
    ios = emulator.add(EmulatedSwitch(name="sw-ios1", platform="cisco_ios", outputs=build("cisco_ios")))
    junos = emulator.add(EmulatedSwitch(name="ex1", platform="juniper_junos", outputs=build("juniper_junos")))
    refused = emulator.closed_port()
    inventory = tmp_path / "inventory.yaml"
    inventory.write_text(
        f"""
all:
  vars:
    ansible_host: 127.0.0.1
    ansible_user: netadmin
  children:
    campus:
      vars: {{ansible_network_os: cisco.ios.ios}}
      hosts:
        sw-ios1: {{ansible_port: {ios}}}
        sw-gone: {{ansible_port: {refused}}}
    dc:
      vars: {{ansible_network_os: junos}}
      hosts:
        ex1: {{ansible_port: {junos}}}
""",
        encoding="utf-8",
    )
    output = tmp_path / "switches.json"
    result = CliRunner().invoke(
        cli,
        ["collect", "switches", "-i", str(inventory), "-o", str(output), "--known-hosts", str(trusted().known_hosts)],
        standalone_mode=False,
        catch_exceptions=False,
    )
    assert result.return_value == Exit.PARTIAL
    assert f"sw-gone: connect: connection refused by 127.0.0.1:{refused}" in result.stderr
    assert "collected 2 of 3 switches" in result.stderr
    text = output.read_text(encoding="utf-8")
    assert PASSWORD not in text
    snapshot = load_snapshot(output)
    assert [s.name for s in snapshot.switches] == ["sw-ios1", "sw-gone", "ex1"]
    assert [e.target for e in snapshot.collection_errors] == ["sw-gone"]
    assert snapshot.source == "switches:inventory.yaml"


def test_cli_inventory_keeps_going_past_unsupported_unresolvable_and_passwordless_devices(
    emulator, tmp_path, monkeypatch, trusted
):
    """Each device that cannot be collected is a named collection error; the others are collected, exit 3."""
    junos = emulator.add(EmulatedSwitch(name="ex1", platform="juniper_junos", outputs=build("juniper_junos")))
    eos = emulator.add(EmulatedSwitch(name="eos1", platform="arista_eos", outputs=build("arista_eos")))
    monkeypatch.delenv(PASSWORD_ENV)
    monkeypatch.setenv("LAB_PASSWORD", PASSWORD)
    inventory = tmp_path / "hosts.yaml"
    inventory.write_text(
        f"""
fw1: {{hostname: 127.0.0.1, port: 1, platform: paloalto_panos}}
ex1: {{hostname: 127.0.0.1, port: {junos}, platform: junos, username: netadmin, data: {{password_env: LAB_PASSWORD}}}}
sw-typo: {{hostname: no-such-switch.invalid, platform: ios, data: {{password_env: LAB_PASSWORD}}}}
eos-nopass: {{hostname: 127.0.0.1, port: {eos}, platform: eos, username: netadmin}}
eos1: {{hostname: 127.0.0.1, port: {eos}, platform: eos, username: netadmin, data: {{password_env: LAB_PASSWORD}}}}
""",
        encoding="utf-8",
    )
    output = tmp_path / "s.json"
    result = CliRunner().invoke(
        cli,
        [
            "collect",
            "switches",
            "-i",
            str(inventory),
            "-o",
            str(output),
            "--connect-timeout",
            "5",
            "--known-hosts",
            str(trusted().known_hosts),
        ],
        standalone_mode=False,
        catch_exceptions=False,
    )
    assert result.return_value == Exit.PARTIAL
    assert "collected 2 of 5 switches" in result.stderr
    snapshot = load_snapshot(output)
    reasons = {e.target: e.reason for e in snapshot.collection_errors}
    assert set(reasons) == {"fw1", "sw-typo", "eos-nopass"}
    assert reasons["fw1"].startswith("platform 'paloalto_panos' is not supported; supported: cisco_ios")
    assert reasons["sw-typo"] == "connect: cannot resolve 'no-such-switch.invalid'"
    assert reasons["eos-nopass"].startswith("no password: set HOSTLINT_SWITCH_PASSWORD")
    assert all(e.kind == "switch" for e in snapshot.collection_errors)
    # fw1 has no platform to build a switch for; the others are in the snapshot, Junos collected over SSH.
    switches = {s.name: s for s in snapshot.switches}
    assert list(switches) == ["ex1", "sw-typo", "eos-nopass", "eos1"]
    assert switches["ex1"].connection_state == "connected" and switches["ex1"].port_channels
    assert switches["eos1"].connection_state == "connected"
    assert switches["sw-typo"].connection_state == "unreachable"


def test_cli_missing_password_is_exit_2_before_connecting(tmp_path, monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV)
    monkeypatch.setitem(__import__("sys").modules, "keyring", None)
    listener = socket.create_server(("127.0.0.1", 0))  # records whether anything connects
    listener.setblocking(False)
    port = listener.getsockname()[1]
    inventory = tmp_path / "hosts.ini"
    line = f"sw-ios1 ansible_host=127.0.0.1 ansible_port={port} ansible_network_os=ios\n"
    inventory.write_text(line, encoding="utf-8")
    with listener:
        result = CliRunner().invoke(
            cli,
            ["collect", "switches", "-i", str(inventory), "-o", str(tmp_path / "s.json")],
            standalone_mode=False,
            catch_exceptions=False,
        )
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert result.return_value == Exit.USAGE
    assert result.stderr.splitlines() == [
        f"hostlint: {inventory}: no password for sw-ios1: set HOSTLINT_SWITCH_PASSWORD or store one in the keyring "
        "(service 'hostlint')"
    ]
    assert not (tmp_path / "s.json").exists()


# Issue 24: interfaces no rule reads, in each platform's format (Cisco IOS-XE and NX-OS command
# references, EOS User Manual), written for this test. Added to the samples, they change nothing.
_L3_EXTRAS = {
    "cisco_ios": {
        "show interfaces": """\
Vlan20 is up, line protocol is up , Autostate Enabled
  Hardware is Ethernet SVI, address is 00a3.8e4c.1ac1 (bia 00a3.8e4c.1ac1)
  Description: storage svi
  MTU 9000 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
Tunnel1 is up, line protocol is up
  Hardware is Tunnel
  Description: gre to branch
  MTU 9976 bytes, BW 100 Kbit/sec, DLY 50000 usec,
GigabitEthernet1/0/48.100 is up, line protocol is up
  Hardware is Gigabit Ethernet, address is 00a3.8e4c.1ab0 (bia 00a3.8e4c.1ab0)
  Description: tenant-a
  MTU 1500 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
pseudowire100 is up
  Description: l2vpn to pe2
  MTU 1500 bytes, BW 10000000 Kbit/sec, DLY 0 usec,
Loopback0 is up, line protocol is up
  Hardware is Loopback
  MTU 1514 bytes, BW 8000000 Kbit/sec, DLY 5000 usec,
""",
        "show running-config": "interface Vlan20\n ip address 10.0.20.1 255.255.255.0\n!\n"
        "interface Tunnel1\n tunnel source Loopback0\n!\n",
    },
    "cisco_nxos": {
        "show interface": """
Vlan20 is down (VLAN/BD is down), line protocol is down
  Hardware is EtherSVI, address is  00fe.c8a1.2c07
  Description: storage svi
  MTU 9000 bytes, BW 1000000 Kbit, DLY 10 usec,

Vlan30 is up, line protocol is up, autostate enabled
  Hardware is EtherSVI, address is  00fe.c8a1.2c07
  MTU 9000 bytes, BW 1000000 Kbit, DLY 10 usec,

nve1 is up
admin state is up,  Hardware: NVE
  MTU 9216 bytes
  Encapsulation VXLAN

Tunnel1 is up
    Admin State: up
    MTU 1476 bytes, BW 9 Kbit

Ethernet1/47.100 is up
admin state is up, Dedicated Interface
  Description: tenant-b
  MTU 1500 bytes, BW 10000000 Kbit, DLY 10 usec
""",
        "show running-config": "\ninterface Vlan20\n  no shutdown\n  mtu 9000\n",
    },
    "arista_eos": {
        "show interfaces": """\
Vlan20 is up, line protocol is up (connected)
  Hardware is Vlan, address is 5254.00aa.0000 (bia 5254.00aa.0000)
  Description: storage
  IP MTU 9000 bytes (default)
Vxlan1 is up, line protocol is up (connected)
  Hardware is Vxlan
Ethernet48.100 is up, line protocol is up (connected)
  Hardware is Subinterface, address is 5254.00aa.0030
  Description: tenant-c
  IP MTU 1500 bytes
""",
        "show running-config": "interface profile UPLINKS\n   command switchport mode trunk\n!\n"
        "interface Vlan20\n   mtu 9000\n!\n",
    },
}


def _with_l3_extras(platform: str) -> dict[str, str]:
    outputs = build(platform)
    for command, extra in _L3_EXTRAS[platform].items():
        text = outputs[command]
        # Configuration blocks go before the closing `end`; interface blocks after the last one.
        outputs[command] = (
            text.replace("\nend", "\n" + extra + "end") if text.rstrip().endswith("end") else text + extra
        )
    return outputs


def test_svis_tunnels_subinterfaces_and_profiles_collect_with_no_collection_error(emulator, trusted):
    plain = {
        p: _device(n, p, emulator.add(EmulatedSwitch(name=n, platform=p, outputs=build(p))))
        for p, n in (("cisco_ios", "sw-ios1"), ("cisco_nxos", "nx1"), ("arista_eos", "eos1"))
    }
    extra = {
        platform: _device(
            f"{device.name}-l3",
            platform,
            emulator.add(EmulatedSwitch(name=device.name, platform=platform, outputs=_with_l3_extras(platform))),
        )
        for platform, device in plain.items()
    }
    snapshot = collect_switches([*plain.values(), *extra.values()], concurrency=6, policy=trusted())
    assert snapshot.collection_errors == []
    switches = {s.name: s for s in snapshot.switches}
    for platform, device in plain.items():
        # Nothing is added, nothing lent: the switch is the one its plain samples give.
        with_extras = switches[f"{device.name}-l3"].model_dump(exclude={"name", "aliases"})
        assert with_extras == switches[device.name].model_dump(exclude={"name", "aliases"}), platform


def test_cli_summary_counts_switches_with_errors_apart_from_those_not_collected(emulator, tmp_path, trusted):
    broken = build("cisco_ios")
    broken["show interfaces"] += "GigabitEthernet1/0/47 is in a state of its own\n  MTU 1500 bytes, BW 1000 Kbit/sec,\n"
    ports = {
        "sw-ios1": emulator.add(EmulatedSwitch(name="sw-ios1", platform="cisco_ios", outputs=build("cisco_ios"))),
        "sw-ios2": emulator.add(EmulatedSwitch(name="sw-ios2", platform="cisco_ios", outputs=broken)),
        "nx1": emulator.add(EmulatedSwitch(name="nx1", platform="cisco_nxos", outputs=build("cisco_nxos"))),
        "ex1": emulator.add(EmulatedSwitch(name="ex1", platform="juniper_junos", outputs=build("juniper_junos"))),
    }
    platforms = {"sw-ios1": "ios", "sw-ios2": "ios", "nx1": "nxos", "ex1": "junos"}
    inventory = tmp_path / "hosts.yaml"
    inventory.write_text(
        "".join(
            f"{name}: {{hostname: 127.0.0.1, port: {port}, platform: {platforms[name]}, username: netadmin}}\n"
            for name, port in ports.items()
        ),
        encoding="utf-8",
    )
    output = tmp_path / "s.json"
    args = ["collect", "switches", "-i", str(inventory), "-o", str(output), "--known-hosts"]
    result = CliRunner().invoke(cli, [*args, str(trusted().known_hosts)], standalone_mode=False, catch_exceptions=False)
    assert result.return_value == Exit.PARTIAL
    assert f"hostlint: collected 4 of 4 switches into {output}, 1 with collection errors" in result.stderr
    assert "sw-ios2: show interfaces: 1 of " in result.stderr
    assert [e.target for e in load_snapshot(output).collection_errors] == ["sw-ios2"]
