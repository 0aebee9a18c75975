# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""SYN traffic for the SYN guard's end-to-end test and its benchmark (bench/syn_guard.py): three clients with
real OS option layouts and two flood tools, sent into dummy port p1 with netdev-dummy/receive in slices; what
left by p2 (its pcap) tells which SYNs passed."""
import time

from scapy.layers.inet import IP, TCP
from scapy.layers.l2 import Ether
from scapy.utils import rdpcap

SERVER = "10.0.2.1"
IPV4_ID = 14 + 4                                    # offsets in the frames (no VLAN, no IP options)
TCP_SPORT = 14 + 20
CLIENTS = {
    # source, TTL, window, options: the layouts of scenario 1 and filter-library/tests/p0f/vectors.json
    "linux": ("10.0.1.1", 64, 29200, [("MSS", 1460), ("SAckOK", b""), ("Timestamp", (777, 0)), ("NOP", None),
                                      ("WScale", 7)]),
    "windows": ("10.0.1.2", 128, 64240, [("MSS", 1460), ("NOP", None), ("WScale", 8), ("NOP", None),
                                         ("NOP", None), ("SAckOK", b"")]),
    "macos": ("10.0.1.3", 64, 65535, [("MSS", 1460), ("NOP", None), ("WScale", 6), ("NOP", None), ("NOP", None),
                                      ("Timestamp", (777, 0)), ("SAckOK", b""), ("EOL", None)]),
}
TOOLS = {
    # source, TTL, window, and the narrowest p0f signature of the tool's SYNs (what the guard must install)
    "window 512": ("198.51.100.9", 64, 512, "4:64:0:*:512,*:::0"),
    "window 1024, ttl 255": ("198.51.100.10", 255, 1024, "4:255:0:*:1024,*:::0"),
}


def add_dummy_ports(system, bridge=None, ports=("p1", "p2")):
    """Dummy ports (traffic in, and to the servers with its pcap read back), OpenFlow ports 1 and 2 of `bridge`
    (the system's by default), new ones with empty pcaps; raises RuntimeError with ovs-vsctl's answer when it
    refuses. Port names are unique in the whole ovs-vswitchd: a second bridge needs others."""
    bridge = bridge or system.bridge
    system.sh(f"ovs-vsctl --if-exists del-port {bridge} {ports[0]} -- --if-exists del-port {bridge} {ports[1]}")
    for number, port in enumerate(ports, start=1):
        (system.run_dir / f"{port}-tx.pcap").unlink(missing_ok=True)
        r = system.sh(f"ovs-vsctl --may-exist add-port {bridge} {port} -- set interface {port} type=dummy "
                      f"ofport_request={number} options:tx_pcap={system.run_dir}/{port}-tx.pcap")
        if r.returncode:
            raise RuntimeError(f"port {port}: {r.stderr}")


def client_syn(kind, sport):
    src, ttl, window, options = CLIENTS[kind]
    return bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
                 IP(src=src, dst=SERVER, ttl=ttl, flags="DF", id=sport) /
                 TCP(sport=sport, dport=80, flags="S", seq=1000 + sport, window=window, options=options))


def tool_syn(kind, sport):
    src, ttl, window, _ = TOOLS[kind]
    return bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
                 IP(src=src, dst=SERVER, ttl=ttl, id=sport) /
                 TCP(sport=sport, dport=80, flags="S", seq=0x5eed, window=window))


class Traffic:
    """Sends the clients' SYNs (client_rate per second together) and a flood's (flood_rate) into port `ports[0]`
    (p1), one netdev-dummy/receive call per slice, and reads what left by `ports[1]` (p2). Each SYN has its own
    source port (and IP id), so that the SYNs that left can be told apart: at most 64,512 SYNs per Traffic."""

    def __init__(self, system, client_rate, flood_rate, slice_seconds=0.2, ports=("p1", "p2")):
        self.system = system
        self.in_port, self.out_port = ports
        self.client_rate = client_rate
        self.flood_rate = flood_rate
        self.slice = slice_seconds
        self.sport = 1023
        self.sent = {}                              # sport -> (kind, time sent)
        # One frame per kind, built once (scapy is slow); each SYN gets its own source port and IP id.
        self.templates = {kind: bytearray(client_syn(kind, 0) if kind in CLIENTS else tool_syn(kind, 0))
                          for kind in list(CLIENTS) + list(TOOLS)}
        self.pcap_mark = len(self._frames())        # p2's pcap grows for the whole system: read what follows

    def _frame(self, kind, sport):
        frame = self.templates[kind]
        frame[IPV4_ID:IPV4_ID + 2] = sport.to_bytes(2, "big")
        frame[TCP_SPORT:TCP_SPORT + 2] = sport.to_bytes(2, "big")
        return bytes(frame)

    def run(self, seconds, flood=None, until=None):
        """Sends for `seconds` (or until `until()` is true, checked each second); returns the elapsed time."""
        start = time.time()
        next_check = start + 1
        n = 0
        while time.time() - start < seconds:
            kinds = [("linux", "windows", "macos")[(n + i) % 3] for i in range(round(self.client_rate * self.slice))]
            if flood:
                kinds += [flood] * round(self.flood_rate * self.slice)
            hexes = []
            for kind in kinds:
                self.sport += 1
                assert self.sport <= 65535, "out of source ports: use another Traffic"
                self.sent[self.sport] = (kind, time.time())
                hexes.append(self._frame(kind, self.sport).hex())
            n += len(kinds)
            r = self.system.sh(f"ovs-appctl netdev-dummy/receive {self.in_port} {' '.join(hexes)}")
            assert r.returncode == 0, r.stderr
            slice_end = start + self.slice * (1 + int((time.time() - start) / self.slice))
            time.sleep(max(0.0, slice_end - time.time()))
            if until and time.time() >= next_check:
                next_check += 1
                if until():
                    break
        return time.time() - start

    def _frames(self):
        path = self.system.run_dir / f"{self.out_port}-tx.pcap"
        if not path.exists() or path.stat().st_size <= 24:
            return []
        return [bytes(p) for p in rdpcap(str(path))]

    def left(self):
        """The source ports of the SYNs that left by the servers' port."""
        return {TCP(f[34:]).sport for f in self._frames()[self.pcap_mark:] if f[12:14] == b"\x08\x00" and f[23] == 6}

    def outcome(self, since, until_time):
        """Per kind: SYNs sent in [since, until_time) and how many of them left."""
        left = self.left()
        out = {}
        for sport, (kind, sent_at) in self.sent.items():
            if since <= sent_at < until_time:
                total, passed = out.get(kind, (0, 0))
                out[kind] = (total + 1, passed + (sport in left))
        return out

    def reaction(self, flood, start, end):
        """How the guard met a flood sent from `start` to `end`: the seconds from `start` until every later slice
        had at least 90 % of the flood's SYNs dropped (None if that never happened), and the clients' SYNs
        lost before that instant and after it, as (lost, sent)."""
        left = self.left()
        slices = {}
        for sport, (kind, sent_at) in self.sent.items():
            if kind == flood and start <= sent_at < end:
                k = int((sent_at - start) / self.slice)
                total, passed = slices.get(k, (0, 0))
                slices[k] = (total + 1, passed + (sport in left))
        t90 = None
        for k in sorted(slices, reverse=True):
            total, passed = slices[k]
            if passed > 0.1 * total:
                break
            t90 = start + k * self.slice
        clients = {"before": [0, 0], "after": [0, 0]}
        for sport, (kind, sent_at) in self.sent.items():
            if kind in CLIENTS and start <= sent_at < end:
                part = clients["before" if t90 is None or sent_at < t90 else "after"]
                part[0] += sport not in left
                part[1] += 1
        return (None if t90 is None else t90 - start), tuple(clients["before"]), tuple(clients["after"])
