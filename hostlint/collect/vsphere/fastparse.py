"""SOAP XML to pyvmomi objects with lxml: the same objects pyvmomi's own deserialiser builds, faster.

pyvmomi turns a response into objects in expat callbacks and checks every field it sets
(`CheckField`); on a `RetrievePropertiesEx` page of 500 hosts that is most of the collection's
time. Here lxml builds each `<objects>` element as a small tree (in C) and a builder walks it
with per-type tables computed once: the resulting objects are instances of the same pyvmomi
classes with the same attribute values, defaults included, so everything downstream is unchanged.

A `Projection` names the fields the collector reads of a large value (every host's PCI devices, the
candidate VMkernel NICs of each service): only those are built, through lxml's own tag filter, and
every other field of that object holds `NotRead`, which refuses to be used (a conversion that starts
reading a field it did not declare fails loudly, never with a plausible default).

The builder knows the common shapes only: data objects, arrays, strings, numbers, booleans,
enumerations, dates, binary and managed object references. Anything else (an unknown
`xsi:type`, an element the type does not have, a fault inside the data, a server GUID) raises
`Unexpected`, and the caller hands that one object to pyvmomi's deserialiser instead.
"""

from __future__ import annotations

import base64
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pyVmomi import Iso8601 as _iso8601
from pyVmomi import VmomiSupport as _vmomi
from pyVmomi.VmomiSupport import XMLNS_VMODL_BASE, XMLNS_XSI, DataObject, Enum, ManagedObject, binary

# pyvmomi's functions carry no annotations: used through Any, as everything pyvmomi returns is.
VmomiSupport: Any = _vmomi
Iso8601: Any = _iso8601

XSI_TYPE = f"{{{XMLNS_XSI}}}type"


class Unexpected(Exception):
    """A shape the fast path does not handle; the message says which. The object goes to pyvmomi."""


class NotReadError(RuntimeError):
    """A field left out by a projection was used: the projection must name it (a programming error)."""


class NotRead:
    """Stands for a field a projection left out: any use but `repr` and `is` raises NotReadError."""

    __slots__ = ("where",)

    def __init__(self, where: str) -> None:
        self.where = where

    def _refuse(self, *args: object, **kwargs: object) -> Any:
        raise NotReadError(f"{self.where} was not read by the fast parser: name it in the projection (retrieve.py)")

    __bool__ = __eq__ = __ne__ = __hash__ = __iter__ = __len__ = __contains__ = __getitem__ = _refuse
    __str__ = __int__ = __float__ = __index__ = __lt__ = __le__ = __gt__ = __ge__ = __format__ = _refuse

    def __getattr__(self, name: str) -> Any:
        return self._refuse()

    def __repr__(self) -> str:
        return f"<not read: {self.where}>"


@dataclass(frozen=True, eq=False)
class Projection:
    """The part of a data object the collector reads.

    `fields`: only these properties are built (None: all of them); `inner`: how a property's own
    value (each item, for an array) is projected in turn.
    """

    fields: frozenset[str] | None = None
    inner: dict[str, Projection] = field(default_factory=dict)

    @classmethod
    def only(cls, *names: str, **inner: Projection) -> Projection:
        return cls(fields=frozenset(names) | frozenset(inner), inner=inner)

    @classmethod
    def within(cls, **inner: Projection) -> Projection:
        return cls(fields=None, inner=inner)


class _Prop(NamedTuple):
    """One property; `leaf` and `plain` say how an element without `xsi:type` is read, precomputed.

    A tuple: the builder unpacks it once per element, its hottest line.
    """

    name: str
    static: type
    is_list: bool
    leaf: Callable[[str], Any] | None  # its text becomes the value (or an array item)
    plain: type | None  # a data object of this (compatible) type
    projection: Projection | None  # how its value is projected


@dataclass(frozen=True, slots=True)
class _Layout:
    """How to build one data object type: its defaults and properties.

    `template` is the attribute dict of an instance made as DataObject.__init__ makes one (every
    property set in order, unset ones to their defaults): copying it gives each new object a
    key-sharing dict, as small as pyvmomi's own, with list properties then made per object.
    """

    template: dict[str, Any]
    lists: tuple[tuple[str, type], ...]
    props: dict[str, _Prop]  # by element tag, namespace included
    wanted: tuple[str, ...] | None  # with a projection: the tags of the fields built


def _default(info: Any) -> Any:
    """What DataObject.__init__ gives a property that is not set (lists are made per object)."""
    ptype = info.type
    if info.flags & VmomiSupport.F_OPTIONAL:
        return None
    if ptype is bool:
        return False
    if issubclass(ptype, Enum):
        return None
    if issubclass(ptype, str):
        return ""
    if issubclass(ptype, int | float):
        return ptype(0)
    return None


_set = object.__setattr__  # past DataObject.__setattr__ and its CheckField, as DataObject.__init__ does


def _local(tag: str) -> tuple[str, str]:
    namespace, _, name = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    return namespace, name


