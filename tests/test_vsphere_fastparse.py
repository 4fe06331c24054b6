"""The lxml fast path of the vSphere bulk retrievals against pyvmomi's own deserialiser.

Differential: every simulator scenario the tests use, and govmomi's stock inventory, collected
through both parsers give the same snapshot, and the same pyvmomi objects property by property.
Then the fallback: an object the fast builder does not know is read by pyvmomi, nothing dropped.
"""

from __future__ import annotations

import http.client
import importlib.util
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lxml import etree
from pyVmomi import SoapAdapter, vim, vmodl
from pyVmomi.SoapAdapter import SoapStubAdapter
from pyVmomi.VmomiSupport import DataObject, ManagedObject
from support.vcsim import launcher, needs_go

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.vsphere import collect, connect, disconnect, fastparse, fastretrieve, parse_server, tls_context
from hostlint.collect.vsphere.fastparse import NotRead, NotReadError, Projection
from hostlint.collect.vsphere.retrieve import (
    HOST_PROJECTIONS,
    HOST_PROPERTIES,
    RoundTrips,
    retrieve_hosts,
    retrieve_switches,
    retrieve_vms,
)
from hostlint.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "s3cret-for-fastparse"

_bench_spec = importlib.util.spec_from_file_location("bench_vsphere_for_fastparse", ROOT / "bench" / "vsphere.py")
bench = importlib.util.module_from_spec(_bench_spec)
_bench_spec.loader.exec_module(bench)


def _standalone_scenario(folder: Path) -> Path:
    lab = Snapshot.model_validate_json((ROOT / "fixtures" / "labs" / "clean" / "hosts.json").read_text())
    path = folder / "one-host.json"
    path.write_text(Snapshot(esxi_hosts=lab.esxi_hosts[:1]).model_dump_json())
    return path


def _bench_scenario(folder: Path) -> Path:
    path = folder / "bench.json"
    path.write_text(__import__("json").dumps(bench.scenario(8)))
    return path


# (id, scenario or None for the stock inventory, simulator flags, user)
CASES: list[tuple[str, Any, tuple[str, ...], str]] = [
    ("site", ROOT / "fixtures" / "vsphere" / "site.yaml", (), "administrator@vsphere.local"),
    ("clean-lab", ROOT / "fixtures" / "labs" / "clean" / "hosts.json", (), "administrator@vsphere.local"),
    ("pcie-site", ROOT / "fixtures" / "esxi" / "pcie-site.yaml", (), "administrator@vsphere.local"),
    ("bench", _bench_scenario, (), "administrator@vsphere.local"),
    ("standalone-esxi", _standalone_scenario, ("-esx",), "root"),
    (
        "stock-vcenter",
        None,
        ("-stock-clusters", "2", "-stock-hosts", "2", "-stock-vms", "2"),
        "administrator@vsphere.local",
    ),
    ("stock-esxi", None, ("-esx",), "root"),
    (
        "site-vms-denied",
        ROOT / "fixtures" / "vsphere" / "site.yaml",
        ("-deny", "VirtualMachine=System.Read"),
        "administrator@vsphere.local",
    ),
]


def same_objects(a: Any, b: Any, where: str = "", projected: bool = False) -> None:
    """Deep equality of pyvmomi values: same classes, same attributes, same managed object ids and stub.

    `projected`: `a` was built with the host projections; a field it left out (NotRead) is not compared.
    """
    if projected and isinstance(a, NotRead):
        return
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, ManagedObject):
        assert (a._moId, a._stub) == (b._moId, b._stub), where
    elif isinstance(a, DataObject):
        assert vars(a).keys() == vars(b).keys(), where
        for name, value in vars(a).items():
            same_objects(value, vars(b)[name], f"{where}.{name}", projected)
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            same_objects(x, y, f"{where}[{index}]", projected)
    else:
        assert a == b, where


def _retrieved(
    content: Any, parser: fastretrieve.Parser, trips: RoundTrips, projections: dict[str, Projection] | None = None
) -> list[Any]:
    try:
        # 3 a page, 2 a slice: the paging and the slicing too
        hosts = retrieve_hosts(content, 3, trips, parallel=2, parser=parser, slice_size=2, projections=projections)
        switches, portgroups = retrieve_switches(content, 3, trips, parser=parser)
        vms = retrieve_vms(content, 3, trips, parser=parser)
    except vmodl.MethodFault as fault:
        return [type(fault), getattr(fault, "privilegeId", None)]
    found = sorted([*hosts, *switches, *portgroups, *vms], key=lambda r: r.ref._moId)
    return [(r.ref, sorted(r.props.items()), sorted(r.missing.items())) for r in found]


