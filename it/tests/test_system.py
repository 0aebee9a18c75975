# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""`make up` gives a working system and `make down` removes it (README's command 1)."""
import base64
import os
import re
import struct
import subprocess
import time

import pytest
import requests

from conftest import REPO
from helpers import AUTH, udp_frame, wait_for
from ofpeer import OpenFlowPeer


def test_restconf_lists_the_bridge_node(system):
    r = requests.get(f"{system.restconf}/data/opendaylight-inventory:nodes", auth=AUTH, timeout=30)
    assert r.status_code == 200, r.text
    ids = [n["id"] for n in r.json()["opendaylight-inventory:nodes"]["node"]]
    assert system.node_id in ids


def test_switch_is_connected_over_openflow13(system):
    r = system.sh(f"ovs-vsctl get controller {system.bridge} is_connected")
    assert r.stdout.strip() == "true", r.stdout + r.stderr
    # The bridge speaks only OpenFlow 1.3, so a connection is an OpenFlow 1.3 one.
    r = system.sh(f"ovs-vsctl get bridge {system.bridge} protocols")
    assert r.stdout.strip() == "[OpenFlow13]", r.stdout + r.stderr


def test_odl_oko_feature_is_started(system):
    r = system.karaf_console("feature:list -i")
    line = [l for l in r.stdout.splitlines() if re.match(r"\s*odl-oko\s", l)]
    assert line, r.stdout + r.stderr
    assert "Started" in line[0], line[0]


def test_every_controller_listener_is_on_loopback_by_default(system):
    """RESTCONF (Jetty 8181, Netty 8182), Karaf SSH 8101, OpenFlow 6653 and 6633: 127.0.0.1 only, unless
    OKO_LISTEN says otherwise."""
    seen = {}
    for port in (8181, 8182, 8101, 6653, 6633):
        out = system.sh(f"ss -Hltn 'sport = :{port}'").stdout
        # IPv4 on a Java IPv6 socket shows as [::ffff:127.0.0.1]:port.
        seen[port] = [line.split()[3].replace("[::ffff:", "").replace("]", "")
                      for line in out.splitlines() if line.strip()]
    assert all(seen.values()), f"a listener is missing: {seen}"
    assert all(a == f"127.0.0.1:{p}" for p, addrs in seen.items() for a in addrs), seen


def test_controller_heap_is_capped_at_two_gigabytes_by_default(system):
    """OKO_KARAF_HEAP (default 2g) is the running JVM's maximum heap, not a quarter of the machine's RAM."""
    pids = system.sh("pgrep -f 'org.apache.karaf.main.Main'").stdout.split()
    assert len(pids) == 1, pids
    # The JDK's jcmd asks the JVM itself (the toolchain's env.sh names the JDK).
    flags = system.sh(f". {REPO}/.toolchain/env.sh && \"$OKO_JAVA_HOME/bin/jcmd\" {pids[0]} VM.flags").stdout
    m = re.search(r"-XX:MaxHeapSize=(\d+)", flags)
    assert m, flags
    assert int(m.group(1)) == 2 << 30, flags


def test_the_admin_password_is_generated_and_admin_admin_is_refused(system):
    """The first start generates the admin password into .run/admin-password (0600, printed by `make up`); the
    distribution's admin:admin no longer logs in."""
    password_file = system.run_dir / "admin-password"
    assert password_file.stat().st_mode & 0o777 == 0o600, oct(password_file.stat().st_mode)
    password = password_file.read_text().strip()
    assert len(password) >= 20 and password != "admin", password
    url = f"{system.restconf}/data/opendaylight-inventory:nodes/node={system.node_id}?fields=id"
    assert requests.get(url, auth=("admin", password), timeout=30).status_code == 200
    assert requests.get(url, auth=("admin", "admin"), timeout=30).status_code == 401


