"""Plan invariants over many generated sites: a longer run of tests/test_plan_invariants.py's property.

    python bench/plan_invariants.py                      # 5,000 sites, seed 26
    python bench/plan_invariants.py --sites 20000 --seed 7

Each site comes from tests/support/site_strategy.py (hypothesis); its findings are planned with unsafe fixes
and the plan is checked against every invariant of hostlint.fixes.invariants. Prints each kind of
violation once with a count and the first site's plan, and exits 1 when any was found. Also counts
the plans that leave a finding they claim (allowed when PLAN.md names it; fewer is better).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, given, seed, settings
from support.site_strategy import sites

from hostlint.check import check_snapshot
from hostlint.fixes import build_plan
from hostlint.fixes.invariants import check_plan
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    rules = load_rules()
    counts: collections.Counter[tuple[int, str]] = collections.Counter()
    first: dict[tuple[int, str], str] = {}
    checked = 0
    leaving = 0

    @seed(args.seed)
    @settings(max_examples=args.sites, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(sites())
    def run(snapshot: Snapshot) -> None:
        nonlocal checked, leaving
        checked += 1
        plan = build_plan(check_snapshot(snapshot, rules), snapshot, unsafe=True)
        leaving += bool(plan.left)
        for violation in check_plan(snapshot, plan, rules):
            kind = (violation.invariant, violation.message.split(":")[0])
            counts[kind] += 1
            if kind not in first:
                steps = "\n".join(
                    f"    {s.number} {s.stage} {s.action.action} {s.device} {s.change.target}" for s in plan.steps
                )
                first[kind] = f"{violation}\n{steps}"

    started = time.monotonic()
    run()
    print(f"{checked} sites in {time.monotonic() - started:.0f} s, seed {args.seed}")
    # Allowed (PLAN.md names them), but each is a plan that does not do all it set out to.
    print(f"{leaving} plans leave a finding they claim (PLAN.md, Left by this plan)")
    for kind, count in counts.most_common():
        print(f"{count:6d}  {first[kind]}")
    print("PASS" if not counts else "FAIL")
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