@pytest.mark.slow
@needs_go
@pytest.mark.parametrize(("case", "scenario", "flags", "user"), CASES, ids=[case[0] for case in CASES])
def test_fast_and_pyvmomi_parsers_give_the_same_snapshot_and_objects(
    vcsim_binary, tmp_path, case, scenario, flags, user
):
    if callable(scenario):
        scenario = scenario(tmp_path)
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, user=user, extra_args=flags) as sim:
        endpoint = parse_server(sim.url)
        service_instance = connect(endpoint, user, PASSWORD, tls_context(ca_bundle=Path(sim.cert)))
        try:
            snapshots, objects, trips = {}, {}, {}
            for parser in fastretrieve.PARSERS:
                collection = collect(service_instance, str(endpoint), parser=parser)
                snapshots[parser] = collection.snapshot.model_dump_json(exclude={"collected_at"})
                trips[parser] = RoundTrips()
                objects[parser] = _retrieved(service_instance.content, parser, trips[parser])
                trips[parser].fell_back(collection.trips.fallbacks)
            projected = _retrieved(service_instance.content, "lxml", RoundTrips(), HOST_PROJECTIONS)
        finally:
            disconnect(service_instance)
    assert snapshots["lxml"] == snapshots["pyvmomi"]
    collected = Snapshot.model_validate_json(snapshots["lxml"])
    assert collected.esxi_hosts, "the scenario has hosts"
    if case == "site-vms-denied":
        assert any("NoPermission" in error.reason for error in collected.collection_errors)
    same_objects(objects["lxml"], objects["pyvmomi"], case)
    # Projected: every field built is pyvmomi's, and the fields left out are NotRead, not a default.
    same_objects(projected, objects["pyvmomi"], case, projected=True)
    if isinstance(projected[0], tuple):
        assert any(_not_read(props) for _, props, _ in projected), "the projections left fields out"
    assert trips["lxml"].calls == trips["pyvmomi"].calls  # the same requests, pages included
    # The fast builder read every object itself: this is the path under test, not the fallback.
    assert trips["lxml"].fallbacks == {}


def _not_read(value: Any) -> bool:
    if isinstance(value, NotRead):
        return True
    if isinstance(value, DataObject):
        return any(_not_read(field) for field in vars(value).values())
    if isinstance(value, list | tuple):
        return any(_not_read(item) for item in value)
    return False


@pytest.mark.slow
@needs_go
def test_the_parser_can_be_forced_and_a_wrong_name_is_a_usage_error(vcsim_binary, tmp_path):
    site = ROOT / "fixtures" / "vsphere" / "site.yaml"
    with launcher.Simulator(vcsim_binary, site, password=PASSWORD) as sim:
        outputs = {}
        for parser in fastretrieve.PARSERS:
            out = tmp_path / f"{parser}.json"
            args = ["collect", "vsphere", "--server", sim.url, "--user", sim.user, "--ca-bundle", sim.cert]
            env = {"HOSTLINT_VSPHERE_PASSWORD": PASSWORD, fastretrieve.PARSER_ENV: parser}
            outcome = CliRunner().invoke(cli, [*args, "-o", str(out)], env=env, standalone_mode=False)
            assert outcome.return_value == Exit.PARTIAL, outcome.output  # site.yaml has a disconnected host
            outputs[parser] = Snapshot.model_validate_json(out.read_text()).model_dump(exclude={"collected_at"})
        env = {"HOSTLINT_VSPHERE_PASSWORD": PASSWORD, fastretrieve.PARSER_ENV: "expat"}
        outcome = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "x.json")], env=env, standalone_mode=False)
    assert outputs["lxml"] == outputs["pyvmomi"]
    assert outcome.return_value == Exit.USAGE
    assert "HOSTLINT_VSPHERE_PARSER='expat'" in outcome.stderr
    assert "Traceback" not in outcome.output
    assert not (tmp_path / "x.json").exists()


def test_parser_from_env(monkeypatch):
    monkeypatch.delenv(fastretrieve.PARSER_ENV, raising=False)
    assert fastretrieve.parser_from_env() == "lxml"
    monkeypatch.setenv(fastretrieve.PARSER_ENV, " PyVmomi ")
    assert fastretrieve.parser_from_env() == "pyvmomi"
    monkeypatch.setenv(fastretrieve.PARSER_ENV, "fast")
    with pytest.raises(fastretrieve.ParserChoiceError, match="expected one of lxml, pyvmomi"):
        fastretrieve.parser_from_env()