# What a leaf element's text becomes, by the (compatible) type pyvmomi would give it.
_BOOLEANS = {"true": True, "false": False, "1": True, "0": False}


def _bool(text: str) -> bool:
    found = _BOOLEANS.get(text)
    if found is not None:
        return found
    if text.lower() == "false":
        return False
    if text == "1" or text.lower() == "true":
        return True
    raise Unexpected(f"not a boolean: {text!r}")


def _datetime(text: str) -> Any:
    value = Iso8601.ParseISO8601(text)
    if not value:
        raise Unexpected(f"not a date: {text!r}")
    return value


def _binary(text: str) -> Any:
    return binary(base64.b64decode(text))


class Namespaces:
    """The namespace prefixes declared in one document, as lxml's `start-ns` events report them.

    While every prefix keeps one meaning, an `xsi:type` value resolves through this table (and a
    cache of the values seen); a prefix declared again with another meaning switches to each
    element's own in-scope namespaces, exact and slower (`exact`: from the start, for a document
    parsed whole).
    """

    def __init__(self, exact: bool = False) -> None:
        self.bound: dict[str, str] = {}
        self.exact = exact
        self.resolved: dict[str, tuple[str, str]] = {}

    def declare(self, prefix: str, uri: str) -> None:
        if self.bound.setdefault(prefix, uri) != uri:
            self.exact = True

    def resolve(self, element: Any, value: str) -> tuple[str, str]:
        """A qualified name in an attribute value (`xsd:string`, `HostSystem`) as (namespace, name)."""
        if not self.exact:
            found = self.resolved.get(value)
            if found is not None:
                return found
        prefix, _, name = value.rpartition(":")
        namespace = element.nsmap.get(prefix or None) if self.exact else self.bound.get(prefix)
        if namespace is None:
            raise Unexpected(f"undeclared namespace prefix in {value!r}")
        if not self.exact:
            self.resolved[value] = (namespace, name)
        return namespace, name


class Tables:
    """Per-type tables for one API version: computed once, shared by every builder (and thread)."""

    def __init__(self, version: str) -> None:
        self._version = version
        self._types: dict[tuple[str, str], type] = {}
        self._layouts: dict[type, _Layout] = {}  # unprojected
        self._projected: dict[tuple[type, Projection], _Layout] = {}
        self._leaves: dict[type, Callable[[str], Any] | None] = {}
        self._compatible: dict[type, type] = {}

    def wsdl_type(self, namespace: str, name: str) -> type:
        """pyvmomi's type for a qualified WSDL name, as its deserialiser looks it up (no guessing)."""
        key = (namespace, name)
        found = self._types.get(key)
        if found is None:
            try:
                found = VmomiSupport.GetWsdlType(namespace, name)
            except KeyError:
                if name.endswith("ManagedObjectReference"):
                    try:
                        found = VmomiSupport.GetWsdlType(XMLNS_VMODL_BASE, name[: -len("Reference")])
                    except KeyError:
                        found = None
                if found is None:
                    raise Unexpected(f"unknown type {{{namespace}}}{name}") from None
            self._types[key] = found
        return found

    def compatible(self, kind: type) -> type:
        found = self._compatible.get(kind)
        if found is None:
            found = VmomiSupport.GetCompatibleType(kind, self._version)
            self._compatible[kind] = found
        return found

    def layout(self, kind: Any, projection: Projection | None = None) -> _Layout:
        found = self._layouts.get(kind) if projection is None else self._projected.get((kind, projection))
        if found is None:
            namespace = VmomiSupport.GetWsdlNamespace(kind._version)
            template = object.__new__(kind)
            lists: list[tuple[str, type]] = []
            props: dict[str, _Prop] = {}
            fields = projection.fields if projection is not None else None
            for info in kind._GetPropertyList():
                if fields is not None and info.name not in fields:
                    _set(template, info.name, NotRead(f"{kind.__name__}.{info.name}"))
                    continue
                is_list = issubclass(info.type, list)
                if is_list:
                    lists.append((info.name, info.type))
                _set(template, info.name, None if is_list else _default(info))
                plain_type = self.compatible(info.type.Item if is_list else info.type)
                try:
                    leaf = self.leaf(plain_type)
                except Unexpected:
                    leaf = None  # read through `value`, which says what is unexpected when it comes
                plain = plain_type if leaf is None and issubclass(plain_type, DataObject) else None
                if plain is not None and issubclass(plain, Exception):
                    plain = None
                inner = projection.inner.get(info.name) if projection is not None else None
                props[f"{{{namespace}}}{info.name}"] = _Prop(info.name, info.type, is_list, leaf, plain, inner)
            wanted = tuple(props) if fields is not None else None
            found = _Layout(template=template.__dict__, lists=tuple(lists), props=props, wanted=wanted)
            if projection is None:
                self._layouts[kind] = found
            else:
                self._projected[(kind, projection)] = found
        return found

    def leaf(self, kind: type) -> Callable[[str], Any] | None:
        """How a leaf's text becomes a value of `kind`; None for types built otherwise (objects, arrays)."""
        if kind in self._leaves:
            return self._leaves[kind]
        convert: Callable[[str], Any] | None
        if issubclass(kind, Exception):
            raise Unexpected("a fault inside the data")
        if kind is bool:
            convert = _bool
        elif kind is str:
            # Interned: the same names, vendors and policies repeat on every host (10,000 hosts in memory at once).
            convert = sys.intern
        elif kind is binary:
            convert = _binary
        elif kind is VmomiSupport.datetime:
            convert = _datetime
        elif kind is type or kind is VmomiSupport.ManagedMethod or kind is object:
            raise Unexpected(f"a value of type {kind.__name__}")
        elif issubclass(kind, DataObject | list | ManagedObject):
            convert = None
        elif issubclass(kind, Enum):
            enum = kind

            def convert(text: str) -> Any:
                try:
                    return getattr(enum, text)
                except AttributeError:
                    raise Unexpected(f"{text!r} is not a value of {enum.__name__}") from None

        elif issubclass(kind, str | int | float):
            convert = kind
        else:
            raise Unexpected(f"a value of type {kind.__name__}")
        self._leaves[kind] = convert
        return convert


