"""`lspci -vv` (pciutils format) into PCIe links: the samples under fixtures/esxi/, and fuzzing."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostlint.collect.pcie import SPEEDS_GTS, WIDTHS, normalise_pci_address, parse_gts, parse_lspci

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "esxi"


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def links(text: str) -> dict[str, tuple]:
    return {
        address: (d.width_capable, d.speed_capable_gts, d.width_negotiated, d.speed_negotiated_gts)
        for address, d in parse_lspci(text).devices.items()
    }


def test_dual_port_x710_at_full_width_with_its_bridges_and_a_conventional_pci_device():
    parsed = parse_lspci(sample("lspci-x710-x8.txt"))
    assert parsed.warnings == []
    assert links(sample("lspci-x710-x8.txt")) == {
        "0000:3a:00.0": (16, 8.0, 8, 8.0),  # the root port: an x16 slot holding an x8 card
        "0000:3b:00.0": (8, 8.0, 8, 8.0),
        "0000:3b:00.1": (8, 8.0, 8, 8.0),
        "0000:03:00.0": (1, 2.5, 1, 2.5),  # older pciutils style: no (ok) notes
        "0000:05:00.0": (None, None, None, None),  # VGA without an Express capability
    }
    x710 = parsed.devices["0000:3b:00.0"]
    assert x710.device_class == "Ethernet controller"
    assert x710.device == "Intel Corporation Ethernet Controller X710 for 10GbE SFP+ (rev 02)"


def test_card_downgraded_to_x4_and_addresses_without_domain():
    assert links(sample("lspci-downgraded-x4.txt")) == {
        "0000:5d:00.0": (8, 8.0, 4, 8.0),
        "0000:5e:00.0": (8, 8.0, 4, 8.0),
        "0000:5e:00.1": (8, 8.0, 4, 8.0),
        "0000:00:1f.0": (None, None, None, None),
    }
    assert parse_lspci(sample("lspci-downgraded-x4.txt")).warnings == []


def test_card_trained_at_x1():
    found = links(sample("lspci-x710-x1.txt"))
    assert found["0000:3b:00.0"] == found["0000:3b:00.1"] == (8, 8.0, 1, 8.0)


def test_lnkcap2_and_lnksta2_are_not_taken_for_the_link():
    text = "3b:00.0 Ethernet controller: X\n\t\tLnkCap2: Supported Link Speeds: 2.5-16GT/s\n\t\tLnkSta2: Width x16\n"
    assert links(text) == {"0000:3b:00.0": (None, None, None, None)}


def test_terminal_wrapped_and_cut_off_output():
    parsed = parse_lspci(sample("lspci-wrapped-truncated.txt"))
    # wrapped header lines are joined back, not taken for devices or lost
    assert parsed.devices["0000:3b:00.0"].device == (
        "Intel Corporation Ethernet Controller X710 for 10GbE SFP+ (rev 02)"
    )
    assert links(sample("lspci-wrapped-truncated.txt")) == {
        "0000:3a:00.0": (16, 8.0, 8, 8.0),
        "0000:3b:00.0": (8, 8.0, 8, 8.0),
        "0000:3b:00.1": (8, 8.0, None, 8.0),
    }
    assert [str(w) for w in parsed.warnings] == [
        "0000:3b:00.1: LnkSta incomplete: 'Speed 8GT/s (ok), Width' (output cut off?)"
    ]


def test_capabilities_not_readable_without_root():
    parsed = parse_lspci(sample("lspci-access-denied.txt"))
    assert links(sample("lspci-access-denied.txt")) == {"0000:3b:00.0": (None, None, None, None)}
    assert [str(w) for w in parsed.warnings] == ["0000:3b:00.0: capabilities not readable (lspci must run as root)"]


def test_a_link_that_did_not_train_and_a_missing_lnksta():
    text = (
        "0000:af:00.0 Ethernet controller: Mellanox Technologies MT27800 Family [ConnectX-5]\n"
        "\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x16, ASPM not supported\n"
        "\t\tLnkSta:\tSpeed unknown (downgraded), Width x0 (downgraded)\n"
        "0000:af:00.1 Ethernet controller: Mellanox Technologies MT27800 Family [ConnectX-5]\n"
        "\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x16, ASPM not supported\n"
    )
    parsed = parse_lspci(text)
    assert links(text) == {"0000:af:00.0": (16, 8.0, None, None), "0000:af:00.1": (16, 8.0, None, None)}
    assert [(w.address, w.text.split(":")[0]) for w in parsed.warnings] == [
        ("0000:af:00.0", "LnkSta reports no trained link"),
        ("0000:af:00.1", "LnkCap without LnkSta (output cut off?)"),
    ]


def test_text_that_is_not_lspci_output_is_a_warning():
    parsed = parse_lspci("sh: lspci: not found\n")
    assert parsed.devices == {}
    assert [str(w) for w in parsed.warnings] == ["no PCI device in the output (not `lspci -vv`?)"]
    assert parse_lspci("").warnings == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [("3b:00.0", "0000:3b:00.0"), ("0000:3B:00.1", "0000:3b:00.1"), ("0001:af:1f.7", "0001:af:1f.7"),
     ("3b:00.8", None), ("vmnic0", None)],
)  # fmt: skip
def test_pci_address_normalisation(text, expected):
    assert normalise_pci_address(text) == expected


def test_gts_from_lspci_and_sysfs():
    texts = ("2.5GT/s", "8GT/s", "16.0 GT/s PCIe", "unknown", None)
    assert [parse_gts(t) for t in texts] == [2.5, 8.0, 16.0, None, None]


# --- fuzzing --------------------------------------------------------------------------------------

LINE_PIECES = st.sampled_from(
    [
        "3b:00.0 Ethernet controller: Intel X710",
        "0000:5e:00.1 Ethernet controller: Broadcom",
        "\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x8",
        "\t\tLnkSta:\tSpeed 8GT/s (ok), Width x4 (downgraded)",
        "\t\tLnkSta:\tSpeed 99GT/s, Width x3",
        "\t\tLnkSta:\tSpeed unknown, Width x0",
        "\tCapabilities: <access denied>",
        "\t\tLnkSta:\tSpeed",
        "Width x16",
        "",
    ]
)


def _check_invariants(text: str) -> None:
    parsed = parse_lspci(text)
    warned = {w.address for w in parsed.warnings}
    for address, device in parsed.devices.items():
        assert normalise_pci_address(address) == address
        assert device.width_capable in WIDTHS | {None}
        assert device.width_negotiated in WIDTHS | {None}
        assert device.speed_capable_gts in SPEEDS_GTS | {None}
        assert device.speed_negotiated_gts in SPEEDS_GTS | {None}
        # a device with half a link (one of the four values read) was warned about
        values = [device.width_capable, device.speed_capable_gts, device.width_negotiated, device.speed_negotiated_gts]
        if any(v is not None for v in values) and any(v is None for v in values):
            assert address in warned, (address, values, parsed.warnings)
    if not parsed.devices and text.strip():
        assert parsed.warnings


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_arbitrary_text_never_crashes(text):
    _check_invariants(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE_PIECES, max_size=30).map("\n".join))
def test_shuffled_lspci_lines_yield_whole_links_or_warnings(text):
    _check_invariants(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(p.name for p in SAMPLES.glob("lspci-*.txt"))), st.data())
def test_samples_cut_anywhere_yield_whole_links_or_warnings(name, data):
    text = sample(name)
    cut = data.draw(st.integers(min_value=0, max_value=len(text)))
    _check_invariants(text[:cut])
