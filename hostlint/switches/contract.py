"""What a switch platform folder must provide (`PIECES`), and `check(folder)`: the pieces it lacks.

Each piece is one file of the folder and the names it must define (the interfaces are documented in
hostlint.switches.base). `check` returns one message per missing or broken piece, each naming the
folder, the file and the piece, so a contract test fails saying what to add:

    hostlint/switches/hp_comware: hashes.py: piece `hashes` lacks HASHES (a HashTable)

What `check` reads is the folder alone, importing its modules by path (a copy in a temporary
directory is checked as the original would be). Behaviour over the samples (each sample parses into
its records, the records assemble into a Switch, the emulator renders the samples) is checked by
tests/test_platform_contract.py, which needs the collector and the emulator.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2

from hostlint.inputfile import InputError, load_yaml
from hostlint.strict import Strict
from hostlint.switches.base import (
    ConfigGrammar,
    FixTextError,
    HashTable,
    MemberFlags,
    MtuLimits,
    NameGrammar,
    SwitchPlatform,
    command_slug,
    load_fix_text,
)
from hostlint.vocab import HASH_FIELDS

__all__ = ["PIECES", "PIECE_NAMES", "Piece", "check"]


@dataclass(frozen=True)
class Piece:
    """One piece of a platform folder: its name, the file holding it, and what that file must define."""

    name: str
    file: str
    defines: str


PIECES: tuple[Piece, ...] = (
    Piece("platform", "platform.py", "PLATFORM (a SwitchPlatform named as its folder)"),
    Piece("commands", "spec.yaml", "commands, each with its <slug>.ttp template and <slug>.txt sample"),
    Piece("records", "records.py", "RECORDS (ttp group -> its Strict record model)"),
    Piece("assembly", "assemble.py", "build (records -> Switch)"),
    Piece("names", "names.py", "NAMES (a NameGrammar)"),
    Piece("hashes", "hashes.py", "HASHES (a HashTable)"),
    Piece("members", "members.py", "MEMBER_FLAGS (a MemberFlags)"),
    Piece("mtu", "mtu.py", "MTU (an MtuLimits, the same figures as PLATFORM)"),
    Piece("families", "families.py", "family(model) and unknown_reason(model), when fixes.yaml reads `family`"),
    Piece("configuration", "config.py", "CONFIG (a ConfigGrammar: edge-port line, rollback style, VLAN definition)"),
    Piece("fix text", "fixes.yaml", "change, verify and expect for every switch action"),
    Piece("emulator", "emulator.yaml", "prompts, paging and refusal texts; the emulator module's SESSION and RENDER"),
)
PIECE_NAMES: tuple[str, ...] = tuple(piece.name for piece in PIECES)

# The template variable a platform's families give its fix text (hostlint.fixes.families).
_FAMILY = "family"
_FAMILY_WORD = re.compile(rf"\b{_FAMILY}\b")


@dataclass(frozen=True)
class _Asked:
    """What the caller knows that this leaf does not: the switch actions, the emulators' folder."""

    actions: tuple[str, ...]
    emulators: Path | None


# Said by _defined when a module cannot import because another piece's file is missing: no problem of its own.
_BLOCKED = ""


def _package(folder: Path) -> str:
    """The folder as a package under a name private to this check (its modules' relative imports work;
    a copy in another directory is read as itself, never as the registered platform's cached modules)."""
    name = f"_hostlint_contract_{abs(hash(str(folder.resolve())))}"
    if name not in sys.modules:
        package = ModuleType(name)
        package.__path__ = [str(folder)]
        sys.modules[name] = package
    return name


def _import(path: Path, folder: Path) -> ModuleType:
    """The module at `path` in `folder`, imported afresh (a file changed or deleted since is seen)."""
    package = _package(folder)
    name = f"{package}.{path.stem}"
    for loaded in [m for m in sys.modules if m.startswith(package + ".")]:
        del sys.modules[loaded]
    importlib.invalidate_caches()
    return importlib.import_module(name)


def _defined(folder: Path, file: str, name: str, kind: type | None = None) -> tuple[Any, str | None]:
    """(the value `name` in the folder's `file`, None) or (None, what is wrong)."""
    path = folder / file
    if not path.is_file():
        return None, "the file is missing"
    try:
        module = _import(path, folder)
    except ModuleNotFoundError as exc:
        # A sibling piece that is missing (platform.py imports mtu.py) is that piece's problem, named by its
        # own check: a folder without one piece is named for exactly it.
        sibling = (exc.name or "").rpartition(".")[2]
        if (exc.name or "").startswith(_package(folder) + ".") and not (folder / f"{sibling}.py").is_file():
            return None, _BLOCKED
        return None, f"does not import: {type(exc).__name__}: {exc}"
    except Exception as exc:  # any failure importing a folder's module is the piece's problem, named
        return None, f"does not import: {type(exc).__name__}: {exc}"
    value = getattr(module, name, None)
    if value is None:
        return None, f"lacks {name}"
    if kind is not None and not isinstance(value, kind):
        return None, f"{name} is a {type(value).__name__}, not a {kind.__name__}"
    return value, None


