"""`--format json`: one versioned object, the contract other tools rely on.

The top level is indented; each finding, skip, unresolved uplink, collection error and ignored
finding is one compact line. At estate scale (100,000 skips) `json.dumps(indent=2)` went through
the pure-Python encoder and held a list of every token: 3x the memory and time of encoding each
item with the C encoder. The document is the same JSON value either way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel

from hostlint.report.evidence import section
from hostlint.results import RESULT_SCHEMA_VERSION, CheckResult


def _items(models: Iterable[BaseModel]) -> Iterator[str]:
    opening = "[\n    "
    for model in models:
        yield opening
        yield json.dumps(model.model_dump(mode="json"))
        opening = ",\n    "
    yield "[]" if opening == "[\n    " else "\n  ]"


def chunks(result: CheckResult) -> Iterator[str]:
    """The document in pieces of about one item each, so a writer never holds the whole text: at
    10,000 hosts (150,000 skips, 40 MB) the joined text, its pieces and its UTF-8 bytes were the largest
    part of the report phase's memory (bench/README.md, "Memory, issue 27")."""
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
    separator = "{\n"
    for key, value in head.items():
        yield f"{separator}  {json.dumps(key)}: {json.dumps(value)}"
        separator = ",\n"
    for key, models in lists.items():
        yield f"{separator}  {json.dumps(key)}: "
        yield from _items(models)
    for key, value in tail.items():
        yield f"{separator}  {json.dumps(key)}: {json.dumps(value, indent=2).replace(chr(10), chr(10) + '  ')}"
    yield "\n}\n"


def render(result: CheckResult) -> str:
    return "".join(chunks(result))