# --- the fallback, on answers written here (shapes the simulator never sends) ----------------------

ENVELOPE = """<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"
 xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"
 xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<soapenv:Body><RetrievePropertiesExResponse xmlns="urn:vim25"><returnval>
{objects}
<token>page-2</token>
</returnval></RetrievePropertiesExResponse></soapenv:Body></soapenv:Envelope>"""

PLAIN = """<objects><obj type="HostSystem">host-1</obj>
<propSet><name>name</name><val xsi:type="xsd:string">esx01</val></propSet>
<propSet><name>config.storageDevice.hostBusAdapter</name><val xsi:type="ArrayOfHostHostBusAdapter">
<HostHostBusAdapter xsi:type="HostInternetScsiHba"><key>k</key><device>vmhba64</device><bus>0</bus>
<status>online</status><model>iSCSI Software Adapter</model><driver>iscsi_vmk</driver>
<isSoftwareBased>true</isSoftwareBased><canBeDisabled>true</canBeDisabled>
<networkBindingSupport>optional</networkBindingSupport><discoveryCapabilities><iSnsDiscoverySettable>false</iSnsDiscoverySettable>
<slpDiscoverySettable>false</slpDiscoverySettable><staticTargetDiscoverySettable>true</staticTargetDiscoverySettable>
<sendTargetsDiscoverySettable>true</sendTargetsDiscoverySettable></discoveryCapabilities>
<discoveryProperties><iSnsDiscoveryEnabled>false</iSnsDiscoveryEnabled><slpDiscoveryEnabled>false</slpDiscoveryEnabled>
<staticTargetDiscoveryEnabled>true</staticTargetDiscoveryEnabled><sendTargetsDiscoveryEnabled>true</sendTargetsDiscoveryEnabled>
</discoveryProperties><authenticationCapabilities><chapAuthSettable>true</chapAuthSettable><krb5AuthSettable>false</krb5AuthSettable>
<srpAuthSettable>false</srpAuthSettable><spkmAuthSettable>false</spkmAuthSettable></authenticationCapabilities>
<authenticationProperties><chapAuthEnabled>false</chapAuthEnabled></authenticationProperties>
<supportedAdvancedOptions><key>ErrorRecoveryLevel</key></supportedAdvancedOptions>
<iScsiName>iqn.1998-01.com.vmware:esx01</iScsiName><maxSpeedMb>10000</maxSpeedMb></HostHostBusAdapter>
</val></propSet>
<propSet><name>configManager.networkSystem</name>
<val type="HostNetworkSystem" xsi:type="ManagedObjectReference">networkSystem-1</val></propSet>
<propSet><name>runtime.inMaintenanceMode</name><val xsi:type="xsd:boolean">false</val></propSet>
</objects>"""

# A subtype named in a namespace pyvmomi does not file it under: pyvmomi guesses it by name, the fast path does not.
FOREIGN_TYPE = PLAIN.replace("host-1", "host-2").replace(
    '<HostHostBusAdapter xsi:type="HostInternetScsiHba">',
    '<HostHostBusAdapter xmlns:other="urn:other" xsi:type="other:HostInternetScsiHba">',
)

# A reference from another vCenter of a linked group.
SERVER_GUID = PLAIN.replace(
    '<obj type="HostSystem">host-1</obj>', '<obj type="HostSystem" serverGuid="vc-2">host-2</obj>'
)

# A property the server would not give: its fault is pyvmomi's to read.
MISSING = """<objects><obj type="HostSystem">host-3</obj>
<propSet><name>name</name><val xsi:type="xsd:string">esx03</val></propSet>
<missingSet><path>config.network</path><fault><fault xsi:type="NoPermission"><object type="HostSystem">host-3</object>
<privilegeId>System.Read</privilegeId></fault><localizedMessage>denied</localizedMessage></fault></missingSet>
</objects>"""


def _stub() -> SoapStubAdapter:
    return SoapStubAdapter(host="127.0.0.1", port=1, version="vim.version.v8_0_3_0")


def _both(objects: str) -> tuple[fastretrieve.Page, list[fastretrieve.Item], Any]:
    stub = _stub()
    data = ENVELOPE.format(objects=objects).encode()
    page = fastretrieve._Reader(stub).page(data)
    result_type = vmodl.query.PropertyCollector._GetMethodInfo("RetrievePropertiesEx").result
    result = SoapAdapter.SoapResponseDeserializer(stub).Deserialize(data, result_type)
    return page, [fastretrieve.from_object_content(content) for content in result.objects], result


