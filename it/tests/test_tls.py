# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""OpenFlow over TLS (`OKO_OPENFLOW_TLS=yes make up`, README): the bridge's only controller connection is TLS and
carries Oko's messages; the listeners take no plain TCP and refuse a switch without a certificate signed by the
switch CA. The next module's plain `make up` goes back to TCP (its tests would fail otherwise)."""
import socket
import ssl
import struct
import subprocess

import pytest
import requests

from conftest import System
from helpers import AUTH, wait_for

OFPT_HELLO = 0
OF13 = 4


@pytest.fixture(scope="module")
def tls_system():
    s = System()
    s.env["OKO_OPENFLOW_TLS"] = "yes"
    try:
        s.up()
    except BaseException:
        s.down()
        raise
    try:
        yield s
    finally:
        s.down()


def _hello_reply(sock):
    """Sends an OpenFlow 1.3 HELLO and returns the header of what comes back (b'' if the peer closed)."""
    sock.sendall(struct.pack("!BBHI", OF13, OFPT_HELLO, 8, 1))
    reply = b""
    while len(reply) < 8:
        chunk = sock.recv(8 - len(reply))
        if not chunk:
            break
        reply += chunk
    return reply


def _tls_hello(system, certfile=None, keyfile=None, port=None):
    """A TLS client to the controller's OpenFlow listener that trusts the controller CA; returns the reply header
    to its HELLO, or the exception that ended the session."""
    pki = system.run_dir / "pki"
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False          # Open vSwitch checks the chain only, as here
    context.load_verify_locations(pki / "controllerca" / "cacert.pem")
    if certfile:
        context.load_cert_chain(certfile, keyfile)
    raw = socket.create_connection(("127.0.0.1", port or int(system.env["OKO_OF_PORT"])), timeout=10)
    try:
        with context.wrap_socket(raw) as tls:
            return _hello_reply(tls)
    except (ssl.SSLError, ConnectionError, socket.timeout) as e:
        return e
    finally:
        raw.close()


def test_the_bridge_connects_over_tls_and_oko_messages_cross_it(tls_system):
    s = tls_system
    target = s.sh(f"ovs-vsctl get controller {s.bridge} target").stdout.strip()
    assert target == f'"ssl:127.0.0.1:{s.env["OKO_OF_PORT"]}"', target
    assert s.sh(f"ovs-vsctl get controller {s.bridge} is_connected").stdout.strip() == "true"
    # LOAD_PROG (an Oko experimenter message) can only reach the switch through that connection.
    headers = {"Accept": "application/json"}
    r = requests.put(f"{s.restconf}/data/oko:programs/program=over-tls", auth=AUTH, headers=headers, timeout=30,
                     json={"oko:program": [{"name": "over-tls", "library-filter": "baseline"}]})
    assert r.status_code in (200, 201, 204), r.text
    entry = f"{s.restconf}/data/oko:switches/switch={s.node_id}/program=61"
    r = requests.put(entry, auth=AUTH, headers=headers, timeout=30,
                     json={"oko:program": [{"program-id": 61, "program": "over-tls"}]})
    assert r.status_code in (200, 201, 204), r.text

    def installed():
        r = requests.get(entry + "?content=nonconfig", auth=AUTH, headers=headers, timeout=30)
        return r.status_code == 200 and '"status":"installed"' in r.text.replace(" ", "")
    wait_for(installed, 60, "program 61 installed over TLS")
    assert "program 61:" in s.sh(f"ovs-appctl oko/show {s.bridge}").stdout
    for path in (entry, f"{s.restconf}/data/oko:programs/program=over-tls"):
        requests.delete(path, auth=AUTH, timeout=30)


def test_a_certificate_signed_by_the_switch_ca_gets_the_controllers_hello(tls_system):
    pki = tls_system.run_dir / "pki"
    for port in (int(tls_system.env["OKO_OF_PORT"]), 6633):
        reply = _tls_hello(tls_system, pki / "sc-cert.pem", pki / "sc-privkey.pem", port=port)
        assert isinstance(reply, bytes) and len(reply) == 8, (port, reply)
        assert reply[1] == OFPT_HELLO, (port, reply)


def test_a_switch_without_a_valid_certificate_is_refused(tls_system, tmp_path):
    log = tls_system.karaf / "data" / "log" / "karaf.log"
    before = log.read_text().count("\n")
    # A certificate of its own making (not signed by the switch CA).
    key, cert = tmp_path / "self-key.pem", tmp_path / "self-cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=rogue",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    for name, reply in (("self-signed", _tls_hello(tls_system, cert, key)),
                        ("no certificate", _tls_hello(tls_system))):
        # Refused: the handshake fails, or (TLS 1.3: the client's side of the handshake ends first) the
        # session ends before any OpenFlow message; never a HELLO.
        assert not (isinstance(reply, bytes) and len(reply) == 8), (name, reply)
    # Plain TCP: no OpenFlow answer.
    with socket.create_connection(("127.0.0.1", int(tls_system.env["OKO_OF_PORT"])), timeout=10) as plain:
        try:
            reply = _hello_reply(plain)
        except (ConnectionError, socket.timeout) as e:
            reply = e
    assert not (isinstance(reply, bytes) and len(reply) == 8 and reply[0] == OF13), reply
    # Each refusal is a few lines in karaf.log (it/system/one-line-logging.cfg), not a stack trace (26 lines).
    wait_for(lambda: "not an SSL/TLS record" in log.read_text(), 10, "the plain connection in karaf.log")
    added = log.read_text().splitlines()[before:]
    assert not any(line.startswith("\tat ") for line in added), "\n".join(added[:40])
    assert len(added) <= 15, "\n".join(added)
    # The bridge stays connected through all of it.
    assert tls_system.sh(f"ovs-vsctl get controller {tls_system.bridge} is_connected").stdout.strip() == "true"
