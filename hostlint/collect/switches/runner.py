"""Collecting many switches at once: one netmiko session per device, a bounded thread pool.

A device that fails (refused, timeout, host key, authentication, a rejected
command, a dropped connection, output that does not parse) becomes a
`CollectionError` naming it, with a one-line reason that starts with the phase:
`connect:`, `host key:`, `auth:`, `prompt:` or `command 'show ...':`. The other
devices are still collected. Host keys and deadlines: see `session.py`.
"""

from __future__ import annotations

import errno
import logging
import re
import socket
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from hostlint.collect.hostkeys import HostKeyPolicy
from hostlint.collect.switches import stanzas
from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.inventory import Device, password_for
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.collect.switches.platforms import PlatformSpec, load_platform
from hostlint.collect.switches.session import Expired, PeerClosed, Timeouts, Watchdog, close_session, open_session
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import CollectionError
from hostlint.snapshot.switch import Switch

log = logging.getLogger(__name__)

DEFAULT_TIMEOUTS = Timeouts()


@dataclass
class DeviceResult:
    """`switch` is None for a device that names no platform hostlint collects (nothing to build)."""

    device: Device
    switch: Switch | None
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


class DeviceFailed(Exception):
    """The device could not be collected at all; the message is the reason, safe to print."""


def _causes(exc: BaseException) -> list[BaseException]:
    """The exception, what it was raised from, and paramiko's per-address errors (NoValidConnectionsError)."""
    found: list[BaseException] = []
    pending = [exc]
    while pending:
        current = pending.pop()
        if current in found:
            continue
        found.append(current)
        pending += [e for e in (current.__cause__, current.__context__) if e is not None]
        pending += [e for e in (getattr(current, "errors", None) or {}).values() if isinstance(e, BaseException)]
    return found


def _connect_reason(exc: BaseException, device: Device, watchdog: Watchdog) -> str:
    """One line: the phase that failed (connect, host key, auth, prompt) and why."""
    from netmiko.exceptions import NetmikoAuthenticationException

    where = f"{device.hostname}:{device.port}"
    if watchdog.client is not None and watchdog.client.refusal:
        return f"host key: {watchdog.client.refusal}"
    phase = watchdog.phase
    if watchdog.expired and watchdog.overall:
        return f"{phase}: timed out: the switch's total limit of {watchdog.total:g}s was reached"
    if watchdog.expired or isinstance(exc, Expired):
        waiting = {
            "connect": f"no SSH banner and key exchange from {where}",
            "host key": f"host key check of {where}",
            "auth": f"login to {where}",
            "prompt": f"no prompt from {where}",
        }.get(phase, where)
        return f"{phase}: timed out after {watchdog.seconds:g}s ({waiting})"
    causes = _causes(exc)
    if any(isinstance(e, NetmikoAuthenticationException) for e in causes):
        return f"auth: authentication failed for user {device.username!r} on {where}"
    if isinstance(exc, PeerClosed) or (phase in ("auth", "prompt") and _closed(causes)):
        return f"{phase}: connection closed by peer {where}"
    if any(isinstance(e, ConnectionRefusedError) or getattr(e, "errno", None) == errno.ECONNREFUSED for e in causes):
        return f"connect: connection refused by {where}"
    if any(isinstance(e, socket.gaierror) for e in causes):
        return f"connect: cannot resolve {device.hostname!r}"
    if any(isinstance(e, socket.timeout | TimeoutError) for e in causes):
        return f"{phase}: timed out after {watchdog.seconds:g}s ({where})"
    if _closed(causes):
        return f"{phase}: connection closed by peer {where}"
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"{phase}: cannot connect to {where}: {first}"


def _closed(causes: list[BaseException]) -> bool:
    """paramiko and netmiko's ways of saying the other side hung up."""
    text = " ".join(str(e) for e in causes).lower()
    return any(isinstance(e, EOFError | ConnectionResetError | BrokenPipeError) for e in causes) or any(
        marker in text
        for marker in ("error reading ssh protocol banner", "connection reset", "socket is closed", "closed by remote")
    )


def _connect(device: Device, spec: PlatformSpec, timeouts: Timeouts, policy: HostKeyPolicy, watchdog: Watchdog) -> Any:
    password = password_for(device)
    if password is None:
        raise DeviceFailed(
            f"no password: set {device.password_env or 'HOSTLINT_SWITCH_PASSWORD'} or store one in the keyring"
        )
    watchdog.enter("connect", timeouts.connect)
    try:
        return open_session(
            spec.device_type,
            policy,
            watchdog,
            timeouts,
            host=device.hostname,
            port=device.port,
            username=device.username or "",
            password=password,
            allow_agent=False,
            use_keys=False,
        )
    except Exception as exc:  # netmiko and paramiko raise many types; each is a reason, not a crash
        raise DeviceFailed(_connect_reason(exc, device, watchdog)) from None
    finally:
        watchdog.stop()


def _command_failure(command: str, exc: Exception, watchdog: Watchdog) -> str:
    from netmiko.exceptions import ReadTimeout

    what = f"command {command!r}"
    if watchdog.expired and watchdog.overall:
        return f"{what}: timed out: the switch's total limit of {watchdog.total:g}s was reached"
    if watchdog.expired or isinstance(exc, Expired | ReadTimeout):
        return f"{what}: timed out after {watchdog.seconds:g}s"
    if isinstance(exc, PeerClosed) or _closed(_causes(exc)):
        return f"{what}: connection closed by peer"
    text = str(exc).strip()
    return f"{what}: failed: {type(exc).__name__}" + (f": {text.splitlines()[0]}" if text else "")


