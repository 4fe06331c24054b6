"""Defaults for how long and how wide collection goes, importable without loading any client library."""

VSPHERE_TIMEOUT_S = 120.0  # longest wait for any answer from vCenter/ESXi (connect, TLS, probe, login, each call)
VSPHERE_CONCURRENCY = 8  # parallel per-host calls (CDP/LLDP hints, iSCSI bindings): bench/vsphere.py
KVM_TIMEOUT_S = 60.0  # longest wait for any one answer from a KVM host (each command, each libvirt read, end to end)
