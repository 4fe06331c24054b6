"""Names moved from a test module to tests/support, still importable from their old module for a while.

Branches written before the move import them from the test module (`from test_vsphere_collect import
vcsim_binary`); a module-level `__getattr__` (PEP 562) answers those imports without the test module
holding the names, so pytest does not register a fixture twice and ruff sees no redefinition.
tests/test_test_imports.py still fails on such an import and says what to import instead; once none is
left, the `__getattr__` line goes.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType


def forward(module: ModuleType, *names: str, renamed: dict[str, str] | None = None) -> Callable[[str], object]:
    """A module `__getattr__` answering `names` (and the old names in `renamed`, old -> new) from `module`;
    any other missing name stays missing (pytest asks modules for `setup_module`, `pytestmark`...)."""
    wanted = {name: name for name in names} | (renamed or {})

    def __getattr__(name: str) -> object:
        if name not in wanted:
            raise AttributeError(name)
        return getattr(module, wanted[name])

    return __getattr__