def _platform(folder: Path, _: _Asked) -> list[str]:
    platform, problem = _defined(folder, "platform.py", "PLATFORM", SwitchPlatform)
    if problem is not None:
        return [problem]
    if platform.name != folder.name:
        return [f"PLATFORM is named {platform.name!r}, not as its folder {folder.name!r}"]
    return []


def _commands(folder: Path, _: _Asked) -> list[str]:
    path = folder / "spec.yaml"
    if not path.is_file():
        return ["the file is missing"]
    try:
        raw = load_yaml(path)
    except InputError as exc:
        return [f"does not load: {exc}"]
    commands = raw.get("commands") if isinstance(raw, dict) else None
    if not isinstance(commands, list) or not commands:
        return ["lists no commands"]
    problems = []
    for entry in commands:
        command = entry.get("command") if isinstance(entry, dict) else None
        if not isinstance(command, str):
            problems.append(f"an entry without a command: {entry!r}")
            continue
        slug = command_slug(command)
        lacking = [slug + ext for ext in (".ttp", ".txt") if not (folder / (slug + ext)).is_file()]
        problems += [f"{command!r} has no {name}" for name in lacking]
    return problems


def _records(folder: Path, _: _Asked) -> list[str]:
    records, problem = _defined(folder, "records.py", "RECORDS", dict)
    if problem is not None:
        return [problem]
    return [
        f"RECORDS[{group!r}] is not a Strict model"
        for group, model in records.items()
        if not (isinstance(model, type) and issubclass(model, Strict))
    ]


def _assembly(folder: Path, _: _Asked) -> list[str]:
    build, problem = _defined(folder, "assemble.py", "build")
    if problem is not None:
        return [problem]
    return [] if callable(build) else ["build is not callable"]


def _names(folder: Path, _: _Asked) -> list[str]:
    names, problem = _defined(folder, "names.py", "NAMES", NameGrammar)
    if problem is not None:
        return [problem]
    problems = []
    patterns = (("channel", names.channel), ("script", names.script), *(("neighbour", n) for n in names.neighbour))
    optional = (("lower_case", names.lower_case), ("unit", names.unit))
    patterns += tuple((what, pattern) for what, pattern in optional if pattern)
    for what, pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            problems.append(f"NAMES.{what} {pattern!r} is no regular expression: {exc}")
    return problems


def _hashes(folder: Path, _: _Asked) -> list[str]:
    hashes, problem = _defined(folder, "hashes.py", "HASHES", HashTable)
    if problem is not None:
        return [problem]
    problems = []
    unnamed = sorted({name for _, name in hashes.pairs if name not in HASH_FIELDS} - {""})
    if hashes.default is not None and hashes.default not in HASH_FIELDS:
        unnamed.append(hashes.default)
    if unnamed:
        problems.append(f"HASHES names {', '.join(unnamed)}, not in hostlint's hash vocabulary (hostlint.vocab)")
    for name in hashes.written():
        words = hashes.write(name)
        if words is None or hashes.read(words) != name:
            problems.append(f"HASHES writes {name!r} as {words!r}, which reads back as another hash")
    if hashes.writes and not hashes.command:
        problems.append("HASHES writes the hash but has no command")
    return problems


def _members(folder: Path, _: _Asked) -> list[str]:
    flags, problem = _defined(folder, "members.py", "MEMBER_FLAGS", MemberFlags)
    if problem is not None:
        return [problem]
    return [] if flags.words or flags.flags else ["MEMBER_FLAGS maps no flag or word to a state"]


def _mtu(folder: Path, _: _Asked) -> list[str]:
    mtu, problem = _defined(folder, "mtu.py", "MTU", MtuLimits)
    if problem is not None:
        return [problem]
    problems = [] if mtu.families else ["MTU has no family"]
    platform, _missing = _defined(folder, "platform.py", "PLATFORM", SwitchPlatform)
    if platform is not None and (platform.jumbo, platform.l2_header, platform.mtu_families) != (
        mtu.jumbo,
        mtu.l2_header,
        mtu.families,
    ):
        problems.append("MTU and PLATFORM disagree on jumbo, l2_header or mtu_families")
    return problems


def _configuration(folder: Path, _: _Asked) -> list[str]:
    grammar, problem = _defined(folder, "config.py", "CONFIG", ConfigGrammar)
    if problem is not None:
        return [problem]
    patterns = [("edge_port.line", grammar.edge_port.line)]
    if grammar.forced_link is not None:
        patterns.append(("forced_link.line", grammar.forced_link.line))
    problems = []
    for what, pattern in patterns:
        try:
            re.compile(pattern or "")
        except re.error as exc:
            problems.append(f"CONFIG.{what} {pattern!r} is no regular expression: {exc}")
    if grammar.channel_lacp is not None and "{}" not in grammar.channel_lacp:
        problems.append(f"CONFIG.channel_lacp {grammar.channel_lacp!r} has no {{}} for the channel")
    if grammar.forced_link is not None:
        forced = grammar.forced_link
        if "{}" not in forced.prefix:
            problems.append(f"CONFIG.forced_link.prefix {forced.prefix!r} has no {{}} for the interface")
        if not forced.statements:
            problems.append("CONFIG.forced_link names no statement the change deletes")
    if not grammar.vlan_definition.strip():
        problems.append("CONFIG.vlan_definition is empty")
    return problems


