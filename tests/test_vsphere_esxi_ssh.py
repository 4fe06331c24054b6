"""PCIe links of ESXi hosts over SSH (`lspci -vv`): against SSH servers on 127.0.0.1 that answer as
ESXi shells, alone and together with the vCenter simulator (sim/vcsim).

The hosts' names reach the SSH servers the way an admin maps them: an OpenSSH client config
(`--esxi-ssh-config`) with HostName, Port, IdentityFile and UserKnownHostsFile.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import asyncssh
import pytest
from click.testing import CliRunner
from esxi_shell import EsxiShell, EsxiShellServer
from support.vcsim import launcher, needs_simulator

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.pcie import parse_lspci
from hostlint.collect.vsphere.esxi_ssh import (
    SshFailure,
    SshSettings,
    collect_pcie_links,
    lspci_output,
    merge_links,
)
from hostlint.snapshot import load_snapshot
from hostlint.snapshot.common import PciLink
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic, Vmk

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "esxi"
SCENARIO = FIXTURES / "pcie-site.yaml"
VSPHERE_PASSWORD = "s3cret-for-tests"
ESXI_PASSWORD = "esxi-root-pw-for-tests"
LSPCI = {
    "esx21.pcie.example.net": "lspci-x710-x1.txt",
    "esx22.pcie.example.net": "lspci-downgraded-x4.txt",
    "esx23.pcie.example.net": "lspci-x710-x8.txt",
}
# No agent and no password unless a test sets one: only the keys named in the config are offered.
CLEAN_ENV = {"SSH_AUTH_SOCK": None, "HOSTLINT_ESXI_SSH_PASSWORD": None}


def lspci_text(host: str) -> str:
    return (FIXTURES / LSPCI[host]).read_text(encoding="utf-8")


def write_key(path: Path, key: asyncssh.SSHKey) -> Path:
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return path


class Lab:
    """ESXi shells for the scenario's hosts, the client key they trust, and ssh configs naming them."""

    def __init__(self, server: EsxiShellServer, folder: Path, hosts: list[str]):
        self.server, self.folder = server, folder
        self.key = write_key(folder / "id_ed25519", asyncssh.generate_private_key("ssh-ed25519"))
        self.wrong_key = write_key(folder / "id_other", asyncssh.generate_private_key("ssh-ed25519"))
        trusted = asyncssh.read_private_key(self.key)
        self.shells = {
            host: EsxiShell(
                host, {"lspci -vv": lspci_text(host)}, password=ESXI_PASSWORD, authorized_key=trusted, delay_s=0.05
            )
            for host in hosts
        }
        self.ports = {host: server.add(shell) for host, shell in self.shells.items()}
        self.known_hosts = folder / "known_hosts"
        self.known_hosts.write_text("".join(server.known_hosts_line(port) for port in self.ports.values()))

    def config(self, name: str, key_of: dict[str, Path] | None = None) -> Path:
        """An ssh_config: each host name -> 127.0.0.1 and its port, with a key (the trusted one by default)."""
        blocks = [
            f"Host {host}\n  HostName 127.0.0.1\n  Port {port}\n  IdentityFile {(key_of or {}).get(host, self.key)}\n"
            for host, port in self.ports.items()
        ]
        path = self.folder / name
        path.write_text("".join(blocks) + f"Host *\n  UserKnownHostsFile {self.known_hosts}\n")
        return path


@pytest.fixture(scope="module")
def esxi_server():
    with EsxiShellServer() as server:
        yield server


@pytest.fixture(scope="module")
def lab(esxi_server, tmp_path_factory) -> Lab:
    return Lab(esxi_server, tmp_path_factory.mktemp("esxi-ssh"), list(LSPCI))


