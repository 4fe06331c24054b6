"""The layers of docs/architecture.md, checked on the source: every module's imports, parsed (ast).

An import inside a function counts as much as one at the top; `from hostlint.x import y` imports
module `hostlint.x.y` when that is a module, and every package on the way (its `__init__` runs).
The rules hold for what a module imports directly and for everything that pulls in in turn.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hostlint"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


# A platform folder's records and assembly turn what the collector parsed into the snapshot's Switch: they
# sit at collect's level (layer `assembly`), apart from the registry and the folders' other pieces, which
# stay shared leaves (docs/design/platform-folders.md, "Layering").
_ASSEMBLY = re.compile(r"hostlint\.switches\.\w+\.(?:assemble|records)(?:\.\w+)?")


def layer(module: str) -> str:
    if _ASSEMBLY.fullmatch(module):
        return "assembly"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


# Every layer: a package or a top-level module of hostlint (`hostlint/__init__.py` is layer "").
LAYERS = frozenset(layer(m) for m in MODULES)

# Shared leaves: no model, no I/O beyond a file read, no knowledge of the flow. The first four never
# import another hostlint module; the others may use each other (yamlfile reads through inputfile, the
# registries read the switch platform folders, names the platforms' name forms).
LEAVES = frozenset(
    {"targets", "strict", "inputfile", "vocab"}
    | {"names", "platforms", "switches", "data", "errors", "fieldsets", "gcpause", "vlans", "wording"}
    | {"yamlfile"}
)
# Modules that define what the flow's JSON and YAML files hold, and what a check is.
UPPER = LAYERS - LEAVES - {""}

# Layer -> the layers it may never reach, directly or through another module. Every layer has an
# entry (test_every_module_has_a_layer_rule): a new package or top-level module is placed on purpose.
FORBIDDEN: dict[str, set[str]] = {
    # Leaves every layer reads.
    "targets": {"*"},
    "strict": {"*"},
    "inputfile": {"*"},
    "vocab": {"*"},
    # Canonical names read the platforms' own name forms through the switch registry (a leaf).
    "names": set(UPPER),
    **{leaf: set(UPPER) for leaf in ("data", "errors", "fieldsets", "gcpause", "vlans", "wording")},
    # The switch registry and its platform folders; hostlint.platforms lists the switches it finds. The
    # folders may read the snapshot's models; their records.py and assemble.py are the `assembly` layer,
    # which the registry and the folders' other pieces never import.
    "platforms": set(UPPER),
    "switches": set(UPPER) - {"snapshot"},
    "yamlfile": set(UPPER),
    # The package's own `__init__` (the version) runs before every module: it imports nothing.
    "": {"*"},
    # The snapshot is data: it knows nothing of who makes or reads it; the site's parameters likewise.
    "snapshot": UPPER - {"snapshot"},
    "site": UPPER - {"snapshot", "site"},
    "collect": {"join", "rules", "fixes", "report", "history", "change", "check", "cli"}
    | {"export", "baseline", "results", "config", "schemas"},
    # A platform folder's records.py and assemble.py: the collector's skeleton (normalise, kinds) and the
    # snapshot, the registry and the folder's own pieces; collect runs them through the registry.
    "assembly": {"join", "rules", "fixes", "report", "history", "change", "check", "cli"}
    | {"export", "baseline", "results", "config", "schemas"},
    "join": {"collect", "rules", "fixes", "report", "history", "change", "check", "cli"}
    | {"export", "baseline", "results", "config", "schemas"},
    # What a check produces (findings, skips, passes) is read by rules, reports and history.
    "results": {"collect", "rules", "fixes", "report", "history", "change", "check", "cli"}
    | {"export", "baseline", "config", "schemas"},
    "rules": {"collect", "fixes", "report", "history", "change", "check", "cli"}
    | {"export", "baseline", "config", "schemas"},
    "baseline": {"collect", "fixes", "report", "history", "change", "check", "cli", "export", "config", "schemas"},
    "config": {"collect", "fixes", "report", "history", "change", "check", "cli", "export", "schemas"},
    # A check without the command line: load, join, rules, baseline.
    "check": {"collect", "fixes", "report", "history", "change", "cli", "export", "config", "schemas"},
    "fixes": {"collect", "report", "history", "cli", "export", "config", "schemas"},
    "change": {"collect", "report", "history", "cli", "export", "config", "schemas"},
    "export": {"collect", "report", "history", "change", "cli", "config", "schemas"},
    "report": {"collect", "fixes", "history", "change", "cli", "export", "schemas"},
    "history": {"fixes", "change", "cli", "export", "schemas"},
    # The JSON Schemas of what hostlint reads and writes (history's scan records among them).
    "schemas": {"fixes", "change", "cli", "export"},
    # The command line may use every layer; `python -m hostlint` is the command line.
    "cli": set(),
    "__main__": set(),
}
# Third-party modules only the command line may import.
CLI_ONLY = ("click",)


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


@pytest.mark.parametrize("module", sorted(MODULES))
def test_layers_import_only_what_they_may(module: str) -> None:
    assert _violations(module) == []


def test_every_module_has_a_layer_rule() -> None:
    """No module is skipped: each package and top-level module is a layer with its rule (issue 29)."""
    assert sorted(LAYERS - set(FORBIDDEN)) == []
    assert sorted(set(FORBIDDEN) - LAYERS) == []


def test_every_layer_is_in_the_architecture_document() -> None:
    """docs/architecture.md names every package and top-level module, so a reader finds each."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(?:hostlint/)?(\w+)(?:\.py|/)?`", text))
    assert sorted(LAYERS - {""} - named) == []


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


