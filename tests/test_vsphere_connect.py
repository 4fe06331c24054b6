"""Where `--server` points and how TLS is set up, without a server."""

from __future__ import annotations

import ssl

import pytest
from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.vsphere import Endpoint, UsageError, parse_server, tls_context


@pytest.mark.parametrize(
    ("server", "endpoint"),
    [
        ("vc01.example.net", Endpoint("vc01.example.net", 443, "/sdk")),
        ("vc01.example.net:8443", Endpoint("vc01.example.net", 8443, "/sdk")),
        ("https://vc01.example.net/sdk", Endpoint("vc01.example.net", 443, "/sdk")),
        ("https://127.0.0.1:9443/sdk/", Endpoint("127.0.0.1", 9443, "/sdk")),
        ("[2001:db8::10]:443", Endpoint("2001:db8::10", 443, "/sdk")),
        (" esx01 ", Endpoint("esx01", 443, "/sdk")),
    ],
)
def test_server_forms(server, endpoint):
    assert parse_server(server) == endpoint


@pytest.mark.parametrize("server", ["", "http://vc01.example.net", "vc01:notaport", "https:///sdk"])
def test_bad_servers_are_usage_errors(server):
    with pytest.raises(UsageError):
        parse_server(server)


def test_endpoint_names_itself_without_the_default_port():
    assert str(parse_server("vc01")) == "vc01"
    assert str(parse_server("vc01:8443")) == "vc01:8443"
    assert str(parse_server("[2001:db8::10]:8443")) == "[2001:db8::10]:8443"


def test_tls_is_verified_unless_insecure():
    assert tls_context().verify_mode == ssl.CERT_REQUIRED
    assert tls_context().check_hostname
    insecure = tls_context(insecure=True)
    assert insecure.verify_mode == ssl.CERT_NONE and not insecure.check_hostname


def test_unreadable_ca_bundle_is_a_usage_error(tmp_path):
    bundle = tmp_path / "ca.pem"
    bundle.write_text("not a certificate")
    with pytest.raises(UsageError, match="cannot load"):
        tls_context(ca_bundle=bundle)


def test_unreachable_server_is_a_collection_failure_exit_3(tmp_path):
    out = tmp_path / "snap.json"
    args = ["collect", "vsphere", "--server", "127.0.0.1:1", "--insecure", "-o", str(out)]
    outcome = CliRunner().invoke(cli, args, env={"HOSTLINT_VSPHERE_PASSWORD": "x"}, standalone_mode=False)
    assert outcome.return_value == Exit.PARTIAL
    assert "127.0.0.1:1: cannot connect" in outcome.stderr
    assert not out.exists()
