"""Fixtures every test module may name as a parameter, from the shared builders in tests/support/.

A test module imports helpers from tests/support/, never from another test module
(tests/test_test_imports.py); a fixture it takes from here it does not import at all.
"""

from support.history_db import db_url, pg_admin_url
from support.probe_fabric import fabric, scenario
from support.probe_kvm_estate import kvm_estate
from support.vcsim import vcsim_binary

__all__ = ["db_url", "fabric", "kvm_estate", "pg_admin_url", "scenario", "vcsim_binary"]
