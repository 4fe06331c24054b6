"""Per-host calls start as pages of hosts arrive: each connected host is asked once, whatever pages repeat it."""

from __future__ import annotations

from pyVmomi import vim

from hostlint.collect.vsphere.hints import HintQueries
from hostlint.collect.vsphere.retrieve import Retrieved, RoundTrips


def _host(moid: str, state: str = "connected") -> Retrieved:
    # No network system and no iSCSI adapter: the host is handled without a call to a server.
    return Retrieved(ref=vim.HostSystem(moid), props={"name": moid, "runtime.connectionState": state})


def test_pages_are_asked_as_they_come_each_host_once() -> None:
    seen: list[str] = []
    trips = RoundTrips()
    queries = HintQueries(concurrency=3, trips=trips, on_host=lambda host: seen.append(host.get("name")))
    try:
        queries.submit([_host("host-1"), _host("host-2")])
        # A retried query delivers host-2 again; a disconnected host is not asked.
        queries.submit([_host("host-2"), _host("host-3"), _host("host-4", "disconnected")])
        results = queries.results()
    finally:
        queries.close()
    assert sorted(results) == ["host-1", "host-2", "host-3"]
    assert sorted(seen) == ["host-1", "host-2", "host-3"]
    assert all(not hints.errors and not hints.network for hints in results.values())
    assert trips.total == 0


def test_nothing_submitted_gives_no_hints() -> None:
    queries = HintQueries()
    try:
        assert queries.results() == {}
    finally:
        queries.close()
