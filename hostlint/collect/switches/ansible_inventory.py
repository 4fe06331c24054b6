"""Ansible inventories, YAML or INI, as the variables of each host.

Both formats describe the same thing, groups with hosts, vars and child groups,
and are read into one shape (`Group`) and resolved as Ansible resolves them:
a host's variables are those of `all`, then of each group it belongs to
(directly or through child groups) from the shallowest to the deepest, ties
by name, then its own. A group is resolved once however often it is listed
(memoised), a group that contains itself is an error naming the cycle, and
group nesting is capped.

INI, as Ansible's `ini` inventory plugin reads it::

    # comments start with # or ;
    sw-core1 ansible_host=192.0.2.1      # before any section: the `ungrouped` group
    [campus]
    sw-acc[01:03] ansible_port=2222      # a host line: a name (ranges expand) and key=value vars
    sw-dist1:2200                        # name:port
    [campus:vars]
    ansible_network_os=cisco.ios.ios     # key=value, one per line
    [switches:children]
    campus                               # a child group, declared by its own section somewhere

Values are taken as strings (hostlint reads only host, port, user, network OS
and the password variable's name).
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostlint.collect.switches.inventory_file import InventoryError

# Groups nested deeper than this are a mistake (or an attack), not an inventory.
MAX_GROUP_DEPTH = 32
# Host ranges (`sw[0001:9999]`) expand to at most this many hosts per file.
MAX_HOSTS = 100_000

HOST_VAR = "ansible_host"
PORT_VAR = "ansible_port"
USER_VAR = "ansible_user"
PLATFORM_VAR = "ansible_network_os"
PASSWORD_ENV_VAR = "hostlint_password_env"
# Older names Ansible still accepts for the same settings.
_ALIASES = {"ansible_ssh_host": HOST_VAR, "ansible_ssh_port": PORT_VAR, "ansible_ssh_user": USER_VAR}
READ_VARS = (HOST_VAR, PORT_VAR, USER_VAR, PLATFORM_VAR, PASSWORD_ENV_VAR, *_ALIASES)
# Ansible's other connection variables: legitimate, unused here, and close enough to the ones
# hostlint reads that they must not be taken for typos of them.
_OTHER_ANSIBLE_VARS = frozenset(
    {
        "ansible_connection",
        "ansible_password",
        "ansible_ssh_pass",
        "ansible_ssh_password",
        "ansible_become",
        "ansible_become_method",
        "ansible_become_user",
        "ansible_become_password",
        "ansible_become_pass",
        "ansible_become_exe",
        "ansible_become_flags",
        "ansible_private_key_file",
        "ansible_ssh_private_key_file",
        "ansible_ssh_common_args",
        "ansible_ssh_extra_args",
        "ansible_sftp_extra_args",
        "ansible_scp_extra_args",
        "ansible_ssh_pipelining",
        "ansible_ssh_executable",
        "ansible_shell_type",
        "ansible_shell_executable",
        "ansible_python_interpreter",
        "ansible_network_cli_ssh_type",
        "ansible_command_timeout",
        "ansible_connect_timeout",
        "ansible_host_key_checking",
        "ansible_group_priority",
    }
)
GROUP_KEYS = ("hosts", "vars", "children")


@dataclass
class Group:
    name: str
    hosts: dict[str, dict[str, Any]] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)
    children: list[str] = field(default_factory=list)


def check_vars(path: Path, owner: str, variables: dict[str, Any]) -> None:
    """A variable that looks like a misspelling of one hostlint reads is an error, not silently ignored.

    Ansible variables are open-ended (playbooks define their own), so only near misses of the
    variables hostlint reads, and unknown `hostlint_*` variables, are refused.
    """
    for key in variables:
        if key in READ_VARS or key in _OTHER_ANSIBLE_VARS:
            continue
        close = difflib.get_close_matches(str(key), READ_VARS, n=1, cutoff=0.85)
        if close or str(key).startswith("hostlint_"):
            hint = f" (did you mean {close[0]!r}?)" if close else f" (hostlint reads {PASSWORD_ENV_VAR!r})"
            raise InventoryError(f"{path}: {owner}: unknown key {key!r}{hint}")


def host_vars(path: Path, groups: dict[str, Group]) -> dict[str, dict[str, Any]]:
    """Every host's effective variables, Ansible's precedence, each group resolved once."""
    for group in groups.values():
        check_vars(path, f"group {group.name}", group.vars)
        for host, variables in group.hosts.items():
            check_vars(path, host, variables)
        for child in group.children:
            if child not in groups:
                raise InventoryError(f"{path}: group {group.name!r} lists child group {child!r}, which is not defined")
    parents: dict[str, set[str]] = {name: set() for name in groups}
    for group in groups.values():
        for child in group.children:
            parents[child].add(group.name)
    depth = _depths(path, groups)
    ancestors: dict[str, frozenset[str]] = {}
    for name in sorted(groups, key=depth.__getitem__):
        ancestors[name] = frozenset({name}).union(*(ancestors[p] for p in parents[name]))
    memberships: dict[str, set[str]] = {}
    own: dict[str, dict[str, Any]] = {}
    for group in groups.values():
        for host, variables in group.hosts.items():
            memberships.setdefault(host, set()).update(ancestors[group.name])
            own[host] = {**own.get(host, {}), **variables}
    resolved = {}
    for host, member_of in memberships.items():
        merged: dict[str, Any] = dict(groups["all"].vars) if "all" in groups else {}
        for name in sorted(member_of - {"all"}, key=lambda g: (depth[g], g)):
            merged.update(groups[name].vars)
        merged.update(own[host])
        resolved[host] = {_ALIASES.get(key, key): value for key, value in merged.items()}
    return resolved


def _depths(path: Path, groups: dict[str, Group]) -> dict[str, int]:
    """Each group's depth below `all` (the longest path, as Ansible counts it); a cycle is an error.

    Iterative (Kahn's algorithm): an inventory nested thousands deep is refused, not a RecursionError.
    """
    incoming = {name: 0 for name in groups}
    for group in groups.values():
        for child in set(group.children):
            incoming[child] += 1
    depth = {name: 0 if name == "all" else 1 for name in groups}
    ready = [name for name, count in incoming.items() if count == 0]
    done = 0
    while ready:
        name = ready.pop()
        done += 1
        for child in set(groups[name].children):
            depth[child] = max(depth[child], depth[name] + 1)
            if depth[child] > MAX_GROUP_DEPTH:
                raise InventoryError(f"{path}: groups nested deeper than {MAX_GROUP_DEPTH} levels at {child!r}")
            incoming[child] -= 1
            if incoming[child] == 0:
                ready.append(child)
    if done < len(groups):
        raise InventoryError(f"{path}: group cycle: {' -> '.join(_cycle(groups, incoming))}")
    return depth


def _cycle(groups: dict[str, Group], incoming: dict[str, int]) -> list[str]:
    """One cycle among the groups Kahn's algorithm could not order (each has a parent among them)."""
    stuck = {name for name, count in incoming.items() if count > 0}
    walk = [min(stuck)]
    while True:
        following = min(child for child in groups[walk[-1]].children if child in stuck)
        if following in walk:
            return [*walk[walk.index(following) :], following]
        walk.append(following)


# YAML ---------------------------------------------------------------------------------------------


def groups_from_yaml(path: Path, raw: dict[str, Any]) -> dict[str, Group]:
    """`all: {vars, hosts, children: {name: {...}}}`; a group named twice is one group."""
    groups: dict[str, Group] = {}
    # Depth first, in file order (a stack, pushed in reverse), so hosts come out in the order written.
    pending = [(str(name), body) for name, body in reversed(raw.items())]
    while pending:
        name, body = pending.pop()
        group = groups.setdefault(name, Group(name))
        if body is None:
            continue
        if not isinstance(body, dict):
            raise InventoryError(f"{path}: group {name!r}: expected a mapping of hosts, vars and children")
        unknown = [key for key in body if key not in GROUP_KEYS]
        if unknown:
            close = difflib.get_close_matches(str(unknown[0]), GROUP_KEYS, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (a group has {', '.join(GROUP_KEYS)})"
            raise InventoryError(f"{path}: group {name!r}: unknown key {unknown[0]!r}{hint}")
        group.vars.update(_mapping(path, f"group {name!r}: vars", body.get("vars")))
        for host, variables in _mapping(path, f"group {name!r}: hosts", body.get("hosts")).items():
            group.hosts[str(host)] = {
                **group.hosts.get(str(host), {}),
                **_mapping(path, f"host {host!r}", variables),
            }
        children = _mapping(path, f"group {name!r}: children", body.get("children"))
        for child in children:
            if str(child) not in group.children:
                group.children.append(str(child))
        pending += [(str(child), child_body) for child, child_body in reversed(children.items())]
    return groups


def _mapping(path: Path, what: str, value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InventoryError(f"{path}: {what}: expected a mapping, found {type(value).__name__}")
    return value


# INI ----------------------------------------------------------------------------------------------

_SECTION = re.compile(r"^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:[#;].*)?$")
_RANGE = re.compile(r"\[([0-9a-zA-Z]+):([0-9a-zA-Z]+)(?::([0-9]+))?\]")
_BRACKETED_V6 = re.compile(r"\[([0-9a-fA-F.]*:[0-9a-fA-F.]*:[0-9a-fA-F:.]*)\]:([0-9]+)")


def groups_from_ini(path: Path, text: str) -> dict[str, Group]:
    """Ansible's INI format: [group], [group:vars], [group:children] sections and host lines."""
    groups: dict[str, Group] = {"all": Group("all"), "ungrouped": Group("ungrouped")}
    declared = {"all", "ungrouped"}
    pending: dict[str, str] = {}  # group -> the section that names it before it is declared
    group, state = groups["ungrouped"], "hosts"
    host_count = 0
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        where = f"{path}: line {number}"
        section = _SECTION.match(line)
        if section:
            name, state = section.group(1), section.group(2) or "hosts"
            if state not in ("hosts", "vars", "children"):
                raise InventoryError(f"{where}: section [{name}:{state}] has unknown type {state!r}")
            group = groups.setdefault(name, Group(name))
            # [name] or [name:children] declares a group; [name:vars] needs it declared somewhere.
            if state != "vars":
                declared.add(name)
                pending.pop(name, None)
            elif name not in declared:
                pending.setdefault(name, f"[{name}:{state}]")
            continue
        if line.startswith("["):
            raise InventoryError(f"{where}: invalid section {line!r}")
        if state == "vars":
            key, equals, value = line.partition("=")
            if not equals or not key.strip():
                raise InventoryError(f"{where}: expected key=value in [{group.name}:vars], got {line!r}")
            group.vars[key.strip()] = _unquote(value.strip())
        elif state == "children":
            child = _tokens(where, line)[0]
            if child not in group.children:
                group.children.append(child)
            groups.setdefault(child, Group(child))
            if child not in declared:
                pending.setdefault(child, f"[{group.name}:children]")
        else:
            for host, variables in _host_line(where, line):
                host_count += 1
                if host_count > MAX_HOSTS:
                    raise InventoryError(f"{where}: more than {MAX_HOSTS:,} hosts")
                group.hosts[host] = {**group.hosts.get(host, {}), **variables}
    if pending:
        name, header = next(iter(pending.items()))
        raise InventoryError(f"{path}: {header} names group {name!r}, which has no [{name}] section")
    # Every group hangs under `all`, as in Ansible; `ungrouped` holds hosts named before any section.
    tops = {name for name in groups if name != "all"} - {child for g in groups.values() for child in g.children}
    groups["all"].children.extend(sorted(tops))
    return groups


def _tokens(where: str, line: str) -> list[str]:
    try:
        return shlex.split(line, comments=True)
    except ValueError as exc:
        raise InventoryError(f"{where}: {exc}") from None


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _host_line(where: str, line: str) -> list[tuple[str, dict[str, Any]]]:
    pattern, *assignments = _tokens(where, line)
    variables: dict[str, Any] = {}
    for assignment in assignments:
        key, equals, value = assignment.partition("=")
        if not equals or not key:
            raise InventoryError(f"{where}: expected key=value host variable, got {assignment!r}")
        variables[key] = value
    name, port = _split_port(where, pattern)
    if port is not None:
        variables.setdefault(PORT_VAR, port)
    return [(host, dict(variables)) for host in _expand(where, name)]


def _split_port(where: str, pattern: str) -> tuple[str, str | None]:
    """`name:port`, `[v6addr]:port`; a bare IPv6 address (several colons) is a name without a port."""
    bracketed = _BRACKETED_V6.fullmatch(pattern)
    if bracketed:
        return bracketed.group(1), bracketed.group(2)
    if _RANGE.sub("", pattern).count(":") != 1:
        return pattern, None
    name, _, port = pattern.rpartition(":")
    if not port.isdigit():
        raise InventoryError(f"{where}: {pattern!r}: port {port!r} is not a number")
    return name, port


def _expand(where: str, pattern: str) -> list[str]:
    """`sw[01:03]` -> sw01, sw02, sw03; `[a:c]` letters; `[1:9:2]` a step; several ranges multiply."""
    names = [pattern]
    while any(_RANGE.search(name) for name in names):
        expanded = []
        for name in names:
            found = _RANGE.search(name)
            if not found:
                expanded.append(name)
                continue
            head, tail = name[: found.start()], name[found.end() :]
            expanded += [head + middle + tail for middle in _range_values(where, *found.groups())]
            if len(expanded) > MAX_HOSTS:
                raise InventoryError(f"{where}: {pattern!r} expands to more than {MAX_HOSTS:,} hosts")
        names = expanded
    return names


def _range_values(where: str, start: str, end: str, step: str | None) -> list[str]:
    stride = int(step) if step else 1
    if stride < 1:
        raise InventoryError(f"{where}: range step must be at least 1")
    if start.isdigit() and end.isdigit():
        width = len(start) if start.startswith("0") else 0
        first, last = int(start), int(end)
        if last < first:
            raise InventoryError(f"{where}: range [{start}:{end}] ends before it starts")
        if (last - first) // stride >= MAX_HOSTS:
            raise InventoryError(f"{where}: range [{start}:{end}] has more than {MAX_HOSTS:,} hosts")
        return [str(n).zfill(width) for n in range(first, last + 1, stride)]
    if len(start) == 1 and len(end) == 1 and start.isalpha() and end.isalpha() and start <= end:
        return [chr(c) for c in range(ord(start), ord(end) + 1, stride)]
    raise InventoryError(f"{where}: range [{start}:{end}] is neither numbers nor single letters")
