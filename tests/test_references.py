"""Paths named in the docs, docstrings and comments exist: a reference to a moved or deleted file is
found here, not by a reader following it (issue 29). A path is a repository folder (`hostlint/`,
`tests/`, `docs/`, `rules/`, `bench/`, `fixtures/`, `sim/`; and `collectors/`, gone, so a path into it
is stale) followed by a file with an extension or a folder ending in `/`. Not references: globs
(`switch_*`), URLs (`.../docs/x.html`), a URL's rest on the line after its start, placeholders in
capitals (`docs/schemas/NAME.schema.json`), paths inside the built wheel (`hostlint/_data/...`) and the
files a design (docs/design/) plans."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Not after a word character, `/`, `.`, `:` or `-` (so not inside a URL or another path).
_PATH = re.compile(
    r"(?<![\w/.:-])((?:hostlint|tests|docs|collectors|rules|bench|fixtures|sim)/(?:[\w.-]+/)*(?:[\w-]+\.[a-z]{2,5}\b|))(?![\w*-])"
)
_PLACEHOLDER = re.compile(r"(?:^|/)[A-Z][A-Z_]+(?:\.|/|$)")


def _sources() -> list[Path]:
    # A design (docs/design/) names the files it plans; they do not exist yet.
    docs = [p for p in sorted((ROOT / "docs").rglob("*.md")) if "design" not in p.relative_to(ROOT / "docs").parts]
    found = [ROOT / "README.md", *docs]
    for folder, pattern in (
        ("hostlint", "*.py"),
        ("hostlint", "*.yaml"),
        ("tests", "*.py"),
        ("bench", "*.py"),
        ("rules", "*.yaml"),
    ):
        found += sorted(p for p in (ROOT / folder).rglob(pattern) if p.is_file() and "__pycache__" not in p.parts)
    return found


def references(text: str) -> list[tuple[int, str]]:
    """(line, path) for every repository path `text` names."""
    found = []
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if number > 1 and lines[number - 2].rstrip().endswith('/"'):
            continue  # a URL continued from the line before, as a string literal split in two
        for match in _PATH.finditer(line):
            path = match.group(1)
            if "/_data" in path or _PLACEHOLDER.search(path) or path.count("/") < 1:
                continue
            if not path.endswith("/") and "." not in path.rsplit("/", 1)[-1]:
                continue  # a word after a folder (`hostlint/v1`), not a file
            found.append((number, path))
    return found


def test_every_path_a_document_or_comment_names_exists() -> None:
    missing = [
        f"{source.relative_to(ROOT)}:{line}: {path}"
        for source in _sources()
        if source != Path(__file__).resolve()  # its examples below are text, not references
        for line, path in references(source.read_text(encoding="utf-8", errors="replace"))
        if not (ROOT / path).exists()
    ]
    assert missing == []


def test_the_finder_takes_paths_and_leaves_globs_urls_and_placeholders() -> None:
    text = (
        "see hostlint/fixes/plan.py and tests/support/ and collectors/cisco_ios/spec.yaml.\n"
        "hostlint/fixes/actions/switch_*/action.yaml, https://example.com/docs/x/y.html\n"
        "docs/schemas/NAME.schema.json, hostlint/_data/rules/LG001.yaml, {'hostlint/v1': 1}\n"
        'url = "https://example.com/c/"\n    "docs/switches/page.html"\n'
    )
    assert [path for _, path in references(text)] == [
        "hostlint/fixes/plan.py",
        "tests/support/",
        "collectors/cisco_ios/spec.yaml",
    ]
