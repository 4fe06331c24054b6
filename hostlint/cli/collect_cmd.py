"""`hostlint collect ...`: live collection into a snapshot file (one subcommand per source)."""

from __future__ import annotations

import click

from hostlint.cli.lazy import LazyGroup

SOURCES = {
    "vsphere": "hostlint.cli.collect_vsphere_cmd:vsphere",
    "kvm": "hostlint.cli.collect_kvm_cmd:kvm",
    "switches": "hostlint.cli.collect_switches_cmd:switches",
}


@click.group(cls=LazyGroup, lazy=SOURCES)
def collect() -> None:
    """Collect live facts into a snapshot file (vSphere, switches, KVM hosts)."""
