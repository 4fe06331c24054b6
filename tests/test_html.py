"""The HTML report: self-contained, complete, problems marked in the uplink pictures, and it renders in Chromium."""

from __future__ import annotations

import importlib.resources
import importlib.util
import re
import struct
import subprocess
import sys
import zlib
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.browser import chromium

from hostlint.check import check_paths, check_snapshot
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.report import FORMATS, render
from hostlint.report.html import CHAR_PX, DIAGRAM_HOSTS, ScanHeader
from hostlint.report.html import render as render_html
from hostlint.report.skips import group_skips
from hostlint.rules import load_rules
from hostlint.snapshot import load_site

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
# What a page that loads something from elsewhere would contain.
EXTERNAL = ("://", "<link", "<img", "<iframe", "src=", "url(", "@import", "fetch(", "XMLHttpRequest")


class Page(HTMLParser):
    """The report's SVG boxes (class and text lines) per host, and the page's text."""

    def __init__(self) -> None:
        super().__init__()
        self.host: str | None = None
        self.in_h3 = False
        self.boxes: dict[str, list[tuple[str, list[str]]]] = {}
        self.box: tuple[str, list[str]] | None = None
        self.text: list[str] = []
        self.svgs = 0
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag == "div" and classes.startswith("host "):
            self.host = None
        elif tag == "h3" and self.host is None:
            self.in_h3 = True
        elif tag == "svg" and dict(attrs).get("role") == "img":
            self.svgs += 1
        elif tag == "g" and "box" in classes.split():
            self.box = (classes, [])
            self.boxes.setdefault(self.host or "", []).append(self.box)
        elif tag == "title":
            self.in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "g":
            self.box = None
        elif tag == "h3":
            self.in_h3 = False
        elif tag == "title":
            self.in_title = False

    def handle_data(self, data: str) -> None:
        if self.in_h3 and self.host is None and data.strip():
            self.host = data.strip()
        if self.box is not None and not self.in_title and data.strip():
            self.box[1].append(data.strip())
        self.text.append(data)

    def find(self, host: str, first_line: str) -> tuple[str, list[str]]:
        [box] = [b for b in self.boxes[host] if b[1] and b[1][0] == first_line]
        return box


def report(lab: str) -> str:
    snapshot, result = check_paths([LABS / lab], load_rules())
    return render("html", result, load_rules(), snapshot)


def parse(page: str) -> Page:
    parser = Page()
    parser.feed(page)
    return parser


def test_html_is_a_check_format_and_self_contained() -> None:
    assert "html" in FORMATS
    result = CliRunner().invoke(
        cli, ["check", str(LABS / "demo"), "--format", "html"], standalone_mode=False, catch_exceptions=False
    )
    assert result.return_value == Exit.FINDINGS
    page = result.stdout
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert [marker for marker in EXTERNAL if marker in page] == []
    # One inline script (the filters), and links only within the page.
    assert re.findall(r"<script[^>]*>", page) == ["<script>"]
    links = re.findall(r'href="([^"]*)"', page)
    assert links and all(link.startswith("#h-") for link in links)
    assert all(f'id="{link[1:]}"' in page for link in links)


def test_every_finding_with_expected_actual_and_fix() -> None:
    snapshot, result = check_paths([LABS / "demo"], load_rules())
    page = parse(render("html", result, load_rules(), snapshot))
    text = " ".join(" ".join(page.text).split())
    assert "7 findings (5 errors, 2 warnings) on 3 hosts" in text
    for finding in result.findings:
        assert finding.object.replace("/", "/ ").split(" ")[-1] in text
        assert finding.message in text
    assert "static port-channel (mode on)" in text and "cat-a Port-channel11 mode lacp-active" in text
    # Findings of one rule with one message share a group, and the group names its fix once.
    unsafe_groups = {(f.code, f.message) for f in result.findings if f.applicability == "unsafe"}
    safe_groups = {(f.code, f.message) for f in result.findings if f.applicability == "safe"}
    # MT001's vSwitch MTU raise resets the uplinks (DISRUPTIVE), so it is unsafe like the channel changes.
    assert len(unsafe_groups) == 6 < sum(f.applicability == "unsafe" for f in result.findings)
    assert text.count("unsafe fix: review first") == 6 and text.count("safe fix · 1 step") == len(safe_groups)
    assert "Nothing skipped: every selected rule ran on every object." in text


