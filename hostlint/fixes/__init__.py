"""Fix scripts: findings' fix requests turned into an ordered plan, per-device scripts and rollbacks.

Actions are one folder each (`actions/<action>/`: Jinja2 per platform, expander, applier); this package expands each
request against the snapshot, merges and orders the steps, and renders them. It never runs them.
"""

from hostlint.fixes.plan import Plan, build_plan
from hostlint.fixes.write import write_scripts

__all__ = ["Plan", "build_plan", "write_scripts"]
