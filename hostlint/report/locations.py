"""Where in the snapshot files an object is written, for reports that point at a file and line
(SARIF physical locations, GitHub annotations, GitLab code quality).

A finding's object is `<host>/<thing>`. The host is found in the snapshot file that holds it
(its JSON pointer, e.g. `/esxi_hosts/0`, and the line of its `"name"`), the thing as the first
line inside that host's part of the file that names it in quotes.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path

HOST_KINDS = ("esxi_hosts", "kvm_hosts", "switches", "distributed_switches")


@dataclass(frozen=True)
class Location:
    uri: str
    pointer: str
    line: int


@dataclass
class _Entry:
    uri: str
    text: str
    pointer: str
    start: int
    end: int


def _uri(path: Path) -> str:
    """Relative to the current directory when under it (what code scanning matches against a repository)."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return resolved.as_uri()


def _snapshot_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.glob("*.json") if p.is_file())
        elif path.suffix == ".json" and path.is_file():
            files.append(path)
    return files


class Locator:
    """Object name -> Location, read from the snapshot files a check was given."""

    def __init__(self, paths: list[Path]) -> None:
        self._hosts: dict[str, _Entry] = {}
        # Distributed switches of one name (two datacenters' `DSwitch`): each, to find a host's member entry.
        self._switches: dict[str, list[_Entry]] = {}
        for file in _snapshot_files(paths):
            text = file.read_text(encoding="utf-8")
            document = json.loads(text)
            found: list[tuple[int, str, str]] = []
            for kind in HOST_KINDS:
                for n, item in enumerate(document.get(kind) or []):
                    name = item.get("name") if isinstance(item, dict) else None
                    if not isinstance(name, str) or not name:
                        continue
                    # The name's next occurrence: objects of one name (two datacenters' `DSwitch`) are each their own.
                    pattern = rf'"name"\s*:\s*{re.escape(json.dumps(name))}'
                    seen = sum(1 for _, other, _ in found if other == name)
                    match = next(itertools.islice(re.finditer(pattern, text), seen, None), None)
                    if match:
                        found.append((match.start(), name, f"/{kind}/{n}"))
            found.sort()
            for k, (start, name, pointer) in enumerate(found):
                end = found[k + 1][0] if k + 1 < len(found) else len(text)
                entry = _Entry(_uri(file), text, pointer, start, end)
                self._hosts.setdefault(name.lower(), entry)
                if pointer.startswith("/distributed_switches/"):
                    self._switches.setdefault(name.lower(), []).append(entry)

    def locate(self, obj: str | None) -> Location | None:
        if not obj:
            return None
        host, _, thing = obj.partition("/")
        entry = self._hosts.get(host.lower())
        if entry is None:
            return None
        owner = self._hosts.get(thing.lower()) if thing and "/" not in thing else None
        if owner is not None and owner.pointer.startswith("/distributed_switches/"):
            # A host's proxy switch (`esx01/DSwitch1`): the host's member entry in that switch.
            member = re.compile(rf'"host"\s*:\s*{re.escape(json.dumps(host))}', re.IGNORECASE)
            for candidate in self._switches.get(thing.lower(), [owner]):
                found = member.search(candidate.text, candidate.start, candidate.end)
                if found:
                    owner = candidate
                    break
            offset = found.start() if found else owner.start
            return Location(uri=owner.uri, pointer=owner.pointer, line=owner.text.count("\n", 0, offset) + 1)
        offset = entry.start
        name = thing.rsplit("/", 1)[-1].removeprefix("vm:")
        if name:
            # A PCIe card (`pci-0000:3b:00`) is written as its functions' addresses (`"0000:3b:00.0"`).
            quoted = f'"{name.removeprefix("pci-")}.' if name.startswith("pci-") else json.dumps(name)
            inside = entry.text.find(quoted, entry.start, entry.end)
            offset = inside if inside >= 0 else offset
        line = entry.text.count("\n", 0, offset) + 1
        return Location(uri=entry.uri, pointer=entry.pointer, line=line)