def test_uplink_pictures_mark_the_problem_parts() -> None:
    page = parse(report("demo"))
    assert page.svgs == 3
    esx01, esx02, esx03 = "esx01.corp.example", "esx02.corp.example", "esx03.corp.example"
    # esx02 vmnic0: forced 1000/full against an auto port that fell back to half duplex.
    nic_class, nic_lines = page.find(esx02, "vmnic0 · active")
    assert nic_class == "box error" and nic_lines == ["vmnic0 · active", "1G full", "LK001 · LK002"]
    port_class, port_lines = page.find(esx02, "cat-a GigabitEthernet1/0/11")
    assert port_class == "box error" and port_lines[1] == "1G half · MTU 9198"
    assert page.find(esx02, "vmnic1 · standby")[0] == "box"
    # esx01 vSwitch1 faces an LACP channel: the team and its channel are marked, the clean vSwitch0 is not.
    assert page.find(esx01, "vSwitch1") == ("box error", ["vSwitch1", "IP hash · MTU 9000", "LG002 · LG003"])
    assert page.find(esx01, "Port-channel11")[0] == "box channel error"
    assert page.find(esx01, "vSwitch0")[0] == "box"
    # esx03: a vmk above its vSwitch's MTU is shown on that vSwitch with the vmk's name; its channel only warns.
    assert page.find(esx03, "vSwitch0")[1][-1] == "MT001 vmk2"
    assert page.find(esx03, "Port-channel13")[0] == "box channel warning"


def test_distributed_switch_and_vmk_findings_in_the_picture() -> None:
    page = parse(report("jumbo-mismatch"))
    host = "esx-lon1-03.dc.example.org"
    assert page.find(host, "lon1-dvs-vm")[1][:2] == ["lon1-dvs-vm", "VDS · MTU 9000"]
    assert page.find(host, "vSwitch1") == ("box error", ["vSwitch1", "port ID · MTU 1500", "MT001 vmk1 · MT001 vmk2"])


def test_skipped_unresolved_and_link_down() -> None:
    page = report("mixed-speed-link-down")
    parsed = parse(page)
    text = " ".join(" ".join(parsed.text).split())
    # 31 of them are VLAN rules: this lab's switch data carries no VLANs, so they are skipped, never passed.
    assert "Skipped rule checks (51)" in text and "A skip is not a pass." in text
    assert "Unresolved uplinks (1)" in text
    host = "esx-prg-03.corp.example.cz"
    assert parsed.find(host, "vmnic1 · active")[0] == "box down warning"
    unknown_class, unknown_lines = parsed.find(host, "switch port unknown")
    assert unknown_class == "box unknown warning"
    assert unknown_lines[1].startswith("no CDP/LLDP neighbour")


def test_clean_lab_and_scan_header() -> None:
    snapshot, result = check_paths([LABS / "clean"], load_rules())
    header = ScanHeader(id=12, label="nightly", started_at=datetime(2026, 11, 22, 2, 0, tzinfo=UTC), database="db")
    page = parse(render_html(result, load_rules(), snapshot, scan=header))
    text = " ".join(" ".join(page.text).split())
    assert "hostlint report: scan 12 (nightly)" in text and "scan started 2026-11-22 02:00 UTC · stored in db" in text
    assert "Clean: no findings, nothing skipped." in text
    assert all(cls in ("box", "box channel") for host in page.boxes.values() for cls, _ in host)


def test_text_from_the_snapshot_is_escaped() -> None:
    snapshot = load_site([LABS / "demo"])
    snapshot.source = '<script>alert("x")</script>'
    snapshot.esxi_hosts[0].vswitches[0].name = "vSwitch<b>0</b>"
    result = check_snapshot(snapshot, load_rules())
    page = render("html", result, load_rules(), snapshot)
    assert page.count("<script") == 1 and "&lt;script&gt;" in page
    assert "vSwitch&lt;b&gt;0&lt;/b&gt;" in page


