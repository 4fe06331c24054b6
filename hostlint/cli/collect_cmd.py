"""`hostlint collect ...`: live collection into a snapshot file (one subcommand per source)."""

from __future__ import annotations

import click

from hostlint.cli.collect_kvm_cmd import kvm
from hostlint.cli.collect_switches_cmd import switches
from hostlint.cli.collect_vsphere_cmd import vsphere


@click.group()
def collect() -> None:
    """Collect live facts into a snapshot file (vSphere, switches, KVM hosts)."""


collect.add_command(vsphere)
collect.add_command(kvm)
collect.add_command(switches)
