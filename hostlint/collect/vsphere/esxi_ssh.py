"""PCIe link width and speed of ESXi hosts over SSH (`lspci -vv`): the vSphere API has neither.

Each connected host is reached by its name, or by its management vmk's IP address when the
name does not resolve. Where to connect, the port, keys and jump hosts come from the OpenSSH
client configuration (`~/.ssh/config`, or the file given), as for `ssh`. The host key is
verified by hostlint's `HostKeyPolicy` before logging in: against `--known-hosts FILE`, else
the config's UserKnownHostsFile for that host, else the user's known_hosts. Authentication
uses the agent and keys, and a password only when HOSTLINT_ESXI_SSH_PASSWORD is set
(also answering ESXi's keyboard-interactive prompt).
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from hostlint.collect.credentials import ESXI_SSH, find_password
from hostlint.collect.hostkeys import HostKeyPolicy, KnownHostsError
from hostlint.collect.hostkeys_asyncssh import AsyncsshVerifier
from hostlint.collect.pcie import LspciDevices, normalise_pci_address, parse_lspci
from hostlint.snapshot.common import CollectionError, PciLink
from hostlint.snapshot.esxi import EsxiHost

PASSWORD_ENV = ESXI_SSH.env
LSPCI = "lspci -vv"
CONNECT_TIMEOUT_S = 15
COMMAND_TIMEOUT_S = 60
DEFAULT_CONCURRENCY = 8


class SshFailure(Exception):
    """No `lspci -vv` output from a host; the message says why (never with a password)."""


class NameNotResolved(SshFailure):
    """The host name is not in DNS (or /etc/hosts): the management IP may still answer."""


@dataclass(frozen=True)
class SshSettings:
    user: str
    config: Path | None = None
    password: str | None = field(default=None, repr=False)
    host_keys: HostKeyPolicy = field(default_factory=HostKeyPolicy)

    @classmethod
    def from_environment(
        cls, user: str, config: Path | None = None, host_keys: HostKeyPolicy | None = None
    ) -> SshSettings:
        password = find_password(ESXI_SSH)
        return cls(user=user, config=config, password=password, host_keys=host_keys or HostKeyPolicy())

    def policy_for(self, target: str) -> HostKeyPolicy:
        """`host_keys`; when it names no file, the ssh config's UserKnownHostsFile for `target` (its first file)."""
        if self.host_keys.known_hosts is not None or self.config is None:
            return self.host_keys
        resolved = asyncssh.SSHClientConnectionOptions(config=[str(self.config)], host=target).known_hosts
        # From a config file: a list of file names, or None.
        names = resolved if isinstance(resolved, list | tuple) else ()
        files = [Path(name).expanduser() for name in names if isinstance(name, str)]
        if not files:
            return self.host_keys
        return HostKeyPolicy(known_hosts=files[0], accept_new=self.host_keys.accept_new)


def management_ip(host: EsxiHost) -> str | None:
    """The IP address of the vmk that carries management traffic (vmk0 when none says so)."""
    vmks = [vmk for vmk in host.vmks if vmk.ip]
    chosen = next((vmk for vmk in vmks if "management" in vmk.services), None)
    chosen = chosen or next((vmk for vmk in vmks if vmk.name == "vmk0"), None)
    return chosen.ip if chosen else None


def _reason(exc: BaseException, verifier: AsyncsshVerifier | None = None) -> str:
    if isinstance(exc, asyncssh.HostKeyNotVerifiable):
        return f"host key: {verifier.refusal if verifier and verifier.refusal else exc.reason}"
    if isinstance(exc, asyncssh.PermissionDenied):
        return f"login refused: {exc.reason}"
    if isinstance(exc, asyncssh.Error):
        return exc.reason
    if isinstance(exc, TimeoutError):
        return "timed out"
    return str(exc) or type(exc).__name__