def test_refused_requests_are_one_line_each_in_the_log(system):
    """10 failed logins and 10 RPC inputs outside their YANG type: at most 20 lines in karaf.log, each with the
    reason (they wrote 81 and 318 lines each: stack traces). RESTCONF answers the bad input with an HTML 500
    before Oko sees it (docs/northbound.md, Errors)."""
    log = system.karaf / "data" / "log" / "karaf.log"
    before = log.read_text().count("\n")
    url = f"{system.restconf}/operations/oko:unload-program"
    for _ in range(10):
        r = requests.get(f"{system.restconf}/data/oko:programs", auth=("admin", "not-the-password"), timeout=30)
        assert r.status_code == 401, r.text
        r = requests.post(url, auth=AUTH, timeout=30, json={"input": {"node": system.node_id, "program-id": 0}})
        assert r.status_code == 500 and "Request failed." in r.text, r.text
    time.sleep(2)
    added = log.read_text().splitlines()[before:]
    assert len(added) <= 20, "\n".join(added[:40])
    assert sum("Authentication failed" in line and "UserName / Password not found" in line
               for line in added) == 10, "\n".join(added)
    assert sum("oko:unload-program" in line and "Value '0'  is not in required ranges" in line
               for line in added) == 10, "\n".join(added)


def _program_with_description(size):
    """A program entry whose JSON body is `size` bytes: refused by the datastore if it gets that far (no source),
    so the status says who answered: 413 the size limit, 500 RESTCONF after reading the whole body."""
    head, tail = '{"oko:program":[{"name":"body-limit","description":"', '"}]}'
    return (head + "x" * (size - len(head) - len(tail)) + tail).encode()


def test_restconf_refuses_a_body_over_the_limit_before_reading_it(system):
    """OKO_RESTCONF_MAX_BODY (default 8 MiB) bounds what RESTCONF on 8181 reads: a declared length over it gets
    413 before the body is sent, a chunked body is cut off at the limit; a body under it is read whole. 8182
    (ODL's Netty endpoint) refuses anything over 16 KiB by itself. One log line per refusal."""
    url = f"{system.restconf}/data/oko:programs/program=body-limit"
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    log = system.karaf / "data" / "log" / "karaf.log"
    before = log.read_text().count("\n")

    under = requests.put(url, auth=AUTH, headers=headers, data=_program_with_description(8 << 20), timeout=120)
    assert under.status_code == 500 and "not committed" in under.text, (under.status_code, under.text[:300])

    over = requests.put(url, auth=AUTH, headers=headers, data=_program_with_description((8 << 20) + 1), timeout=120)
    assert over.status_code == 413, (over.status_code, over.text[:300])

    def chunks(total=64 << 20, step=1 << 20):
        body = _program_with_description(total)
        for i in range(0, total, step):
            yield body[i:i + step]
    try:
        chunked = requests.put(url, auth=AUTH, headers=headers, data=chunks(), timeout=120)
        status = chunked.status_code
    except requests.ConnectionError:
        status = "closed"         # the server may close before the client has sent all of it
    assert status in (413, 500, "closed"), status   # not read whole: a 64 MiB body is never a 500 "not committed"
    assert status == "closed" or "not committed" not in chunked.text, chunked.text[:300]

    netty = system.restconf.replace(":8181/rests", ":8182/restconf") + "/data/oko:programs/program=body-limit"
    r = requests.put(netty, auth=AUTH, headers=headers, data=_program_with_description(16385), timeout=60)
    assert r.status_code == 413, (r.status_code, r.text[:300])
    r = requests.put(netty, auth=AUTH, headers=headers, data=_program_with_description(16000), timeout=60)
    assert r.status_code == 500 and "not committed" in r.text, (r.status_code, r.text[:300])

    time.sleep(1)
    added = log.read_text().splitlines()[before:]
    assert sum("Request body is too large" in line for line in added) >= 2, "\n".join(added[-20:])
    assert len(added) <= 12, "\n".join(added[:40])


def test_console_script_runs_one_command_as_the_readme_shows(system):
    r = system.sh(f"{REPO}/it/system/console feature:list -i")
    assert r.returncode == 0 and "odl-oko" in r.stdout and "Started" in r.stdout, r.stdout + r.stderr


