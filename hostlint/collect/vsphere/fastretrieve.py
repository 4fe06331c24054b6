"""`RetrievePropertiesEx` and `ContinueRetrievePropertiesEx` with the response parsed by lxml.

The request is pyvmomi's own (`SerializeRequest`), sent on a connection from pyvmomi's pool with the
session cookie, so TLS verification, the per-call deadline and any proxy stay exactly as logged in.
A fault (HTTP 500) is read by pyvmomi's deserialiser and raised as pyvmomi would raise it. A 200
answer is read whole, then parsed with `lxml.etree.iterparse` under `PARSING`, one `<objects>`
element at a time, each cleared once built: memory holds the page's bytes and one object's tree,
not the page's tree. An object the fast builder cannot read
(`fastparse.Unexpected`, or a value it cannot convert) is handed, as the XML the server sent,
to pyvmomi's deserialiser: it falls back per object and never drops a property.
"""

from __future__ import annotations

import http.client
import io
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any, Literal, TypeVar

from lxml import etree
from pyVmomi import SoapAdapter as _soap
from pyVmomi import VmomiSupport as _vmomi
from pyVmomi import vmodl
from pyVmomi.SoapAdapter import SoapStubAdapter, StubAdapterBase
from pyVmomi.VmomiSupport import PropertyPath

from hostlint.collect.vsphere.deadline import stub_deadline
from hostlint.collect.vsphere.fastparse import Builder, Namespaces, Projection, Unexpected

# pyvmomi's functions carry no annotations: used through Any, as everything pyvmomi returns is.
SoapAdapter: Any = _soap
VmomiSupport: Any = _vmomi

T = TypeVar("T")
Parser = Literal["lxml", "pyvmomi"]
PARSER_ENV = "HOSTLINT_VSPHERE_PARSER"
PARSERS: tuple[Parser, ...] = ("lxml", "pyvmomi")

PC: Any = vmodl.query.PropertyCollector
XMLNS_SOAPENV = "http://schemas.xmlsoap.org/soap/envelope/"

# lxml's iterparse lets go of the GIL while libxml2 parses and takes it back for every element it
# reports. Two threads of one process parsing at once hand the GIL to each other at each element:
# on two cores that costs several times the CPU of one thread parsing both, and more wall time
# (bench/parse_threads.py). So every iterparse here runs under this lock, over bytes already read
# (the lock is never held while waiting on a server): one parse at a time per process.
PARSING = threading.Lock()


# What the fast builder raises on a shape it does not know (Unexpected) or a value it cannot convert.
FAST_PATH_ERRORS = (Unexpected, ValueError, TypeError, AttributeError, KeyError, IndexError)


class ParserChoiceError(ValueError):
    """HOSTLINT_VSPHERE_PARSER names no parser."""


def parser_from_env() -> Parser:
    """`lxml` (the default) or `pyvmomi`, from HOSTLINT_VSPHERE_PARSER; any other value is an error."""
    value = os.environ.get(PARSER_ENV, "").strip().lower() or "lxml"
    for parser in PARSERS:
        if value == parser:
            return parser
    raise ParserChoiceError(f"{PARSER_ENV}={value!r}: expected one of {', '.join(PARSERS)}")


def fast_stub(collector: Any) -> Any:
    """The collector's SOAP stub when the fast path can talk through it, else None (pyvmomi does it all)."""
    stub = getattr(collector, "_stub", None)
    return stub if isinstance(stub, SoapStubAdapter) else None


@dataclass
class Item:
    """One object as retrieved: its reference, its properties, and the properties the server would not give."""

    ref: Any
    props: dict[str, Any]
    missing: dict[str, Any]  # path -> the MissingProperty fault


@dataclass
class Page:
    items: list[Item]
    token: str | None
    fallbacks: dict[str, int]  # reason -> objects handed to pyvmomi


def from_object_content(content: Any) -> Item:
    return Item(
        ref=content.obj,
        props={prop.name: prop.val for prop in content.propSet},
        missing={m.path: m.fault for m in content.missingSet or []},
    )