def test_template_ships_inside_the_package() -> None:
    templates = importlib.resources.files("hostlint.report") / "templates"
    assert (templates / "report.html.j2").is_file()


# --- headless Chromium ----------------------------------------------------------------------------------------------


def png_pixels(data: bytes) -> tuple[int, int, list[bytes], int]:
    """Width, height, unfiltered rows and bytes per pixel of an 8-bit, non-interlaced RGB(A) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and color in (2, 6)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], (previous[i - channels] if i >= channels else 0)
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows, channels


def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    browser = chromium()
    page = tmp_path / "demo.html"
    page.write_text(report("demo"), encoding="utf-8")
    shot = tmp_path / "demo.png"
    # Half the device scale keeps the PNG small to decode; the page is still laid out 1280 CSS pixels wide.
    command = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
        "--force-device-scale-factor=0.5", f"--screenshot={shot}", "--window-size=1280,2000", page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    width, height, rows, channels = png_pixels(shot.read_bytes())
    assert (width, height) == (640, 1000)
    pixels = [row[i : i + 3] for row in rows[::4] for i in range(0, len(row), channels * 4)]
    background = sum(1 for p in pixels if min(p) >= 235)
    assert 0.05 < 1 - background / len(pixels) < 0.9, "page is blank or all ink"
    # The error red of the summary card and the marked rows (#c62828) is on the page.
    reds = sum(1 for r, g, b in pixels if r > 150 and g < 90 and b < 90)
    assert reds > 20
    assert len(set(pixels)) > 100


# --- estate scale: groups, filters, size -----------------------------------------------------------------------------


def test_findings_are_grouped_by_rule_and_carry_filter_classes() -> None:
    snapshot, result = check_paths([LABS / "demo"], load_rules())
    page = render("html", result, load_rules(), snapshot)
    groups = {(f.code, f.message) for f in result.findings}
    assert page.count('<details class="grp ') == len(groups)
    assert 'id="f-sev-error" checked' in page and '<select id="f-rule">' in page and '<select id="f-host">' in page
    hosts = sorted({h.name for h in snapshot.esxi_hosts})
    affected = {f.host for f in result.findings}
    for n, host in enumerate(hosts):
        assert (f'<option value="h-{n}">{host}</option>' in page) == (host in affected)
        assert f'id="h-{n}"' in page
    for finding in result.findings:
        host_class = f"h-{hosts.index(finding.host)}"
        assert re.search(rf'<tr class="f x-{finding.severity} r-{finding.code} {host_class}[ "]', page), finding.object


def test_a_large_site_draws_pictures_for_the_most_affected_hosts_only() -> None:
    snapshot = load_site([LABS / "demo"])
    template = snapshot.esxi_hosts[0]
    clones = [template.model_copy(update={"name": f"esx{n:03}.corp.example"}) for n in range(DIAGRAM_HOSTS + 10)]
    snapshot.esxi_hosts.extend(clones)
    result = check_snapshot(snapshot, load_rules())
    page = parse(render("html", result, load_rules(), snapshot))
    affected = {f.host for f in result.findings}
    assert len(affected) > DIAGRAM_HOSTS
    assert page.svgs == DIAGRAM_HOSTS
    text = " ".join(page.text)
    assert f"pictures are drawn for the {DIAGRAM_HOSTS} most affected hosts" in text


def test_a_filter_hides_what_it_excludes_in_chromium(tmp_path: Path) -> None:
    """The host filter set to one host leaves the page far shorter: the other hosts and rows are hidden."""
    browser = chromium()
    page = report("demo")
    assert '<option value="h-0">' in page
    filtered = page.replace('<option value="h-0">', '<option value="h-0" selected>', 1)

    def last_ink_row(html: str, name: str) -> int:
        path = tmp_path / f"{name}.html"
        path.write_text(html, encoding="utf-8")
        shot = tmp_path / f"{name}.png"
        command = [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}", "--force-device-scale-factor=0.25", f"--screenshot={shot}",
            "--window-size=1280,6000", path.as_uri(),
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
        _, _, rows, channels = png_pixels(shot.read_bytes())
        inked = [
            y for y, row in enumerate(rows) if any(min(row[i : i + 3]) < 200 for i in range(0, len(row), channels))
        ]
        return inked[-1]

    whole, one_host = last_ink_row(page, "whole"), last_ink_row(filtered, "filtered")
    assert one_host < whole * 0.75, (one_host, whole)


# --- 1,000 hosts: the bench site in Chromium -------------------------------------------------------------------------

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_module(name: str) -> Any:
    """A module of bench/ (not a package), loaded by path as tests/test_vsphere_bench.py does."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        # Dataclasses look their module up by name while the class is made.
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def estate() -> tuple[Any, Any, list[Any]]:
    """The 1,000-host bench site: 20 planted findings on 20 hosts, every VLAN rule skipped on every host."""
    snapshot = bench_module("make_site").make_site(1000).snapshot
    rules = load_rules()
    return snapshot, check_snapshot(snapshot, rules), rules