def test_the_console_password_is_generated_and_karaf_karaf_is_refused(system):
    """Karaf's SSH console (8101, what bin/client connects to) takes the password `up` generated and keeps in
    .run/karaf-password (0600), not the distribution's karaf:karaf."""
    password_file = system.run_dir / "karaf-password"
    assert oct(password_file.stat().st_mode & 0o777) == "0o600"
    password = password_file.read_text().strip()
    assert len(password) >= 20 and password != "karaf"

    def console_as(user, secret):
        return system.sh(f"echo 'feature:list -i' | '{system.karaf}/bin/client' -u {user} -p '{secret}' -r 1 -b",
                         timeout=120)
    refused = console_as("karaf", "karaf")
    assert "odl-oko" not in refused.stdout, refused.stdout
    accepted = console_as("karaf", password)
    assert accepted.returncode == 0 and "odl-oko" in accepted.stdout, accepted.stdout + accepted.stderr


def test_oko_codecs_are_registered_with_openflowjava(system):
    log = (system.karaf / "data" / "log" / "karaf.log").read_text()
    assert "Oko OpenFlow codecs registered" in log


OFPFC_ADD = 0
FLOW_URL = "/data/opendaylight-inventory:nodes/node={node}/flow-node-inventory:table=0/flow=oko-vector"


def _vector(name):
    path = REPO / "docs" / "protocol" / "vectors" / f"{name}.hex"
    return bytes.fromhex("".join(l for l in path.read_text().splitlines() if not l.startswith("#")))


def _flow_json(flow_id):
    return {"flow-node-inventory:flow": [{
        "id": flow_id, "table_id": 0, "priority": 100, "cookie": 0xC0FFEE,
        "match": {
            "ethernet-match": {"ethernet-type": {"type": 0x0800}},
            "ipv4-destination": "10.0.0.1/32",
            "openflowplugin-extension-general:extension-list": [{
                "extension-key": "oko-openflowplugin:filter-prog-key",
                "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": 42}}}]},
        "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
            {"order": 0, "oko-openflowplugin:oko-send-maps": {"map-mask": 1}},
            {"order": 1, "output-action": {"output-node-connector": "1", "max-length": 0}}]}}]}}]}