def test_the_documented_table_is_the_checked_one() -> None:
    """The table in docs/architecture.md ("What may import what") says what FORBIDDEN checks."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    phrases = {
        "any other hostlint module": {"*"},
        "anything but the shared leaves": set(UPPER),
        "anything but the shared leaves and snapshot": UPPER - {"snapshot"},
        "(the top: any layer)": set(),
    }
    documented: dict[str, set[str]] = {}
    for row in re.findall(r"^\| (`.+?) \| (.+?) \|$", text, re.MULTILINE):
        layers, never = row
        rule = phrases.get(never, {word.strip() for word in never.split(",")})
        for name in re.findall(r"`(\w+)`", layers):
            documented[name] = set(rule) - {name}  # a layer importing itself is no question
    checked = {name: set(rule) - {name} for name, rule in FORBIDDEN.items() if name}
    assert documented == checked


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


# Issue 29: a switch platform is its folder (hostlint/switches/<platform>/). Modules outside hostlint/switches/
# reach a platform through the registry (hostlint.switches: switch, find_switch, families, fix_text), never
# by importing its folder.
PLATFORM_FOLDERS = frozenset(
    p.name for p in (PACKAGE / "switches").iterdir() if p.is_dir() and (p / "platform.py").is_file()
)
# Folders the platforms share (`cisco_like/`, the parent IOS, NX-OS and EOS copy): no platform, and no
# more for modules outside hostlint/switches/ to import than a platform's folder is.
SHARED_FOLDERS = frozenset(
    p.name
    for p in (PACKAGE / "switches").iterdir()
    if p.is_dir() and (p / "__init__.py").is_file() and p.name not in PLATFORM_FOLDERS
)


def _platform_folder(module: str) -> str | None:
    parts = module.split(".")
    folders = PLATFORM_FOLDERS | SHARED_FOLDERS
    inside = len(parts) > 2 and parts[:2] == ["hostlint", "switches"] and parts[2] in folders
    return parts[2] if inside else None


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _platform_folder(m) is None))
def test_only_the_switches_package_imports_a_platform_folder(module: str) -> None:
    reached_folders = sorted({name for name in reached(module) if _platform_folder(name) is not None})
    assert reached_folders == [], f"{module} imports a platform folder; ask hostlint.switches instead"


def _platform_branches(text: str) -> int:
    quoted = "|".join(re.escape(name) for name in sorted(PLATFORM_FOLDERS))
    return len(re.findall(rf"[\"']({quoted})[\"']", text))


def test_nothing_outside_the_folders_names_a_platform() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("hostlint/switches/"):
            continue
        count = _platform_branches(path.read_text(encoding="utf-8"))
        if count:
            found[relative] = count
    # Nothing outside the folders names a switch platform (a branch on `"juniper_junos"`):
    # every piece is in its folder (docs/design/platform-folders.md, "Migration order").
    assert found == {}, "name no switch platform outside hostlint/switches/: ask the platform's folder"