def test_a_thousand_hosts_make_a_small_page_with_the_affected_hosts_first(estate: Any) -> None:
    snapshot, result, rules = estate
    page = render("html", result, rules, snapshot)
    assert len(page.encode()) <= 1_000_000
    affected = sorted({f.host for f in result.findings})
    assert len(affected) == 20 and len(result.skipped) > 10_000
    # Sections: findings by rule, by switch, the 20 affected hosts (each with its picture), then one collapsed list.
    sections = [page.index(f'<section id="{name}">') for name in ("findings", "switches", "hosts", "skipped")]
    assert sections == sorted(sections)
    host_sections = re.findall(r'<div class="host error [^"]*" id="(h-\d+)">', page)
    assert len(host_sections) == 20 and page.count('role="img"') == 20
    assert page.index('id="clean-hosts"') > page.index(f'id="{host_sections[-1]}"')
    assert "980 hosts without findings" in page
    # Every finding row links to its host's section.
    for finding in result.findings:
        assert re.search(rf'href="#(h-\d+)">{re.escape(finding.object.split("/")[0])}', page)
    # Skips: one row per rule and cause, with the count; the objects in a collapsed list.
    groups = group_skips(result, {rule.code: rule.name for rule in rules})
    assert len(groups) <= 12 and page.count('<td class="count">') == len(groups)
    assert '<td class="count">3972</td>' in page
    assert "switchport mode not shown by `show running-config`" in page


def test_a_thousand_hosts_screenshot_in_chromium(estate: Any, tmp_path: Path) -> None:
    """The page as a person sees it: the summary's error red, then the findings and the affected hosts' pictures."""
    browser = chromium()
    snapshot, result, rules = estate
    page = tmp_path / "estate.html"
    page.write_text(render("html", result, rules, snapshot), encoding="utf-8")
    shot = tmp_path / "estate.png"
    command = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
        "--force-device-scale-factor=0.5", f"--screenshot={shot}", "--window-size=1280,2400", page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    width, height, rows, channels = png_pixels(shot.read_bytes())
    assert (width, height) == (640, 1200)
    pixels = [row[i : i + 3] for row in rows[::4] for i in range(0, len(row), channels * 4)]
    background = sum(1 for p in pixels if min(p) >= 235)
    assert 0.05 < 1 - background / len(pixels) < 0.9, "page is blank or all ink"
    # Error red in the first screen: the summary card, the groups and the switch rows are marked.
    reds = [y for y, row in enumerate(rows) for i in range(0, len(row), channels * 8)
            if row[i] > 150 and row[i + 1] < 90 and row[i + 2] < 90]  # fmt: skip
    assert len(reds) > 50
    # The picture of the first affected host (its pale red error boxes) is within the first 2,400 CSS pixels.
    pale_red = sum(1 for r, g, b in pixels if r > 245 and 225 < g < 242 and 225 < b < 242)
    assert pale_red > 20


