"""`--format json`: one versioned object, the contract other tools rely on.

The top level is indented; each finding, skip, unresolved uplink, collection error and ignored
finding is one compact line. At estate scale (100,000 skips) `json.dumps(indent=2)` went through
the pure-Python encoder and held a list of every token: 3x the memory and time of encoding each
item with the C encoder. The document is the same JSON value either way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from hostlint.report.evidence import section
from hostlint.results import RESULT_SCHEMA_VERSION, CheckResult


def _items(models: Iterable[BaseModel]) -> str:
    lines = ",\n".join("    " + json.dumps(model.model_dump(mode="json")) for model in models)
    return f"[\n{lines}\n  ]" if lines else "[]"


def render(result: CheckResult) -> str:
    head: dict[str, Any] = {"schema_version": RESULT_SCHEMA_VERSION}
    lists: dict[str, list[Any]] = {
        "findings": result.findings,
        "skipped": result.skipped,
        "unresolved": result.unresolved,
        "collection_errors": result.collection_errors,
        "ignored": result.ignored,
    }
    tail: dict[str, Any] = {
        "notes": list(result.notes),
        "summary": {
            "findings": len(result.findings),
            "skipped": len(result.skipped),
            "passed": len(result.passed),
            "unresolved": len(result.unresolved),
            "ignored": len(result.ignored),
        },
    }
    probes = section(result)
    if probes is not None:
        # Present only when the snapshot holds probe results: a check without them reads as before.
        tail["probes"] = {
            "counts": probes.counts.model_dump(mode="json"),
            "listed": [item.model_dump(mode="json") for item in probes.listed],
        }
    parts = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in head.items()]
    parts += [f"  {json.dumps(key)}: {_items(models)}" for key, models in lists.items()]
    parts += [f"  {json.dumps(key)}: {json.dumps(value, indent=2).replace(chr(10), chr(10) + '  ')}"
              for key, value in tail.items()]  # fmt: skip
    return "{\n" + ",\n".join(parts) + "\n}\n"
