"""Every wait on vSphere is bounded: a peer that takes the connection and never answers, or answers one byte
every two seconds, ends the collection within the timeout plus a small margin, exit 3, with one line naming
the server and the phase.

Real sockets on loopback (plain TCP, and a completed TLS handshake), the simulator with one SOAP method
held back (sim/vcsim -method-delay) and the simulator behind a proxy that drips its answers, never a mock.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from dripping_peer import DrippingPeer, DrippingProxy
from hung_peer import HungPeer
from support.vcsim import PASSWORD, SITE, launcher

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.vsphere import connect, disconnect, parse_server, tls_context
from hostlint.snapshot import load_snapshot

TIMEOUT_S = 1.5
# The three bulk retrievals run at once: the first to fail names itself.
RETRIEVAL = "retrieval of (hosts|distributed switches|virtual machines)"
MARGIN_S = 5


def collect(server: str, out, *extra: str, user: str = "administrator@vsphere.local", timeout: float = TIMEOUT_S):
    args = ["collect", "vsphere", "--server", server, "--user", user, "--timeout", f"{timeout:g}", "-o", str(out)]
    return run([*args, *extra])


def check_live(server: str, *extra: str, user: str = "administrator@vsphere.local", timeout: float = TIMEOUT_S):
    return run(["check", "--vsphere", server, "--vsphere-user", user, "--timeout", f"{timeout:g}", *extra])


def run(args: list[str]):
    started = time.monotonic()
    outcome = CliRunner().invoke(cli, args, env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}, standalone_mode=False)
    return outcome, time.monotonic() - started


def error_lines(outcome) -> list[str]:
    return [line for line in outcome.stderr.splitlines() if line.strip()]


@pytest.mark.parametrize("tls", [False, True], ids=["tcp-only", "tls-then-silence"])
def test_a_silent_peer_ends_in_the_version_probe(tls, tmp_path):
    out = tmp_path / "snap.json"
    with HungPeer(tls=tls) as peer:
        outcome, elapsed = collect(f"127.0.0.1:{peer.port}", out, "--insecure")
        handshakes = peer.handshakes
    assert outcome.exception is None, outcome.exception
    assert outcome.return_value == Exit.PARTIAL
    assert elapsed < TIMEOUT_S + MARGIN_S
    assert elapsed >= TIMEOUT_S * 0.9  # it did wait for the answer, it did not give up at once
    assert error_lines(outcome) == [
        f"hostlint: 127.0.0.1:{peer.port}: no answer within {TIMEOUT_S:g} s during the version probe"
    ]
    assert handshakes == (1 if tls else 0)
    assert not out.exists()


def test_the_timeout_must_be_positive(tmp_path):
    outcome = CliRunner().invoke(
        cli, ["collect", "vsphere", "--server", "vc01", "--timeout", "0", "-o", str(tmp_path / "s.json")]
    )
    assert outcome.exit_code == 2
    assert "--timeout" in outcome.output


@pytest.mark.slow
@pytest.mark.parametrize(
    ("method", "phase"),
    [("Login", "login"), ("RetrievePropertiesEx", RETRIEVAL)],
    ids=["login", "retrieval"],
)
def test_a_server_that_stops_answering_later_ends_there(vcsim_binary, tmp_path, method, phase):
    out = tmp_path / "snap.json"
    held_back = ("-method-delay", f"{method}=60000")
    with launcher.Simulator(vcsim_binary, SITE, password=PASSWORD, extra_args=held_back) as sim:
        outcome, elapsed = collect(f"127.0.0.1:{sim.port}", out, "--ca-bundle", sim.cert, user=sim.user)
    assert outcome.exception is None, outcome.exception
    assert outcome.return_value == Exit.PARTIAL
    assert elapsed < TIMEOUT_S + MARGIN_S
    # The three bulk retrievals run at once and are all held back: the first to give up names itself.
    [line] = error_lines(outcome)
    assert re.fullmatch(rf"hostlint: 127.0.0.1:{sim.port}: no answer within {TIMEOUT_S:g} s during {phase}", line)
    assert not out.exists()


# --- a server that answers one byte every two seconds (issue #23) ---------------------------------------------

DRIP_TIMEOUT_S = 5  # as the issue: `--timeout 5` ends in under 15 s
DRIP_LIMIT_S = 15


@pytest.mark.parametrize("tls", [False, True], ids=["drip-into-the-handshake", "tls-then-drip"])
@pytest.mark.parametrize("command", ["collect", "check"])
def test_a_dripping_peer_ends_at_the_deadline_not_at_each_read(tls, command, tmp_path):
    out = tmp_path / "snap.json"
    with DrippingPeer(tls=tls) as peer:
        server = f"127.0.0.1:{peer.port}"
        if command == "collect":
            outcome, elapsed = collect(server, out, "--insecure", timeout=DRIP_TIMEOUT_S)
        else:
            outcome, elapsed = check_live(server, "--insecure", timeout=DRIP_TIMEOUT_S)
    assert outcome.exception is None, outcome.exception
    assert outcome.return_value == Exit.PARTIAL
    assert DRIP_TIMEOUT_S * 0.9 <= elapsed < DRIP_TIMEOUT_S + MARGIN_S < DRIP_LIMIT_S
    assert error_lines(outcome) == [
        f"hostlint: 127.0.0.1:{peer.port}: no answer within {DRIP_TIMEOUT_S} s during the version probe"
    ]
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("passed", "phase"),
    [(1, "login"), (2, RETRIEVAL)],
    ids=["login", "after-login"],
)
@pytest.mark.parametrize("command", ["collect", "check"])
def test_a_simulator_dripping_its_answers_ends_at_the_deadline_naming_the_phase(
    vcsim_binary,
    tmp_path,
    passed,
    phase,
    command,
):
    """The simulator behind a relay that passes the first `passed` connections (the version probe, then the
    session's first connection) and drips the server's bytes on the later ones."""
    out = tmp_path / "snap.json"
    with (
        launcher.Simulator(vcsim_binary, SITE, password=PASSWORD) as sim,
        DrippingProxy(sim.port, passed=passed) as proxy,
    ):
        server = f"127.0.0.1:{proxy.port}"
        trust = ("--ca-bundle", str(sim.cert))
        if command == "collect":
            outcome, elapsed = collect(server, out, *trust, user=sim.user, timeout=DRIP_TIMEOUT_S)
        else:
            outcome, elapsed = check_live(server, *trust, user=sim.user, timeout=DRIP_TIMEOUT_S)
        dripped = proxy.dripped
    assert outcome.exception is None, outcome.exception
    assert outcome.return_value == Exit.PARTIAL
    assert elapsed < DRIP_TIMEOUT_S + MARGIN_S < DRIP_LIMIT_S
    assert dripped >= 1
    lines = error_lines(outcome)
    expected = rf"hostlint: 127.0.0.1:{proxy.port}: no answer within {DRIP_TIMEOUT_S} s during {phase}"
    assert [line for line in lines if re.fullmatch(expected, line)], "\n".join(lines)
    assert not any("HostConnectFault" in line for line in lines)
    assert not out.exists()


@pytest.mark.slow
def test_a_refused_bulk_retrieval_names_fault_privilege_and_object_and_keeps_the_rest(vcsim_binary, tmp_path):
    out = tmp_path / "snap.json"
    denied = ("-deny", "DistributedVirtualSwitch=System.Read")
    with launcher.Simulator(vcsim_binary, SITE, password=PASSWORD, extra_args=denied) as sim:
        outcome, _ = collect(f"127.0.0.1:{sim.port}", out, "--ca-bundle", sim.cert, user=sim.user)
    assert outcome.exception is None, outcome.exception
    assert outcome.return_value == Exit.PARTIAL
    refused = (
        f"hostlint: 127.0.0.1:{sim.port}: distributed switches not retrieved: "
        "NoPermission: privilege System.Read on Folder group-d1"
    )
    assert refused in error_lines(outcome), "\n".join(error_lines(outcome))
    snapshot = load_snapshot(out)  # written, with what the other retrievals gave
    assert len(snapshot.esxi_hosts) == 3 and snapshot.distributed_switches == []
    assert [e.kind for e in snapshot.collection_errors if "NoPermission" in e.reason] == ["vcenter"]


# --- logout: bounded, and not attempted once the server has stopped answering ---------------------------------


@pytest.mark.slow
def test_logout_waits_at_most_the_call_timeout(vcsim_binary):
    held_back = ("-method-delay", "Logout=60000")
    with launcher.Simulator(vcsim_binary, SITE, password=PASSWORD, extra_args=held_back) as sim:
        context = tls_context(ca_bundle=Path(sim.cert))
        service_instance = connect(parse_server(sim.url), sim.user, PASSWORD, context, timeout=TIMEOUT_S)
        started = time.monotonic()
        disconnect(service_instance)
        elapsed = time.monotonic() - started
    assert TIMEOUT_S * 0.9 <= elapsed < TIMEOUT_S + 2


@pytest.mark.slow
def test_no_logout_after_a_call_timed_out(vcsim_binary):
    held_back = ("-method-delay", "CurrentTime=60000")
    with launcher.Simulator(vcsim_binary, SITE, password=PASSWORD, extra_args=held_back) as sim:
        context = tls_context(ca_bundle=Path(sim.cert))
        answering = connect(parse_server(sim.url), sim.user, PASSWORD, context, timeout=TIMEOUT_S)
        sim.stats(reset=True)
        disconnect(answering)
        logouts_when_answering = sim.stats(reset=True)["methods"].get("Logout")

        stopped = connect(parse_server(sim.url), sim.user, PASSWORD, context, timeout=TIMEOUT_S)
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            stopped.CurrentTime()
        timed_out_after = time.monotonic() - started
        started = time.monotonic()
        disconnect(stopped)
        logout_took = time.monotonic() - started
        logouts_when_stopped = sim.stats()["methods"].get("Logout")
    assert logouts_when_answering == 1
    assert TIMEOUT_S * 0.9 <= timed_out_after < TIMEOUT_S + 2
    assert logouts_when_stopped is None and logout_took < 0.5


@pytest.mark.slow
def test_a_connection_closed_after_login_names_the_retrieval(vcsim_binary, tmp_path):
    out = tmp_path / "snap.json"
    with (
        launcher.Simulator(vcsim_binary, SITE, password=PASSWORD) as sim,
        DrippingProxy(sim.port, passed=2, close_later=True) as proxy,
    ):
        outcome, _ = collect(f"127.0.0.1:{proxy.port}", out, "--ca-bundle", sim.cert, user=sim.user)
    assert outcome.exception is None, outcome.exception
    assert outcome.return_value == Exit.PARTIAL
    lines = error_lines(outcome)
    failed = rf"hostlint: 127.0.0.1:{proxy.port}: collection failed during {RETRIEVAL}: .+"
    assert [line for line in lines if re.fullmatch(failed, line)], "\n".join(lines)
    assert not out.exists()


# --- a name resolver that never answers ---------------------------------------------------------------------

SILENT_RESOLVER = """
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 53))  # takes the queries, answers none
time.sleep(float(sys.argv[1]))
"""


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="a network and mount namespace of its own"
)
def test_a_hung_name_lookup_ends_at_the_deadline(tmp_path):
    """getaddrinfo has no timeout: in namespaces of its own, the resolver is a socket that never answers."""
    (tmp_path / "resolv.conf").write_text("nameserver 127.0.0.1\noptions timeout:30 attempts:1\n")
    (tmp_path / "resolver.py").write_text(SILENT_RESOLVER)
    out = tmp_path / "snap.json"
    script = (
        f"ip link set lo up && mount --bind {tmp_path / 'resolv.conf'} /etc/resolv.conf && "
        f"{{ {sys.executable} {tmp_path / 'resolver.py'} 40 & }} && resolver=$! && sleep 0.5 && "
        f"{sys.executable} -m hostlint collect vsphere --server vc.hang.test --insecure --timeout {TIMEOUT_S:g} "
        f"-o {out}; code=$?; kill $resolver; exit $code"
    )
    started = time.monotonic()
    done = subprocess.run(
        ["unshare", "--net", "--mount", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOSTLINT_VSPHERE_PASSWORD": PASSWORD},
        check=False,
    )
    elapsed = time.monotonic() - started
    assert done.returncode == Exit.PARTIAL, done.stderr
    assert elapsed < TIMEOUT_S + MARGIN_S + 2  # + the interpreter's start and the resolver's
    assert done.stderr.strip() == f"hostlint: vc.hang.test: no answer within {TIMEOUT_S:g} s during the version probe"
    assert not out.exists()


@pytest.mark.slow
def test_hint_calls_that_run_out_of_time_are_named_and_the_hosts_kept(vcsim_binary, tmp_path):
    out = tmp_path / "snap.json"
    held_back = ("-method-delay", "QueryNetworkHint=60000")
    with launcher.Simulator(vcsim_binary, SITE, password=PASSWORD, extra_args=held_back) as sim:
        outcome, elapsed = collect(f"127.0.0.1:{sim.port}", out, "--ca-bundle", sim.cert, user=sim.user)
    assert outcome.exception is None, outcome.exception
    assert outcome.return_value == Exit.PARTIAL
    # the calls under way give up together; the hosts not yet asked are not asked, logout is not tried
    assert elapsed < TIMEOUT_S + MARGIN_S
    snapshot = load_snapshot(out)
    assert len(snapshot.esxi_hosts) == 3
    reasons = {e.reason for e in snapshot.collection_errors}
    assert f"CDP/LLDP hints: no answer within {TIMEOUT_S:g} s" in reasons, reasons
