"""`--format json`: one versioned object, the contract other tools rely on."""

from __future__ import annotations

import json

from hostlint.results import RESULT_SCHEMA_VERSION, CheckResult


def render(result: CheckResult) -> str:
    document = {
        "schema_version": RESULT_SCHEMA_VERSION,
        "findings": [f.model_dump(mode="json") for f in result.findings],
        "skipped": [s.model_dump(mode="json") for s in result.skipped],
        "unresolved": [u.model_dump(mode="json") for u in result.unresolved],
        "collection_errors": [e.model_dump(mode="json") for e in result.collection_errors],
        "ignored": [i.model_dump(mode="json") for i in result.ignored],
        "notes": list(result.notes),
        "summary": {
            "findings": len(result.findings),
            "skipped": len(result.skipped),
            "passed": len(result.passed),
            "unresolved": len(result.unresolved),
            "ignored": len(result.ignored),
        },
    }
    return json.dumps(document, indent=2) + "\n"
