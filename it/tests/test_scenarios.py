# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""End-to-end scenarios: programs and flows POSTed over RESTCONF drive the patched OVS; traffic enters dummy
port p1 (or p2) with netdev-dummy/receive and what the switch sends out of p1 and p2 is read back from their
pcaps. Each scenario asserts what a user would see: packets dropped or forwarded, counters, map entries,
error texts."""
import base64
import json
import signal
import subprocess

import pytest
import requests
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.utils import rdpcap

from conftest import REPO
from helpers import AUTH, MapsReceivedSubscriber, wait_for

LIBRARY_TOOLS = REPO / "filter-library" / "tools"
LINUX_SIGNATURE = "4:64:0:*:mss*20,10:mss,sok,ts,nop,ws:df,id+:0"
LINUX_OPTIONS = [("MSS", 1460), ("SAckOK", b""), ("Timestamp", (777, 0)), ("NOP", None), ("WScale", 10)]
WINDOWS_OPTIONS = [("MSS", 1460), ("NOP", None), ("WScale", 8), ("NOP", None), ("NOP", None), ("SAckOK", b"")]


class Switch:
    """RESTCONF and OVS helpers for one scenario run."""

    def __init__(self, system):
        self.system = system
        self.seen = {}
        self.data = f"{system.restconf}/data"
        self.flows = (f"{self.data}/opendaylight-inventory:nodes/node={system.node_id}"
                      f"/flow-node-inventory:table=0")

    def put(self, url, body):
        r = requests.put(url, json=body, auth=AUTH, timeout=60)
        assert r.status_code in (200, 201, 204), r.text

    def program(self, name, prog_id, **fields):
        self.put(f"{self.data}/oko:programs/program={name}", {"oko:program": [dict(name=name, **fields)]})
        self.put(f"{self.data}/oko:switches/switch={self.system.node_id}/program={prog_id}",
                 {"oko:program": [{"program-id": prog_id, "program": name}]})

        def installed():
            r = requests.get(f"{self.data}/oko:switches/switch={self.system.node_id}/program={prog_id}"
                             "?content=nonconfig", auth=AUTH, timeout=30)
            status = r.json()["oko:program"][0] if r.status_code == 200 else {}
            assert status.get("status") not in ("rejected", "failed"), status
            return status.get("status") == "installed"
        wait_for(installed, 60, f"program {name} was not installed")

    def flow(self, flow_id, priority, in_port, actions, prog_id=None, ip_proto=None, send_maps=None):
        match = {"in-port": f"{self.system.node_id}:{in_port}",
                 "ethernet-match": {"ethernet-type": {"type": 0x0800}}}
        if ip_proto:
            match["ip-match"] = {"ip-protocol": ip_proto}
        if prog_id is not None:
            match["openflowplugin-extension-general:extension-list"] = [{
                "extension-key": "oko-openflowplugin:filter-prog-key",
                "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": prog_id}}}]
        action = [{"order": i, "output-action": {"output-node-connector": str(port)}} for i, port in enumerate(actions)]
        if send_maps is not None:
            action.append({"order": len(action), "oko-openflowplugin:oko-send-maps": {"map-mask": send_maps}})
        self.put(f"{self.flows}/flow={flow_id}", {"flow-node-inventory:flow": [{
            "id": flow_id, "table_id": 0, "priority": priority, "match": match,
            "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": action}}]}}]})

    def wait_flows(self, count, timeout=60):
        last = []

        def dumped():
            out = self.system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {self.system.bridge}").stdout
            last[:] = [line for line in out.splitlines() if "priority=" in line]
            return len(last) == count
        try:
            wait_for(dumped, timeout, f"the switch does not have {count} flows")
        except AssertionError as e:
            raise AssertionError(f"{e}: {last}") from None

    def rpc(self, name, body):
        return requests.post(f"{self.system.restconf}/operations/oko:{name}", json={"input": body}, auth=AUTH,
                             timeout=120)

    def send(self, port, frame):
        r = self.system.sh(f"ovs-appctl netdev-dummy/receive {port} {bytes(frame).hex()}")
        assert r.returncode == 0, r.stderr

    def sent(self, port):
        """IPv4 frames the switch sent out of 'port' since the scenario began (the controller's LLDP
        discovery frames go out of every port too: left out)."""
        return [f for f in self._frames(port)[self.seen.get(port, 0):] if f[12:14] == b"\x08\x00"]

    def _frames(self, port):
        path = self.system.run_dir / f"{port}-tx.pcap"
        return [bytes(p) for p in rdpcap(str(path))] if path.exists() and path.stat().st_size > 24 else []

    def flow_packets(self, flow_id):
        """The flow's packet count in the operational inventory (openflowplugin's statistics)."""
        r = requests.get(f"{self.flows}/flow={flow_id}?content=nonconfig", auth=AUTH, timeout=30)
        if r.status_code != 200:
            return None
        stats = r.json()["flow-node-inventory:flow"][0].get("opendaylight-flow-statistics:flow-statistics", {})
        return int(stats["packet-count"]) if "packet-count" in stats else None    # uint64: a JSON string

    def clear(self):
        for url in (self.flows, f"{self.data}/oko:switches", f"{self.data}/oko:programs"):
            requests.delete(url, auth=AUTH, timeout=30)
        self.wait_flows(0)
        self.system.sh(f"ovs-ofctl -O OpenFlow13 del-flows {self.system.bridge}")   # none left by hand either
        # The pcaps grow for the whole module (OVS keeps them open): a scenario reads what follows.
        self.seen = {port: len(self._frames(port)) for port in ("p1", "p2")}


@pytest.fixture(scope="module")
def ports(system):
    system.sh(f"ovs-vsctl --if-exists del-port {system.bridge} p1 -- --if-exists del-port {system.bridge} p2")
    for number, port in ((1, "p1"), (2, "p2")):
        (system.run_dir / f"{port}-tx.pcap").unlink(missing_ok=True)
        r = system.sh(f"ovs-vsctl --may-exist add-port {system.bridge} {port} -- set interface {port} type=dummy "
                      f"ofport_request={number} options:tx_pcap={system.run_dir}/{port}-tx.pcap")
        assert r.returncode == 0, r.stderr
    # Flows written in the first seconds after the switch connected were seen never to reach it (openflowplugin's
    # flow manager was still reconciling the switch): start when a probe flow gets through.
    switch = Switch(system)

    def probe_reaches_the_switch():
        switch.flow("probe", 1, 1, [])
        try:
            switch.wait_flows(1, timeout=10)
            return True
        except AssertionError:
            requests.delete(f"{switch.flows}/flow=probe", auth=AUTH, timeout=30)
            return False
    wait_for(probe_reaches_the_switch, 180, "flows written over RESTCONF never reach the switch")
    requests.delete(f"{switch.flows}/flow=probe", auth=AUTH, timeout=30)
    yield system
    system.sh(f"ovs-vsctl --if-exists del-port {system.bridge} p1 -- --if-exists del-port {system.bridge} p2")


@pytest.fixture
def switch(ports):
    s = Switch(ports)
    s.clear()
    yield s
    s.clear()


def signature_parameters(text):
    out = subprocess.run([str(LIBRARY_TOOLS / "p0f-signature"), text], capture_output=True, text=True, check=True)
    return [{"name": k, "value": str(v)} for k, v in json.loads(out.stdout).items()]


def syn(sport, options, ttl, window, src):
    return Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(src=src, dst="10.0.2.1", ttl=ttl,
                                                                        flags="DF", id=sport) / \
        TCP(sport=sport, dport=80, flags="S", seq=1000 + sport, window=window, options=options)


def test_scenario_1_p0f_drops_the_syn_flood_and_forwards_legitimate_syns(switch):
    switch.program("syn-flood", 51, **{"library-filter": "p0f-syn-flood",
                                       "parameter": signature_parameters(LINUX_SIGNATURE)})
    switch.flow("p0f-drop", 500, 1, [], prog_id=51, ip_proto=6)
    switch.flow("forward", 100, 1, [2])
    switch.wait_flows(2)
    flood = [syn(20000 + i, LINUX_OPTIONS, 64, 1460 * 20, "10.0.1.66") for i in range(30)]
    legit = [syn(30000 + i, WINDOWS_OPTIONS, 128, 65535, "10.0.1.7") for i in range(10)]
    for i in range(10):                                                   # 3 flood SYNs per legitimate one
        for frame in flood[3 * i:3 * i + 3] + [legit[i]]:
            switch.send("p1", frame)
    out = wait_for(lambda: switch.sent("p2") if len(switch.sent("p2")) >= 10 else None, 30, "legit SYNs not forwarded")
    ports = sorted(TCP(bytes(f)[34:]).sport for f in out)
    assert ports == [30000 + i for i in range(10)]                        # all legitimate, no flood SYN
    r = switch.rpc("dump-maps", {"node": switch.system.node_id, "program-id": 51, "map": ["counters"]})
    assert r.status_code == 200, r.text
    counters = {int(e["key-field"][0]["value"]): int(e["value-field"][0]["value"])
                for e in r.json()["oko:output"]["map"][0]["entry"]}
    assert counters[0] == 30 and counters[4] == 40                        # slot 0 matched 30 of 40 SYNs
    assert wait_for(lambda: switch.flow_packets("p0f-drop") == 30, 90, "drop flow statistics")
    assert wait_for(lambda: switch.flow_packets("forward") == 10, 90, "forward flow statistics")


def tcp_frame(src, dst, sport, dport, flags, payload=b""):
    return Ether() / IP(src=src, dst=dst) / TCP(sport=sport, dport=dport, flags=flags, seq=1, ack=1) / payload


def test_scenario_2_stateful_firewall_passes_connections_opened_from_inside_only(switch):
    inside, outside = "10.0.1.10", "198.51.100.7"
    switch.program("firewall", 52, **{"library-filter": "stateful-firewall", "parameter": [
        {"name": "inside", "value": "10.0.1.0"}, {"name": "inside_prefix_len", "value": "24"}]})
    switch.flow("fw-inside", 500, 1, [2], prog_id=52, ip_proto=6)         # sees the SYNs; both rules forward
    switch.flow("inside-out", 100, 1, [2])
    switch.flow("fw-outside", 500, 2, [1], prog_id=52, ip_proto=6)        # established: forward
    switch.flow("outside-drop", 90, 2, [])                                # anything else from outside: drop
    switch.wait_flows(4)
    switch.send("p1", tcp_frame(inside, outside, 40000, 443, "S"))
    switch.send("p2", tcp_frame(outside, inside, 443, 40000, "SA"))
    switch.send("p1", tcp_frame(inside, outside, 40000, 443, "A"))
    switch.send("p2", tcp_frame(outside, inside, 443, 40000, "PA", b"hello"))
    switch.send("p2", tcp_frame(outside, inside, 443, 40001, "SA"))       # unsolicited: no SYN went out
    switch.send("p2", tcp_frame(outside, inside, 443, 40002, "PA", b"probe"))
    switch.send("p2", tcp_frame(outside, inside, 22, 40000, "S"))         # a connection opened from outside
    wait_for(lambda: len(switch.sent("p2")) >= 2, 30, "inside packets not forwarded")
    wait_for(lambda: len(switch.sent("p1")) >= 2, 30, "the server's answers not forwarded")
    received = [(TCP(f[34:]).sport, TCP(f[34:]).dport, str(TCP(f[34:]).flags)) for f in switch.sent("p1")]
    assert received == [(443, 40000, "SA"), (443, 40000, "PA")], received
    assert len(switch.sent("p2")) == 2
    assert wait_for(lambda: switch.flow_packets("outside-drop") == 3, 90, "outside drops in the statistics")


def test_scenario_3_dapper_reports_a_troubled_connection_with_send_maps(switch):
    switch.program("dapper", 54, **{"library-filter": "dapper", "parameter": [
        {"name": "retransmit_threshold", "value": "3"}]})
    switch.flow("dapper", 500, 1, [2], prog_id=54, ip_proto=6, send_maps=2)   # matched: report connections
    switch.flow("forward", 100, 1, [2])
    switch.wait_flows(2)
    client, server = "10.0.1.20", "10.0.2.20"
    subscriber = MapsReceivedSubscriber(switch.system.restconf, AUTH, until=client)
    segment = Ether() / IP(src=client, dst=server) / TCP(sport=41000, dport=80, flags="PA", seq=5000, ack=1) / (b"d" * 200)
    switch.send("p1", Ether() / IP(src=client, dst=server) / TCP(sport=41000, dport=80, flags="S", seq=4999,
                                                                  options=[("MSS", 1400)]))
    for _ in range(4):                                                    # the data, then 3 retransmissions
        switch.send("p1", segment)
    wait_for(lambda: len(switch.sent("p2")) == 5, 30, "dapper's traffic was not forwarded")

    def received():
        r = requests.get(f"{switch.data}/oko:switches/switch={switch.system.node_id}/program=54?content=nonconfig",
                         auth=AUTH, timeout=30)
        maps = r.json()["oko:program"][0].get("received-map", []) if r.status_code == 200 else []
        return next((m for m in maps if m["map-name"] == "connections"), None)
    connections = wait_for(received, 60, "no SEND_MAPS of dapper's connections reached the datastore")
    assert connections["complete"] is True and connections["received-at"].startswith("20"), connections
    (entry,) = connections["entry"]
    key = {f["name"]: f["value"] for f in entry["key-field"]}
    value = {f["name"]: f["value"] for f in entry["value-field"]}
    assert (key["addr_lo"], key["addr_hi"], key["port_lo"], key["port_hi"]) == (client, server, "41000", "80")
    assert value["lo_retransmits"] == "3" and value["lo_mss"] == "1400" and value["trouble"] == "1", value
    # An application subscribed to the notification stream got the same report.
    events = subscriber.received(60)
    assert events and (events[0]["node"], events[0]["program-id"]) == (switch.system.node_id, 54), subscriber.events
    (event_map,) = [m for m in events[0]["map"] if m["map-name"] == "connections"]
    assert {f["name"]: f["value"] for f in event_map["entry"][0]["value-field"]}["lo_retransmits"] == "3"


def udp_frame(src):
    return Ether() / IP(src=src, dst="10.0.2.1") / UDP(sport=1000, dport=53)


def test_scenario_4_blocklist_update_map_changes_the_next_verdict_and_dump_maps_shows_it(switch):
    switch.program("blocklist", 53, **{"library-filter": "blocklist"})
    switch.flow("blocked", 500, 1, [], prog_id=53)
    switch.flow("forward", 100, 1, [2])
    switch.wait_flows(2)
    switch.send("p1", udp_frame("10.7.0.5"))
    wait_for(lambda: len(switch.sent("p2")) == 1, 30, "not forwarded before the prefix is listed")
    key = base64.b64encode((16).to_bytes(4, "little") + bytes([10, 7, 0, 0])).decode()
    r = switch.rpc("update-map-entries", {"node": switch.system.node_id, "program-id": 53, "map": "blocked",
                                          "entry": [{"key": key, "value": base64.b64encode(bytes(8)).decode()}]})
    assert r.status_code in (200, 204), r.text
    switch.send("p1", udp_frame("10.7.0.5"))
    switch.send("p1", udp_frame("10.7.200.1"))
    switch.send("p1", udp_frame("10.8.0.1"))
    wait_for(lambda: len(switch.sent("p2")) == 2, 30, "the unlisted source was not forwarded")
    assert [str(IP(f[14:]).src) for f in switch.sent("p2")] == ["10.7.0.5", "10.8.0.1"]
    r = switch.rpc("dump-maps", {"node": switch.system.node_id, "program-id": 53})
    assert r.status_code == 200, r.text
    (blocked,) = r.json()["oko:output"]["map"]
    entries = [({f["name"]: f["value"] for f in e["key-field"]}, {f["name"]: f["value"] for f in e["value-field"]})
               for e in blocked["entry"]]
    assert entries == [({"prefix_len": "16", "source": "10.7.0.0"}, {"packets": "2"})]
    r = switch.rpc("delete-map-entries", {"node": switch.system.node_id, "program-id": 53, "map": "blocked",
                                          "all": True})
    assert r.status_code in (200, 204), r.text
    switch.send("p1", udp_frame("10.7.0.5"))
    wait_for(lambda: len(switch.sent("p2")) == 3, 30, "not forwarded after the list was emptied")


BAD_PROGRAMS = {
    "loop": ("volatile int n = ((const uint8_t *) pkt)[0]; uint64_t s = 0;"
             "for (volatile int i = 0; i < n; i++) { s += i; } return s & 1;", "makes a loop"),
    "packet-write": ("((uint8_t *) pkt)[0] = 1; return 1;", "writes to the packet are not allowed"),
    "null-dereference": ("uint32_t k = 0; uint64_t *v = oko_map_lookup(&m, &k); return *v & 1;",
                         "may be NULL"),
}


def compile_program(tmp_path, name, body):
    source = tmp_path / f"{name}.c"
    source.write_text("#include <oko/filter.h>\nOKO_MAP(m, OKO_MAP_ARRAY, 4, 8, 1);\n"
                      f"OKO_FILTER uint64_t f(const void *pkt, uint64_t len) {{ if (len < 64) return 0; {body} }}\n")
    obj = tmp_path / f"{name}.o"
    subprocess.run(["clang", "-O2", "-target", "bpf", "-Wno-incompatible-pointer-types-discards-qualifiers",
                    "-I", str(REPO / "filter-library" / "include"), "-c", str(source), "-o", str(obj)], check=True)
    return base64.b64encode(obj.read_bytes()).decode()


@pytest.mark.parametrize("name", sorted(BAD_PROGRAMS))
def test_scenario_5_unsafe_programs_are_refused_with_the_verifiers_reason(switch, tmp_path, name):
    body, reason = BAD_PROGRAMS[name]
    switch.flow("forward", 100, 1, [2])
    switch.wait_flows(1)
    r = switch.rpc("load-program", {"node": switch.system.node_id, "program-id": 60,
                                    "elf": compile_program(tmp_path, name, body)})
    assert r.status_code >= 400, r.text
    assert reason in r.text and "insn " in r.text, r.text
    assert "program 60" not in switch.system.sh(f"ovs-appctl oko/show {switch.system.bridge}").stdout
    switch.send("p1", udp_frame("10.0.1.1"))                             # still forwarding
    wait_for(lambda: len(switch.sent("p2")) == 1, 30, "the switch stopped forwarding")


def test_scenario_5_a_program_that_is_not_base64_is_refused(switch):
    r = requests.put(f"{switch.data}/oko:programs/program=garbage", auth=AUTH, timeout=30,
                     json={"oko:program": [{"name": "garbage", "elf": "not base64!"}]})
    assert r.status_code == 400 and "Error parsing input" in r.text, r.text
    assert requests.get(f"{switch.data}/oko:programs/program=garbage", auth=AUTH, timeout=30).status_code in (404, 409)
    # The same value as an RPC input: OpenDaylight's RESTCONF fails before calling Oko (docs/northbound.md).
    r = switch.rpc("load-program", {"node": switch.system.node_id, "program-id": 61, "elf": "not base64!"})
    assert r.status_code == 500, r.text
    assert "program 61" not in switch.system.sh(f"ovs-appctl oko/show {switch.system.bridge}").stdout


@pytest.mark.parametrize("body, status, text", [
    ({"node": "openflow:999", "library-filter": "baseline"}, 409, "switch openflow:999 is unknown or not connected"),
])
def test_scenario_5_garbage_and_unknown_switches_are_refused(switch, body, status, text):
    r = switch.rpc("load-program", {"node": switch.system.node_id, "program-id": 61, **body})
    assert r.status_code == status, r.text
    assert text is None or text in r.text, r.text
    assert "program 61" not in switch.system.sh(f"ovs-appctl oko/show {switch.system.bridge}").stdout


def test_scenario_6_controller_restart_brings_back_programs_before_flows(switch):
    """Karaf stops and starts again (ovs-vswitchd keeps running): from the stored configuration the controller
    finds the program on the switch, complete (its install mark is that of the configured ELF and initial entry,
    protocol 1.4), takes it over without loading it or writing its entry again, and only then the flow manager
    pushes the flows (the switch's log of the OpenFlow messages it received says so); traffic is filtered as
    before; nothing was POSTed again."""
    system = switch.system
    key = base64.b64encode((16).to_bytes(4, "little") + bytes([10, 66, 0, 0])).decode()
    switch.program("kept-blocklist", 56, **{"library-filter": "blocklist", "initial-map": [
        {"map": "blocked", "entry": [{"key": key, "value": base64.b64encode(bytes(8)).decode()}]}]})
    switch.flow("kept-blocked", 500, 1, [], prog_id=56)
    switch.flow("kept-forward", 100, 1, [2])
    switch.wait_flows(2)
    system.sh("ovs-appctl vlog/set vconn:file:dbg")
    log_path = system.run_dir / "ovs" / "ovs-vswitchd.log"
    offset = log_path.stat().st_size

    system.stop_karaf(signal.SIGTERM)
    system.up()                                              # starts Karaf only: OVS still runs

    def installed():
        r = requests.get(f"{switch.data}/oko:switches/switch={system.node_id}/program=56?content=nonconfig",
                         auth=AUTH, timeout=30)
        return r.status_code == 200 and r.json()["oko:program"][0].get("status") == "installed"
    wait_for(installed, 180, "program 56 not installed again after the controller restart")

    def received():
        log = log_path.read_text()[offset:]
        return [line.split("received: ", 1)[1] for line in log.splitlines()
                if "vconn|DBG|tcp:" in line and "received: " in line]

    def flow_mod_seen():
        messages = received()
        return messages if any(m.startswith("OFPT_FLOW_MOD") and "filter_prog=56" in m for m in messages) else None
    messages = wait_for(flow_mod_seen, 180, "the flow manager did not push the flow after the restart")
    system.sh("ovs-appctl vlog/set vconn:file:info")
    probe = next(i for i, m in enumerate(messages) if m.startswith("OKOST_PROG_STATS request"))
    flow = next(i for i, m in enumerate(messages) if m.startswith("OFPT_FLOW_MOD") and "filter_prog=56" in m)
    assert probe < flow, messages[:40]
    again = [m for m in messages if m.startswith(("OKOT_LOAD_PROG", "OKOT_UPDATE_MAP", "OKOT_MARK_INSTALLED"))
             and "prog_id=56 " in m]
    assert again == [], again
    assert "program 56 'kept-blocklist' runs already" in (system.run_dir / "karaf" / "data" / "log"
                                                           / "karaf.log").read_text()

    switch.seen = {port: len(switch._frames(port)) for port in ("p1", "p2")}
    switch.send("p1", udp_frame("10.66.1.1"))                # listed by the initial entry: dropped
    switch.send("p1", udp_frame("10.67.1.1"))
    wait_for(lambda: len(switch.sent("p2")) == 1, 30, "traffic not forwarded after the controller restart")
    assert [str(IP(f[14:]).src) for f in switch.sent("p2")] == ["10.67.1.1"]
