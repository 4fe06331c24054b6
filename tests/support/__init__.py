"""Shared test builders: what more than one test module needs, so no test module imports another.

- `support.vcsim`: the vCenter simulator's launcher (sim/vcsim/launcher.py, loaded once), its skip marks and
  the session fixture `vcsim_binary`;
- `support.fix_sites`: the small ESXi site per switch platform and the findings the fix-writer tests plan;
- `support.kvm_sites`: the KVM lab and the small KVM site per switch platform;
- `support.site_strategy`: random sites (hypothesis) for the plan invariants (bench/plan_invariants.py too);
- `support.script_probe`: what the fix-script tests read out of a written script (stubs, syntax, comments);
- `support.powercli_reference`: the PowerCLI cmdlets and parameters a PowerShell fix script may use;
- `support.join_builders`: hosts and switches for the join tests;
- `support.cli`: `run`, the command line in process;
- `support.history_db`: the SQLite and PostgreSQL history databases (fixtures);
- `support.probe_fabric`, `support.probe_kvm_estate`: the namespaces `hostlint probe` pings through (fixtures);
- `support.browser`: the headless Chromium the report tests render with;
- `support.moved`: old names other branches still import from a test module, answered from here.

Fixtures are registered for every test module in tests/conftest.py: a test names them as parameters and
imports nothing. tests/test_test_imports.py fails, naming the file and line, when a module under tests/
imports a test module, and says what to import instead.

Not here, on purpose: the stand-ins for real programs and servers, which tests run or serve rather than
import as builders (tests/esxcli_emulator.py, tests/nmcli_emulator.py, tests/emulator_state.py and
tests/libvirt_state.py are installed on PATH as commands; tests/esxi_shell.py, tests/loopback_ssh.py,
tests/hung_peer.py, tests/dripping_peer.py serve on loopback; tests/switch_emulator/ and tests/pg/ are
packages of their own), and tests/captured_switches.py, a command the README documents. tests/switch_rehearsal.py
belongs here but stays until issue 26's rollback work, which changes its imports, has merged.
"""