def x710_host(name: str = "esx21.pcie.example.net") -> EsxiHost:
    return EsxiHost(
        name=name,
        vmks=[Vmk(name="vmk0", portgroup="Management Network", ip="127.0.0.1", services=["management"])],
        pnics=[
            PhysicalNic(name="vmnic0", pci="0000:3b:00.0", speed_mbps=10000),
            PhysicalNic(name="vmnic1", pci="0000:3b:00.1", speed_mbps=10000),
        ],
        pci_devices=[
            PciLink(address="0000:3b:00.0", vendor="Intel Corporation", nic="vmnic0"),
            PciLink(address="0000:3b:00.1", vendor="Intel Corporation", nic="vmnic1"),
        ],
    )


def run(coroutine):
    return asyncio.run(coroutine)


# --- merging lspci into the API's PCI devices -----------------------------------------------------


def test_links_are_merged_by_pci_address_and_the_api_fields_kept():
    host = x710_host()
    assert merge_links(host, parse_lspci(lspci_text("esx21.pcie.example.net"))) == []
    first = host.pci_devices[0]
    assert (first.vendor, first.nic) == ("Intel Corporation", "vmnic0")
    assert [(d.width_capable, d.width_negotiated, d.speed_negotiated_gts) for d in host.pci_devices] == [
        (8, 1, 8.0),
        (8, 1, 8.0),
    ]


def test_a_nic_missing_from_lspci_and_a_cut_off_status_are_problems():
    host = x710_host()
    host.pci_devices.append(PciLink(address="0000:af:00.0", nic="vmnic4"))
    problems = merge_links(host, parse_lspci((FIXTURES / "lspci-wrapped-truncated.txt").read_text()))
    assert problems == [
        "0000:3b:00.1: LnkSta incomplete: 'Speed 8GT/s (ok), Width' (output cut off?)",
        "0000:af:00.0 (vmnic4): not in the `lspci -vv` output",
    ]


def test_without_api_pci_devices_the_nics_functions_come_from_lspci():
    host = x710_host()
    host.pci_devices = None
    merge_links(host, parse_lspci(lspci_text("esx23.pcie.example.net")))
    assert [(d.address, d.nic, d.width_negotiated) for d in host.pci_devices] == [
        ("0000:3b:00.0", "vmnic0", 8),
        ("0000:3b:00.1", "vmnic1", 8),
    ]


# --- SSH to one host ----------------------------------------------------------------------------


def test_key_login_runs_lspci(lab, monkeypatch):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    shell = lab.shells["esx22.pcie.example.net"]
    before = len(shell.commands_run)
    settings = SshSettings(user="root", config=lab.config("keys.conf"))
    output = run(lspci_output(EsxiHost(name="esx22.pcie.example.net"), settings))
    assert output == lspci_text("esx22.pcie.example.net")
    assert shell.commands_run[before:] == ["lspci -vv"]


def test_password_login_from_the_environment(lab, monkeypatch):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    monkeypatch.setenv("HOSTLINT_ESXI_SSH_PASSWORD", ESXI_PASSWORD)
    config = lab.config("wrong-keys.conf", key_of=dict.fromkeys(LSPCI, lab.wrong_key))
    settings = SshSettings.from_environment("root", config)
    assert ESXI_PASSWORD not in repr(settings)
    assert run(lspci_output(EsxiHost(name="esx21.pcie.example.net"), settings)).startswith("0000:3a:00.0 PCI bridge")


def test_refused_login_and_unknown_host_key_are_failures_naming_the_reason(lab, monkeypatch, tmp_path):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    config = lab.config("wrong-keys.conf", key_of=dict.fromkeys(LSPCI, lab.wrong_key))
    with pytest.raises(SshFailure, match=r"^SSH to esx21\.pcie\.example\.net: login refused: Permission denied"):
        run(lspci_output(EsxiHost(name="esx21.pcie.example.net"), SshSettings("root", config)))
    unknown = tmp_path / "unknown.conf"
    unknown.write_text(lab.config("keys.conf").read_text().replace(str(lab.known_hosts), str(tmp_path / "empty")))
    (tmp_path / "empty").write_text("")
    with pytest.raises(SshFailure, match=r"host key: \[127\.0\.0\.1\]:\d+ offered ssh-ed25519 SHA256:"):
        run(lspci_output(EsxiHost(name="esx21.pcie.example.net"), SshSettings("root", unknown)))