def _same_items(fast: list[fastretrieve.Item], slow: list[fastretrieve.Item]) -> None:
    assert len(fast) == len(slow)
    for a, b in zip(fast, slow, strict=True):
        same_objects(a.ref, b.ref, "ref")
        assert a.props.keys() == b.props.keys()
        for name in a.props:
            same_objects(a.props[name], b.props[name], name)
        assert a.missing.keys() == b.missing.keys()
        for path in a.missing:
            same_objects(a.missing[path], b.missing[path], path)


def test_known_shapes_are_built_without_pyvmomi_and_equal_its_objects():
    page, expected, result = _both(PLAIN)
    assert page.fallbacks == {}
    assert page.token == result.token == "page-2"
    _same_items(page.items, expected)
    hba = page.items[0].props["config.storageDevice.hostBusAdapter"][0]
    assert isinstance(hba, vim.host.InternetScsiHba) and hba.isSoftwareBased is True
    assert hba.authenticationProperties.mutualChapName is None  # unset optional, as pyvmomi leaves it
    assert page.items[0].props["configManager.networkSystem"]._moId == "networkSystem-1"


@pytest.mark.parametrize(
    ("objects", "reason"),
    [
        (FOREIGN_TYPE, "unknown type {urn:other}HostInternetScsiHba"),
        (SERVER_GUID, "a managed object reference with a server GUID"),
        (MISSING, "a missing property"),
    ],
    ids=["foreign-xsi-type", "server-guid", "missing-property-fault"],
)
def test_an_unexpected_object_goes_to_pyvmomi_whole_and_the_rest_stays_fast(objects, reason):
    page, expected, _ = _both(PLAIN + objects + PLAIN.replace("host-1", "host-4"))
    assert page.fallbacks == {reason: 1}
    _same_items(page.items, expected)
    assert [item.ref._moId for item in page.items] == [
        "host-1",
        "host-2" if "host-2" in objects else "host-3",
        "host-4",
    ]
    if objects is MISSING:
        assert isinstance(page.items[1].missing["config.network"], vim.fault.NoPermission)
    if objects is FOREIGN_TYPE:
        assert isinstance(page.items[1].props["config.storageDevice.hostBusAdapter"][0], vim.host.InternetScsiHba)


def test_elements_named_like_the_envelope_inside_the_data_stay_with_their_object():
    # ServiceLocator credentials carry a <token>, as the page does: it is the credential's, not the page's
    locator = """<objects><obj type="HostSystem">host-5</obj>
<propSet><name>locator</name><val xsi:type="ServiceLocator"><instanceUuid>u</instanceUuid><url>https://vc</url>
<credential xsi:type="ServiceLocatorSAMLCredential"><token>saml-token</token></credential>
<sslThumbprint>aa</sslThumbprint></val></propSet></objects>"""
    page, expected, result = _both(PLAIN + locator)
    assert page.fallbacks == {}
    assert page.token == result.token == "page-2"
    _same_items(page.items, expected)
    assert page.items[1].props["locator"].credential.token == "saml-token"


def test_pages_parsed_by_several_threads_at_once_are_the_pages_parsed_one_by_one():
    # The collector parses host pages and small answers in many threads, one at a time under
    # PARSING (bench/parse_threads.py); the type tables they share are filled by whichever comes first.
    fastparse._TABLES.clear()
    pages = [
        ENVELOPE.format(objects=PLAIN.replace("host-1", f"host-{n}") + (MISSING if n % 3 == 0 else "")).encode()
        for n in range(24)
    ]
    stub = _stub()
    with ThreadPoolExecutor(6) as pool:
        together = list(pool.map(lambda data: fastretrieve._Reader(stub).page(data), pages * 4))
    assert not fastretrieve.PARSING.locked()
    for data, page in zip(pages * 4, together, strict=True):
        alone = fastretrieve._Reader(stub).page(data)
        assert [item.ref._moId for item in page.items] == [item.ref._moId for item in alone.items]
        assert page.fallbacks == alone.fallbacks
        for fast, slow in zip(page.items, alone.items, strict=True):
            assert fast.props.keys() == slow.props.keys()
            for name in fast.props:
                same_objects(fast.props[name], slow.props[name], name)


