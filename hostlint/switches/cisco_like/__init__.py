"""The Cisco-like base: what IOS, NX-OS and EOS share (docs/design/platform-folders.md, "The folder").

sqlfluff's parent dialect: `cisco_ios/`, `cisco_nxos/` and `arista_eos/` take their pieces from here
and override what differs (the three print the same channel summary legend, read the hash from the
same kind of table, name interfaces with a type word and slot/port numbers, and their templates read
the same fields: `records.py` holds the shared record models, `assemble.py` the one conversion of the
three's records into a `Switch`). It is not a platform:
it holds no `platform.py`, so the registry (hostlint.switches) does not list it and the contract
(hostlint.switches.contract) does not check it; each platform's folder provides its pieces, here or
its own. Modules outside hostlint/switches/ do not import it: they ask the registry for a platform's
piece.
"""
