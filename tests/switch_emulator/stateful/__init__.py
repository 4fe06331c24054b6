"""A switch that keeps state: hostlint's own `Switch` model, changed by configuration, shown by show commands.

`StatefulSwitch(state, lacp_partners)` deep-copies `state`; `execute(line)` answers the show commands
the collector sends (its spec.yaml) from the state through the platform's renderer
(`RENDERERS`), the terminal/paging commands netmiko sends as the platform does, and passes every other
line to the platform's configuration session (`SESSIONS`, see stateful.md: each platform's in
../platforms/<platform>.py), whose prompt is the switch's prompt. Serve one over SSH with
`EmulatedSwitch(name, platform, stateful=StatefulSwitch(...))` (switch_emulator.server).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from hostlint.snapshot.switch import Switch
from switch_emulator.cli_text import invalid, terminal
from switch_emulator.stateful.session import ConfigSession

V = TypeVar("V")
# The emulator piece of each platform folder (hostlint/switches/<platform>/): a module here per platform,
# `SESSION` and `RENDER` (hostlint.switches.contract); found when first asked, since those modules
# import this package's session base.
_PLATFORMS = Path(__file__).resolve().parent.parent / "platforms"


@functools.cache
def _platform_modules() -> dict[str, Any]:
    found = {}
    for path in sorted(_PLATFORMS.glob("*.py")):
        if path.stem != "__init__":
            module = importlib.import_module(f"switch_emulator.platforms.{path.stem}")
            if hasattr(module, "SESSION") and hasattr(module, "RENDER"):
                found[path.stem] = module
    return found


class _Table(Mapping[str, V]):
    """Platform -> its entry: every platform module's, found when first read."""

    def __init__(self, attribute: str) -> None:
        self._attribute = attribute

    def _all(self) -> dict[str, V]:
        return {n: getattr(m, self._attribute) for n, m in _platform_modules().items()}

    def __getitem__(self, key: str) -> V:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


# Platform -> show command renderer: the output of a show command on a state, None for a command it
# does not know (the switch then rejects it as the platform does).
RENDERERS: Mapping[str, Callable[[Switch, str], str | None]] = _Table("RENDER")
# Platform -> configuration session class (../platforms/<platform>.py `SESSION`; IOS, NX-OS and EOS share
# cisco_base.py's machinery).
SESSIONS: Mapping[str, type[ConfigSession]] = _Table("SESSION")

_HANG_UP = ("exit", "quit", "logout")


class StatefulSwitch:
    """One switch: `state` (changed only by accepted configuration), its platform, its config session."""

    def __init__(
        self,
        state: Switch,
        lacp_partners: frozenset[str] = frozenset(),
        session: type[ConfigSession] | None = None,
    ) -> None:
        self.state = state.model_copy(deep=True)
        self.platform = state.platform
        if self.platform not in RENDERERS:
            raise KeyError(f"no show command renderer for platform {self.platform!r}")
        chosen = session or SESSIONS.get(self.platform)
        if chosen is None:
            raise KeyError(f"no configuration session for platform {self.platform!r}")
        self.session = chosen(self.state, lacp_partners)
        # The prompt right after login: exec mode (Junos operational mode).
        self._exec_prompt = self.session.prompt()
        self.log: list[tuple[str, str]] = []

    def prompt(self) -> str:
        return self.session.prompt()

    def in_exec_mode(self) -> bool:
        return self.session.prompt() == self._exec_prompt

    def hangs_up(self, line: str) -> bool:
        """`exit` in exec (operational) mode ends the session; in a configuration mode it leaves the mode."""
        return self.in_exec_mode() and " ".join(line.split()) in _HANG_UP

    def execute(self, line: str) -> str:
        command = " ".join(line.split())
        if not command:
            return self._edit_level("")
        text = terminal(self.platform, command) if self.in_exec_mode() else None
        if text is not None:
            return text
        if command.startswith("show ") and self.in_exec_mode():
            shown = RENDERERS[self.platform](self.state, command)
            return invalid(self.platform, self.prompt(), command) if shown is None else _terminated(shown)
        answer = self.session.execute(line)
        self.log.append((command, answer))
        return self._edit_level(answer)

    def _edit_level(self, answer: str) -> str:
        """Junos shows the edit level above every configuration-mode prompt (Junos OS CLI User Guide,
        "Junos OS Configuration Mode": `[edit]`); the sessions here edit from the top."""
        if self.platform != "juniper_junos" or self.in_exec_mode():
            return answer
        return (_terminated(answer) if answer else "") + "\n[edit]\n"


def _terminated(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"