def test_a_page_that_fails_to_parse_leaves_the_lock_free():
    with pytest.raises(etree.XMLSyntaxError):
        fastretrieve._Reader(_stub()).page(ENVELOPE.format(objects=PLAIN).encode()[:-40])
    assert not fastretrieve.PARSING.locked()


# A host's hints, the namespaces declared where a server may declare them: `xsi` on the answer's
# element, another prefix for the schema types bound on one value only.
HINT_ANSWER = """<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
<soapenv:Body><QueryNetworkHintResponse xmlns="urn:vim25" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<returnval><device>vmnic0</device>
<connectedSwitchPort><devId>leaf-1</devId><address>10.0.0.1</address><portId>Ethernet1/7</portId>
<hardwarePlatform>N9K-C93180YC-FX</hardwarePlatform><softwareVersion>9.3(8)</softwareVersion>
<samples>1</samples><mtu>9216</mtu><systemName>leaf-1</systemName>
<ipPrefix xmlns:s="http://www.w3.org/2001/XMLSchema" xsi:type="s:string">10.0.0.0/24</ipPrefix></connectedSwitchPort>
</returnval>
<returnval xmlns:v="urn:vim25"><device>vmnic1</device>
<lldpInfo xsi:type="v:LinkLayerDiscoveryProtocolInfo"><chassisId>00:11:22:33:44:55</chassisId>
<portId>Ethernet1/8</portId>
<timeToLive>120</timeToLive>
<parameter><key>System Description</key><value xmlns:x="http://www.w3.org/2001/XMLSchema" xsi:type="x:string">line one
line two</value></parameter></lldpInfo>
</returnval>
</QueryNetworkHintResponse></soapenv:Body></soapenv:Envelope>"""


