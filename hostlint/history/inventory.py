"""`hostlint scan --inventory FILE`: the live sources of a scheduled scan.

    site_name: lon1                          # optional: the site the scans belong to (history, diff)
    vsphere:
      - server: vc01.example.com
        user: svc-hostlint@vsphere.local     # password: HOSTLINT_VSPHERE_PASSWORD or keyring (never a prompt)
        ca_bundle: /etc/hostlint/vc01.pem    # or insecure: true
        timeout: 120                         # seconds: longest one call may take (scan --timeout wins)
        esxi_ssh_user: root                  # optional: PCIe link width over SSH
    switches: switches/hosts.yaml            # a Nornir or Ansible inventory (relative to this file)
    kvm:
      - host: root@kvm01                     # keys or agent; libvirt over qemu+ssh
        ssh_options: [Port=2222]             # as collect kvm --ssh-option, for ssh and libvirt
        timeout: 60                          # seconds: as collect kvm --timeout
    snapshots: [extra.json]                  # saved snapshots or lab folders to merge in
    cabling: cabling.yaml
    concurrency: 16                          # optional: sources collected at once (default 16)
    notify: [mailto://netops@example.com]    # optional: Apprise URLs told of new, resolved, expiring findings
    known_hosts: ssh/known_hosts             # optional: SSH host keys of switches, ESXi and KVM hosts
    accept_new_host_keys: false              # optional: trust on first use, recorded in known_hosts
    probe:                                   # optional: how `scan --probe` proves jumbo paths (sends traffic)
      budget: 900                            # seconds for every probe of the scan (scan --probe-budget wins)
      concurrency: 8                         # probes in flight at once
      count: 3                               # pings per probe; wait: seconds per reply; peers: per vmk

A vsphere or kvm entry may set its own `probe:` (the same keys; its `budget` bounded by the scan's
remaining budget), or `probe: false` never to send probes from its hosts.

Each source collects its part; a source that fails entirely (vCenter unreachable,
wrong password, unreadable inventory) becomes a collection error naming it, the
other sources are still collected, and the scan exits 3.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pydantic import Field, model_validator

from hostlint.collect.hostkeys import HostKeyPolicy, KnownHostsError
from hostlint.collect.limits import KVM_TIMEOUT_S, VSPHERE_TIMEOUT_S
from hostlint.collect.progress import Progress
from hostlint.history.sources import FileSource, Source
from hostlint.snapshot import Snapshot, SnapshotError
from hostlint.snapshot.common import CollectionError, CollectionKind
from hostlint.strict import Strict
from hostlint.yamlfile import load_model

DEFAULT_CONCURRENCY = 16


class ProbeSettings(Strict):
    """How `scan --probe` sends its don't-fragment pings (hostlint.collect.probe.run.Limits); a key left out
    is taken from the inventory's top-level `probe:`, then from `hostlint probe`'s defaults."""

    budget: float | None = Field(default=None, gt=0, description="Seconds for the probes (per source: at most).")
    concurrency: int | None = Field(default=None, ge=1, le=64, description="Probes in flight at once.")
    count: int | None = Field(default=None, ge=1, le=20, description="Pings per probe.")
    wait: int | None = Field(default=None, ge=1, le=10, description="Seconds to wait for each reply.")
    peers: int | None = Field(default=None, ge=1, le=16, description="Peers probed per VMkernel port.")


class VsphereEntry(Strict):
    """A vCenter or ESXi host to collect; its password from HOSTLINT_VSPHERE_PASSWORD or the keyring."""

    server: str
    user: str = "administrator@vsphere.local"
    insecure: bool = False
    ca_bundle: Path | None = None
    esxi_ssh_user: str | None = None
    esxi_ssh_config: Path | None = None
    timeout: float = Field(default=VSPHERE_TIMEOUT_S, gt=0)
    # `scan --probe` through this vCenter's esxcli executor: false never, settings override the inventory's.
    probe: ProbeSettings | bool = True

    @model_validator(mode="after")
    def _ssh_config_needs_user(self) -> VsphereEntry:
        if self.esxi_ssh_config is not None and self.esxi_ssh_user is None:
            raise ValueError("esxi_ssh_config needs esxi_ssh_user")
        return self


class KvmEntry(Strict):
    """A KVM host reached over SSH (keys or agent), libvirt over qemu+ssh."""

    host: str
    libvirt_uri: str | None = None
    no_libvirt: bool = False
    no_lldp: bool = False
    ssh_options: list[str] = Field(default_factory=list)  # KEY=VALUE, as `collect kvm --ssh-option`
    timeout: float = Field(default=KVM_TIMEOUT_S, gt=0)  # as `collect kvm --timeout`
    # `scan --probe` over this host's SSH session: false never, settings override the inventory's.
    probe: ProbeSettings | bool = True

    @model_validator(mode="after")
    def _options_are_key_value(self) -> KvmEntry:
        from hostlint.collect.kvm.libvirt_uri import check_destination, ssh_libvirt_uri

        check_destination(self.host)
        ssh_libvirt_uri(self.host, self.ssh_options)  # KEY=VALUE each, Port= a port number
        if any(o.partition("=")[0].strip().lower() == "userknownhostsfile" for o in self.ssh_options):
            # hostlint's own host-key check comes first on ssh's command line: it would be silently ignored.
            raise ValueError("UserKnownHostsFile: give the inventory's known_hosts instead")
        return self


class ScanInventory(Strict):
    """The live sources of `hostlint scan --inventory FILE`; paths are relative to the file."""

    site_name: str | None = None
    vsphere: list[VsphereEntry] = Field(default_factory=list)
    switches: Path | None = None
    kvm: list[KvmEntry] = Field(default_factory=list)
    snapshots: list[Path] = Field(default_factory=list)
    cabling: Path | None = None
    known_hosts: Path | None = None
    accept_new_host_keys: bool = False
    # Sources collected at once (each a thread waiting on its vCenter, switches or KVM host).
    concurrency: int = Field(default=DEFAULT_CONCURRENCY, ge=1, le=64, description="Sources collected at once.")
    notify: list[str] = Field(
        default_factory=list,
        description="Apprise URLs told of new, resolved and expiring findings after each scan (mailto://, "
        "json://, slack://...; needs hostlint[notify]).",
    )
    probe: ProbeSettings = Field(
        default_factory=ProbeSettings,
        description="`scan --probe`: the probes' budget and bounds, for every source that sets none of its own.",
    )


def _failed(target: str, kind: CollectionKind, reason: str) -> Snapshot:
    return Snapshot(collection_errors=[CollectionError(target=target, kind=kind, reason=reason)])


@dataclass(frozen=True)
class VsphereSource:
    entry: VsphereEntry
    host_keys: HostKeyPolicy | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        from hostlint.collect.vsphere.connect import display_server

        return f"vsphere:{display_server(self.entry.server)}"

    def detached(self) -> VsphereSource | None:
        """This source for a process of its own (hostlint.history.sources.gather): a vCenter's answers are
        parsed in Python, which scales with processes, not threads. Not with ESXi SSH: its host-key policy
        (one lock, the keys accepted so far, one known_hosts file) belongs to this process."""
        if self.entry.esxi_ssh_user:
            return None
        # Loaded here, before gather forks its workers: each starts with the collector imported (about
        # 0.3 s of CPU a worker otherwise, more than a small vCenter's whole collection).
        from hostlint.collect.vsphere import collector, fastparse, live  # noqa: F401

        return VsphereSource(self.entry)

    def snapshot(self, progress: Progress | None = None) -> Snapshot:
        from hostlint.collect.vsphere.live import CollectFailed, VsphereTarget, live_snapshot

        entry = self.entry
        ssh = None
        if entry.esxi_ssh_user:
            # Imported only here: asyncssh's import is about 0.3 s of CPU, for every vCenter without ESXi SSH.
            from hostlint.collect.vsphere.esxi_ssh import SshSettings

            ssh = SshSettings.from_environment(entry.esxi_ssh_user, entry.esxi_ssh_config, self.host_keys)
        target = VsphereTarget(
            entry.server, entry.user, entry.insecure, entry.ca_bundle, timeout=entry.timeout, esxi_ssh=ssh
        )
        try:
            # A scheduled scan never prompts: a missing password is this source's failure, not the scan's.
            return live_snapshot(target, prompt=None, progress=progress)
        except CollectFailed as exc:
            return _failed(self.name.removeprefix("vsphere:"), "vcenter", str(exc))


@dataclass(frozen=True)
class SwitchesSource:
    inventory: Path
    host_keys: HostKeyPolicy | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        return f"switches:{self.inventory}"

    def snapshot(self, progress: Progress | None = None) -> Snapshot:
        from hostlint.collect.switches import InventoryError, UnsupportedPlatform, collect_switches, load_inventory

        try:
            devices = load_inventory(self.inventory)
        except (InventoryError, UnsupportedPlatform) as exc:
            return _failed(str(self.inventory), "switch", str(exc))
        progress = progress or Progress()
        progress.on_total(len(devices))
        snapshot = collect_switches(
            devices, policy=self.host_keys, on_done=lambda result: progress.on_host(result.device.name)
        )
        snapshot.source = self.name
        return snapshot


@dataclass(frozen=True)
class KvmSource:
    entry: KvmEntry
    host_keys: HostKeyPolicy | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        return f"kvm:{self.entry.host}"

    def snapshot(self, progress: Progress | None = None) -> Snapshot:
        from hostlint.collect.kvm.host import collect_host
        from hostlint.collect.kvm.runner import SshRunner

        progress = progress or Progress()
        progress.on_total(1)
        from hostlint.collect.kvm.libvirt_uri import ssh_libvirt_uri

        entry = self.entry
        options = [arg for option in entry.ssh_options for arg in ("-o", option)]
        runner = SshRunner(entry.host, options, self.host_keys, entry.timeout)
        uri = None
        if not entry.no_libvirt:
            uri = entry.libvirt_uri or ssh_libvirt_uri(entry.host, entry.ssh_options, runner.libvirt_ssh_command())
        gathered = collect_host(runner, runner.target, uri, lldp=not entry.no_lldp, timeout=entry.timeout)
        progress.on_host(runner.target)
        return Snapshot(
            collected_at=datetime.now(UTC),
            source=self.name,
            kvm_hosts=[gathered.host],
            collection_errors=gathered.errors,
        )


def scan_inventory_site(path: Path) -> str | None:
    """The inventory's `site_name`, if it names one (checked by hostlint.history.sites.check_site_name)."""
    return load_model(path, ScanInventory, "scan inventory", SnapshotError).site_name


