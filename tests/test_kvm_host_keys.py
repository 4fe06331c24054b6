"""KVM hosts over SSH: the host key is verified by hostlint's policy on both paths, the system `ssh`
(through KnownHostsCommand) and paramiko (with HOSTLINT_SSH_PASSWORD), before any login.

The SSH server is a real one on 127.0.0.1 (tests/esxi_shell.py: runs the commands it has output
for, records every login attempt).
"""

from __future__ import annotations

import shutil

import asyncssh
import pytest
from click.testing import CliRunner
from esxi_shell import EsxiShell, EsxiShellServer

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.kvm.runner import PASSWORD_ENV, CollectionFailure, SshRunner

PASSWORD = "kvm-root-pw-for-tests"
needs_ssh = pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client")


@pytest.fixture(scope="module")
def server():
    with EsxiShellServer() as running:
        yield running


@pytest.fixture
def host(server, tmp_path, monkeypatch):
    """A host answering `uname` that accepts a client key and a password; (shell, port, ssh options)."""
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    client_key = asyncssh.generate_private_key("ssh-ed25519")
    identity = tmp_path / "id_ed25519"
    identity.write_bytes(client_key.export_private_key())
    identity.chmod(0o600)
    shell = EsxiShell("kvm01", {"'uname'": "Linux\n"}, password=PASSWORD, authorized_key=client_key)
    port = server.add(shell)
    options = ["-o", f"Port={port}", "-o", f"IdentityFile={identity}", "-o", "IdentitiesOnly=yes"]
    return shell, port, options


def _unknown(tmp_path) -> HostKeyPolicy:
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    return HostKeyPolicy(empty)


@needs_ssh
def test_system_ssh_refuses_an_unknown_key_before_logging_in_even_when_told_not_to_check(server, host, tmp_path):
    shell, port, options = host
    # Options that would turn OpenSSH's own checking off do not turn hostlint's off.
    careless = [*options, "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
    runner = SshRunner("root@127.0.0.1", careless, _unknown(tmp_path))
    with pytest.raises(CollectionFailure) as refused:
        runner.run(["uname"])
    fingerprint = server.host_key.get_fingerprint("sha256")
    assert str(refused.value).startswith(
        f"ssh: host key: [127.0.0.1]:{port} offered ssh-ed25519 {fingerprint}, not in known_hosts"
    )
    assert shell.logins == [] and shell.commands_run == []


@needs_ssh
def test_system_ssh_trusts_on_first_use_when_asked_and_records_the_key(server, host, tmp_path):
    shell, port, options = host
    known = tmp_path / "new" / "known_hosts"
    assert SshRunner("root@127.0.0.1", options, HostKeyPolicy(known, accept_new=True)).run(["uname"]) == "Linux\n"
    assert known.read_text() == server.known_hosts_line(port)
    assert SshRunner("root@127.0.0.1", options, HostKeyPolicy(known)).run(["uname"]) == "Linux\n"
    assert shell.commands_run == ["'uname'", "'uname'"]


@needs_ssh
def test_system_ssh_refuses_a_changed_key_even_with_accept_new(host, tmp_path):
    shell, port, options = host
    known = tmp_path / "known_hosts"
    impostor = asyncssh.generate_private_key("ssh-ed25519").export_public_key("openssh").decode()
    known.write_text(f"[127.0.0.1]:{port} {impostor}")
    with pytest.raises(CollectionFailure, match=r"^ssh: host key: .*the host key CHANGED"):
        SshRunner("root@127.0.0.1", options, HostKeyPolicy(known, accept_new=True)).run(["uname"])
    assert shell.logins == []


def test_paramiko_with_a_password_refuses_an_unknown_key_before_sending_it(server, host, tmp_path, monkeypatch):
    shell, port, options = host
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    with pytest.raises(
        CollectionFailure, match=rf"^ssh: host key: \[127\.0\.0\.1\]:{port} offered ssh-ed25519 SHA256:"
    ):
        SshRunner("root@127.0.0.1", options, _unknown(tmp_path)).run(["uname"])
    assert shell.logins == []
    known = server.write_known_hosts(tmp_path / "trusted")
    assert SshRunner("root@127.0.0.1", options, HostKeyPolicy(known)).run(["uname"]) == "Linux\n"
    assert shell.logins == ["password"]


@needs_ssh
def test_cli_reports_the_refused_key_as_the_hosts_error(server, host, tmp_path):
    shell, port, options = host
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    args = ["collect", "kvm", "--host", "root@127.0.0.1", "--no-libvirt", "--known-hosts", str(empty)]
    args += [arg for option in options[1::2] for arg in ("--ssh-option", option)]
    outcome = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "kvm.json")], standalone_mode=False)
    assert outcome.return_value == Exit.PARTIAL
    first = outcome.stderr.splitlines()[0]
    assert first.startswith(f"hostlint: 127.0.0.1: ssh: host key: [127.0.0.1]:{port} offered ssh-ed25519 SHA256:")
    assert shell.logins == []


@needs_ssh
def test_cli_takes_user_known_hosts_file_as_the_file_to_verify_against(server, host, tmp_path):
    """`--ssh-option UserKnownHostsFile=FILE` is honoured (as --known-hosts FILE), not silently overridden."""
    shell, _port, options = host
    trusted = server.write_known_hosts(tmp_path / "trusted")
    args = ["collect", "kvm", "--host", "root@127.0.0.1", "--no-libvirt", "--no-lldp"]
    args += [arg for option in options[1::2] for arg in ("--ssh-option", option)]
    args += ["--ssh-option", f"UserKnownHostsFile={trusted}"]
    outcome = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "kvm.json")], standalone_mode=False)
    # The key is trusted, the login happens (this peer is no Linux host: what follows fails, named).
    assert "host key" not in outcome.stderr, outcome.stderr
    assert "publickey" in shell.logins


def test_paramiko_keeps_one_session_for_every_command(server, host, tmp_path, monkeypatch):
    shell, _port, options = host
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    known = server.write_known_hosts(tmp_path / "trusted")
    runner = SshRunner("root@127.0.0.1", options, HostKeyPolicy(known))
    try:
        assert [runner.run(["uname"]) for _ in range(3)] == ["Linux\n"] * 3
    finally:
        runner.close()
    assert shell.logins == ["password"]


@needs_ssh
def test_system_ssh_keeps_one_connection_for_every_command(server, host, tmp_path):
    shell, _port, options = host
    known = server.write_known_hosts(tmp_path / "trusted")
    runner = SshRunner("root@127.0.0.1", options, HostKeyPolicy(known))
    try:
        assert runner.run(["uname"]) == "Linux\n"
        one_login = list(shell.logins)  # the key offered, then signed: two checks of one login
        assert one_login and set(one_login) == {"publickey"}
        assert [runner.run(["uname"]) for _ in range(2)] == ["Linux\n"] * 2
    finally:
        runner.close()
    assert shell.logins == one_login and shell.commands_run == ["'uname'"] * 3
