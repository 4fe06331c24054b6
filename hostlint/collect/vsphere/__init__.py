"""vCenter / ESXi through the vSphere API (pyvmomi): bulk property retrieval into a snapshot."""

from hostlint.collect.progress import Progress
from hostlint.collect.vsphere.collector import Collection, collect
from hostlint.collect.vsphere.connect import (
    Endpoint,
    UnreachableError,
    UsageError,
    VsphereError,
    connect,
    disconnect,
    parse_server,
    tls_context,
)

__all__ = [
    "Collection",
    "Endpoint",
    "Progress",
    "UnreachableError",
    "UsageError",
    "VsphereError",
    "collect",
    "connect",
    "disconnect",
    "parse_server",
    "tls_context",
]