def test_flow_with_filter_prog_is_decoded_by_the_switch_and_refused_for_an_unknown_program(system):
    """A flow written over RESTCONF with the filter-prog match extension and the send-maps action reaches the
    patched switch, which decodes it as exactly the FLOW_MOD of docs/protocol/vectors/
    flow_mod_filter_prog_send_maps.hex (its vconn debug log prints what it decoded, compared with what its
    ovs-ofctl prints for the vector), and refuses it with Oko's UNKNOWN_PROG error: program 42 is not loaded.
    (The peer test below compares the bytes on the wire.)"""
    vector = _vector("flow_mod_filter_prog_send_maps").hex()
    r = system.sh(f"ovs-ofctl ofp-print {vector}")
    assert r.returncode == 0, r.stdout + r.stderr
    expected = re.sub(r" \(xid=0x[0-9a-f]+\)", "", r.stdout.strip())
    assert "filter_prog=42" in expected and "send_maps(0x1)" in expected, expected
    assert system.sh("ovs-appctl -t ovs-vswitchd vlog/set vconn:file:dbg").returncode == 0
    url = system.restconf + FLOW_URL.format(node=system.node_id)
    requests.delete(url, auth=AUTH, timeout=30)   # left over from an earlier run (the datastore persists)
    log = system.run_dir / "ovs" / "ovs-vswitchd.log"
    start = log.stat().st_size          # only what the switch logs from now on counts
    r = requests.put(url, json=_flow_json("oko-vector"), auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text

    def decoded_and_refused():
        with log.open() as f:
            f.seek(start)
            text = f.read()
        mods = [re.sub(r" \(xid=0x[0-9a-f]+\)", "", line.split("received: ", 1)[1])
                for line in text.splitlines() if "received: OFPT_FLOW_MOD" in line and "filter_prog=" in line]
        refused = "sending OKO_UNKNOWN_PROG error reply to OFPT_FLOW_MOD message" in text
        return (mods, refused) if mods and refused else None
    try:
        mods, _ = wait_for(decoded_and_refused, 60, "the switch neither decoded nor refused the flow")
    finally:
        requests.delete(url, auth=AUTH, timeout=30)
    assert mods[-1] == expected, mods


@pytest.fixture(scope="module")
def peer(system):
    """A test OpenFlow switch, openflow:2, connected to the controller and present in the inventory."""
    p = OpenFlowPeer(dpid=2).start()
    try:
        deadline = time.time() + 120
        while requests.get(f"{system.restconf}/data/opendaylight-inventory:nodes/node=openflow:2?fields=id",
                           auth=AUTH, timeout=30).status_code != 200:
            assert time.time() < deadline, "openflow:2 never appeared in the inventory"
            time.sleep(2)
        yield p
    finally:
        p.stop()


def test_load_prog_sent_with_send_experimenter_is_the_vector(system, peer):
    """LOAD_PROG written as the oko-load-prog case of openflowplugin's send-experimenter RPC leaves the
    controller as docs/protocol/vectors/load_prog.hex (all bytes but the xid)."""
    expected = _vector("load_prog")
    elf = expected[32:]
    body = {"input": {
        "node": "/opendaylight-inventory:nodes/opendaylight-inventory:node[opendaylight-inventory:id='openflow:2']",
        "oko-openflowplugin:oko-load-prog": {"prog-id": 7, "elf": base64.b64encode(elf).decode()}}}
    # The node can be in the inventory a moment before the plugin registers its routed RPCs.
    deadline = time.time() + 60
    while True:
        r = requests.post(f"{system.restconf}/operations/sal-experimenter-message:send-experimenter", json=body,
                          auth=AUTH, timeout=60)
        if "No implementation of RPC" not in r.text or time.time() > deadline:
            break
        time.sleep(2)
    assert r.status_code in (200, 204), r.text
    msg = peer.wait_for_experimenter(lambda m: m[8:12] == b"OKO\0")
    assert msg is not None, "the switch received no Oko experimenter message"
    assert msg[:4] + msg[8:] == expected[:4] + expected[8:], msg.hex(" ")


def test_flow_stats_with_filter_prog_read_back_into_the_operational_inventory(system, peer):
    """Against a test OpenFlow peer (it/tests/ofpeer.py) that reports the flows it is given: the FLOW_MOD it
    receives is the protocol vector, and the flow-stats reply carrying the filter_prog OXM and the SEND_MAPS
    action reads back into the operational inventory with both."""
    node = "openflow:2"
    url = system.restconf + FLOW_URL.format(node=node)
    requests.delete(url, auth=AUTH, timeout=30)   # left over from an earlier run (the datastore persists)
    r = requests.put(url, json=_flow_json("oko-vector"), auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    mod = peer.wait_for_flow_mod(lambda m: m[25] == OFPFC_ADD and b"OKO\0" in m)
    assert mod is not None, "the peer received no FLOW_MOD with Oko's experimenter id"
    expected = _vector("flow_mod_filter_prog_send_maps")
    assert mod[:4] + mod[8:] == expected[:4] + expected[8:], mod.hex(" ")

    table_url = (f"{system.restconf}/data/opendaylight-inventory:nodes/node={node}"
                 "/flow-node-inventory:table=0?content=nonconfig")
    deadline = time.time() + 120
    flows = []
    while time.time() < deadline:
        r = requests.get(table_url, auth=AUTH, timeout=30)
        if r.status_code == 200:
            flows = r.json()["flow-node-inventory:table"][0].get("flow", [])
            if flows:
                break
        time.sleep(3)
    assert flows, "no flow statistics reached the operational inventory"
    flow = flows[0]
    extensions = flow["match"]["openflowplugin-extension-general:extension-list"]
    assert extensions[0]["extension-key"] == "oko-openflowplugin:filter-prog-key"
    assert extensions[0]["extension"]["oko-openflowplugin:oko-filter-prog"] == {"prog-id": 42}
    actions = flow["instructions"]["instruction"][0]["apply-actions"]["action"]
    send_maps = [a["oko-openflowplugin:oko-send-maps"] for a in actions if "oko-openflowplugin:oko-send-maps" in a]
    # RFC 7951 writes uint64 as a string.
    assert [str(a["map-mask"]) for a in send_maps] == ["1"], actions
    # The statistics match the configured flow, so the operational flow keeps the configured id.
    assert flow["id"] == "oko-vector", flow["id"]
    requests.delete(url, auth=AUTH, timeout=30)


PROGS = REPO / "datapath" / "runtime" / "build" / "progs"


def _rpc(system, rpc, node_id, case):
    """One of openflowplugin's routed experimenter RPCs with an Oko case; retried while the node's routed RPCs
    are not registered yet."""
    body = {"input": {
        "node": f"/opendaylight-inventory:nodes/opendaylight-inventory:node[opendaylight-inventory:id='{node_id}']",
        **case}}
    deadline = time.time() + 60
    while True:
        r = requests.post(f"{system.restconf}/operations/{rpc}", json=body, auth=AUTH, timeout=60)
        if "No implementation of RPC" not in r.text or time.time() > deadline:
            return r
        time.sleep(2)


def _send_experimenter(system, node_id, case):
    return _rpc(system, "sal-experimenter-message:send-experimenter", node_id, case)


def _dump_maps(system, node_id, prog_id, map_mask):
    return _rpc(system, "sal-experimenter-mp-message:send-experimenter-mp-request", node_id, {
        "oko-openflowplugin:oko-dump-maps-request": {"prog-id": prog_id, "map-mask": map_mask}})


def test_load_prog_through_the_controller_runs_on_the_real_switch(system):
    """The controller loads a filter program into the patched OVS: the RPC succeeds (barrier confirmed) and the
    switch lists the program, compiled, with its maps."""
    elf = (PROGS / "conn_table.o").read_bytes()
    r = _send_experimenter(system, system.node_id, {
        "oko-openflowplugin:oko-load-prog": {"prog-id": 21, "elf": base64.b64encode(elf).decode()}})
    assert r.status_code in (200, 204), r.text
    show = system.sh(f"ovs-appctl oko/show {system.bridge}")
    assert "program 21: 47 instructions, jit, 1 maps" in show.stdout, show.stdout + show.stderr
    assert "map 0 'connections': lru_hash, key 12, value 24, 0 of 65536 entries" in show.stdout, show.stdout


def test_verifier_rejection_reaches_the_rpc_caller_with_its_text(system):
    """A program the switch's verifier refuses: the RPC fails, and its error carries the verifier's text."""
    elf = (PROGS / "unsafe_no_len_check.o").read_bytes()
    r = _send_experimenter(system, system.node_id, {
        "oko-openflowplugin:oko-load-prog": {"prog-id": 22, "elf": base64.b64encode(elf).decode()}})
    assert r.status_code >= 400 or "error" in r.text.lower(), r.text
    assert "packet read of 1 bytes at offset 12 is not proven within len" in r.text, r.text
    show = system.sh(f"ovs-appctl oko/show {system.bridge}")
    assert "program 22" not in show.stdout, show.stdout


DUMP_PROG = 24
DUMP_ENTRIES = 2500          # 36 bytes each: more than one OpenFlow message holds
UPDATE_MAP_BATCH = 1000


def test_dump_maps_through_the_controller_returns_what_update_map_wrote(system):
    """UPDATE_MAP (send-experimenter) writes 2500 entries into a program's connection table on the real switch;
    DUMP_MAPS through send-experimenter-mp-request returns exactly those entries, split over several multipart
    replies (one RPC output item each, the map's section marked as continuing), and the switch itself lists the
    same number; a dump of a program that is not loaded fails with the switch's text."""
    elf = (PROGS / "conn_table.o").read_bytes()    # map 0: lru_hash, key 12, value 24
    r = _send_experimenter(system, system.node_id, {
        "oko-openflowplugin:oko-load-prog": {"prog-id": DUMP_PROG, "replace": True,
                                            "elf": base64.b64encode(elf).decode()}})
    assert r.status_code in (200, 204), r.text

    written = {struct.pack("!III", 0x0A000000 + i, i, 6): struct.pack("<QQQ", i, 2 * i, 3 * i)
               for i in range(DUMP_ENTRIES)}
    items = list(written.items())
    for start in range(0, len(items), UPDATE_MAP_BATCH):
        batch = items[start:start + UPDATE_MAP_BATCH]
        r = _send_experimenter(system, system.node_id, {"oko-openflowplugin:oko-update-map": {
            "prog-id": DUMP_PROG, "map-index": 0, "key-size": 12, "value-size": 24,
            "entry": [{"key": base64.b64encode(k).decode(), "value": base64.b64encode(v).decode()}
                      for k, v in batch]}})
        assert r.status_code in (200, 204), r.text

    r = _dump_maps(system, system.node_id, DUMP_PROG, 1)
    assert r.status_code == 200, r.text
    replies = [item["oko-openflowplugin:oko-dump-maps-reply"]
               for item in r.json()["sal-experimenter-mp-message:output"]["experimenter-core-message-item"]]
    assert len(replies) >= 2, f"{len(replies)} reply for {DUMP_ENTRIES} entries of 36 bytes"
    dumped = {}
    for n, reply in enumerate(replies):
        assert reply["prog-id"] == DUMP_PROG, reply["prog-id"]
        sections = reply["map-section"]
        assert [s["map-index"] for s in sections] == [0], [s["map-index"] for s in sections]
        assert (sections[0]["key-size"], sections[0]["value-size"]) == (12, 24), sections[0]
        assert sections[0].get("continues", False) == (n < len(replies) - 1), (n, sections[0].get("continues"))
        for entry in sections[0]["entry"]:
            dumped[base64.b64decode(entry["key"])] = base64.b64decode(entry["value"])
    assert dumped == written

    listed = system.sh(f"ovs-ofctl -O OpenFlow13 dump-maps {system.bridge} {DUMP_PROG} 0").stdout
    assert sum(1 for line in listed.splitlines() if line.startswith("  ")) == DUMP_ENTRIES, listed[:400]

    r = _dump_maps(system, system.node_id, DUMP_PROG + 1, 0)
    assert r.status_code >= 400 or "error" in r.text.lower(), r.text
    assert f"program {DUMP_PROG + 1} is not loaded" in r.text, r.text


SEND_MAPS_PROG = 23
SEND_MAPS_COOKIE = 0x5E17D
SEND_MAPS_FLOW_URL = "/data/opendaylight-inventory:nodes/node={node}/flow-node-inventory:table=0/flow=oko-send-maps"


def test_flow_with_filter_from_restconf_runs_on_the_real_switch_and_its_maps_come_back(system):
    """The whole loop on the real patched OVS: a program loaded through the controller, a flow written over
    RESTCONF with the filter-prog match and a send-maps action lands in the switch's flow table, a packet that
    the program matches makes the switch send the rule's map, and the controller publishes that SEND_MAPS as an
    experimenter-message-from-dev notification (logged by SendMapsEventLog, one line per fragment)."""
    elf = (PROGS / "first_packets.o").read_bytes()      # matches the first packet; map 1 counts packets seen
    r = _send_experimenter(system, system.node_id, {
        "oko-openflowplugin:oko-load-prog": {"prog-id": SEND_MAPS_PROG, "elf": base64.b64encode(elf).decode()}})
    assert r.status_code in (200, 204), r.text
    r = system.karaf_console("log:set DEBUG org.opendaylight.oko.openflowjava.notification")
    assert r.returncode == 0, r.stdout + r.stderr

    url = system.restconf + SEND_MAPS_FLOW_URL.format(node=system.node_id)
    requests.delete(url, auth=AUTH, timeout=30)   # left over from an earlier run (the datastore persists)
    flow = {"flow-node-inventory:flow": [{
        "id": "oko-send-maps", "table_id": 0, "priority": 300, "cookie": SEND_MAPS_COOKIE,
        "match": {
            "ethernet-match": {"ethernet-type": {"type": 0x0800}},
            "openflowplugin-extension-general:extension-list": [{
                "extension-key": "oko-openflowplugin:filter-prog-key",
                "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": SEND_MAPS_PROG}}}]},
        "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
            {"order": 0, "oko-openflowplugin:oko-send-maps": {"map-mask": 2}}]}}]}}]}
    r = requests.put(url, json=flow, auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text

    def installed():
        out = system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {system.bridge}").stdout
        return [line for line in out.splitlines() if f"filter_prog={SEND_MAPS_PROG}" in line]
    line = wait_for(installed, 60, "the flow with filter_prog never reached the switch")[0]
    assert f"cookie={SEND_MAPS_COOKIE:#x}" in line and "priority=300,ip" in line, line
    assert "actions=send_maps(0x2)" in line, line

    log = system.karaf / "data" / "log" / "karaf.log"
    start = log.stat().st_size
    r = system.sh(f"ovs-ofctl -O OpenFlow13 packet-out {system.bridge} "
                  f"'in_port=LOCAL packet={udp_frame(payload=b'oko')} actions=table'")
    assert r.returncode == 0, r.stdout + r.stderr

    def published():
        with log.open() as f:
            f.seek(start)
            return re.findall(r"SEND_MAPS from (\S+): program (\d+) event \d+ fragment 0 \(last\), cookie (\d+), "
                              r"table 0, 1 map sections \(1 entries\), 0 suppressed", f.read())
    events = wait_for(published, 60, "no SEND_MAPS notification was published by the controller")
    assert events[0] == (system.node_id, str(SEND_MAPS_PROG), str(SEND_MAPS_COOKIE)), events
    show = system.sh(f"ovs-appctl oko/show {system.bridge}").stdout
    block = show.split(f"program {SEND_MAPS_PROG}:")[1].split("program ")[0]
    assert "runs 1, matches 1," in block, show       # the packet-out's one packet, seen by the program
    requests.delete(url, auth=AUTH, timeout=30)


def test_restconf_refuses_a_wrong_password(system):
    r = requests.get(f"{system.restconf}/data/opendaylight-inventory:nodes", auth=("admin", "wrong"),
                     timeout=30)
    assert r.status_code == 401


def test_running_vswitchd_is_the_patched_build(system):
    pid = (system.run_dir / "ovs" / "ovs-vswitchd.pid").read_text().strip()
    exe = os.readlink(f"/proc/{pid}/exe")
    r = system.sh(f"'{exe}' --version")
    assert "Open vSwitch) 3.5.0" in r.stdout and "Oko " in r.stdout, r.stdout


def test_down_leaves_no_process_of_ours(system):
    pids = {}
    for name, f in [("karaf", system.run_dir / "karaf.pid"),
                    ("ovsdb-server", system.run_dir / "ovs" / "ovsdb-server.pid"),
                    ("ovs-vswitchd", system.run_dir / "ovs" / "ovs-vswitchd.pid")]:
        pids[name] = int(f.read_text().strip())
    r = system.down()
    assert r.returncode == 0, r.stdout + r.stderr
    for name, pid in pids.items():
        assert not os.path.exists(f"/proc/{pid}"), f"{name} (pid {pid}) still runs"
    # Nothing else started from our run folder (Karaf's JVM, OVS daemons) survives.
    left = subprocess.run(["pgrep", "-af", str(system.run_dir)], capture_output=True, text=True).stdout
    assert left.strip() == "", left
    # Nor what the userspace datapath and DPDK leave in the system: the bridge's tap device and ovs-netdev
    # (persistent taps), DPDK's runtime directory.
    for dev in (system.bridge, "ovs-netdev"):
        r = subprocess.run(["ip", "link", "show", dev], capture_output=True, text=True)
        assert r.returncode != 0, f"tap device {dev} left behind: {r.stdout}"
    assert not os.path.exists("/var/run/dpdk/oko"), os.listdir("/var/run/dpdk/oko")
