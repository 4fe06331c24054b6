"""The README's two commands, as a new user types them: CI runs the same test command, and that command
installs every library the tests import."""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def _readme_command(after: str) -> str:
    """The indented command line that follows the README paragraph ending in `after`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(re.escape(after) + r"\n\n    (.+)\n", text)
    assert match, f"README.md: no command after {after!r}"
    return match.group(1)


def test_ci_runs_the_readmes_test_command_verbatim():
    command = _readme_command("Run the tests:")
    assert command.startswith("pip install -e '.[test")
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert command in lines, f".ci/run does not run the README's test command {command!r}"


def _installed_closure(requirement: str, extras: frozenset[str] = frozenset()) -> set[str]:
    """The distributions `requirement` (with `extras`) installs, following the installed metadata."""
    seen: set[str] = set()
    done: set[tuple[str, frozenset[str]]] = set()
    pending = [(requirement, extras)]
    while pending:
        name, wanted = pending.pop()
        key = name.lower().replace("_", "-")
        if (key, wanted) in done:
            continue
        done.add((key, wanted))
        seen.add(key)
        for line in metadata.requires(name) or []:
            req = Requirement(line)
            envs = [{"extra": extra} for extra in wanted] or [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                pending.append((req.name, frozenset(req.extras)))
    return seen


def test_the_test_extra_installs_every_library_the_tests_import_at_module_level():
    """`pip install -e '.[test]'` then collecting the tests must not stop at a missing module (it did: keyring).

    libvirt-python is the exception: it builds only against libvirt-dev, so the tests that need it import it
    inside the test and skip with the reason; a module-level import would fail here.
    """
    command = _readme_command("Run the tests:")
    extras = frozenset(re.search(r"\.\[([a-z,]+)\]", command).group(1).split(","))  # type: ignore[union-attr]
    installed = _installed_closure("hostlint", extras)
    distributions = metadata.packages_distributions()
    local = {p.stem for p in (ROOT / "tests").iterdir()} | {"hostlint"}
    missing: dict[str, str] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module]
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                else []
            )
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in local:
                    continue
                dists = {d.lower().replace("_", "-") for d in distributions.get(top, [])}
                if not dists & installed:
                    missing[top] = str(path.relative_to(ROOT))
    assert not missing, f"imported by tests but not installed by {command!r}: {missing}"