def test_an_unknown_host_key_gets_no_password_and_accept_new_records_it(esxi_server, lab, tmp_path, monkeypatch):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    monkeypatch.setenv("HOSTLINT_ESXI_SSH_PASSWORD", ESXI_PASSWORD)
    shell = EsxiShell("tofu", {"lspci -vv": "ok\n"}, password=ESXI_PASSWORD)
    port = esxi_server.add(shell)
    config = tmp_path / "tofu.conf"
    config.write_text(
        f"Host tofu.example.net\n  HostName 127.0.0.1\n  Port {port}\n  UserKnownHostsFile {lab.known_hosts}\n"
    )
    host = EsxiHost(name="tofu.example.net")
    fingerprint = esxi_server.host_key.get_fingerprint("sha256")
    with pytest.raises(SshFailure) as refused:
        run(lspci_output(host, SshSettings.from_environment("root", config)))
    assert str(refused.value).startswith(
        f"SSH to tofu.example.net: host key: [127.0.0.1]:{port} offered ssh-ed25519 {fingerprint}, not in known_hosts"
    )
    assert shell.logins == []
    # --known-hosts replaces the config's file; --accept-new-host-keys records the key there, then logs in.
    known = tmp_path / "known_hosts"
    settings = SshSettings.from_environment("root", config, HostKeyPolicy(known, accept_new=True))
    assert run(lspci_output(host, settings)) == "ok\n"
    assert known.read_text() == esxi_server.known_hosts_line(port)
    assert shell.logins == ["keyboard-interactive"]  # as ESXi asks for it
    assert run(lspci_output(host, SshSettings.from_environment("root", config, HostKeyPolicy(known)))) == "ok\n"


def test_an_unreadable_key_is_a_failure_of_that_host_not_a_crash(lab, tmp_path, monkeypatch):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    garbage = tmp_path / "id_garbage"
    garbage.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n-----END OPENSSH PRIVATE KEY-----\n")
    config = lab.config("garbage.conf", key_of=dict.fromkeys(LSPCI, garbage))
    errors = collect_pcie_links([x710_host()], SshSettings("root", config))
    assert [e.target for e in errors] == ["esx21.pcie.example.net"]
    assert errors[0].reason.startswith("PCIe links not collected: SSH to esx21.pcie.example.net: ")


def test_a_host_without_lspci_is_a_failure(esxi_server, lab, tmp_path, monkeypatch):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    port = esxi_server.add(EsxiShell("bare", {}, authorized_key=asyncssh.read_private_key(lab.key)))
    config = tmp_path / "bare.conf"
    config.write_text(
        f"Host bare.example.net\n  HostName 127.0.0.1\n  Port {port}\n  IdentityFile {lab.key}\n"
        f"  UserKnownHostsFile {tmp_path / 'known'}\n"
    )
    (tmp_path / "known").write_text(esxi_server.known_hosts_line(port))
    with pytest.raises(SshFailure, match=r"`lspci -vv` exited with status 127: sh: lspci: not found$"):
        run(lspci_output(EsxiHost(name="bare.example.net"), SshSettings("root", config)))


def test_a_name_that_does_not_resolve_falls_back_to_the_management_vmk(lab, tmp_path, monkeypatch):
    """DNS is replaced for the one name that must not resolve; everything else is real."""
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if host == "esx-nodns.pcie.example.net":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    port = lab.ports["esx23.pcie.example.net"]
    config = tmp_path / "by-ip.conf"
    config.write_text(
        f"Host 127.0.0.1\n  Port {port}\n  IdentityFile {lab.key}\n  UserKnownHostsFile {lab.known_hosts}\n"
    )
    host = x710_host("esx-nodns.pcie.example.net")
    assert run(lspci_output(host, SshSettings("root", config))) == lspci_text("esx23.pcie.example.net")
    host.vmks = []
    with pytest.raises(SshFailure, match=r"esx-nodns\.pcie\.example\.net: name does not resolve"):
        run(lspci_output(host, SshSettings("root", config)))