_TABLES: dict[str, Tables] = {}


def tables(version: str) -> Tables:
    found = _TABLES.get(version)
    if found is None:
        found = _TABLES.setdefault(version, Tables(version))
    return found


class Builder:
    """Builds pyvmomi objects from the lxml elements of one response document."""

    def __init__(self, stub: Any, namespaces: Namespaces) -> None:
        self._stub = stub
        self.namespaces = namespaces
        self._tables = tables(stub.version)

    def value(self, element: Any, static: type, projection: Projection | None = None) -> Any:
        """One element as pyvmomi would deserialise it where its declared type is `static`."""
        kind = static
        xsi = element.get(XSI_TYPE)
        if xsi is not None:
            if not (static is VmomiSupport.PropertyPath or static is type or static is VmomiSupport.ManagedMethod):
                dynamic = self._tables.wsdl_type(*self.namespaces.resolve(element, xsi))
                if not (issubclass(dynamic, list) and issubclass(static, list)):
                    kind = dynamic
        elif issubclass(static, list):
            kind = static.Item  # type: ignore[attr-defined]
        kind = self._tables.compatible(kind)
        convert = self._tables.leaf(kind)
        if convert is not None:
            if len(element):
                raise Unexpected(f"{element.tag} has elements inside a {kind.__name__} value")
            return convert(element.text or "")
        if issubclass(kind, list):
            return self._array(element, kind, projection)
        if issubclass(kind, ManagedObject):
            return self._reference(element, kind)
        return self.data_object(element, kind, projection)

    def _array(self, element: Any, kind: type, projection: Projection | None) -> list[Any]:
        item = kind.Item  # type: ignore[attr-defined]
        found = kind()
        for child in element:
            if isinstance(child.tag, str):
                found.append(self.value(child, item, projection))
        return found  # type: ignore[no-any-return]

    def _reference(self, element: Any, kind: type) -> ManagedObject:
        if len(element):
            raise Unexpected(f"{element.tag}: a managed object reference with elements inside")
        if element.get("serverGuid") is not None:
            raise Unexpected("a managed object reference with a server GUID")
        type_name = element.get("type")
        if not type_name:
            raise Unexpected(f"{element.tag}: a managed object reference without a type")
        mo_type = self._tables.wsdl_type(*self.namespaces.resolve(element, type_name))
        return mo_type(element.text or "", self._stub)  # type: ignore[no-any-return]

    def data_object(self, element: Any, kind: type, projection: Projection | None = None) -> DataObject:
        layout = self._tables.layout(kind, projection)
        instance: Any = object.__new__(kind)
        fields = layout.template.copy()
        for name, array in layout.lists:
            fields[name] = array()
        _set(instance, "__dict__", fields)
        props = layout.props
        # With a projection lxml skips, in C, the elements of the fields not built.
        for child in element if layout.wanted is None else element.iterchildren(*layout.wanted):
            prop = props.get(child.tag)
            if prop is None:
                tag = child.tag
                if not isinstance(tag, str):
                    continue  # comments, processing instructions
                raise Unexpected(f"{kind.__name__} has no property {_local(tag)[1]!r}")
            name, static, is_list, leaf, plain, inner = prop
            if child.items():  # attributes: xsi:type, a reference's type
                item = self.value(child, static, inner)
            elif leaf is not None:
                if len(child):
                    raise Unexpected(f"{child.tag} has elements inside a value")
                item = leaf(child.text or "")
            elif plain is not None:
                item = self.data_object(child, plain, inner)
            else:
                item = self.value(child, static, inner)
            if is_list and not isinstance(item, list):
                fields[name].append(item)
            else:
                fields[name] = item
        return instance  # type: ignore[no-any-return]