def without_echo(output: str, command: str) -> str:
    """The command's output without its echo. netmiko strips the echo when it arrives in one piece; on a
    slow session it can come back behind the prompt (`nx2#show cdp neighbors detail`), which is not
    output and would make the parser miss the whole answer."""
    head, _, rest = output.lstrip("\r\n").partition("\n")
    line = head.strip()
    if line == command.strip() or re.fullmatch(r"\S+[#>]\s*" + re.escape(command.strip()), line):
        return rest
    return output


# A switch always prints its version, its configuration and its interfaces: a blank answer to one of those
# is no answer (netmiko gave up on a prompt that came late), never a switch without them.
ALWAYS_ANSWERED = ("version", "config", "interfaces")
# Such a blank answer is asked again this long after it came.
LATE_QUIET_S = 1.0


def _ask(connection: Any, command: str, timeout: float) -> str:
    """One command's answer, its echo removed."""
    return without_echo(connection.send_command(command, read_timeout=timeout), command)


def _rejection(output: str, spec: PlatformSpec) -> str | None:
    for line in output.splitlines():
        if any(marker in line for marker in spec.rejected):
            return line.strip()
    return None


def collect_device(
    device: Device, timeouts: Timeouts = DEFAULT_TIMEOUTS, policy: HostKeyPolicy | None = None
) -> DeviceResult:
    """Connect, run the platform's commands, parse and assemble; never raises for a device fault.

    `policy`: how the switch's host key is verified (default: the user's known_hosts, nothing accepted new).
    """
    if device.problem:
        return DeviceResult(device=device, switch=None, errors=[device.problem])
    spec = load_platform(device.platform)
    watchdog = Watchdog(timeouts.total)
    try:
        connection = _connect(device, spec, timeouts, policy or HostKeyPolicy(), watchdog)
    except DeviceFailed as failed:
        stub = Switch(
            name=device.name, platform=spec.platform, mgmt_address=device.hostname, connection_state="unreachable"
        )
        return DeviceResult(device=device, switch=stub, errors=[str(failed)])
    errors: list[str] = []
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    config_text: list[str] = []
    try:
        for command in spec.commands:
            watchdog.enter(f"command {command.command!r}", timeouts.command)
            try:
                output = _ask(connection, command.command, timeouts.command)
                if not output.strip() and command.section in ALWAYS_ANSWERED:
                    # A prompt that came late ended the read before the answer: a moment later, what arrived
                    # late is read and dropped, and the command is asked once more.
                    time.sleep(LATE_QUIET_S)
                    connection.clear_buffer()
                    output = _ask(connection, command.command, timeouts.command)
            except Exception as exc:  # a timeout or a dropped session ends this device, not the run
                errors.append(_command_failure(command.command, exc, watchdog))
                break
            if not output.strip() and command.section in ALWAYS_ANSWERED:
                errors.append(
                    f"command {command.command!r}: empty answer (the prompt may have come late); what it shows is"
                    " unknown"
                )
                continue
            rejected = _rejection(output, spec)
            if rejected:
                if not command.optional:
                    errors.append(f"command {command.command!r} rejected: {rejected}")
                continue
            commands.setdefault(command.section, command.command)
            if command.section == "config":
                config_text.append(output)
            parsed = parse_output(command, output, device.name)
            sections.setdefault(command.section, Parsed()).merge(parsed)
    finally:
        close_session(connection, watchdog)
    own_lines = stanzas.interface_lines("\n".join(config_text)) if config_text else None
    switch, warnings = build_switch(device, sections, commands, own_lines)
    for note in (n for p in sections.values() for n in p.notes):
        log.warning("%s", note)
    # Warnings name their device for logs and tests; a CollectionError already names it as its target.
    warnings = [w.removeprefix(f"{device.name}: ") for p in sections.values() for w in p.warnings] + [
        w.removeprefix(f"{device.name}: ") for w in warnings
    ]
    return DeviceResult(device=device, switch=switch, errors=errors + warnings)


def collect_switches(
    devices: Iterable[Device],
    concurrency: int = 10,
    timeouts: Timeouts = DEFAULT_TIMEOUTS,
    on_done: Callable[[DeviceResult], None] | None = None,
    policy: HostKeyPolicy | None = None,
) -> Snapshot:
    """Collect every device, at most `concurrency` at once, into one snapshot (inventory order)."""
    devices = list(devices)
    policy = policy or HostKeyPolicy()
    results: list[DeviceResult | None] = [None] * len(devices)
    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="hostlint-switch") as pool:
        futures = {pool.submit(collect_device, device, timeouts, policy): index for index, device in enumerate(devices)}
        for future in as_completed(futures):
            result = future.result()
            results[futures[future]] = result
            if on_done is not None:
                on_done(result)
    snapshot = Snapshot(collected_at=datetime.now(UTC))
    for result in filter(None, results):
        if result.switch is not None:
            snapshot.switches.append(result.switch)
        snapshot.collection_errors.extend(
            CollectionError(target=result.device.name, kind="switch", reason=reason) for reason in result.errors
        )
    return snapshot


def summary(snapshot: Snapshot, devices: int, into: str) -> str:
    """`collected 4 of 4 switches into s.json, 1 with collection errors`: a switch connected to and read is
    collected even when some of its facts could not be read; those are counted apart, not as uncollected."""
    collected = [s.name for s in snapshot.switches if s.connection_state == "connected"]
    failed = {error.target for error in snapshot.collection_errors}
    with_errors = sum(1 for name in collected if name in failed)
    text = f"collected {len(collected)} of {devices} switches into {into}"
    return text + (f", {with_errors} with collection errors" if with_errors else "")
