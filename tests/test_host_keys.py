"""SSH host keys: the policy (known_hosts files as OpenSSH writes them) and the switch collector using it.

The switch emulator is a real SSH server on 127.0.0.1 driven by real netmiko; it records every
password login attempt, so "no password was sent" is observed, not assumed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import time

import asyncssh
import pytest
from click.testing import CliRunner
from switch_emulator import EmulatedSwitch, SwitchEmulator, build

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.hostkeys import HostKeyPolicy, HostKeyRefused, KnownHostsError
from hostlint.collect.switches import Device, Timeouts, collect_switches
from hostlint.collect.switches.inventory import PASSWORD_ENV

PASSWORD = "lab-secret"


@pytest.fixture(scope="module")
def emulator():
    with SwitchEmulator() as running:
        yield running


@pytest.fixture(autouse=True)
def _password(monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)


def _switch(emulator, name: str = "sw-ios1", **faults) -> tuple[EmulatedSwitch, int]:
    switch = EmulatedSwitch(name=name, platform="cisco_ios", outputs=build("cisco_ios"), **faults)
    return switch, emulator.add(switch)


def _device(port: int, name: str = "sw-ios1") -> Device:
    return Device(name=name, hostname="127.0.0.1", port=port, platform="cisco_ios", username="netadmin")


def _public(key: asyncssh.SSHKey) -> str:
    return key.export_public_key("openssh").decode().strip()


def _hashed(name: str) -> str:
    """`|1|salt|hash` as `ssh-keygen -H` writes it (HMAC-SHA1 of the host name, keyed by the salt)."""
    salt = os.urandom(20)
    digest = hmac.new(salt, name.encode(), hashlib.sha1).digest()
    return f"|1|{base64.b64encode(salt).decode()}|{base64.b64encode(digest).decode()}"


# --- the policy ------------------------------------------------------------------------------------------


def test_plain_hashed_and_port_entries_match_as_openssh_does(tmp_path):
    key, other = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    known = tmp_path / "known_hosts"
    known.write_text(
        f"# a comment\nsw1.example.net,192.0.2.1 {_public(key)}\n"
        f"{_hashed('[192.0.2.2]:2222')} {_public(key)}\n"
        f"{_hashed('sw3.example.net')} {_public(other)}\n"
    )
    policy = HostKeyPolicy(known)
    policy.check("sw1.example.net", 22, key)
    policy.check("192.0.2.1", 22, key)
    policy.check("192.0.2.2", 2222, key)
    policy.check("sw3.example.net", 22, other)
    # A key known for port 22 is not the key of another port on that host (OpenSSH's `[host]:port`).
    with pytest.raises(HostKeyRefused, match=r"^\[sw1\.example\.net\]:2222 offered ssh-ed25519 SHA256:"):
        policy.check("sw1.example.net", 2222, key)
    with pytest.raises(HostKeyRefused, match="CHANGED"):
        policy.check("sw3.example.net", 22, key)


def test_refusals_name_host_port_type_and_openssh_fingerprint(tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    rsa = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
    known = tmp_path / "known_hosts"
    known.write_text(f"[10.0.0.9]:830 {_public(rsa)}\n@revoked * {_public(rsa)}\n")
    fingerprint = key.get_fingerprint("sha256")
    assert fingerprint.startswith("SHA256:") and not fingerprint.endswith("=")
    policy = HostKeyPolicy(known)
    with pytest.raises(HostKeyRefused) as unknown:
        policy.check("10.0.0.8", 22, key)
    assert str(unknown.value) == (
        f"10.0.0.8 offered ssh-ed25519 {fingerprint}, not in known_hosts ({known}); not logged in. "
        "Confirm the fingerprint and add it (ssh-keyscan), or pass --accept-new-host-keys"
    )
    with pytest.raises(HostKeyRefused) as changed:
        policy.check("10.0.0.9", 830, key)
    assert f"[10.0.0.9]:830 offered ssh-ed25519 {fingerprint} but known_hosts" in str(changed.value)
    assert f"has ssh-rsa {rsa.get_fingerprint('sha256')}: the host key CHANGED" in str(changed.value)
    with pytest.raises(HostKeyRefused, match="marked @revoked"):
        policy.check("10.0.0.9", 830, rsa)
    assert "\n" not in str(unknown.value) + str(changed.value)


def test_accept_new_records_the_key_and_still_refuses_a_changed_one(tmp_path):
    key, impostor = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    known = tmp_path / "ssh" / "known_hosts"  # neither the file nor its folder exist yet
    policy = HostKeyPolicy(known, accept_new=True)
    policy.check("sw9", 2200, key)
    assert known.read_text() == f"[sw9]:2200 {_public(key).split()[0]} {_public(key).split()[1]}\n"
    with pytest.raises(HostKeyRefused, match="CHANGED"):
        policy.check("sw9", 2200, impostor)
    # What was recorded is trusted by a later run that accepts nothing new.
    HostKeyPolicy(known).check("sw9", 2200, key)
    with pytest.raises(HostKeyRefused, match="CHANGED"):
        HostKeyPolicy(known, accept_new=True).check("sw9", 2200, impostor)


def test_a_missing_or_malformed_known_hosts_file_is_an_error_naming_it(tmp_path):
    with pytest.raises(KnownHostsError, match=r"known_hosts .*nope: no such file"):
        HostKeyPolicy(tmp_path / "nope").load()
    bad = tmp_path / "bad"
    bad.write_text("@weird host ssh-ed25519 AAAA\n")
    with pytest.raises(KnownHostsError, match=r"known_hosts .*bad: Invalid known hosts marker"):
        HostKeyPolicy(bad).load()


def test_the_default_files_are_the_users_and_the_systems(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    policy = HostKeyPolicy()
    assert [str(p) for p in policy.files()] == [
        f"{tmp_path}/.ssh/known_hosts",
        f"{tmp_path}/.ssh/known_hosts2",
        "/etc/ssh/ssh_known_hosts",
        "/etc/ssh/ssh_known_hosts2",
    ]
    assert policy.record_file() == tmp_path / ".ssh" / "known_hosts"


# --- the switch collector -----------------------------------------------------------------------------------


def test_an_unknown_switch_key_is_refused_before_any_password_is_sent(emulator, tmp_path):
    switch, port = _switch(emulator)
    known = tmp_path / "known_hosts"
    known.write_text("")
    snapshot = collect_switches([_device(port)], policy=HostKeyPolicy(known))
    (error,) = snapshot.collection_errors
    fingerprint = emulator.host_key.get_fingerprint("sha256")
    assert error.target == "sw-ios1"
    assert error.reason.startswith(
        f"host key: [127.0.0.1]:{port} offered ssh-ed25519 {fingerprint}, not in known_hosts"
    )
    assert switch.password_attempts == []
    assert snapshot.switches[0].connection_state == "unreachable"
    assert known.read_text() == ""


def test_a_changed_switch_key_is_refused_even_with_accept_new(emulator, tmp_path):
    switch, port = _switch(emulator)
    known = tmp_path / "known_hosts"
    known.write_text(f"[127.0.0.1]:{port} {_public(asyncssh.generate_private_key('ssh-ed25519'))}\n")
    snapshot = collect_switches([_device(port)], policy=HostKeyPolicy(known, accept_new=True))
    (error,) = snapshot.collection_errors
    assert "the host key CHANGED" in error.reason and error.reason.startswith("host key: ")
    assert switch.password_attempts == []


def test_trust_on_first_use_records_the_key_then_logs_in(emulator, tmp_path):
    switch, port = _switch(emulator)
    known = tmp_path / "known_hosts"
    snapshot = collect_switches([_device(port)], policy=HostKeyPolicy(known, accept_new=True))
    assert snapshot.collection_errors == []
    assert known.read_text() == emulator.known_hosts_line(port)
    assert switch.password_attempts == [("netadmin", True)]
    again = collect_switches([_device(port)], policy=HostKeyPolicy(known))
    assert again.collection_errors == [] and again.switches[0].connection_state == "connected"


def test_a_hashed_known_hosts_entry_is_trusted(emulator, tmp_path):
    _, port = _switch(emulator)
    known = tmp_path / "known_hosts"
    known.write_text(f"{_hashed(f'[127.0.0.1]:{port}')} {_public(emulator.host_key)}\n")
    assert collect_switches([_device(port)], policy=HostKeyPolicy(known)).collection_errors == []


def test_cli_refuses_an_unknown_key_and_records_it_with_accept_new(emulator, tmp_path):
    switch, port = _switch(emulator)
    inventory = tmp_path / "hosts.yaml"
    inventory.write_text(
        f"sw-ios1:\n  hostname: 127.0.0.1\n  port: {port}\n  platform: cisco_ios\n  username: netadmin\n"
    )
    known = tmp_path / "known_hosts"
    known.write_text("")
    args = ["collect", "switches", "-i", str(inventory), "-o", str(tmp_path / "s.json"), "--known-hosts", str(known)]
    refused = CliRunner().invoke(cli, args, standalone_mode=False, catch_exceptions=False)
    assert refused.return_value == Exit.PARTIAL
    (line,) = [line for line in refused.stderr.splitlines() if "sw-ios1:" in line]
    assert line.startswith(f"hostlint: sw-ios1: host key: [127.0.0.1]:{port} offered ssh-ed25519 SHA256:")
    assert switch.password_attempts == []
    accepted = CliRunner().invoke(cli, [*args, "--accept-new-host-keys"], standalone_mode=False, catch_exceptions=False)
    assert accepted.return_value == Exit.CLEAN, accepted.stderr
    assert known.read_text() == emulator.known_hosts_line(port)
    assert switch.password_attempts == [("netadmin", True)]


def test_cli_a_missing_known_hosts_file_is_a_usage_error(tmp_path):
    inventory = tmp_path / "hosts.yaml"
    inventory.write_text("sw1:\n  hostname: 127.0.0.1\n  port: 1\n  platform: cisco_ios\n")
    args = ["collect", "switches", "-i", str(inventory), "-o", str(tmp_path / "s.json")]
    result = CliRunner().invoke(
        cli, [*args, "--known-hosts", str(tmp_path / "nope")], standalone_mode=False, catch_exceptions=False
    )
    assert result.return_value == Exit.USAGE
    assert result.stderr == f"hostlint: known_hosts {tmp_path / 'nope'}: no such file\n"


# --- honest fault reasons and wall times ---------------------------------------------------------------------


def _timed(emulator, tmp_path, port: int, timeouts: Timeouts) -> tuple[str, float]:
    policy = HostKeyPolicy(emulator.write_known_hosts(tmp_path / "known_hosts"))
    start = time.monotonic()
    snapshot = collect_switches([_device(port)], timeouts=timeouts, policy=policy)
    (error,) = snapshot.collection_errors
    return error.reason, time.monotonic() - start


def test_a_connection_dropped_mid_command_is_closed_by_peer_not_a_timeout(emulator, tmp_path):
    _, port = _switch(emulator, drop_on="show interfaces")
    reason, wall = _timed(emulator, tmp_path, port, Timeouts(connect=10, command=30))
    assert reason == "command 'show interfaces': connection closed by peer"
    assert wall < 15  # noticed at once, not after the 30 s command timeout


def test_a_switch_that_never_shows_a_prompt_fails_within_the_connect_timeout(emulator, tmp_path):
    switch, port = _switch(emulator, mute=True)
    reason, wall = _timed(emulator, tmp_path, port, Timeouts(connect=3, command=30))
    assert reason == f"prompt: timed out after 3s (no prompt from 127.0.0.1:{port})"
    assert switch.password_attempts == [("netadmin", True)]  # logged in; the shell said nothing
    assert 2.5 < wall <= 3 + 3


def test_a_port_that_never_speaks_ssh_fails_within_the_connect_timeout(emulator, tmp_path):
    port = emulator.add_silent()
    reason, wall = _timed(emulator, tmp_path, port, Timeouts(connect=2, command=30))
    assert reason == f"connect: timed out after 2s (no SSH banner and key exchange from 127.0.0.1:{port})"
    assert 1.5 < wall <= 2 + 3


def test_a_hung_command_fails_within_the_command_timeout(emulator, tmp_path):
    _, port = _switch(emulator, delays={"show running-config": 60})
    reason, wall = _timed(emulator, tmp_path, port, Timeouts(connect=5, command=2))
    assert reason == "command 'show running-config': timed out after 2s"
    assert wall <= 5 + 2 + 3


def test_the_total_limit_ends_a_switch_whose_every_command_is_slow(emulator, tmp_path):
    slow = {command: 1.0 for command in build("cisco_ios")}
    _, port = _switch(emulator, delays=slow)
    reason, wall = _timed(emulator, tmp_path, port, Timeouts(connect=5, command=5, total=3))
    assert reason.endswith(": timed out: the switch's total limit of 3s was reached")
    assert reason.startswith("command 'show ")
    assert wall <= 3 + 3
