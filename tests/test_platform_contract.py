"""The switch platform contract (hostlint/switches/contract.py): every folder provides its pieces, and a
folder without one is named, piece and file (issue 29).

Every registered folder is checked as it is; then, for every piece a folder holds, a copy of the folder
without that piece must be named for exactly it. A complete example folder (written here, the smallest
platform the contract accepts) exercises every piece's check.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
import yaml

from hostlint import platforms as registry
from hostlint import switches
from hostlint.fixes.actions import units
from hostlint.switches import contract
from hostlint.switches.base import HashTable

ROOT = Path(__file__).resolve().parent.parent
EMULATORS = ROOT / "tests" / "switch_emulator" / "platforms"


def _switch_actions() -> tuple[str, ...]:
    return tuple(sorted(name for name, unit in units().items() if unit.action.device == "switch"))


def _held(folder: Path) -> list[contract.Piece]:
    """The pieces asked of `folder` whose file it holds."""
    return [piece for piece in contract.PIECES if (folder / piece.file).is_file()]


def test_the_registry_is_the_folders() -> None:
    """SWITCH_NAMES is what the folders are, and every listing of switch platforms follows it."""
    package = Path(switches.__file__).parent
    assert set(switches.SWITCH_NAMES) == {p.name for p in package.iterdir() if (p / "platform.py").is_file()}
    assert registry.SWITCH_NAMES == switches.SWITCH_NAMES
    assert [s.name for s in registry.SWITCHES] == list(switches.SWITCH_NAMES)
    assert [t for t in registry.TARGETS if registry.find_switch(t)] == list(switches.SWITCH_NAMES)
    for name in switches.SWITCH_NAMES:
        assert switches.switch(name).name == name
        assert all(switches.canonical_switch(alias) == name for alias in switches.switch(name).aliases)
    with pytest.raises(switches.UnsupportedPlatform, match="'nosuch' is not supported"):
        switches.canonical_switch("nosuch")


def test_a_shared_base_is_no_platform() -> None:
    """`cisco_like/` (the parent IOS, NX-OS and EOS copy, sqlfluff's parent dialect) holds no `platform.py`:
    the registry does not list it, and the contract, asked about it, names the platform piece it lacks."""
    base = Path(switches.__file__).parent / "cisco_like"
    assert base.is_dir() and not (base / "platform.py").exists()
    assert "cisco_like" not in switches.SWITCH_NAMES and switches.find_switch("cisco_like") is None
    with pytest.raises(switches.UnsupportedPlatform):
        switches.canonical_switch("cisco_like")
    problems = contract.check(base, skip=set(contract.PIECE_NAMES) - {"platform"})
    defines = contract.PIECES[0].defines
    assert problems == [f"{base}: platform.py: piece `platform` the file is missing (it defines {defines})"]


@pytest.mark.parametrize("name", switches.SWITCH_NAMES)
def test_every_folder_provides_its_pieces(name: str) -> None:
    assert contract.check(switches.folder(name), _switch_actions(), EMULATORS) == []


@pytest.mark.parametrize("name", switches.SWITCH_NAMES)
def test_a_folder_without_a_piece_is_named_for_it(name: str, tmp_path: Path) -> None:
    original = switches.folder(name)
    held = _held(original)
    assert held, f"{original} holds no piece"
    for piece in held:
        copy = tmp_path / piece.name.replace(" ", "_") / name
        shutil.copytree(original, copy)
        (copy / piece.file).unlink()
        problems = contract.check(copy, _switch_actions(), EMULATORS)
        assert len(problems) == 1, problems
        assert problems[0].startswith(f"{copy}: {piece.file}: piece `{piece.name}` ")


# The smallest folder the contract accepts: every piece, as a new platform's folder would hold it.
_EXAMPLE = {
    "__init__.py": '"""An example platform."""\n',
    "platform.py": """
        from hostlint.switches.base import MtuFamily, SwitchPlatform
        from .mtu import MTU

        PLATFORM = SwitchPlatform(
            name="example",
            label="Example",
            channel_interface="Port-channel{}",
            jumbo=MTU.jumbo,
            l2_header=MTU.l2_header,
            mtu_families=MTU.families,
        )
        """,
    "spec.yaml": """
        platform: example
        device_type: cisco_ios
        rejected: ["% Invalid input"]
        commands:
          - command: show interfaces
            section: interfaces
        """,
    "show_interfaces.ttp": "<group name='interfaces'>\n{{ name }} is {{ status }}\n</group>\n",
    "show_interfaces.txt": "GigabitEthernet1/0/1 is up\n",
    "records.py": """
        from hostlint.strict import Strict

        class Interface(Strict):
            name: str
            status: str

        RECORDS = {"interfaces": Interface}
        """,
    "assemble.py": """
        def build(records, context):
            raise NotImplementedError
        """,
    "names.py": """
        from hostlint.switches.base import NameGrammar

        NAMES = NameGrammar(long={"Gi": "GigabitEthernet"}, channel=r"Port-channel\\d+", script=r"[A-Za-z-]+[0-9/]+")
        """,
    "hashes.py": """
        from hostlint.switches.base import HashTable

        HASHES = HashTable(
            pairs=(("src-dst-ip", "src-dst-ip"), ("src-dst-mac", "src-dst-mac")),
            command="port-channel load-balance {}",
            default="src-dst-ip",
            writes=True,
        )
        """,
    "members.py": """
        from hostlint.switches.base import MemberFlags

        MEMBER_FLAGS = MemberFlags(flags=(("P", "bundled"), ("s", "suspended")), unknown=("w",))
        """,
    "mtu.py": """
        from hostlint.switches.base import MtuFamily, MtuLimits

        MTU = MtuLimits(
            jumbo=9216,
            families=(MtuFamily(family="(all)", bridged="mtu", bridged_setting="mtu", bridged_source="show interfaces",
                                shown_by="`show interfaces`", routed_by="interface `mtu`", written="yes",
                                reference="the example's manual"),),
        )
        """,
    "families.py": """
        def family(model):
            return None

        def unknown_reason(model):
            return "no families"
        """,
    "config.py": """
        from hostlint.switches.base import ConfigGrammar, EdgePort

        CONFIG = ConfigGrammar(
            edge_port=EdgePort(line=r"spanning-tree portfast trunk"), rollback="stanza", vlan_definition="`vlan N`"
        )
        """,
    "emulator.yaml": "prompt: 'example#'\n",
}


def _example(tmp_path: Path, actions: tuple[str, ...]) -> tuple[Path, Path]:
    folder = tmp_path / "example"
    folder.mkdir()
    for file, text in _EXAMPLE.items():
        (folder / file).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    fixes = {
        action: {"change": "interface {{ interface }}", "verify": "show run", "expect": "{{ family }}"}
        for action in actions
    }
    (folder / "fixes.yaml").write_text(yaml.safe_dump(fixes), encoding="utf-8")
    emulators = tmp_path / "emulators"
    emulators.mkdir()
    module = "SESSION = object\n\n\ndef RENDER(switch):\n    return ''\n"
    (emulators / "example.py").write_text(module, encoding="utf-8")
    return folder, emulators


def test_the_example_folder_provides_every_piece(tmp_path: Path) -> None:
    folder, emulators = _example(tmp_path, _switch_actions())
    assert contract.check(folder, _switch_actions(), emulators) == []


@pytest.mark.parametrize("piece", contract.PIECES, ids=lambda piece: piece.name)
def test_the_example_without_a_piece_is_named_for_exactly_it(piece: contract.Piece, tmp_path: Path) -> None:
    folder, emulators = _example(tmp_path, _switch_actions())
    (folder / piece.file).unlink()
    problems = contract.check(folder, _switch_actions(), emulators)
    assert problems == [
        f"{folder}: {piece.file}: piece `{piece.name}` the file is missing (it defines {piece.defines})"
    ]


def test_families_are_asked_only_of_text_that_reads_the_variable(tmp_path: Path) -> None:
    """`family` as a word of the text (EOS's REVIEW note names the chip family), an attribute or a filter
    needs no `families.py`; text reading the template variable does."""
    folder, emulators = _example(tmp_path, _switch_actions())
    (folder / "families.py").unlink()
    fixes = folder / "fixes.yaml"

    def write(verify: str, expect: str) -> None:
        text = {
            action: {"change": "interface {{ interface }}", "verify": verify, "expect": expect}
            for action in _switch_actions()
        }
        fixes.write_text(yaml.safe_dump(text), encoding="utf-8")

    write("show run", "! by hand: it depends on the chip family, {{ x.family }} {{ x | family }}")
    assert contract.check(folder, _switch_actions(), emulators) == []
    write("{% if family %}show run{% endif %}", "up")
    assert contract.check(folder, _switch_actions(), emulators) == [
        f"{folder}: families.py: piece `families` the file is missing "
        "(it defines family(model) and unknown_reason(model), when fixes.yaml reads `family`)"
    ]


def test_broken_pieces_are_named(tmp_path: Path) -> None:
    """A piece that is there but wrong: each message names what is wrong with it."""
    folder, emulators = _example(tmp_path, _switch_actions())
    (folder / "hashes.py").write_text(
        "from hostlint.switches.base import HashTable\n"
        "HASHES = HashTable(pairs=(('x', 'src-dst-ip'), ('X', 'src-dst-mac'), ('y', 'fancy')), command='lb {}', "
        "writes=True)\n",
        encoding="utf-8",
    )
    (folder / "members.py").write_text("MEMBER_FLAGS = {'P': 'bundled'}\n", encoding="utf-8")
    (folder / "show_interfaces.txt").unlink()
    (emulators / "example.py").write_text("SESSION = object\n", encoding="utf-8")
    fixes = folder / "fixes.yaml"
    fixes.write_text(fixes.read_text(encoding="utf-8").replace("switch-hash:", "switch-hush:"), encoding="utf-8")
    problems = "\n".join(contract.check(folder, _switch_actions(), emulators))
    assert "piece `hashes` HASHES writes 'src-dst-mac' as 'X', which reads back as another hash" in problems
    assert "piece `hashes` HASHES names fancy, not in hostlint's hash vocabulary (hostlint.vocab)" in problems
    assert "piece `members` MEMBER_FLAGS is a dict, not a MemberFlags" in problems
    assert "piece `commands` 'show interfaces' has no show_interfaces.txt" in problems
    assert f"piece `emulator` {emulators / 'example.py'} lacks RENDER" in problems
    assert "piece `fix text` no text for switch-hash" in problems
    assert len(problems.splitlines()) == 6


def test_a_broken_configuration_grammar_is_named(tmp_path: Path) -> None:
    """`config.py` is there but wrong: its patterns must compile, its channel-LACP and forced-link prefixes must
    place the interface, and CONFIG must be a ConfigGrammar."""
    folder, emulators = _example(tmp_path, _switch_actions())
    (folder / "config.py").write_text(
        "from hostlint.switches.base import ConfigGrammar, EdgePort, ForcedLink\n"
        "CONFIG = ConfigGrammar(edge_port=EdgePort(line='spanning-tree (portfast'), rollback='statements',"
        " forced_link=ForcedLink(prefix='set interfaces ', statements=('speed',),"
        " line=r'^set interfaces (\\S+) speed'), channel_lacp='set interfaces ae0 lacp', vlan_definition='`vlan N`')\n",
        encoding="utf-8",
    )
    problems = contract.check(folder, _switch_actions(), emulators)
    messages = [problem.partition("piece `configuration` ")[2].partition(" (it defines")[0] for problem in problems]
    assert messages == [
        "CONFIG.edge_port.line 'spanning-tree (portfast' is no regular expression: missing ), unterminated"
        " subpattern at position 14",
        "CONFIG.channel_lacp 'set interfaces ae0 lacp' has no {} for the channel",
        "CONFIG.forced_link.prefix 'set interfaces ' has no {} for the interface",
    ]
    (folder / "config.py").write_text("CONFIG = {'edge': 'spanning-tree portfast'}\n", encoding="utf-8")
    assert contract.check(folder, _switch_actions(), emulators) == [
        f"{folder}: config.py: piece `configuration` CONFIG is a dict, not a ConfigGrammar"
        " (it defines CONFIG (a ConfigGrammar: edge-port line, rollback style, VLAN definition))"
    ]


@pytest.mark.parametrize("name", switches.SWITCH_NAMES)
def test_every_platform_states_its_configuration_grammar(name: str) -> None:
    """The registry hands out each folder's own CONFIG; an edge-port line it states marks an interface whose
    collected lines hold it (and no other)."""
    grammar = switches.config(name)
    assert grammar is switches.config(name)
    edge = grammar.edge_port
    assert not edge.marks(["description uplink", "mtu 9000"])
    if edge.line is not None:
        assert all(edge.marks([example]) for example in _EDGE_EXAMPLES[name])
    with pytest.raises(KeyError):
        switches.config("nosuch")


# Per platform with an edge-port line, lines its configuration prints that make a trunk an edge port (the
# vendors' references, cited in each folder's config.py).
_EDGE_EXAMPLES = {
    "cisco_ios": ["spanning-tree portfast trunk", " spanning-tree portfast edge trunk"],
    "cisco_nxos": ["spanning-tree port type edge trunk", "spanning-tree portfast trunk"],
    "arista_eos": ["spanning-tree portfast"],
    "juniper_junos": [
        "set protocols rstp interface xe-0/0/1 edge",
        "set protocols vstp vlan 10 interface ae0 edge",
        "set protocols mstp msti 1 interface ae0 edge",
    ],
}


def test_a_hash_the_table_lacks_is_a_named_unknown() -> None:
    """Never another vendor's default (the issue's first silent failure)."""
    table = HashTable(pairs=(("src-dst-ip", "src-dst-ip"),), default=None)
    assert table.read("SRC-DST-IP") == "src-dst-ip"
    with pytest.raises(ValueError, match="hostlint reads no 'enhanced-hash' load-balance syntax"):
        table.read("enhanced-hash")
    with pytest.raises(ValueError, match="no documented default"):
        table.read(None)
    assert table.write("src-dst-ip") is None  # writes=False: left to a human
