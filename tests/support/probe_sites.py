"""A probed site for the report and history tests: `site()` is the fabric's snapshot (support.probe_fabric)
with esx05 added and probes of every outcome (delivered, lost, refused locally, executor refused, delivered
across a hop configured smaller), plus many delivered probes the reports must count, not list."""

from __future__ import annotations

from datetime import UTC, datetime

from hostlint.snapshot import Snapshot
from hostlint.snapshot.probe import Probe
from support.probe_fabric import SITE

AT = datetime(2026, 11, 26, 2, 15, tzinfo=UTC)
DELIVERED = 40


def _probe(source: str, target: str, size: int, **outcome: object) -> Probe:
    index = int(target[-2:])
    purpose = "control" if size == 1472 else "jumbo"
    return Probe(source_host=source, source_vmk="vmk1", target_host=target, target_vmk="vmk1",
                 target_ip=f"10.77.0.{index}", size=size, purpose=purpose, via="vcenter-esxcli", at=AT,
                 **outcome)  # type: ignore[arg-type]  # fmt: skip


def probed_site() -> Snapshot:
    site = SITE.model_copy(deep=True)
    # esx05's vSwitch is configured at 1500, yet the jumbo probe across it is delivered (MT021).
    esx05 = site.esxi_hosts[0].model_copy(deep=True, update={"name": "esx05"})
    esx05.vswitches[0].mtu = 1500
    esx05.vmks[0].ip = "10.77.0.5"
    site.esxi_hosts.append(esx05)
    ok = {"sent": 3, "received": 3, "round_trip_ms": 0.41}
    probes = [
        _probe("esx01", "esx02", 8972, **ok),
        _probe("esx01", "esx02", 1472, **ok),
        _probe("esx01", "esx03", 8972, sent=3, received=0),
        _probe("esx01", "esx03", 1472, **ok),
        _probe("esx04", "esx01", 8972, error_kind="too-big-locally", error="sendto() failed (Message too long)"),
        _probe("esx04", "esx01", 1472, **ok),
        _probe("esx03", "esx02", 8972, error_kind="refused", error="privilege Host.Config.Settings"),
        _probe("esx03", "esx02", 1472, error_kind="refused", error="privilege Host.Config.Settings"),
        _probe("esx02", "esx05", 8972, **ok),
        _probe("esx02", "esx05", 1472, **ok),
    ]
    # Many delivered probes: counted, never listed.
    probes += [_probe("esx02", "esx01", 1000 + n, **ok) for n in range(DELIVERED)]
    return site.model_copy(update={"probes": probes})


LOST = "esx01/vmk1 -> esx03/vmk1 at 9000"
REFUSED = "esx04/vmk1 -> esx01/vmk1 at 9000"
CONTRADICTED = "esx02/vmk1 -> esx05/vmk1 at 9000"
UNPROVEN = "esx03/vmk1 -> esx02/vmk1 at 9000"
