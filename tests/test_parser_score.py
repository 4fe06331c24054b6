"""bench/parsers.py: the parser score against the ntc-templates corpus (when ../shared/corpus is there) and its gate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "ntc-templates"


def _bench(corpus: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "parsers.py"), str(corpus)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no ../shared/corpus/ntc-templates beside the repository")
def test_parsers_meet_the_score_on_the_real_corpus():
    result = _bench(CORPUS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "field accuracy outside show version: met" in result.stdout


def _corpus(tmp_path: Path, raw: str, truth: str) -> Path:
    folder = tmp_path / "cisco_ios" / "show_interfaces"
    folder.mkdir(parents=True)
    (folder / "sample.raw").write_text(raw, encoding="utf-8")
    (folder / "sample.yml").write_text(truth, encoding="utf-8")
    return tmp_path


RAW = """\
GigabitEthernet1/0/1 is up, line protocol is up (connected)
  MTU 9000 bytes, BW 1000000 Kbit/sec, DLY 10 usec,
  Full-duplex, 1000Mb/s, media type is 10/100/1000BaseTX
"""


def test_the_gate_passes_a_right_parse_and_fails_a_wrong_one(tmp_path):
    truth = "parsed_sample:\n  - interface: GigabitEthernet1/0/1\n    link_status: up\n    protocol_status: up\n"
    right = _bench(_corpus(tmp_path / "right", RAW, truth + "    mtu: '9000'\n    speed: 1000Mb/s\n"))
    assert right.returncode == 0, right.stdout
    assert "1/1" in right.stdout and "3/3" in right.stdout  # status, MTU, speed
    wrong = _bench(_corpus(tmp_path / "wrong", RAW, truth + "    mtu: '1500'\n"))
    assert wrong.returncode == 1
    assert "NOT met" in wrong.stdout


def test_a_record_lost_without_an_error_is_a_silent_shortfall(tmp_path):
    truth = "parsed_sample:\n  - interface: GigabitEthernet1/0/1\n  - interface: GigabitEthernet1/0/2\n"
    result = _bench(_corpus(tmp_path, RAW, truth))
    assert result.returncode == 1
    row = next(line for line in result.stdout.splitlines() if "show interfaces" in line)
    assert row.split()[3:8] == ["1", "0", "1", "0", "1/2"]  # files, crashes, silent, false errors, records


def test_an_error_where_nothing_was_lost_is_a_false_collection_error(tmp_path):
    """A header the template does not read is reported; the truth has only the port that was read."""
    raw = RAW + "GigabitEthernet1/0/2 is in a state of its own\n  MTU 1500 bytes, BW 1000000 Kbit/sec,\n"
    truth = "parsed_sample:\n  - interface: GigabitEthernet1/0/1\n    mtu: '9000'\n"
    result = _bench(_corpus(tmp_path, raw, truth))
    assert result.returncode == 1
    row = next(line for line in result.stdout.splitlines() if "show interfaces" in line)
    assert row.split()[3:8] == ["1", "0", "0", "1", "1/1"]
    assert "0 false collection errors" in result.stdout and "NOT met" in result.stdout


def test_an_empty_corpus_is_an_error(tmp_path):
    assert _bench(tmp_path).returncode == 2


def test_a_platform_scored_on_its_templates_names_what_it_lost_silently(tmp_path):
    """Comware is scored on its template's records (it is not collected yet): a VLAN the reviewed parse
    has and the output does not hold is lost without a collection error, and named under its row."""
    folder = tmp_path / "hp_comware" / "display_vlan_all"
    folder.mkdir(parents=True)
    (folder / "sample.raw").write_text(" VLAN ID: 7\n Name: seven\n", encoding="utf-8")
    truth = "parsed_sample:\n  - vlan_id: '7'\n    vlan_name: seven\n  - vlan_id: '8'\n    vlan_name: eight\n"
    (folder / "sample.yml").write_text(truth, encoding="utf-8")
    result = _bench(tmp_path)
    assert result.returncode == 1
    row = next(line for line in result.stdout.splitlines() if "display vlan all" in line)
    assert row.split()[4:9] == ["1", "0", "1", "0", "1/2"]  # files, crashes, silent, false errors, records
    assert "silently lost: sample.raw: VLAN 8" in result.stdout
