"""libvirt read in a child process with a deadline: `read_libvirt_bounded(uri, timeout)`.

libvirt-python's calls block inside the C library (the RPC client waits on its socket, or on the `ssh`
it started) and no Python timeout can interrupt them; libvirt's keepalive only notices a dead peer, not
one that accepts and never answers. So the calls run in a child process in its own session (with the
`ssh` libvirt may start), which is killed, group and all, when `timeout` seconds have passed. The child
prints each phase it enters, so a timeout names where libvirt stopped answering.

Run as `python -m hostlint.collect.kvm.libvirt_worker URI`, the child prints `phase <what>` lines, then
one `result <json>` line with each domain's XML and state and each network's XML (parsed by the caller)
or one `error <message>` line.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any

from hostlint.collect.kvm.libvirt_facts import (
    DOMAIN_STATES,
    LibvirtError,
    load_libvirt,
    parse_domain,
    parse_network,
    quiet_stderr,
)
from hostlint.snapshot.kvm import LibvirtDomain, LibvirtNetwork


def _say(kind: str, text: str) -> None:
    sys.stdout.write(f"{kind} {text}\n")
    sys.stdout.flush()


def _read(uri: str) -> dict[str, Any]:
    libvirt = load_libvirt()
    libvirt.registerErrorHandler(lambda _ctx, _err: None, None)
    _say("phase", "connect")
    with quiet_stderr():
        conn = libvirt.openReadOnly(uri)
    try:
        _say("phase", "list domains")
        domains = []
        for domain in conn.listAllDomains():
            _say("phase", f"read domain {domain.name()}")
            domains.append([domain.XMLDesc(0), DOMAIN_STATES.get(domain.state()[0], "nostate")])
        _say("phase", "list networks")
        networks = []
        for network in conn.listAllNetworks():
            _say("phase", f"read network {network.name()}")
            networks.append(network.XMLDesc(0))
    finally:
        conn.close()
    return {"domains": domains, "networks": networks}


def main(argv: list[str]) -> int:
    try:
        libvirt = load_libvirt()
    except LibvirtError as exc:
        _say("error", str(exc))
        return 1
    try:
        result = _read(argv[0])
    except libvirt.libvirtError as exc:
        _say("error", str(exc.get_error_message() or exc))
        return 1
    _say("result", json.dumps(result))
    return 0


def _last_phase(output: str) -> str:
    phases = [line.removeprefix("phase ") for line in output.splitlines() if line.startswith("phase ")]
    return phases[-1] if phases else "start"


def shown(uri: str) -> str:
    """The URI as messages show it: without `command=` (hostlint's own ssh wrapper in a temporary folder)."""
    base, mark, query = uri.partition("?")
    kept = [pair for pair in query.split("&") if pair and not pair.startswith("command=")]
    return base + (mark + "&".join(kept) if kept else "")


def read_raw_bounded(uri: str, timeout: float) -> dict[str, Any]:
    """What `_read` returns, read by a child process that is killed after `timeout` seconds."""
    child = subprocess.Popen(
        [sys.executable, "-m", __name__, uri],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group: libvirt's ssh goes with it
    )
    try:
        output, _ = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        output, _ = child.communicate()
        raise LibvirtError(f"libvirt {shown(uri)}: no answer within {timeout:g} s ({_last_phase(output)})") from None
    for line in output.splitlines():
        if line.startswith("result "):
            result: dict[str, Any] = json.loads(line.removeprefix("result "))
            return result
        if line.startswith("error "):
            raise LibvirtError(f"libvirt {shown(uri)}: {line.removeprefix('error ')}")
    ended = f"the reader ended with exit status {child.returncode}"
    raise LibvirtError(f"libvirt {shown(uri)}: {ended} ({_last_phase(output)})")


def read_libvirt_bounded(uri: str, timeout: float) -> tuple[list[LibvirtDomain], list[LibvirtNetwork]]:
    """All domains and networks libvirt at `uri` knows, as `read_libvirt`, ended after `timeout` seconds."""
    raw = read_raw_bounded(uri, timeout)
    try:
        domains = [parse_domain(xml, state) for xml, state in raw["domains"]]
        networks = [parse_network(xml) for xml in raw["networks"]]
    except ET.ParseError as exc:
        raise LibvirtError(f"libvirt {shown(uri)}: XML not read: {exc}") from exc
    return sorted(domains, key=lambda d: d.name), sorted(networks, key=lambda n: n.name)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
