"""Proposed changes (`hostlint plan --set`): parsing, resolving and what-if analysis."""