def test_filters_at_a_thousand_hosts_in_chromium(estate: Any, tmp_path: Path) -> None:
    """Choosing a host shows only its rows and section; a mouse click on the severity box hides error rows."""
    chromium()
    browser_module = bench_module("browser")
    snapshot, result, rules = estate
    path = tmp_path / "estate.html"
    path.write_text(render("html", result, rules, snapshot), encoding="utf-8")
    host = sorted({f.host for f in result.findings})[0]
    with browser_module.Browser() as browser:
        page = browser.open(path)
        visible = "Array.from(document.querySelectorAll('.f:not([hidden])')).map(e => e.id || e.className)"
        everything = page.evaluate(visible)
        page.evaluate(
            "(() => { const s = document.getElementById('f-host');"
            f" s.value = Array.from(s.options).find(o => o.text === {host!r}).value;"
            " s.dispatchEvent(new Event('change', {bubbles: true})); })()"
        )
        shown = page.evaluate(visible)
        assert 0 < len(shown) < len(everything) / 5
        assert "clean-hosts" not in " ".join(shown)
        sections = page.evaluate(
            "Array.from(document.querySelectorAll('.host:not([hidden]) h3')).map(h => h.textContent)"
        )
        assert len(sections) == 1 and sections[0].startswith(host)
        assert page.evaluate("document.getElementById('f-count').textContent").endswith("shown")
        page.evaluate("document.getElementById('filter-form').reset()")
        page.evaluate("new Promise(r => setTimeout(r, 10))")
        assert page.evaluate(visible) == everything
        box = page.evaluate(
            "(() => { const r = document.getElementById('f-sev-error').getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        page.click(*box)
        assert page.evaluate("document.getElementById('f-sev-error').checked") is False
        assert page.evaluate("document.querySelectorAll('tr.fs.x-error:not([hidden])').length") == 0
        assert page.evaluate("document.querySelectorAll('.host:not([hidden])').length") == 21


def test_pictures_show_member_states_channel_status_vpc_spans_and_whole_names(estate: Any) -> None:
    snapshot, result, rules = estate
    page = render("html", result, rules, snapshot)
    parsed = parse(page)
    # A host whose vPC port-channel was left at MTU 1500 (MT002): both members bundled, one channel box
    # spanning both leaves, with its mode, status and the vPC pair.
    host = next(f.host for f in result.findings if f.code == "MT002")
    number = int(host[3:8])
    rack = (number - 1) // 24 + 1
    channel = next(box for box in parsed.boxes[host] if box[0].startswith("box channel"))
    name, span, state, *_ = channel[1]
    assert name.startswith("port-channel")
    assert span == f"vPC {rack}: leaf-r{rack:03}a + leaf-r{rack:03}b"
    assert state == "static · up"
    ports = [box for box in parsed.boxes[host] if box[1] and box[1][0].startswith("leaf-")]
    members = [lines for _, lines in ports if "bundled" in lines[1]]
    assert len(members) == 2 and all(lines[1].endswith(" · bundled") for lines in members)
    # No name is cut: nothing in a picture ends with an ellipsis.
    assert all(not line.endswith("…") for boxes in parsed.boxes.values() for _, lines in boxes for line in lines)


def test_a_long_interface_name_is_drawn_narrower_not_cut() -> None:
    snapshot = load_site([LABS / "demo"])
    switch = snapshot.switches[0]
    long_name = "core-leaf-01.datacenter-frankfurt-3.example.com"
    # The hosts' CDP still names the switch by its old name, now an alias of the long one.
    switch.aliases.append(switch.name)
    switch.name = long_name
    result = check_snapshot(snapshot, load_rules())
    page = render("html", result, load_rules(), snapshot)
    # Too long for one line with its interface: the whole name on its own line, drawn a little narrower.
    lines = re.findall(r"<text[^>]*>([^<]*)</text>", page)
    assert long_name in lines
    assert not any(long_name[:20] in line and line != long_name for line in lines)
    widths = re.findall(r'textLength="([\d.]+)" lengthAdjust="spacingAndGlyphs">' + re.escape(long_name) + "<", page)
    assert widths and all(float(width) / (len(long_name) * CHAR_PX * 1.08) > 0.75 for width in widths)
    # The interface leads the next line.
    assert any(line.startswith("GigabitEthernet1/0/") for line in lines)
