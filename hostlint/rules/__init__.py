"""Declarative rules: YAML files under `rules/`, evaluated with CEL."""

from hostlint.rules.engine import run_rules
from hostlint.rules.load import RuleError, find, load_rules, select
from hostlint.rules.model import Rule

__all__ = ["Rule", "RuleError", "find", "load_rules", "run_rules", "select"]