def scan_inventory_settings(path: Path) -> ScanInventory:
    """The inventory as written (its sources come from load_scan_inventory): concurrency, notify."""
    return load_model(path, ScanInventory, "scan inventory", SnapshotError)


def load_scan_inventory(
    path: Path,
    known_hosts: Path | None = None,
    accept_new_host_keys: bool = False,
    vsphere_timeout: float | None = None,
) -> list[Source]:
    """The sources an inventory names, paths taken relative to the inventory file.

    `known_hosts`, `accept_new_host_keys` and `vsphere_timeout` (the command line's) win over the inventory's.
    """
    inventory = load_model(path, ScanInventory, "scan inventory", SnapshotError)
    base = path.parent

    def local(p: Path) -> Path:
        return p if p.is_absolute() else base / p

    host_keys = HostKeyPolicy(
        known_hosts=known_hosts or (local(inventory.known_hosts) if inventory.known_hosts else None),
        accept_new=accept_new_host_keys or inventory.accept_new_host_keys,
    )
    try:
        if host_keys.known_hosts is not None:
            host_keys.load()  # a file named that cannot be read is an error of the inventory (or option)
    except KnownHostsError as exc:
        raise SnapshotError(f"{path}: {exc}") from None

    sources: list[Source] = [
        VsphereSource(
            entry.model_copy(
                update={
                    "ca_bundle": entry.ca_bundle and local(entry.ca_bundle),
                    "timeout": vsphere_timeout or entry.timeout,
                }
            ),
            host_keys,
        )
        for entry in inventory.vsphere
    ]
    if inventory.switches is not None:
        sources.append(SwitchesSource(local(inventory.switches), host_keys))
    sources += [KvmSource(entry, host_keys) for entry in inventory.kvm]
    files = [local(p) for p in inventory.snapshots] + ([local(inventory.cabling)] if inventory.cabling else [])
    if files:
        sources.append(FileSource(tuple(files)))
    if not sources:
        raise SnapshotError(f"{path}: names no source (vsphere, switches, kvm, snapshots)")
    return sources
