# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""Helpers shared by the end-to-end tests."""
import json
import os
import pathlib
import struct
import threading
import time

import requests

REPO = pathlib.Path(__file__).resolve().parents[2]


class AdminAuth(requests.auth.AuthBase):
    """The controller's admin user, with the password `make up` generated at the first start
    (`.run/admin-password`, or under OKO_RUN). Read at each request: the file appears when the system first
    starts, and `make reset` makes a new one."""

    def __call__(self, request):
        password = (pathlib.Path(os.environ.get("OKO_RUN", REPO / ".run")) / "admin-password").read_text().strip()
        return requests.auth.HTTPBasicAuth("admin", password)(request)


AUTH = AdminAuth()


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
    events): listens in a thread until an event contains `until`."""

    def __init__(self, restconf, auth, until):
        r = requests.post(f"{restconf}/operations/sal-remote:create-notification-stream", auth=auth, timeout=30,
                          json={"input": {"notifications": [
                              "(urn:opendaylight:oko?revision=2026-11-23)maps-received"]}})
        assert r.status_code == 200, r.text
        stream = r.json()["sal-remote:output"]["notification-stream-identifier"]
        r = requests.get(f"{restconf}/data/ietf-restconf-monitoring:restconf-state/streams/stream={stream}",
                         auth=auth, timeout=30)
        self.location = next(a["location"] for a in r.json()["ietf-restconf-monitoring:stream"][0]["access"]
                             if a["encoding"] == "json")
        self.auth, self.until, self.events = auth, until, []
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()
        time.sleep(2)                   # the subscription is in place before the caller's traffic

    def _listen(self):
        with requests.get(self.location, auth=self.auth, stream=True, timeout=(10, 60),
                          headers={"Accept": "text/event-stream"}) as sse:
            for line in sse.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    self.events.append(json.loads(line[len("data:"):]))
                    if self.until in line:
                        return

    def received(self, timeout=60):
        """The maps-received notifications that contain `until`, once one arrived (or after `timeout`)."""
        self.thread.join(timeout)
        notifications = [e["ietf-restconf:notification"]["oko:maps-received"] for e in self.events
                         if "oko:maps-received" in e.get("ietf-restconf:notification", {})]
        return [n for n in notifications if self.until in json.dumps(n)]
