"""Fix scripts: findings' fix requests turned into an ordered plan, per-device scripts and rollbacks.

Actions are data (`rules/fixes/<action>.yaml`, Jinja2 per platform); this package expands each
request against the snapshot, merges and orders the steps, and renders them. It never runs them.
"""

from hostlint.fixes.plan import Plan, build_plan
from hostlint.fixes.write import write_scripts

__all__ = ["Plan", "build_plan", "write_scripts"]