async def _run_lspci(target: str, settings: SshSettings, verifier: AsyncsshVerifier) -> str:
    options = {"config": [str(settings.config)]} if settings.config else {}
    async with asyncssh.connect(
        target,
        username=settings.user,
        password=settings.password,
        connect_timeout=CONNECT_TIMEOUT_S,
        **verifier.options(),
        **options,
    ) as connection:
        result = await asyncio.wait_for(connection.run(LSPCI, check=False), COMMAND_TIMEOUT_S)
    if result.exit_status != 0:
        first_line = next(iter(str(result.stderr or "").strip().splitlines()), "")
        raise SshFailure(f"`{LSPCI}` exited with status {result.exit_status}: {first_line}".rstrip(": "))
    return str(result.stdout or "")


async def _lspci_at(target: str, settings: SshSettings) -> str:
    verifier = None
    try:
        policy = settings.policy_for(target)
        policy.load()
        verifier = AsyncsshVerifier(policy)
        return await _run_lspci(target, settings, verifier)
    except socket.gaierror as exc:
        raise NameNotResolved(f"SSH to {target}: name does not resolve ({exc.strerror})") from exc
    except (SshFailure, KnownHostsError) as exc:
        raise SshFailure(f"SSH to {target}: {exc}") from exc
    except (asyncssh.Error, OSError, TimeoutError, ValueError) as exc:
        # ValueError: a key that cannot be read (encrypted, not a key) or a config that cannot be parsed
        raise SshFailure(f"SSH to {target}: {_reason(exc, verifier)}") from exc


async def lspci_output(host: EsxiHost, settings: SshSettings) -> str:
    """`lspci -vv` of one host, by name or else by management IP; SshFailure when neither works."""
    fallback = management_ip(host)
    try:
        return await _lspci_at(host.name, settings)
    except NameNotResolved:
        if not fallback or fallback == host.name:
            raise
    try:
        return await _lspci_at(fallback, settings)
    except SshFailure as exc:
        raise SshFailure(f"{exc} (tried the management IP: {host.name} does not resolve)") from exc


def merge_links(host: EsxiHost, parsed: LspciDevices) -> list[str]:
    """Copy PCIe widths and speeds onto the host's PCI devices by address; problems with those devices.

    When the API returned no PCI devices, the NICs' functions are taken from `lspci` instead.
    """
    if host.pci_devices is None:
        nics = {normalise_pci_address(nic.pci): nic.name for nic in host.pnics if nic.pci}
        host.pci_devices = [
            PciLink(address=address, device=found.device, device_class=found.device_class, nic=nics[address])
            for address, found in parsed.devices.items()
            if address in nics
        ]
    problems = [str(warning) for warning in parsed.warnings if warning.address is None]
    for device in host.pci_devices:
        address = normalise_pci_address(device.address) or device.address
        found = parsed.devices.get(address)
        if found is None:
            problems.append(f"{address}{f' ({device.nic})' if device.nic else ''}: not in the `{LSPCI}` output")
            continue
        device.width_capable, device.width_negotiated = found.width_capable, found.width_negotiated
        device.speed_capable_gts, device.speed_negotiated_gts = found.speed_capable_gts, found.speed_negotiated_gts
        problems += [str(warning) for warning in parsed.warnings_for(address)]
    return problems


async def _collect(hosts: list[EsxiHost], settings: SshSettings, concurrency: int) -> list[CollectionError]:
    limit = asyncio.Semaphore(concurrency)

    async def one(host: EsxiHost) -> list[CollectionError]:
        async with limit:
            try:
                output = await lspci_output(host, settings)
            except SshFailure as exc:
                return [CollectionError(target=host.name, kind="esxi", reason=f"PCIe links not collected: {exc}")]
        return [
            CollectionError(target=host.name, kind="esxi", reason=f"PCIe links: {problem}")
            for problem in merge_links(host, parse_lspci(output))
        ]

    per_host = await asyncio.gather(*(one(host) for host in hosts))
    return [error for errors in per_host for error in errors]


def collect_pcie_links(
    hosts: list[EsxiHost], settings: SshSettings, concurrency: int = DEFAULT_CONCURRENCY
) -> list[CollectionError]:
    """Fill the PCIe links of every connected host in place; one error per host or device not read."""
    connected = [host for host in hosts if host.connection_state == "connected"]
    return asyncio.run(_collect(connected, settings, concurrency)) if connected else []