def test_hosts_are_read_with_bounded_concurrency_and_disconnected_ones_left_alone(lab, monkeypatch):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    config = lab.config("keys.conf")
    hosts = [x710_host(name) for name in LSPCI]
    hosts.append(x710_host("esx29.pcie.example.net").model_copy(update={"connection_state": "disconnected"}))
    lab.server.sessions.most = 0
    for shell in lab.shells.values():
        monkeypatch.setattr(shell, "delay_s", 0.3)  # long enough for the sessions to overlap
    errors = collect_pcie_links(hosts, SshSettings("root", config), concurrency=2)
    assert lab.server.sessions.most == 2
    assert [e.target for e in errors] == ["esx22.pcie.example.net", "esx22.pcie.example.net"]  # not an X710
    assert all("not in the `lspci -vv` output" in e.reason for e in errors)
    assert [d.width_negotiated for d in hosts[0].pci_devices] == [1, 1]
    assert [d.width_negotiated for d in hosts[3].pci_devices] == [None, None]


# --- with the vCenter simulator: collect, check -------------------------------------------------


@pytest.fixture(scope="module")
def vcenter(vcsim_binary):
    binary = vcsim_binary
    with launcher.Simulator(binary, SCENARIO, password=VSPHERE_PASSWORD) as sim:
        yield sim


def collect(vcenter, out: Path, *extra: str, env: dict | None = None):
    args = ["collect", "vsphere", "--server", vcenter.url, "--user", vcenter.user, "--ca-bundle", vcenter.cert]
    environment = {**CLEAN_ENV, "HOSTLINT_VSPHERE_PASSWORD": VSPHERE_PASSWORD, **(env or {})}
    return CliRunner().invoke(cli, [*args, "-o", str(out), *extra], env=environment, standalone_mode=False)


def check_pcie(snapshot: Path) -> tuple[int, dict]:
    args = ["check", str(snapshot), "--select", "PC", "--profile", "strict", "--format", "json"]
    outcome = CliRunner().invoke(cli, args, standalone_mode=False)
    return outcome.return_value, json.loads(outcome.stdout)


def short(objects: list[dict]) -> list[tuple[str, str]]:
    return sorted((item["code"], item["object"].split(".")[0]) for item in objects)