def test_a_small_answer_is_read_whole_as_pyvmomi_reads_it():
    stub = _stub()
    network_system = vim.host.NetworkSystem("networkSystem-1", stub)
    info = network_system._GetMethodInfo("QueryNetworkHint")
    data = HINT_ANSWER.encode()
    fast = fastretrieve._answer(stub, info, data)
    slow = SoapAdapter.SoapResponseDeserializer(stub).Deserialize(data, info.result)
    same_objects(fast, slow, "hints")
    assert [hint.device for hint in fast] == ["vmnic0", "vmnic1"]
    assert fast[1].lldpInfo.parameter[0].value == "line one\nline two"
    with pytest.raises(http.client.HTTPException, match="unreadable answer to QueryNetworkHint"):
        fastretrieve._answer(stub, info, data[: len(data) // 2])
    with pytest.raises(fastparse.Unexpected, match="no QueryBoundVnicsResponse"):
        fastretrieve._answer(stub, vim.IscsiManager("iscsi-1", stub)._GetMethodInfo("QueryBoundVnics"), data)


def test_a_type_nobody_knows_fails_as_pyvmomi_fails():
    unknown = PLAIN.replace('xsi:type="HostInternetScsiHba"', 'xsi:type="HostQuantumHba"')
    with pytest.raises(KeyError) as fast_error:
        fastretrieve._Reader(_stub()).page(ENVELOPE.format(objects=unknown).encode())
    result_type = vmodl.query.PropertyCollector._GetMethodInfo("RetrievePropertiesEx").result
    with pytest.raises(KeyError) as slow_error:
        SoapAdapter.SoapResponseDeserializer(_stub()).Deserialize(
            ENVELOPE.format(objects=unknown).encode(), result_type
        )
    assert str(fast_error.value) == str(slow_error.value)


def test_an_element_the_type_does_not_have_fails_as_pyvmomi_fails():
    bad = PLAIN.replace("<bus>0</bus>", "<bus>0</bus><warpFactor>9</warpFactor>")
    with pytest.raises(AttributeError) as fast_error:
        fastretrieve._Reader(_stub()).page(ENVELOPE.format(objects=bad).encode())
    result_type = vmodl.query.PropertyCollector._GetMethodInfo("RetrievePropertiesEx").result
    with pytest.raises(AttributeError) as slow_error:
        SoapAdapter.SoapResponseDeserializer(_stub()).Deserialize(ENVELOPE.format(objects=bad).encode(), result_type)
    assert str(fast_error.value) == str(slow_error.value) == "warpFactor"


# --- projections: only the fields the collector reads are built --------------------------------

PCI = """<objects><obj type="HostSystem">host-4</obj>
<propSet><name>hardware.pciDevice</name><val xsi:type="ArrayOfHostPciDevice">
<HostPciDevice><id>0000:3b:00.0</id><classId>512</classId><bus>59</bus><slot>0</slot><function>0</function>
<vendorId>-32634</vendorId><subVendorId>0</subVendorId><vendorName>Intel Corporation</vendorName>
<deviceId>5515</deviceId>
<subDeviceId>0</subDeviceId><deviceName>Ethernet Controller X710</deviceName></HostPciDevice>
</val></propSet>
<propSet><name>config.virtualNicManagerInfo</name><val xsi:type="HostVirtualNicManagerInfo"><netConfig>
<nicType>vmotion</nicType><multiSelectAllowed>true</multiSelectAllowed><candidateVnic><device>vmk1</device>
<key>vmotion.key-vim.host.VirtualNic-vmk1</key><portgroup>vMotion</portgroup><spec><mtu>9000</mtu></spec></candidateVnic>
<selectedVnic>vmotion.key-vim.host.VirtualNic-vmk1</selectedVnic></netConfig></val></propSet>
</objects>"""


def test_a_projection_builds_the_fields_named_and_refuses_the_others():
    stub = _stub()
    data = ENVELOPE.format(objects=PCI).encode()
    full = fastretrieve._Reader(stub).page(data).items[0].props
    page = fastretrieve._Reader(stub, HOST_PROJECTIONS).page(data)
    assert page.fallbacks == {}
    props = page.items[0].props
    device, complete = props["hardware.pciDevice"][0], full["hardware.pciDevice"][0]
    assert type(device) is type(complete) is vim.host.PciDevice
    assert (device.id, device.classId, device.vendorName, device.deviceName) == (
        "0000:3b:00.0",
        512,
        "Intel Corporation",
        "Ethernet Controller X710",
    )
    assert device.deviceClassName is None  # named, not sent: unset, as pyvmomi leaves it
    assert complete.bus == 59 and isinstance(device.bus, NotRead)
    # Using a field the projection left out is an error naming it, never a default.
    with pytest.raises(NotReadError, match=r"vim.host.PciDevice.bus was not read"):
        bool(device.bus)
    with pytest.raises(NotReadError):
        _ = getattr(device, "vendorId", None) or 0
    with pytest.raises(NotReadError):
        _ = device.subDeviceId == 0
    # Nested: every field of a service's configuration, of each candidate only its key and device.
    config = props["config.virtualNicManagerInfo"].netConfig[0]
    assert (config.nicType, config.multiSelectAllowed, list(config.selectedVnic)) == (
        "vmotion",
        True,
        ["vmotion.key-vim.host.VirtualNic-vmk1"],
    )
    candidate = config.candidateVnic[0]
    assert (candidate.key, candidate.device) == ("vmotion.key-vim.host.VirtualNic-vmk1", "vmk1")
    assert isinstance(candidate.spec, NotRead)
    assert repr(candidate.spec) == "<not read: vim.host.VirtualNic.spec>"
    assert full["config.virtualNicManagerInfo"].netConfig[0].candidateVnic[0].spec.mtu == 9000


def _property_type(kind: Any, path: str) -> Any:
    for name in path.split("."):
        kind = kind._propInfo[name].type
        kind = kind.Item if issubclass(kind, list) else kind
    return kind


def _check_projection(kind: Any, projection: Projection, where: str, subtype: Any = None) -> None:
    """Every projected name is a property of `kind` (or of `subtype`, for an array whose items are of a
    subtype that has more: an iSCSI adapter among the host's storage adapters)."""
    known = set(kind._propInfo) | (set(subtype._propInfo) if subtype is not None else set())
    for name in projection.fields or ():
        assert name in known, f"{where}: {kind.__name__} has no property {name!r}"
    for name, inner in projection.inner.items():
        assert name in known, f"{where}: {kind.__name__} has no property {name!r}"
        _check_projection(_property_type(kind, name), inner, f"{where}.{name}")


# The items of these arrays are of a subtype whose own properties the collector reads.
PROJECTED_SUBTYPES = {"config.storageDevice.hostBusAdapter": vim.host.InternetScsiHba}


@pytest.mark.parametrize("path", sorted(HOST_PROJECTIONS))
def test_every_projected_name_is_a_property_of_its_type(path):
    assert path in HOST_PROPERTIES
    kind, subtype = _property_type(vim.HostSystem, path), PROJECTED_SUBTYPES.get(path)
    assert subtype is None or issubclass(subtype, kind)
    _check_projection(kind, HOST_PROJECTIONS[path], path, subtype)