def _reads_variable(template: str) -> bool:
    """Whether the Jinja2 `template` reads `family`: a name inside a tag, not an attribute or filter of that
    name (`the chip family` in its text is no reading). Lexed, not parsed: parsing needs the fix filters,
    which this leaf does not import. A template that does not lex reads it where the word appears."""
    try:
        tokens = [(kind, value) for _, kind, value in jinja2.Environment().lex(template) if kind != "whitespace"]
    except jinja2.TemplateSyntaxError:
        return _FAMILY_WORD.search(template) is not None
    previous = [("", ""), *tokens]
    return any(
        token == ("name", _FAMILY) and before not in (("operator", "."), ("operator", "|"), ("name", "is"))
        for before, token in zip(previous, tokens, strict=False)
    )


def _reads_family(folder: Path) -> bool:
    try:
        texts = load_fix_text(folder / "fixes.yaml")
    except FixTextError:
        return False
    return any(
        _reads_variable(template)
        for text in texts.values()
        for template in (text.change, text.verify, text.expect, text.rollback, text.rollback_expect)
        if template
    )


def _families(folder: Path, _: _Asked) -> list[str]:
    if not (folder / "families.py").is_file() and not _reads_family(folder):
        return []  # optional: only a platform whose fix text depends on the family needs it
    if not (folder / "families.py").is_file():
        return ["the file is missing"]
    problems = []
    for name in ("family", "unknown_reason"):
        value, problem = _defined(folder, "families.py", name)
        if problem is not None:
            problems.append(problem)
        elif not callable(value):
            problems.append(f"{name} is not callable")
    return problems


def _fix_text(folder: Path, asked: _Asked) -> list[str]:
    path = folder / "fixes.yaml"
    if not path.is_file():
        return ["the file is missing"]
    try:
        texts = load_fix_text(path)
    except FixTextError as exc:
        return [f"does not load: {exc}"]
    missing = [action for action in asked.actions if action not in texts]
    return [f"no text for {', '.join(missing)}"] if missing else []


def _top_level_names(path: Path) -> set[str]:
    """The names a module assigns or defines at its top level (read, not imported: it is test code)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8"), filename=str(path)).body:
        if isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.ImportFrom)):
            names |= {node.name} if not isinstance(node, ast.ImportFrom) else {a.asname or a.name for a in node.names}
    return names


def _emulator(folder: Path, asked: _Asked) -> list[str]:
    emulators = asked.emulators
    path = folder / "emulator.yaml"
    if not path.is_file():
        return ["the file is missing"]
    try:
        load_yaml(path)
    except InputError as exc:
        return [f"does not load: {exc}"]
    if emulators is None:
        return []
    module = emulators / f"{folder.name}.py"
    if not module.is_file():
        return [f"has no emulator module {module}"]
    lacking = {"SESSION", "RENDER"} - _top_level_names(module)
    return [f"{module} lacks {', '.join(sorted(lacking))}"] if lacking else []


_CHECKS: dict[str, Callable[[Path, _Asked], list[str]]] = {
    "platform": _platform,
    "commands": _commands,
    "records": _records,
    "assembly": _assembly,
    "names": _names,
    "hashes": _hashes,
    "members": _members,
    "mtu": _mtu,
    "families": _families,
    "configuration": _configuration,
    "fix text": _fix_text,
    "emulator": _emulator,
}


def check(
    folder: Path,
    actions: Iterable[str] = (),
    emulators: Path | None = None,
    skip: Iterable[str] = (),
) -> list[str]:
    """One message per piece `folder` lacks (none: it provides every piece), each naming folder, file and piece.

    `actions`: the switch actions whose text `fixes.yaml` must hold (hostlint.fixes.actions knows them;
    this module does not import it). `emulators`: the test emulator's platform modules
    (tests/switch_emulator/platforms/), whose `<platform>.py` must define SESSION and RENDER; None: not
    checked (the wheel holds no tests). `skip`: pieces not asked of the folder (a test checks
    one piece of a shared base that is no platform).
    """
    skipped = frozenset(skip)
    wanted = _Asked(tuple(actions), emulators)
    problems = []
    try:
        for piece in PIECES:
            if piece.name in skipped:
                continue
            for problem in _CHECKS[piece.name](folder, wanted):
                if problem == _BLOCKED:
                    continue
                problems.append(f"{folder}: {piece.file}: piece `{piece.name}` {problem} (it defines {piece.defines})")
    finally:
        package = _package(folder)
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]
    return problems