class TestWithVcenter:
    pytestmark = needs_simulator

    def test_ssh_links_give_pc001_for_x1_and_pc002_for_the_downgraded_card(self, vcenter, lab, tmp_path):
        out = tmp_path / "snap.json"
        outcome = collect(vcenter, out, "--esxi-ssh-user", "root", "--esxi-ssh-config", str(lab.config("keys.conf")))
        assert outcome.return_value == Exit.CLEAN, outcome.output
        esx21 = next(h for h in load_snapshot(out).esxi_hosts if h.name == "esx21.pcie.example.net")
        assert [(d.address, d.width_capable, d.width_negotiated) for d in esx21.pci_devices] == [
            ("0000:3b:00.0", 8, 1),
            ("0000:3b:00.1", 8, 1),
        ]
        code, report = check_pcie(out)
        assert code == Exit.FINDINGS
        assert short(report["findings"]) == [("PC001", "esx21"), ("PC002", "esx21"), ("PC002", "esx22")]
        assert report["skipped"] == []
        pc001 = next(f for f in report["findings"] if f["code"] == "PC001")
        assert "x1 at 8.0 GT/s" in pc001["message"]

    def test_without_ssh_user_pcie_rules_are_skipped_with_a_reason(self, vcenter, tmp_path):
        out = tmp_path / "snap.json"
        assert collect(vcenter, out).return_value == Exit.CLEAN
        code, report = check_pcie(out)
        assert code == Exit.CLEAN
        assert report["findings"] == []
        assert short(report["skipped"]) == [
            (code, host) for code in ("PC001", "PC002", "PC003") for host in ("esx21", "esx22", "esx23")
        ]
        assert all("--esxi-ssh-user" in s["reason"] for s in report["skipped"])

    def test_failed_ssh_login_on_one_host_is_a_collection_error_and_the_rest_kept(self, vcenter, lab, tmp_path):
        out = tmp_path / "snap.json"
        config = lab.config("esx23-wrong-key.conf", key_of={"esx23.pcie.example.net": lab.wrong_key})
        outcome = collect(vcenter, out, "--esxi-ssh-user", "root", "--esxi-ssh-config", str(config))
        assert outcome.return_value == Exit.PARTIAL
        snapshot = load_snapshot(out)
        assert [(e.target, e.kind) for e in snapshot.collection_errors] == [("esx23.pcie.example.net", "esxi")]
        reason = snapshot.collection_errors[0].reason
        assert reason.startswith("PCIe links not collected: SSH to esx23.pcie.example.net: login refused")
        assert f"hostlint: esx23.pcie.example.net: {reason}" in outcome.stderr
        code, report = check_pcie(out)
        assert code == Exit.PARTIAL
        assert short(report["findings"]) == [("PC001", "esx21"), ("PC002", "esx21"), ("PC002", "esx22")]
        assert short(report["skipped"]) == [("PC001", "esx23"), ("PC002", "esx23"), ("PC003", "esx23")]
        assert all("no PCIe link status" in s["reason"] for s in report["skipped"])

    def test_check_vsphere_with_ssh_password(self, vcenter, lab):
        config = lab.config("wrong-keys.conf", key_of=dict.fromkeys(LSPCI, lab.wrong_key))
        args = [
            "check", "--vsphere", vcenter.url, "--vsphere-user", vcenter.user, "--ca-bundle", vcenter.cert,
            "--esxi-ssh-user", "root", "--esxi-ssh-config", str(config), "--select", "PC001", "--format", "json",
        ]  # fmt: skip
        env = {**CLEAN_ENV, "HOSTLINT_VSPHERE_PASSWORD": VSPHERE_PASSWORD, "HOSTLINT_ESXI_SSH_PASSWORD": ESXI_PASSWORD}
        outcome = CliRunner().invoke(cli, args, env=env, standalone_mode=False)
        assert outcome.return_value == Exit.FINDINGS, outcome.output
        report = json.loads(outcome.stdout)
        assert short(report["findings"]) == [("PC001", "esx21")]
        assert report["skipped"] == [] and report["collection_errors"] == []
        assert ESXI_PASSWORD not in outcome.output


def test_ssh_options_need_their_companions(tmp_path):
    config = tmp_path / "ssh.conf"
    config.write_text("")
    snapshot = ROOT / "fixtures" / "labs" / "clean"
    outcome = CliRunner().invoke(cli, ["check", str(snapshot), "--esxi-ssh-user", "root"], standalone_mode=False)
    assert "--esxi-ssh-user needs --vsphere" in str(outcome.exception)
    args = ["collect", "vsphere", "--server", "vc", "-o", str(tmp_path / "s.json"), "--esxi-ssh-config", str(config)]
    outcome = CliRunner().invoke(cli, args, standalone_mode=False)
    assert "--esxi-ssh-config needs --esxi-ssh-user" in str(outcome.exception)


def test_host_key_options_are_checked_before_connecting(tmp_path):
    missing = tmp_path / "no-known-hosts"
    args = ["collect", "vsphere", "--server", "vc.invalid", "-o", str(tmp_path / "s.json"), "--esxi-ssh-user", "root"]
    outcome = CliRunner().invoke(cli, [*args, "--known-hosts", str(missing)], standalone_mode=False)
    assert outcome.return_value == Exit.USAGE
    assert outcome.stderr == f"hostlint: known_hosts {missing}: no such file\n"
    snapshot = ROOT / "fixtures" / "labs" / "clean"
    outcome = CliRunner().invoke(cli, ["check", str(snapshot), "--accept-new-host-keys"], standalone_mode=False)
    assert "--known-hosts and --accept-new-host-keys need --esxi-ssh-user" in str(outcome.exception)