class _Reader:
    """One response's elements into Items, fast where possible, through pyvmomi where not."""

    def __init__(self, stub: Any, projections: dict[str, Projection] | None = None) -> None:
        self.stub = stub
        self.projections = projections or {}
        self.namespace = VmomiSupport.GetWsdlNamespace(stub.version)
        self.namespaces = Namespaces()
        self.builder = Builder(stub, self.namespaces)
        ns = self.namespace
        self.tag_obj, self.tag_propset, self.tag_missing = f"{{{ns}}}obj", f"{{{ns}}}propSet", f"{{{ns}}}missingSet"
        self.tag_name, self.tag_val = f"{{{ns}}}name", f"{{{ns}}}val"
        self.tag_objects, self.tag_token = f"{{{ns}}}objects", f"{{{ns}}}token"
        self.tag_returnval, self.tag_fault = f"{{{ns}}}returnval", f"{{{XMLNS_SOAPENV}}}Fault"
        self.fallbacks: dict[str, int] = {}

    def item(self, element: Any) -> Item:
        try:
            return self._fast(element)
        except FAST_PATH_ERRORS as exc:
            reason = str(exc) if isinstance(exc, Unexpected) else f"{type(exc).__name__}: {exc}"
            self.fallbacks[reason] = self.fallbacks.get(reason, 0) + 1
            content = SoapAdapter.Deserialize(etree.tostring(element), PC.ObjectContent, self.stub)
            return from_object_content(content)

    def _fast(self, element: Any) -> Item:
        ref = None
        props: dict[str, Any] = {}
        for child in element:
            tag = child.tag
            if tag == self.tag_propset:
                name, value, val = None, None, None
                for part in child:
                    if part.tag == self.tag_name:
                        name = part.text
                    elif part.tag == self.tag_val:
                        val = part
                    elif isinstance(part.tag, str):
                        raise Unexpected(f"propSet has an element {part.tag}")
                if not name:
                    raise Unexpected("propSet without a name")
                if val is not None:
                    value = self.builder.value(val, object, self.projections.get(name))
                props[PropertyPath(name)] = value
            elif tag == self.tag_obj:
                ref = self.builder.value(child, VmomiSupport.ManagedObject)
            elif tag == self.tag_missing:
                raise Unexpected("a missing property")  # its fault is read by pyvmomi
            elif isinstance(tag, str):
                raise Unexpected(f"objects has an element {tag}")
        if ref is None:
            raise Unexpected("objects without obj")
        return Item(ref=ref, props=props, missing={})

    def page(self, body: bytes) -> Page:
        with PARSING:
            return self._page(body)

    def _page(self, body: bytes) -> Page:
        items: list[Item] = []
        token: str | None = None
        events = etree.iterparse(
            io.BytesIO(body),
            events=("start-ns", "end"),
            tag=(self.tag_objects, self.tag_token, self.tag_fault),
            resolve_entities=False,
            no_network=True,
            remove_comments=True,
        )
        for event, element in events:
            if event == "start-ns":
                self.namespaces.declare(*element)
                continue
            if element.tag == self.tag_fault:
                raise http.client.HTTPException("a SOAP fault in an HTTP 200 answer")
            parent = element.getparent()
            if parent is None or parent.tag != self.tag_returnval:
                continue  # a property of that name inside an object's data: read with its object
            if element.tag == self.tag_objects:
                items.append(self.item(element))
            else:
                token = element.text or None
            # Drop what is built: this element's subtree and the siblings before it.
            element.clear()
            while element.getprevious() is not None:
                del parent[0]
        return Page(items=items, token=token, fallbacks=self.fallbacks)


def _set_session_id(stub: Any, session: str) -> None:
    setter: Any = StubAdapterBase.SetSessionId
    setter(stub, session)


def _headers(stub: Any) -> dict[str, str]:
    headers = {
        "Cookie": stub.cookie,
        "SOAPAction": stub.versionId,
        "Content-Type": f"text/xml; charset={SoapAdapter.XML_ENCODING}",
        "User-Agent": "hostlint (pyvmomi transport)",
    }
    if stub._customHeaders:
        headers.update(stub._customHeaders)
    if stub._acceptCompressedResponses:
        headers["Accept-Encoding"] = "gzip, deflate"
    return headers


def invoke(stub: Any, mo: Any, method: str, args: list[Any], read: Callable[[Any], T]) -> T:
    """Call `method` on `mo` as pyvmomi would, with the HTTP 200 body streamed into `read`.

    A fault comes back as pyvmomi's exception; a broken connection drops the pool as pyvmomi does.
    The call, from connection to last byte, is bounded by the stub's deadline (deadline.DeadlineStub).
    """
    with stub_deadline(stub):
        return _invoke(stub, mo, method, args, read)


