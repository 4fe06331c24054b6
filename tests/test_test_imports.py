"""No module under tests/ imports a test module (tests/test_*.py): shared builders live in tests/support/,
shared fixtures are registered in tests/conftest.py (issue 29: helpers were imported across 16 test modules,
so a test module could not be read, moved or run alone without the ones it borrowed from).

The failure names the file and line, and says what to import instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SUPPORT = TESTS / "support"

# Names renamed on the way into tests/support/ (underscore helpers made public): (test module, old name) -> new.
RENAMED = {
    ("test_fixes", "_finding"): "finding",
    ("test_join", "_host"): "esxi_host",
    ("test_join", "_switch"): "nxos_switch",
    ("test_probe", "_host"): "vmotion_host",
    ("test_probe", "_ip"): "ip",
    ("test_probe_kvm", "_ip"): "ip",
    ("test_probe_kvm", "_name"): "kvm_name",
    ("test_probe_kvm", "pytestmark"): "needs_ssh_namespaces",
}


def _defined(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level (not the ones it imports)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def support_names() -> dict[str, str]:
    """Each name defined in a tests/support/ module -> that module (`support.vcsim`)."""
    found: dict[str, str] = {}
    for path in sorted(SUPPORT.glob("*.py")):
        for name in _defined(ast.parse(path.read_text(encoding="utf-8"))):
            found.setdefault(name, f"support.{path.stem}")
    return found


def conftest_fixtures() -> set[str]:
    """The fixtures tests/conftest.py registers for every module (its `__all__`)."""
    tree = ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return {ast.literal_eval(e) for e in node.value.elts} if isinstance(node.value, ast.List) else set()
    return set()


def _taken_from_support(module: str) -> dict[str, str]:
    """The names a test module takes from tests/support/ (by import, or through `moved.forward(...)`) -> where:
    two support modules may define one name (`SITE`), and the old module's own import says which is meant."""
    path = TESTS / f"{module}.py"
    if not path.is_file():
        return {}
    taken: dict[str, str] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("support."):
            taken.update({alias.asname or alias.name: str(node.module) for alias in node.names})
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "moved.forward" and node.args:
            where = f"support.{ast.unparse(node.args[0])}"
            taken.update({ast.literal_eval(arg): where for arg in node.args[1:]})
    return taken


def _own(module: str) -> set[str]:
    """The names a test module defines itself (those are not the support module's namesakes)."""
    path = TESTS / f"{module}.py"
    return _defined(ast.parse(path.read_text(encoding="utf-8"))) if path.is_file() else set()


def _instead(module: str, names: list[str], support: dict[str, str], fixtures: set[str]) -> str:
    """What to write instead of `from <module> import <names>`."""
    taken, own = _taken_from_support(module), _own(module)
    by_module: dict[str, list[str]] = {}
    dropped: list[str] = []
    missing: list[str] = []
    for name in names:
        new = RENAMED.get((module, name), name)
        if new in fixtures:
            dropped.append(name)
        elif new in taken or (new in support and name not in own):
            where = taken.get(new) or support[new]
            by_module.setdefault(where, []).append(new if new == name else f"{new} (was {name})")
        else:
            missing.append(name)
    parts = [f"`from {where} import {', '.join(sorted(found))}`" for where, found in sorted(by_module.items())]
    if dropped:
        parts.append(
            f"drop {', '.join(dropped)} from the import (a fixture tests/conftest.py registers: "
            "name it as a test parameter, and remove the `# noqa: F401`/`F811` it needed)"
        )
    if missing:
        moved = ", ".join(missing)
        parts.append(f"move {moved} from tests/{module}.py into a tests/support/ module and import it there")
    return "; ".join(parts)


def violations(path: Path, text: str, test_modules: set[str], support: dict[str, str], fixtures: set[str]) -> list[str]:
    """`file:line: what is wrong; what to write instead` for each import of a test module in `text`."""
    found = []
    where = path.relative_to(TESTS.parent) if path.is_relative_to(TESTS.parent) else path
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in test_modules:
            names = [alias.name for alias in node.names]
            found.append(
                f"{where}:{node.lineno}: imports {', '.join(names)} from the test module {node.module}; instead: "
                + _instead(node.module, names, support, fixtures)
            )
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in test_modules:
                    found.append(
                        f"{where}:{node.lineno}: imports the test module {alias.name}; import what it uses from "
                        "tests/support/ instead (move it there if it is not yet)"
                    )
    return found


def test_no_module_under_tests_imports_a_test_module() -> None:
    test_modules = {p.stem for p in TESTS.glob("test_*.py")}
    support, fixtures = support_names(), conftest_fixtures()
    found = [
        line
        for path in sorted(TESTS.rglob("*.py"))
        if "golden" not in path.relative_to(TESTS).parts
        for line in violations(path, path.read_text(encoding="utf-8"), test_modules, support, fixtures)
    ]
    assert found == [], "\n".join(found)


def test_the_message_names_file_line_and_the_import_to_write_instead() -> None:
    text = (
        '"""A test module (any name) as a branch wrote it before tests/support/ existed."""\n'
        "from test_vsphere_collect import PASSWORD, SITE, launcher, vcsim_binary  # noqa: F401 (fixture)\n"
        "\n"
        "def test_x():\n"
        "    from test_fixes import _finding, site\n"
        "    import test_join\n"
        "    from test_probe import _probe\n"
        "    from test_probe import SITE, needs_namespaces\n"
    )
    modules = {"test_vsphere_collect", "test_fixes", "test_join", "test_probe"}
    found = violations(TESTS / "test_cli.py", text, modules, support_names(), conftest_fixtures())
    assert found == [
        "tests/test_cli.py:2: imports PASSWORD, SITE, launcher, vcsim_binary from the test module "
        "test_vsphere_collect; instead: `from support.vcsim import PASSWORD, SITE, launcher`; drop vcsim_binary "
        "from the import (a fixture tests/conftest.py registers: name it as a test parameter, and remove the "
        "`# noqa: F401`/`F811` it needed)",
        "tests/test_cli.py:5: imports _finding, site from the test module test_fixes; instead: "
        "`from support.fix_sites import finding (was _finding), site`",
        "tests/test_cli.py:6: imports the test module test_join; import what it uses from tests/support/ instead "
        "(move it there if it is not yet)",
        "tests/test_cli.py:7: imports _probe from the test module test_probe; instead: move _probe from "
        "tests/test_probe.py into a tests/support/ module and import it there",
        # Two support modules define SITE: the one the old module took it from is meant.
        "tests/test_cli.py:8: imports SITE, needs_namespaces from the test module test_probe; instead: "
        "`from support.probe_fabric import SITE, needs_namespaces`",
    ]


def test_every_fixture_conftest_registers_is_a_fixture_from_tests_support() -> None:
    """conftest's `__all__` is what the guard calls a fixture: each is a `@pytest.fixture` of a support module."""
    fixtures = {
        node.name
        for path in SUPPORT.glob("*.py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef) and any("pytest.fixture" in ast.unparse(d) for d in node.decorator_list)
    }
    assert conftest_fixtures() == fixtures
