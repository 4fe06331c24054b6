"""Probes for generated fix scripts: what a shell script really runs, what a Python or PowerShell
script really holds, and what a switch snippet really says, so a test can compare a script written
for a hostile name with the same script written for a benign one.

Shell scripts run for real under /bin/sh with only logging stub commands on PATH: every command a
step runs appends its argv (NUL-separated, count first) to a log, and nothing else can run.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from pydantic import BaseModel

# Every command the shell fix scripts call; anything else fails with "not found".
STUB_COMMANDS = ("esxcli", "vmkping", "nmcli", "ip", "cat", "virsh", "virt-xml", "grep", "sleep")
_STUB = """#!/bin/sh
printf '%s\\0' "$#" "${0##*/}" "$@" >> "$HOSTLINT_ARGV_LOG"
case "${0##*/} ${1:-}" in
    "virsh domstate") echo "shut off" ;;
    "nmcli -g") echo "bond-conn" ;;
esac
exit 0
"""


def make_stubs(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name in STUB_COMMANDS:
        path = directory / name
        path.write_text(_STUB, encoding="utf-8")
        path.chmod(0o755)
    return directory


def read_argv_log(path: Path) -> list[list[str]]:
    if not path.exists():
        return []
    fields = path.read_bytes().split(b"\0")[:-1]
    calls, index = [], 0
    while index < len(fields):
        count = int(fields[index])
        calls.append([f.decode("utf-8", "surrogateescape") for f in fields[index + 1 : index + 2 + count]])
        index += 2 + count
    return calls


def shell_steps(script: str) -> list[int]:
    return [int(n) for n in re.findall(r"^    (\d+)\) step_\d+ ;;$", script, flags=re.M)]


def syntax_ok(script: Path) -> None:
    outcome = subprocess.run(["sh", "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert outcome.returncode == 0, f"{script.name}: sh -n: {outcome.stderr}"


def run_shell(script: Path, stubs: Path, workdir: Path) -> dict[int, list[list[str]]]:
    """Each step of `script`, run in `workdir` with only the stubs on PATH: step -> the argv it ran."""
    syntax_ok(script)
    calls = {}
    for step in shell_steps(script.read_text(encoding="utf-8")):
        log = workdir / f".argv-{script.name}-{step}"
        env = {"PATH": str(stubs), "HOSTLINT_ARGV_LOG": str(log), "LC_ALL": "C.UTF-8"}
        outcome = subprocess.run(
            ["/bin/sh", str(script), str(step)], cwd=workdir, env=env, capture_output=True, timeout=30
        )
        assert outcome.returncode == 0, f"{script.name} step {step}: {outcome.stderr.decode(errors='replace')}"
        calls[step] = read_argv_log(log)
        log.unlink(missing_ok=True)
    return calls


def python_tree(text: str) -> str:
    return ast.dump(ast.parse(text))


def python_tree_renamed(text: str, old: str, new: str) -> str:
    """The script's syntax tree with `old` replaced by `new` inside every string literal only."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = node.value.replace(old, new)
    return ast.dump(tree)


def python_strings(text: str) -> list[str]:
    return [n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


# PowerShell reads these as single quotes too (about_Quoting_Rules).
_PS_QUOTES = "'\u2018\u2019\u201a\u201b"


def powershell_tokens(text: str) -> list[tuple[str, str]]:
    """A small PowerShell tokenizer: ('str', value) for a verbatim string, ('dq', raw) for a
    double-quoted one, ('code', text) for anything else; comments are dropped. Enough to tell
    which characters are data and which are code."""
    tokens: list[tuple[str, str]] = []
    code: list[str] = []
    i = 0

    def flush() -> None:
        if code:
            tokens.append(("code", "".join(code)))
            code.clear()

    while i < len(text):
        char = text[i]
        if char in _PS_QUOTES:
            flush()
            value, i = [], i + 1
            while True:
                assert i < len(text), "unterminated verbatim string"
                if text[i] in _PS_QUOTES:
                    if i + 1 < len(text) and text[i + 1] in _PS_QUOTES:
                        value.append(text[i])
                        i += 2
                        continue
                    i += 1
                    break
                value.append(text[i])
                i += 1
            tokens.append(("str", "".join(value)))
        elif char == '"':
            flush()
            end = i + 1
            while text[end] != '"':
                end += 2 if text[end] == "`" else 1
            tokens.append(("dq", text[i : end + 1]))
            i = end + 1
        elif char == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
        else:
            code.append(char)
            i += 1
    flush()
    return tokens


def code_lines(text: str, comment: str) -> list[str]:
    """A switch snippet's command lines (comments and blank lines left out)."""
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith(comment)]


def switch_comment(name: str) -> str:
    return "#" if "juniper_junos" in name else "!"


def files_in(directory: Path) -> dict[str, str]:
    """The files a run wrote, without its manifest (hashes differ whenever any byte does)."""
    return {
        p.name: p.read_text(encoding="utf-8")
        for p in sorted(directory.iterdir())
        if p.is_file() and p.name != ".hostlint-fix.json"
    }


def environment_ok() -> bool:
    return os.path.exists("/bin/sh")


def rename_everywhere(value: Any, old: str, new: str) -> Any:
    """`old` replaced by `new` wherever it is a whole string or a `/` segment of one, in models (in
    place, past validation: the protection must hold whatever a loader lets through), lists and dicts."""
    if isinstance(value, str):
        if value == old:
            return new
        parts = value.split("/")
        return "/".join(new if p == old else p for p in parts) if old in parts else value
    if isinstance(value, list):
        return [rename_everywhere(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: rename_everywhere(v, old, new) for k, v in value.items()}
    if isinstance(value, BaseModel):
        fields = list(type(value).model_fields)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        # Snapshot leaves (ports, NICs, port groups) are slotted pydantic dataclasses.
        fields = [f.name for f in dataclasses.fields(value)]
    else:
        return value
    for field in fields:
        object.__setattr__(value, field, rename_everywhere(getattr(value, field), old, new))
    return value