def _invoke(stub: Any, mo: Any, method: str, args: list[Any], read: Callable[[Any], T]) -> T:
    info = mo._GetMethodInfo(method)
    body = stub.SerializeRequest(mo, info, args)
    for modifier in stub.requestModifierList:
        body = modifier(body)
    connection = stub.GetConnection()
    try:
        connection.request("POST", stub.path, body, _headers(stub))
        response = connection.getresponse()
    except (OSError, http.client.HTTPException):
        connection.close()
        stub.DropConnections()
        raise
    cookie = response.getheader("Set-Cookie") or response.getheader("set-cookie")
    if cookie:
        # as pyvmomi's InvokeMethod keeps it
        stub.cookie = cookie
        session = SimpleCookie(cookie).get(SoapAdapter.COOKIE_NAME)
        if session:
            _set_session_id(stub, session.value)
    if response.status not in (200, 500):
        connection.close()
        raise http.client.HTTPException(f"{response.status} {response.reason}")
    try:
        stream = _decoded(response)
        if response.status == 500:
            fault = SoapAdapter.SoapResponseDeserializer(stub).Deserialize(stream, info.result)
            response.read()
        else:
            try:
                page = read(stream)
            except etree.XMLSyntaxError as exc:
                raise http.client.HTTPException(f"unreadable answer to {method}: {exc}") from exc
            response.read()
    except BaseException:
        connection.close()
        stub.DropConnections()
        raise
    stub.ReturnConnection(connection)
    if response.status == 500:
        if isinstance(fault, BaseException):
            raise fault
        raise http.client.HTTPException(f"500 {response.reason}: not a SOAP fault")
    return page


def _decoded(response: http.client.HTTPResponse) -> Any:
    encoding = (response.getheader("Content-Encoding") or "identity").lower()
    if encoding == "gzip":
        return SoapAdapter.GzipReader(response, encoding=SoapAdapter.GzipReader.GZIP)
    if encoding == "deflate":
        return SoapAdapter.GzipReader(response, encoding=SoapAdapter.GzipReader.DEFLATE)
    return response


def call(stub: Any, mo: Any, method: str, args: list[Any]) -> Any:
    """A method with a small answer (read whole): built by the fast builder, else by pyvmomi from the same bytes."""
    info = mo._GetMethodInfo(method)
    data: bytes = invoke(stub, mo, method, args, lambda stream: stream.read())
    try:
        return _answer(stub, info, data)
    except FAST_PATH_ERRORS:
        return SoapAdapter.SoapResponseDeserializer(stub).Deserialize(data, info.result)


_parsers = threading.local()


def _whole_parser() -> Any:
    """This thread's parser for small answers (an lxml parser is used by one thread at a time)."""
    parser = getattr(_parsers, "whole", None)
    if parser is None:
        parser = _parsers.whole = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    return parser


def _answer(stub: Any, info: Any, data: bytes) -> Any:
    """A small answer (a host's hints, its iSCSI bindings), parsed whole: libxml2 parses it with the GIL
    let go once, where iterparse would take it back at every element, so it needs no PARSING. A type
    named in an `xsi:type` resolves through each element's own in-scope namespaces."""
    namespace = VmomiSupport.GetWsdlNamespace(stub.version)
    builder = Builder(stub, Namespaces(exact=True))
    result_type = info.result
    many = issubclass(result_type, list)
    result: Any = result_type() if many else None
    response, returnval = f"{{{namespace}}}{info.wsdlName}Response", f"{{{namespace}}}returnval"
    try:
        root = etree.fromstring(data, _whole_parser())
    except etree.XMLSyntaxError as exc:  # as for a page: the caller names the call that got it (hints.py)
        raise http.client.HTTPException(f"unreadable answer to {info.wsdlName}: {exc}") from exc
    answer = next(root.iter(response), None)
    if answer is None:
        raise Unexpected(f"no {info.wsdlName}Response in the answer")
    for element in answer.iterchildren(returnval):
        value = builder.value(element, result_type)
        if many and not isinstance(value, list):
            result.append(value)
        else:
            result = value
    return result


def retrieve_pages(
    collector: Any,
    stub: Any,
    spec: Any,
    page_size: int,
    on_call: Callable[[str], None],
    projections: dict[str, Projection] | None = None,
) -> Iterator[Page]:
    """Every page of one property collector query; `on_call` hears each SOAP method as it is called.

    `projections`: by property path, the part of each value the collector reads (fastparse.Projection).
    """
    options = PC.RetrieveOptions(maxObjects=page_size)

    def read(stream: Any) -> Page:
        return _Reader(stub, projections).page(stream.read())

    page = invoke(stub, collector, "RetrievePropertiesEx", [[spec], options], read)
    on_call("RetrievePropertiesEx")
    while True:
        yield page
        if not page.token:
            return
        token = page.token
        page = invoke(stub, collector, "ContinueRetrievePropertiesEx", [token], read)
        on_call("ContinueRetrievePropertiesEx")
