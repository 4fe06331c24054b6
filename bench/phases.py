"""Time one check phase by phase, in this process, and print the numbers as JSON.

`bench/run.py` runs this in a child of its own so that each size's numbers
start from a fresh interpreter. Run it by hand to look inside one phase:

    python bench/phases.py site.json --profile rules --profile-out rules.prof
    python -m pstats rules.prof        # or: snakeviz / pyinstrument's viewer

Phases: `import` (hostlint's modules, as the CLI imports them), `rules-load`
(YAML rule files), `load` (JSON -> Snapshot), `check` (Snapshot -> each host's facts
-> CEL over them, host by host, as `hostlint check` does for a JSON report:
hostlint.check, `keep_facts=False`), `report` (sort + JSON rendering, written in
pieces as `check -o` writes it).
`cpu_seconds` is the process's CPU time, steadier than wall time on a busy machine;
`gc_seconds` is the part of a phase spent in the cyclic garbage collector, which is paused
during load and check as `hostlint check` pauses it (hostlint.gcpause.gc_paused);
`peak_rss_mib` after each phase is the process's high-water mark so far.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PHASES = ("import", "rules-load", "load", "check", "report")


def _peak_rss_mib() -> float:
    # Linux reports ru_maxrss in KiB.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _GcClock:
    """Time spent in the cyclic garbage collector, which grows faster than the heap when millions of objects live."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, event: str, info: dict[str, int]) -> None:
        if event == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started


def measure(path: Path, profile: str | None = None, profile_out: Path | None = None) -> dict[str, Any]:
    timings: dict[str, dict[str, float]] = {}
    gc_clock = _GcClock()
    gc.callbacks.append(gc_clock)

    def phase(name: str, work: Callable[[], Any]) -> Any:
        profiler = cProfile.Profile() if name == profile else None
        gc_before = gc_clock.seconds
        cpu_start = time.process_time()
        start = time.perf_counter()
        if profiler:
            profiler.enable()
        value = work()
        if profiler:
            profiler.disable()
            profiler.dump_stats(str(profile_out or f"{name}.prof"))
        timings[name] = {
            "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu_start,
            "gc_seconds": gc_clock.seconds - gc_before,
            "peak_rss_mib": _peak_rss_mib(),
        }
        return value

    def import_hostlint() -> None:
        # The CLI module pulls in click, rich, pydantic and cel, as `hostlint check` does.
        import hostlint.cli.main  # noqa: F401

    phase("import", import_hostlint)

    from collections import Counter

    from hostlint.gcpause import gc_paused
    from hostlint.join import facts_by_host
    from hostlint.report import json_report
    from hostlint.results import CheckResult
    from hostlint.rules import load_rules
    from hostlint.rules.engine import RuleRunner
    from hostlint.snapshot import load_site

    def as_check_does(work: Callable[[], Any]) -> Callable[[], Any]:
        """`hostlint check` pauses the cyclic collector while it loads, joins and runs rules (hostlint.check)."""

        def paused() -> Any:
            with gc_paused():
                return work()

        return paused

    rules = phase("rules-load", load_rules)
    snapshot = phase("load", as_check_does(lambda: load_site([path])))
    fact_counts: Counter[str] = Counter()

    def check() -> CheckResult:
        """hostlint.check.check_snapshot(keep_facts=False), counting the facts as they go by."""
        result = CheckResult()
        runner = RuleRunner(rules)
        for part in facts_by_host(snapshot):
            for kind in type(part).model_fields:
                fact_counts[kind] += len(part.of_kind(kind))
            runner.run(part, result)
        return result

    result = phase("check", as_check_does(check))

    def report() -> int:
        result.collection_errors.extend(snapshot.collection_errors)
        result.sort()
        return sum(len(chunk.encode()) for chunk in json_report.chunks(result))

    report_bytes = phase("report", report)
    findings_by_code: dict[str, int] = {}
    for finding in result.findings:
        findings_by_code[finding.code] = findings_by_code.get(finding.code, 0) + 1
    return {
        "hosts": len(snapshot.esxi_hosts),
        "switches": len(snapshot.switches),
        "rules": len(rules),
        "facts": {kind: count for kind, count in fact_counts.items() if kind != "unresolved"},
        "findings": len(result.findings),
        "findings_by_code": dict(sorted(findings_by_code.items())),
        "findings_by_host": sorted({f.host for f in result.findings}),
        "skipped": len(result.skipped),
        "passed": len(result.passed),
        "unresolved": len(result.unresolved),
        "report_bytes": report_bytes,
        "phases": timings,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time hostlint's check phases on one snapshot file.")
    parser.add_argument("snapshot", type=Path)
    parser.add_argument("--profile", choices=PHASES, help="cProfile this phase")
    parser.add_argument("--profile-out", type=Path, help="where to write the profile (default PHASE.prof)")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.snapshot, args.profile, args.profile_out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
