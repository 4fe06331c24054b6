"""Huawei VRP (S-series, VRP 5) and CloudEngine (VRP 8) switches: everything hostlint knows of them.

One folder (docs/design/platform-folders.md, "The folder"): `platform.py` (the registry entry),
`spec.yaml` with a ttp template and the project's own sample per command, `records.py` (a typed model per
template group), `assemble.py` (records -> the snapshot's `Switch`), `names.py`, `hashes.py`,
`members.py`, `mtu.py`, `families.py` (VRP 5 vs VRP 8) and `fixes.yaml` (the text of every switch action).
Nothing outside `hostlint/switches/` imports this package directly.
"""
