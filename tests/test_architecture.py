"""The layers of docs/architecture.md, checked on the source: every module's imports, parsed (ast).

An import inside a function counts as much as one at the top; `from hostlint.x import y` imports
module `hostlint.x.y` when that is a module, and every package on the way (its `__init__` runs).
The rules hold for what a module imports directly and for everything that pulls in in turn.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hostlint"

# Layer -> the layers it may never reach, directly or through another module.
FORBIDDEN: dict[str, set[str]] = {
    # Leaves every layer reads.
    "platforms": {"*"},
    "strict": {"*"},
    "inputfile": {"*"},
    "names": {"*"},
    "vocab": {"*"},
    # The snapshot is data: it knows nothing of who makes or reads it.
    "snapshot": {"collect", "join", "rules", "fixes", "report", "history", "change", "cli"},
    "collect": {"join", "rules", "fixes", "report", "history", "change", "check", "cli"},
    "join": {"collect", "rules", "fixes", "report", "history", "change", "check", "cli"},
    "rules": {"collect", "fixes", "report", "history", "change", "check", "cli"},
    "fixes": {"collect", "report", "history", "cli"},
    "report": {"collect", "fixes", "history", "change", "cli"},
    "history": {"fixes", "change", "cli"},
}
# Third-party modules only the command line may import.
CLI_ONLY = ("click",)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _with_packages(name: str) -> set[str]:
    """`hostlint.a.b` and the packages it runs on the way: `hostlint.a`, `hostlint`."""
    parts = name.split(".")
    return {".".join(parts[:n]) for n in range(1, len(parts) + 1)}


@cache
def imports(path: Path, module: str) -> frozenset[str]:
    """Every module name `path` imports anywhere in it (hostlint's resolved, third parties as written)."""
    found: set[str] = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            found.add(source)
            found |= {f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in MODULES}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            # A command loaded when it runs (hostlint.cli.lazy): "hostlint.cli.check_cmd:check" imports that module.
            lazy, colon, attribute = node.value.partition(":")
            if colon and attribute.isidentifier() and lazy in MODULES:
                found.add(lazy)
    resolved: set[str] = set()
    for name in found:
        resolved |= {n for n in _with_packages(name) if n in MODULES} if name.startswith("hostlint") else {name}
    return frozenset(resolved - {module})


@cache
def reached(module: str) -> frozenset[str]:
    """Every module `module` imports, directly or through the modules it imports."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        current = todo.pop()
        for name in imports(MODULES[current], current):
            if name not in seen:
                seen.add(name)
                if name in MODULES:
                    todo.append(name)
    return frozenset(seen - {module})


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _violations(module: str) -> list[str]:
    forbidden = FORBIDDEN.get(layer(module), set())
    found = []
    for name in sorted(reached(module)):
        if not name.startswith("hostlint"):
            continue
        target = layer(name)
        if target and target != layer(module) and ("*" in forbidden or target in forbidden):
            direct = name in imports(MODULES[module], module)
            found.append(f"{module} -> {name}" + ("" if direct else " (indirectly)"))
    return found


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) in FORBIDDEN))
def test_layers_import_only_what_they_may(module: str) -> None:
    assert _violations(module) == []


# `python -m hostlint` is the command line's entry point.
@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) not in ("cli", "__main__")))
def test_only_the_command_line_imports_click(module: str) -> None:
    assert not {name for name in reached(module) if name.split(".")[0] in CLI_ONLY}


def test_every_strict_model_derives_from_the_one_base() -> None:
    """`extra="forbid"` is written once, in hostlint.strict."""
    writers = {
        module
        for module, path in MODULES.items()
        if 'extra="forbid"' in path.read_text(encoding="utf-8") and module != "hostlint.strict"
    }
    assert writers == set()


def test_the_checker_sees_relative_imports_imports_in_functions_and_packages(tmp_path: Path) -> None:
    package = tmp_path / "hostlint" / "rules"
    package.mkdir(parents=True)
    module = package / "m.py"
    module.write_text("def f():\n    from ..collect.switches import platforms\n    import click\n", encoding="utf-8")
    found = imports(module, "hostlint.rules.m")
    assert {"hostlint.collect", "hostlint.collect.switches", "hostlint.collect.switches.platforms", "click"} <= found


def test_the_checker_names_a_forbidden_import_it_reaches_indirectly() -> None:
    # hostlint.check runs join and rules; the CLI reaches collect through its commands, loaded when they run.
    assert "hostlint.collect.switches.runner" in reached("hostlint.cli.main")
    assert "hostlint.rules.engine" in reached("hostlint.check")
    saved = dict(FORBIDDEN)
    try:
        FORBIDDEN["check"] = {"rules"}
        assert any(v.startswith("hostlint.check -> hostlint.rules") for v in _violations("hostlint.check"))
    finally:
        FORBIDDEN.clear()
        FORBIDDEN.update(saved)
