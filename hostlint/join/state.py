"""Whether a host's facts can be trusted at all."""

from __future__ import annotations

from hostlint.snapshot.esxi import EsxiHost
from hostlint.snapshot.kvm import KvmHost


def host_missing(host: EsxiHost | KvmHost) -> dict[str, str]:
    """`missing` for every fact of a host that was not connected during collection."""
    if host.connection_state == "connected":
        return {}
    return {"host": f"host {host.name} was {host.connection_state} during collection"}
