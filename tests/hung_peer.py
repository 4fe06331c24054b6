"""A loopback server that takes connections and never answers: plain TCP, or after a completed TLS handshake.

with HungPeer(tls=True) as peer:
    peer.port   # connect here; nothing ever comes back
"""

from __future__ import annotations

import datetime
import socket
import ssl
import tempfile
import threading
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


class HungPeer:
    def __init__(self, tls: bool = False):
        self.tls = tls
        self.handshakes = 0
        self._held: list[socket.socket] = []
        self._stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._context: ssl.SSLContext | None = None
        if tls:
            self._folder = tempfile.TemporaryDirectory()
            self._context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self._context.load_cert_chain(*self_signed(Path(self._folder.name)))
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            if self._context is not None:
                conn.settimeout(10)
                try:
                    conn = self._context.wrap_socket(conn, server_side=True)
                    self.handshakes += 1
                except (OSError, ssl.SSLError):
                    conn.close()
                    continue
            self._held.append(conn)  # read nothing, answer nothing, close nothing until the end

    def __enter__(self) -> HungPeer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join(5)
        for conn in self._held:
            conn.close()
        self._listener.close()
        if self.tls:
            self._folder.cleanup()
