"""Platform correctness of the written fixes: Junos confirmed commits are confirmed after verify; the
pyvmomi scripts verify TLS by default and take the user from an option or HOSTLINT_VSPHERE_USER."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from support.fix_sites import findings_for, site

from hostlint.fixes import write_scripts


def _blocks(text: str) -> list[list[str]]:
    """The switch file's step blocks, split at their `end of step` comments."""
    blocks, current = [], []
    for line in text.splitlines():
        current.append(line)
        if line.startswith("# end of step"):
            blocks.append(current)
            current = []
    return blocks


def test_every_junos_confirmed_commit_is_confirmed_after_its_verify(tmp_path: Path) -> None:
    snapshot = site("juniper_junos")
    write_scripts(findings_for(snapshot), snapshot, tmp_path)
    confirmed = 0
    for name in ("sw1.juniper_junos.txt", "sw1.rollback.juniper_junos.txt"):
        for block in _blocks((tmp_path / name).read_text(encoding="utf-8")):
            live = [line for line in block if not line.startswith("#")]
            if "commit confirmed 10" not in live:
                assert not live, f"{name}: live lines without a confirmed commit: {live}"
                continue
            confirmed += 1
            # change ... commit confirmed 10, exit; then verify and expect comments; then the confirm paste.
            first_commit = block.index("commit confirmed 10")
            verify = block.index("# verify:")
            assert first_commit < verify
            assert live[-3:] == ["configure private", "commit", "exit"], f"{name}: {block[0]}"
            confirm_at = len(block) - 1 - block[::-1].index("configure private")
            assert verify < confirm_at
            assert any("only once" in line or "once the verify above passes" in line for line in block[verify:])
    assert confirmed >= 8
    plan = (tmp_path / "PLAN.md").read_text(encoding="utf-8")
    assert plan.count("**Confirm** (juniper_junos)") == plan.count("commit confirmed 10`. Once the") > 0
    assert "its CONFIRM lines (`commit`) within 10 minutes" in plan


def _pyvmomi(tmp_path: Path) -> Path:
    snapshot = site("cisco_nxos")
    write_scripts(findings_for(snapshot), snapshot, tmp_path)
    return tmp_path / "esx01.vsphere_api.py"


def _run(script: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("HOSTLINT_VSPHERE")}
    clean.update(USER="someone", **env)
    # The script's first step (the plan starts with switch steps, so not step 1).
    first = re.search(r"^\s*# Step (\d+) ", script.read_text(encoding="utf-8"), flags=re.M)
    assert first is not None
    return subprocess.run(
        [sys.executable, str(script), "--server", "127.0.0.1", *args, first.group(1)],
        capture_output=True,
        text=True,
        env=clean,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_pyvmomi_user_comes_from_an_option_or_hostlint_vsphere_user_never_user(tmp_path: Path) -> None:
    script = _pyvmomi(tmp_path)
    missing = _run(script)
    assert missing.returncode == 2 and "HOSTLINT_VSPHERE_USER" in missing.stderr
    assert "someone" not in missing.stderr + missing.stdout


def test_pyvmomi_tls_options_are_checked_before_connecting(tmp_path: Path) -> None:
    script = _pyvmomi(tmp_path)
    both = _run(script, "--user", "u", "--insecure", "--ca-bundle", str(tmp_path / "ca.pem"))
    assert both.returncode == 2 and "exclude each other" in both.stderr
    absent = _run(script, "--ca-bundle", str(tmp_path / "absent.pem"), HOSTLINT_VSPHERE_USER="u")
    assert absent.returncode == 2 and "--ca-bundle" in absent.stderr and "cannot load" in absent.stderr
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n", encoding="utf-8")
    bad = _run(script, "--user", "u", "--ca-bundle", str(garbage))
    assert bad.returncode == 2 and "cannot load" in bad.stderr
    text = script.read_text(encoding="utf-8")
    assert "ssl.create_default_context(cafile=args.ca_bundle)" in text
    assert 'os.environ.get("USER"' not in text


def _mt001_steps(path_mtu: int | None) -> list[tuple[str, str, object]]:
    from pathlib import Path as _Path

    from hostlint.check import check_snapshot
    from hostlint.fixes import build_plan
    from hostlint.rules import load_rules
    from hostlint.snapshot import load_site

    snapshot = load_site([_Path(__file__).resolve().parent.parent / "fixtures" / "labs" / "jumbo-mismatch"])
    if path_mtu is not None:
        # The lab's leaves run EOS: the L2 MTU (`l2 mtu`), not the IP `mtu`, limits the hosts' frames.
        for switch in snapshot.switches:
            for port in switch.ports:
                port.mtu = port.l2_mtu = path_mtu
            for channel in switch.port_channels:
                channel.mtu = channel.l2_mtu = path_mtu
    rules = [r for r in load_rules() if r.code == "MT001"]
    # MT001's fix is unsafe (raising a vSwitch MTU resets its uplinks): asked for here.
    plan = build_plan(check_snapshot(snapshot, rules), snapshot, unsafe=True)
    return sorted((s.change.action, s.change.target, s.change.after) for s in plan.steps)


def test_mt001_raises_the_vswitch_when_the_switch_path_carries_the_vmk_mtu() -> None:
    # The lab: vmk1/vmk2 at 9000 on a 1500 vSwitch whose switch ports carry jumbo frames.
    assert _mt001_steps(None) == [("host-vswitch-mtu", "vSwitch1", 9000)]


def test_mt001_lowers_the_vmk_only_when_the_path_does_not_carry_it() -> None:
    assert _mt001_steps(1500) == [("vmk-mtu", "vmk1", 1500), ("vmk-mtu", "vmk2", 1500)]


def test_pyvmomi_server_is_a_name_host_port_or_url_like_collect_takes(tmp_path: Path) -> None:
    script = _pyvmomi(tmp_path)
    first = re.search(r"^\s*# Step (\d+) ", script.read_text(encoding="utf-8"), flags=re.M)
    assert first is not None
    for server in ("https://vc.example.net:notaport/sdk", "http://vc.example.net/sdk", "https://"):
        bad = subprocess.run(
            [sys.executable, str(script), "--server", server, "--user", "u", first.group(1)],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert bad.returncode == 2 and f"--server {server}" in bad.stderr, bad.stderr
    assert "SmartConnect(host=host, port=port, path=path," in script.read_text(encoding="utf-8")
