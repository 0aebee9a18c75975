# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""Helpers shared by the end-to-end tests."""
import json
import os
import pathlib
import socket
import struct
import subprocess
import threading
import time

import requests
import urllib3

REPO = pathlib.Path(__file__).resolve().parents[2]


class AdminAuth(requests.auth.AuthBase):
    """The controller's admin user, with the password `make up` generated at the first start
    (`.run/admin-password`, or under OKO_RUN). Read at each request: the file appears when the system first
    starts, and `make reset` makes a new one."""

    def __call__(self, request):
        password = (pathlib.Path(os.environ.get("OKO_RUN", REPO / ".run")) / "admin-password").read_text().strip()
        return requests.auth.HTTPBasicAuth("admin", password)(request)


AUTH = AdminAuth()


def put(url, body):
    """A RESTCONF PUT as the admin user that must succeed (200, 201 or 204)."""
    r = requests.put(url, json=body, auth=AUTH, timeout=60)
    assert r.status_code in (200, 201, 204), r.text
    return r


def wait_for(predicate, timeout, what):
    """predicate()'s first true value, polled every second; fails with `what` after `timeout` seconds."""
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.time() < deadline, what
        time.sleep(1)


def udp_frame(source="10.0.0.2", payload=b""):
    """An Ethernet/IPv4/UDP frame from source:1000 to 10.0.0.1:53, as hex for ovs-ofctl packet-out."""
    eth = bytes.fromhex("000000000001" "000000000002" "0800")
    udp = struct.pack("!HHHH", 1000, 53, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes(int(o) for o in source.split(".")), bytes([10, 0, 0, 1]))
    return (eth + ip + udp).hex()


class MapsReceivedSubscriber:
    """An application subscribed to oko:maps-received over a RESTCONF notification stream (server-sent
    events): listens in a thread until an event contains `until` (with `until` None: until the member's stream
    ends or stays silent for `silence` seconds)."""

    def __init__(self, restconf, auth, until, silence=60):
        r = requests.post(f"{restconf}/operations/sal-remote:create-notification-stream", auth=auth, timeout=30,
                          json={"input": {"notifications": [
                              "(urn:opendaylight:oko?revision=2026-11-23)maps-received"]}})
        assert r.status_code == 200, r.text
        stream = r.json()["sal-remote:output"]["notification-stream-identifier"]
        r = requests.get(f"{restconf}/data/ietf-restconf-monitoring:restconf-state/streams/stream={stream}",
                         auth=auth, timeout=30)
        self.location = next(a["location"] for a in r.json()["ietf-restconf-monitoring:stream"][0]["access"]
                             if a["encoding"] == "json")
        self.auth, self.until, self.silence, self.events = auth, until, silence, []
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()
        time.sleep(2)                   # the subscription is in place before the caller's traffic

    def _listen(self):
        try:
            with requests.get(self.location, auth=self.auth, stream=True, timeout=(10, self.silence),
                              headers={"Accept": "text/event-stream"}) as sse:
                # read1: what has arrived, as it arrives (requests' iter_lines waits for a full buffer, and the
                # last event would stay there until more come).
                pending = b""
                while chunk := sse.raw.read1(65536):
                    *lines, pending = (pending + chunk).split(b"\n")
                    for line in lines:
                        if line.startswith(b"data:"):
                            self.events.append(json.loads(line[len(b"data:"):]))
                            if self.until is not None and self.until.encode() in line:
                                return
        except (requests.RequestException, urllib3.exceptions.HTTPError):
            pass                        # the member went away (the cluster tests kill one) or fell silent

    def notifications(self):
        """The maps-received notifications received so far."""
        return [e["ietf-restconf:notification"]["oko:maps-received"] for e in list(self.events)
                if "oko:maps-received" in e.get("ietf-restconf:notification", {})]

    def received(self, timeout=60):
        """The maps-received notifications that contain `until`, once one arrived (or after `timeout`)."""
        self.thread.join(timeout)
        return [n for n in self.notifications() if self.until in json.dumps(n)]


class LocalPortSource:
    """UDP packets from one IPv4 source into a bridge's own (LOCAL) port at a steady rate, from a thread: written
    to the bridge's tap device, so the switch receives them without an OpenFlow message (ovs-ofctl packet-out
    would add its own connection's messages to the switch's OpenFlow log)."""

    def __init__(self, bridge, source, per_second):
        self.bridge, self.frame, self.interval = bridge, bytes.fromhex(udp_frame(source)), 1 / per_second
        self.stopping = threading.Event()
        self.sent = 0
        self.thread = None

    def start(self):
        subprocess.run(["ip", "link", "set", self.bridge, "up"], check=True, capture_output=True)
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        sock.bind((self.bridge, 0))

        def send():
            with sock:
                while not self.stopping.wait(self.interval):
                    sock.send(self.frame)
                    self.sent += 1
        self.thread = threading.Thread(target=send, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.stopping.set()
        if self.thread:
            self.thread.join(10)
