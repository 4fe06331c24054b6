"""Shared test builders: what more than one test module needs, so no test module imports another.

- `support.vcsim`: the vCenter simulator's launcher (sim/vcsim/launcher.py, loaded once), its skip mark and
  the session fixture `vcsim_binary`;
- `support.fix_sites`: the small ESXi site per switch platform and the findings the fix-writer tests plan;
- `support.kvm_sites`: the KVM lab and the small KVM site per switch platform;
- `support.join_builders`: hosts and switches for the join tests;
- `support.cli`: `run`, the command line in process;
- `support.history_db`: the SQLite and PostgreSQL history databases (fixtures);
- `support.probe_fabric`: the network-namespace fabric `hostlint probe` pings through (fixtures);
- `support.browser`: the headless Chromium the report tests render with.

Fixtures are registered for every test module in tests/conftest.py: a test names them as parameters and
imports nothing. tests/test_test_imports.py fails, naming the file and line, when a test module imports
from another test module.
"""
