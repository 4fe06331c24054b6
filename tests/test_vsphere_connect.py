"""Where `--server` points and how TLS is set up, without a server."""

from __future__ import annotations

import ssl

import pytest
from click.testing import CliRunner
from dripping_peer import DrippingPeer

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.vsphere import Endpoint, UsageError, parse_server, tls_context
from hostlint.collect.vsphere.connect import display_server, shown


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


@pytest.mark.parametrize(
    ("server", "advice"),
    [
        ("::1", "use [::1]"),
        ("2001:db8::10", "use [2001:db8::10]"),
        ("https://fe80::1/sdk", "use [fe80::1]"),
        ("2001:db8::1::2", "use [ADDRESS]"),  # not an address, but written like one
    ],
)
def test_a_bare_ipv6_address_is_answered_with_how_to_write_it(server, advice):
    with pytest.raises(UsageError) as refused:
        parse_server(server)
    assert "an IPv6 address goes in brackets" in str(refused.value)
    assert advice in str(refused.value)
    assert "cast" not in str(refused.value)


@pytest.mark.parametrize(
    "server",
    [
        "admin:Pa55word!@vc01.example.net",
        "https://admin:Pa55word!@vc01.example.net/sdk",
        "https://admin:Pa55word!@vc01.example.net:notaport/sdk",  # malformed too: still never echoed
        "admin:Pa55word!@[::1]:8443",
        "Pa55word!@vc01",
    ],
)
def test_credentials_inside_the_server_are_refused_and_never_echoed(server, tmp_path):
    with pytest.raises(UsageError) as refused:
        parse_server(server)
    assert "Pa55word" not in str(refused.value) and "admin" not in str(refused.value)
    assert "--user" in str(refused.value)
    out = tmp_path / "snap.json"
    args = ["collect", "vsphere", "--server", server, "-o", str(out)]
    outcome = CliRunner().invoke(cli, args, env={"HOSTLINT_VSPHERE_PASSWORD": "x"}, standalone_mode=False)
    assert outcome.return_value == Exit.USAGE
    assert "Pa55word" not in outcome.output + outcome.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("server", "name"),
    [
        ("https://[::1]:8443/sdk", "[::1]:8443"),
        ("https://vc01.example.net/sdk", "vc01.example.net"),
        ("vc01:8443", "vc01:8443"),
        ("admin:secret@vc01", "vc01"),  # refused for collection; named without the password
    ],
)
def test_source_names_are_readable(server, name):
    assert display_server(server) == name


def test_a_garbled_server_with_two_colons_is_not_taken_for_ipv6():
    with pytest.raises(UsageError) as refused:
        parse_server("vc01:443:x")
    assert "IPv6" not in str(refused.value)


def test_a_foreign_reply_is_shown_escaped_and_cut():
    reply = "SSH-2.0-OpenSSH_9.6\r\n\x1b[31m" + "x" * 500
    text = shown(reply)
    assert text.startswith("'SSH-2.0-OpenSSH_9.6\\r\\n\\x1b[31m")
    assert text.endswith("... (526 characters)")
    assert text.isprintable() and len(text) < 100


def test_a_non_http_server_is_named_with_its_reply_escaped_and_cut(tmp_path):
    """A TLS service that is not HTTP (here one that greets like SSH, with a terminal colour code) on the port."""
    greeting = b"SSH-2.0-OpenSSH_9.6 \x1b[31m\x07" + b"z" * 300 + b"\r\n"
    with DrippingPeer(tls=True, interval=0, answer=greeting) as peer:
        args = ["collect", "vsphere", "--server", f"127.0.0.1:{peer.port}", "--insecure", "--timeout", "5"]
        outcome = CliRunner().invoke(
            cli, [*args, "-o", str(tmp_path / "s.json")], env={"HOSTLINT_VSPHERE_PASSWORD": "x"}, standalone_mode=False
        )
    assert outcome.return_value == Exit.PARTIAL
    [line] = outcome.stderr.splitlines()
    assert line.startswith(
        f"hostlint: 127.0.0.1:{peer.port}: not an HTTP server: during the version probe it answered "
        "'SSH-2.0-OpenSSH_9.6 \\x1b[31m\\x07zzz"
    )
    assert line.endswith("characters)") and "\x1b" not in line and len(line) < 200
