"""Collecting many switches at once: one netmiko session per device, a bounded thread pool.

A device that fails (refused, timeout, authentication, a rejected command,
output that does not parse) becomes a `CollectionError` naming it and the
reason; the other devices are still collected.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime

from hostlint.collect.switches.assemble import build_switch
from hostlint.collect.switches.inventory import Device, password_for
from hostlint.collect.switches.parse import Parsed, parse_output
from hostlint.collect.switches.platforms import PlatformSpec, load_platform
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import CollectionError
from hostlint.snapshot.switch import Switch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Timeouts:
    """Seconds: `connect` covers TCP, SSH banner and authentication; `command` each command's answer."""

    connect: float = 10.0
    command: float = 30.0


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


def _connect_reason(exc: BaseException, device: Device, timeouts: Timeouts) -> str:
    from netmiko.exceptions import NetmikoAuthenticationException

    causes = _causes(exc)
    text = " ".join(str(e) for e in causes).lower()
    where = f"{device.hostname}:{device.port}"
    if any(isinstance(e, NetmikoAuthenticationException) for e in causes):
        return f"authentication failed for user {device.username!r} on {where}"
    if any(isinstance(e, ConnectionRefusedError) or getattr(e, "errno", None) == errno.ECONNREFUSED for e in causes):
        return f"connection refused by {where}"
    if any(isinstance(e, socket.gaierror) for e in causes):
        return f"cannot resolve {device.hostname!r}"
    # paramiko gives up on a server that accepts TCP but never sends its banner with "No existing session".
    if any(isinstance(e, socket.timeout | TimeoutError) for e in causes) or any(
        marker in text for marker in ("timed out", "timeout", "no existing session", "banner")
    ):
        return f"timed out connecting to {where} after {timeouts.connect:g}s"
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"cannot connect to {where}: {first}"


def _connect(device: Device, spec: PlatformSpec, timeouts: Timeouts):
    from netmiko import ConnectHandler

    password = password_for(device)
    if password is None:
        raise DeviceFailed(
            f"no password: set {device.password_env or 'HOSTLINT_SWITCH_PASSWORD'} or store one in the keyring"
        )
    try:
        return ConnectHandler(
            device_type=spec.device_type,
            host=device.hostname,
            port=device.port,
            username=device.username or "",
            password=password,
            conn_timeout=timeouts.connect,
            auth_timeout=timeouts.connect,
            banner_timeout=timeouts.connect,
            timeout=timeouts.command,
            read_timeout_override=timeouts.command,
            fast_cli=True,
            allow_agent=False,
            use_keys=False,
        )
    except Exception as exc:  # netmiko and paramiko raise many types; each is a reason, not a crash
        raise DeviceFailed(_connect_reason(exc, device, timeouts)) from None


def _command_failure(command: str, exc: Exception, timeouts: Timeouts) -> str:
    from netmiko.exceptions import ReadTimeout

    if isinstance(exc, ReadTimeout):
        return f"command {command!r} timed out after {timeouts.command:g}s"
    text = str(exc).strip()
    return f"command {command!r} failed: {type(exc).__name__}" + (f": {text.splitlines()[0]}" if text else "")


def _rejection(output: str, spec: PlatformSpec) -> str | None:
    for line in output.splitlines():
        if any(marker in line for marker in spec.rejected):
            return line.strip()
    return None


def collect_device(device: Device, timeouts: Timeouts = Timeouts()) -> DeviceResult:
    """Connect, run the platform's commands, parse and assemble; never raises for a device fault."""
    if device.problem:
        return DeviceResult(device=device, switch=None, errors=[device.problem])
    spec = load_platform(device.platform)
    try:
        connection = _connect(device, spec, timeouts)
    except DeviceFailed as failed:
        stub = Switch(
            name=device.name, platform=device.platform, mgmt_address=device.hostname, connection_state="unreachable"
        )
        return DeviceResult(device=device, switch=stub, errors=[str(failed)])
    errors: list[str] = []
    sections: dict[str, Parsed] = {}
    commands: dict[str, str] = {}
    try:
        for command in spec.commands:
            try:
                output = connection.send_command(command.command, read_timeout=timeouts.command)
            except Exception as exc:  # a timeout or a dropped session ends this device, not the run
                errors.append(_command_failure(command.command, exc, timeouts))
                break
            rejected = _rejection(output, spec)
            if rejected:
                if not command.optional:
                    errors.append(f"command {command.command!r} rejected: {rejected}")
                continue
            commands.setdefault(command.section, command.command)
            parsed = parse_output(command, output, device.name)
            sections.setdefault(command.section, Parsed()).merge(parsed)
    finally:
        # A session that already broke has nothing left to close.
        with contextlib.suppress(Exception):
            connection.disconnect()
    switch, warnings = build_switch(device, sections, commands)
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
    timeouts: Timeouts = Timeouts(),
    on_done: Callable[[DeviceResult], None] | None = None,
) -> Snapshot:
    """Collect every device, at most `concurrency` at once, into one snapshot (inventory order)."""
    devices = list(devices)
    results: list[DeviceResult | None] = [None] * len(devices)
    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="hostlint-switch") as pool:
        futures = {pool.submit(collect_device, device, timeouts): index for index, device in enumerate(devices)}
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
