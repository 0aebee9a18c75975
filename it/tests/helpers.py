# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""Helpers shared by the end-to-end tests."""
import struct
import time


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
