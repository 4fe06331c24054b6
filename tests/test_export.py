"""`hostlint export`: real labs written as XLSX and CSV, read back with openpyxl and csv."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import openpyxl
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli

LABS = Path(__file__).parent.parent / "fixtures" / "labs"
TABS = [
    "vSwitches",
    "Port groups",
    "VMkernel ports",
    "Physical NICs",
    "Port-channels",
    "KVM bonds",
    "Distributed switches",
    "DV port groups",
    "DVS uplinks",
    "DVS LAGs",
    "Probes",
]
# Names a spreadsheet would run as formulas if they were not neutralised.
HOSTILE = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-3+4", "@SUM(A1:A9)"]


def run(*args: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(cli, list(args), standalone_mode=False)
    assert outcome.exception is None, outcome.exception
    return outcome.return_value, outcome.stderr


def rows_by(path: Path, tab: str) -> list[dict[str, object]]:
    sheet = openpyxl.load_workbook(path)[tab]
    values = list(sheet.iter_rows(values_only=True))
    return [dict(zip(values[0], row, strict=True)) for row in values[1:]]


def csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def test_xlsx_of_the_demo_lab_has_every_tab_and_the_switch_end_of_each_nic(tmp_path: Path) -> None:
    out = tmp_path / "demo.xlsx"
    code, err = run("export", str(LABS / "demo"), "--format", "xlsx", "-o", str(out))
    assert code == Exit.CLEAN, err
    assert openpyxl.load_workbook(out).sheetnames == TABS
    pnics = {(r["Host"], r["NIC"]): r for r in rows_by(out, "Physical NICs")}
    assert len(pnics) == 12
    vmnic2 = pnics[("esx01.corp.example", "vmnic2")]
    assert vmnic2["Used by"] == "vSwitch1"
    assert (vmnic2["Switch"], vmnic2["Switch port"]) == ("cat-a", "TenGigabitEthernet1/1/1")
    assert (vmnic2["Port-channel"], vmnic2["Member state"]) == ("Port-channel11", "individual")
    assert vmnic2["Speed Mb/s"] == 10000 and vmnic2["Found via"] == "cdp"
    # esx02's vmnic0 was forced to 1000/full; its switch port fell back to half duplex.
    vmnic0 = pnics[("esx02.corp.example", "vmnic0")]
    assert (vmnic0["Configured speed Mb/s"], vmnic0["Configured duplex"], vmnic0["Port duplex"]) == (
        1000,
        "full",
        "half",
    )
    vswitches = {(r["Host"], r["vSwitch"]): r for r in rows_by(out, "vSwitches")}
    assert vswitches[("esx01.corp.example", "vSwitch1")]["Teaming policy"] == "loadbalance_ip"
    assert vswitches[("esx01.corp.example", "vSwitch1")]["Active uplinks"] == "vmnic2, vmnic3"
    vmks = {(r["Host"], r["vmk"]): r for r in rows_by(out, "VMkernel ports")}
    assert vmks[("esx03.corp.example", "vmk2")]["MTU"] == 9000
    channels = {(r["Switch"], r["Port-channel"]): r for r in rows_by(out, "Port-channels")}
    assert channels[("cat-a", "Port-channel11")]["Mode"] == "lacp-active"
    assert channels[("cat-a", "Port-channel11")]["Switch hash"] == "src-mac"


def test_dvs_and_kvm_bond_tabs(tmp_path: Path) -> None:
    out = tmp_path / "site.xlsx"
    assert run("export", str(LABS / "jumbo-mismatch"), "--format", "xlsx", "-o", str(out))[0] == Exit.CLEAN
    dvs = rows_by(out, "Distributed switches")
    assert [(r["Distributed switch"], r["Max MTU"], r["LACP API"]) for r in dvs] == [
        ("lon1-dvs-vm", 9000, "multipleLag")
    ]
    uplinks = rows_by(out, "DVS uplinks")
    assert len(uplinks) == 6 and {r["NIC"] for r in uplinks} == {"vmnic4", "vmnic5"}
    # The hosts' proxy switch MTU was not collected in this lab: an empty cell, not 1500.
    assert {r["Host proxy MTU"] for r in uplinks} == {None}
    pgs = {r["Port group"]: r for r in rows_by(out, "DV port groups")}
    assert pgs["dvpg-db-220"]["VLAN"] == 220 and pgs["dvpg-db-220"]["Teaming policy"] == "loadbalance_loadbased"
    pnics = {(r["Host"], r["NIC"]): r for r in rows_by(out, "Physical NICs")}
    assert "lon1-dvs-vm" in str(pnics[("esx-lon1-01.dc.example.org", "vmnic4")]["Used by"])

    out = tmp_path / "kvm.xlsx"
    assert run("export", str(LABS / "kvm-bonds"), "--format", "xlsx", "-o", str(out))[0] == Exit.CLEAN
    bonds = {(r["Host"], r["Bond"]): r for r in rows_by(out, "KVM bonds")}
    bond0 = bonds[("kvm01.lab.example", "bond0")]
    assert (bond0["Mode"], bond0["Transmit hash"], bond0["Members"], bond0["MTU"]) == (
        "balance-xor",
        "layer2+3",
        "eno1, eno2",
        1500,
    )
    # Not collected: an empty cell, never a default such as "slow".
    assert bond0["LACP rate"] is None
    kvm_nics = [r for r in rows_by(out, "Physical NICs") if r["Host kind"] == "kvm"]
    assert {r["NIC"] for r in kvm_nics if r["Host"] == "kvm01.lab.example"} == {"eno1", "eno2"}


def _lab_with(tmp_path: Path, edit) -> Path:
    lab = tmp_path / "lab"
    lab.mkdir()
    for name in ("hosts.json", "switches.json"):
        data = json.loads((LABS / "demo" / name).read_text())
        edit(name, data)
        (lab / name).write_text(json.dumps(data))
    return lab


def test_unknown_facts_are_empty_cells(tmp_path: Path) -> None:
    def forget(name: str, data: dict) -> None:
        if name == "hosts.json":
            pnic = data["esxi_hosts"][0]["pnics"][2]
            pnic["speed_mbps"] = None
            pnic["neighbour"] = None
        else:
            for port in data["switches"][0]["ports"]:
                port["mtu"] = None

    lab = _lab_with(tmp_path, forget)
    out = tmp_path / "csv"
    assert run("export", str(lab), "--format", "csv", "-o", str(out))[0] == Exit.CLEAN
    pnics = {(r["Host"], r["NIC"]): r for r in csv_rows(out / "pnics.csv")}
    vmnic2 = pnics[("esx01.corp.example", "vmnic2")]
    assert vmnic2["Speed Mb/s"] == "" and vmnic2["Switch"] == "" and vmnic2["Switch port"] == ""
    assert "no CDP/LLDP neighbour" in vmnic2["Switch end unknown because"]
    vmnic0 = pnics[("esx01.corp.example", "vmnic0")]
    assert vmnic0["Switch"] == "cat-a" and vmnic0["Port MTU"] == ""
    assert pnics[("esx01.corp.example", "vmnic1")]["Port MTU"] == "9198"


def test_names_that_look_like_formulas_stay_data(tmp_path: Path) -> None:
    def hostile(name: str, data: dict) -> None:
        if name == "hosts.json":
            pgs = [pg for host in data["esxi_hosts"] for pg in host["portgroups"]]
            for number, pg in enumerate(pgs):
                pg["name"] = HOSTILE[number % len(HOSTILE)]
            data["esxi_hosts"][0]["vmks"][0]["portgroup"] = HOSTILE[0]

    lab = _lab_with(tmp_path, hostile)
    out = tmp_path / "csv"
    assert run("export", str(lab), "--format", "csv", "-o", str(out))[0] == Exit.CLEAN
    names = [r["Port group"] for r in csv_rows(out / "portgroups.csv")[:4]]
    assert names == ["'" + evil for evil in HOSTILE]
    assert csv_rows(out / "vmks.csv")[0]["Port group"] == "'" + HOSTILE[0]
    assert not any(
        cell.startswith(("=", "+", "-", "@", "\t"))
        for path in out.glob("*.csv")
        for row in csv.reader(path.open(encoding="utf-8"))
        for cell in row
    )

    book = tmp_path / "evil.xlsx"
    assert run("export", str(lab), "--format", "xlsx", "-o", str(book))[0] == Exit.CLEAN
    sheet = openpyxl.load_workbook(book)["Port groups"]
    cells = [sheet.cell(row=r, column=2) for r in (2, 3, 4, 5)]
    # In a workbook the name is kept exactly, as a text cell, never a formula.
    assert [c.value for c in cells] == HOSTILE
    assert all(c.data_type == "s" and c.quotePrefix for c in cells)
    with zipfile.ZipFile(book) as archive:
        xml = "".join(archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/"))
    assert "<f>" not in xml and "HYPERLINK" in xml


def test_csv_folder_is_owned_and_errors_are_one_line(tmp_path: Path) -> None:
    out = tmp_path / "inventory"
    assert run("export", str(LABS / "demo"), "--format", "csv", "-o", str(out))[0] == Exit.CLEAN
    assert sorted(p.name for p in out.glob("*.csv")) == sorted(
        f"{n}.csv"
        for n in (
            "vswitches",
            "portgroups",
            "vmks",
            "pnics",
            "port_channels",
            "kvm_bonds",
            "dvswitches",
            "dvportgroups",
            "dvs_uplinks",
            "dvs_lags",
            "probes",
        )
    )
    assert csv_rows(out / "kvm_bonds.csv") == []
    # Again into its own folder: replaced.
    assert run("export", str(LABS / "clean"), "--format", "csv", "-o", str(out))[0] == Exit.CLEAN
    # A folder of someone else's files is refused, one line, exit 2; --force writes anyway.
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    code, err = run("export", str(LABS / "demo"), "--format", "csv", "-o", str(other))
    assert code == Exit.USAGE and "not written by hostlint" in err and len(err.strip().splitlines()) == 1
    assert not (other / "pnics.csv").exists()
    assert run("export", str(LABS / "demo"), "--format", "csv", "-o", str(other), "--force")[0] == Exit.CLEAN
    assert (other / "notes.txt").read_text() == "mine"
    code, err = run("export", str(LABS / "demo"), "--format", "xlsx", "-o", str(tmp_path / "out.csv"))
    assert code == Exit.USAGE and ".xlsx" in err
    code, err = run("export", str(tmp_path / "nowhere"), "--format", "xlsx", "-o", str(tmp_path / "x.xlsx"))
    assert code == Exit.USAGE and "no such file" in err and not (tmp_path / "x.xlsx").exists()


def test_no_export_write_follows_a_symlink(tmp_path: Path) -> None:
    """Symlinks planted as an export's `.partial` workbook, a CSV or the folder manifest's `.partial` are
    replaced, never written through (issue #26, invariant 8; real links in a real folder)."""
    target = tmp_path / "elsewhere.txt"
    target.write_text("not hostlint's\n", encoding="utf-8")
    workbook = tmp_path / "inventory.xlsx"
    (tmp_path / "inventory.xlsx.partial").symlink_to(target)
    assert run("export", str(LABS / "demo"), "--format", "xlsx", "-o", str(workbook))[0] == Exit.CLEAN
    assert zipfile.is_zipfile(workbook) and not (tmp_path / "inventory.xlsx.partial").exists()
    folder = tmp_path / "csv"
    folder.mkdir()
    for planted in ("pnics.csv", ".hostlint-fix.json.partial"):
        (folder / planted).symlink_to(target)
    assert run("export", str(LABS / "demo"), "--format", "csv", "-o", str(folder), "--force")[0] == Exit.CLEAN
    assert target.read_text(encoding="utf-8") == "not hostlint's\n"
    assert not (folder / "pnics.csv").is_symlink() and not (folder / ".hostlint-fix.json.partial").is_symlink()
