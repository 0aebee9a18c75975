# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""The oko northbound over RESTCONF against the real patched OVS: the user guide's sequence
(docs/northbound.md), its error answers, and a switch restart. The tests run in file order and build on each
other, like the guide."""
import base64
import os
import signal
import subprocess
import time

import pytest
import requests

from conftest import REPO
from helpers import AUTH, MapsReceivedSubscriber, udp_frame, wait_for

PROGS = REPO / "datapath" / "runtime" / "build" / "progs"
PROG_ID = 30
FLOW_ID = "limit-sources"
INITIAL_BUCKET = (7).to_bytes(8, "little") + (11).to_bytes(8, "little")     # tokens_ns 7, last_ns 11


def _rpc(system, name, body):
    """An oko RPC; retried while RESTCONF does not know the module's RPCs yet (just after boot)."""
    deadline = time.time() + 60
    while True:
        r = requests.post(f"{system.restconf}/operations/oko:{name}", json={"input": body}, auth=AUTH, timeout=120)
        if r.status_code != 404 or time.time() > deadline:
            return r
        time.sleep(2)


def _error_message(response):
    errors = response.json()["errors"]["error"]
    return " | ".join(e.get("error-message", "") for e in errors)


def _switch_program(system, prog_id, content="nonconfig"):
    r = requests.get(f"{system.restconf}/data/oko:switches/switch={system.node_id}/program={prog_id}"
                     f"?content={content}", auth=AUTH, timeout=30)
    return r.json()["oko:program"][0] if r.status_code == 200 else None


def _oko_show(system):
    return system.sh(f"ovs-appctl oko/show {system.bridge}").stdout


def _initial_bucket(system):
    """The buckets entry of 10.1.1.1, as the switch has it (configured as an initial-map entry)."""
    r = _rpc(system, "dump-maps", {"node": system.node_id, "program-id": PROG_ID, "map": ["buckets"]})
    assert r.status_code == 200, r.text
    (buckets,) = r.json()["oko:output"]["map"]
    return [{f["name"]: f["value"] for f in e["value-field"]} for e in buckets.get("entry", [])
            if e["key"] == "0a010101"]


def _dump_params(system):
    r = _rpc(system, "dump-maps", {"node": system.node_id, "program-id": PROG_ID, "map": ["params"]})
    assert r.status_code == 200, r.text
    (params,) = r.json()["oko:output"]["map"]
    (entry,) = params["entry"]
    return {f["name"]: f["value"] for f in entry["value-field"]}


@pytest.fixture(scope="module")
def clean(system):
    """Starts from an empty oko configuration (the datastore outlives `down`)."""
    for path in ("oko:switches", "oko:programs"):
        requests.delete(f"{system.restconf}/data/{path}", auth=AUTH, timeout=30)
    flow = (f"{system.restconf}/data/opendaylight-inventory:nodes/node={system.node_id}"
            f"/flow-node-inventory:table=0/flow={FLOW_ID}")
    requests.delete(flow, auth=AUTH, timeout=30)
    return system


def test_library_lists_the_rate_limiter_with_its_parameters(clean):
    r = _rpc(clean, "list-library", {})
    assert r.status_code == 200, r.text
    filters = {f["name"]: f for f in r.json()["oko:output"]["filter"]}
    limiter = filters["rate-limiter"]
    assert limiter["version"] == "1.1.0" and limiter["description"].startswith(
        "Per-source-IPv4 token bucket: matches packets over the limit"), limiter
    assert {p["name"]: p["default"] for p in limiter["parameter"]} == {"rate": "1000", "burst": "rate"}
    # Keyed lists: RESTCONF does not keep their order (the guide says so).
    assert sorted((p["name"], p["unit"], p["type"], p["map"]) for p in limiter["parameter"]) == [
        ("burst", "packets, at most 1000000", "u64", "params"), ("rate", "packets per second", "u64", "params")], limiter
    assert sorted((m["map-index"], m["map-type"], m["key-size"], m["value-size"], m["max-entries"], m["key-layout"],
                   m["value-layout"]) for m in limiter["map"]) == [
        (0, "array", 4, 16, 1, "index:u32", "rate:u64 burst:u64"),
        (1, "lru-hash", 4, 16, 65536, "source:ipv4", "tokens_ns:u64 last_ns:u64")], limiter
    assert [m["map-name"] for m in limiter["map"]] == ["params", "buckets"]
    assert limiter["map"][1]["key-layout"] == "source:ipv4"


def test_openapi_document_lists_the_oko_module(clean):
    r = requests.get(clean.restconf.replace("/rests", "") + "/openapi/api/v3/single", auth=AUTH, timeout=120)
    assert r.status_code == 200, r.text[:300]
    paths = r.json()["paths"]
    for path in ("/rests/data/oko:programs", "/rests/operations/oko:load-program", "/rests/operations/oko:dump-maps"):
        assert path in paths, sorted(p for p in paths if "oko" in p)


def test_stored_program_from_the_library_shows_its_info(clean):
    program = {"oko:program": [{"name": "limiter", "description": "5 packets per second per source",
                                "library-filter": "rate-limiter",
                                "parameter": [{"name": "rate", "value": "5"}, {"name": "burst", "value": "8"}],
                                "initial-map": [{"map": "buckets", "entry": [
                                    {"key": base64.b64encode(bytes([10, 1, 1, 1])).decode(),
                                     "value": base64.b64encode(INITIAL_BUCKET).decode()}]}]}]}
    r = requests.put(f"{clean.restconf}/data/oko:programs/program=limiter", json=program, auth=AUTH, timeout=30)
    assert r.status_code == 201, r.text         # the guide's "201 Created"

    def info():
        r = requests.get(f"{clean.restconf}/data/oko:programs/program=limiter?content=nonconfig", auth=AUTH,
                         timeout=30)
        return r.json()["oko:program"][0].get("info") if r.status_code == 200 else None
    info = wait_for(info, 30, "no operational info for the stored program")
    assert info["valid"] is True, info
    assert info["instructions"] > 0 and len(info["sha256"]) == 64, info
    assert [(m["map-name"], m["map-type"]) for m in info["map"]] == [("params", "array"), ("buckets", "lru-hash")]
    assert info["library-version"] == "1.1.0" and info["elf-size"] > 0, info
    assert [(m["map-index"], m["key-size"], m["value-size"], m["max-entries"]) for m in info["map"]] == [
        (0, 4, 16, 1), (1, 4, 16, 65536)], info


def test_program_installed_on_the_switch_with_its_parameters(clean):
    r = requests.put(f"{clean.restconf}/data/oko:switches/switch={clean.node_id}/program={PROG_ID}",
                     json={"oko:program": [{"program-id": PROG_ID, "program": "limiter"}]}, auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    status = wait_for(lambda: (_switch_program(clean, PROG_ID) or {}).get("status") == "installed"
                       and _switch_program(clean, PROG_ID), 60, "the program never became installed")
    assert status["program"] == "limiter" and status["status-message"] == "", status
    info = requests.get(f"{clean.restconf}/data/oko:programs/program=limiter/info?content=nonconfig", auth=AUTH,
                        timeout=30).json()["oko:info"]
    assert status["sha256"] == info["sha256"] and status["status-time"].startswith("20"), (status, info)
    assert f"program {PROG_ID}: {info['instructions']} instructions, jit, 2 maps" in _oko_show(clean)
    # The parameters were written into the filter's params map, and dump-maps decodes them with the catalog.
    assert _dump_params(clean) == {"rate": "5", "burst": "8"}
    assert _initial_bucket(clean) == [{"tokens_ns": "7", "last_ns": "11"}]


def test_console_commands_show_what_restconf_shows(clean):
    r = clean.karaf_console("oko:programs")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert any(line.split()[:4] == ["limiter", "library", "rate-limiter", "yes"]
               and line.rstrip().endswith("params, buckets") for line in lines), r.stdout
    assert any(line.split()[:4] == [clean.node_id, str(PROG_ID), "limiter", "installed"] for line in lines), r.stdout
    r = clean.karaf_console(f"oko:maps {clean.node_id} {PROG_ID} params")
    assert "map 0 'params' array: 1 entries" in r.stdout, r.stdout + r.stderr
    assert "index=0 | " in r.stdout and "rate=5" in r.stdout and "burst=8" in r.stdout, r.stdout
    r = clean.karaf_console(f"oko:load {clean.node_id} 33 library:baseline")
    assert f"{clean.node_id}: program 33 installed (2 instructions)" in r.stdout, r.stdout + r.stderr
    r = clean.karaf_console(f"oko:load {clean.node_id} 33 library:baseline")
    assert "OKO_EC_PROG_EXISTS" in r.stdout, r.stdout + r.stderr
    assert "program 33:" in _oko_show(clean)
    assert _rpc(clean, "unload-program", {"node": clean.node_id, "program-id": 33}).status_code in (200, 204)


def test_flow_refers_to_the_installed_program(clean):
    url = (f"{clean.restconf}/data/opendaylight-inventory:nodes/node={clean.node_id}"
           f"/flow-node-inventory:table=0/flow={FLOW_ID}")
    flow = {"flow-node-inventory:flow": [{
        "id": FLOW_ID, "table_id": 0, "priority": 300,
        "match": {"ethernet-match": {"ethernet-type": {"type": 0x0800}},
                  "openflowplugin-extension-general:extension-list": [{
                      "extension-key": "oko-openflowplugin:filter-prog-key",
                      "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": PROG_ID}}}]},
        # Over-limit packets are dropped (no output) and send the buckets map (index 1) to the controller.
        "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
            {"order": 0, "oko-openflowplugin:oko-send-maps": {"map-mask": 2}}]}}]}}]}
    r = requests.put(url, json=flow, auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: f"filter_prog={PROG_ID}" in clean.sh(
        f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout, 60, "the flow never reached the switch")
    dump = clean.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout
    assert f"priority=300,ip,filter_prog={PROG_ID} actions=send_maps(0x2)" in dump, dump


def test_update_map_entries_changes_a_parameter(clean):
    value = (2).to_bytes(8, "little") + (3).to_bytes(8, "little")
    r = _rpc(clean, "update-map-entries", {
        "node": clean.node_id, "program-id": PROG_ID, "map": "params",
        "entry": [{"key": base64.b64encode(bytes(4)).decode(), "value": base64.b64encode(value).decode()}]})
    assert r.status_code == 204, r.text
    assert _dump_params(clean) == {"rate": "2", "burst": "3"}
    r = _rpc(clean, "dump-maps", {"node": clean.node_id, "program-id": PROG_ID, "map": ["params"]})
    (params,) = r.json()["oko:output"]["map"]
    assert (params["map-index"], params["map-name"], params["map-type"], params["key-size"], params["value-size"],
            params["max-entries"], params["entry-count"]) == (0, "params", "array", 4, 16, 1, 1), params
    (entry,) = params["entry"]
    assert entry["key"] == "00000000" and entry["value"] == "0200000000000000" "0300000000000000", entry
    assert entry["key-field"] == [{"name": "index", "value": "0"}], entry


@pytest.mark.parametrize("body, text", [
    ({"map": "x", "entry": [{"key": "AAAAAA==", "value": "AA=="}]},
     "map: 'x' is not a map of program 30 (it has params, buckets)"),
    ({"map": "params", "entry": [{"key": "AA==", "value": ""}]},
     "entry 00: key 1 and value 0 bytes, map 'params' takes key 4 and value 16"),
])
def test_update_map_entries_refuses_a_wrong_map_or_size(clean, body, text):
    r = _rpc(clean, "update-map-entries", {"node": clean.node_id, "program-id": PROG_ID, **body})
    assert r.status_code == 400, r.text
    assert _error_message(r) == text
    assert _dump_params(clean) == {"rate": "2", "burst": "3"}


def test_over_limit_packets_send_their_sources_bucket_to_the_operational_datastore(clean):
    """With rate 2 and burst 3, the fourth of six back-to-back packets from one source is over the limit: the
    flow's send-maps action makes the switch send the buckets map, which the controller decodes with the
    catalog's layout into the program's received-map."""
    for _ in range(6):
        r = clean.sh(f"ovs-ofctl -O OpenFlow13 packet-out {clean.bridge} "
                     f"'in_port=LOCAL packet={udp_frame('10.9.8.7')} actions=table'")
        assert r.returncode == 0, r.stderr

    def received():
        program = _switch_program(clean, PROG_ID) or {}
        return {m["map-index"]: m for m in program.get("received-map", [])}.get(1)
    buckets = wait_for(received, 60, "no received-map for the buckets map")
    assert buckets["map-name"] == "buckets" and buckets["complete"] is True, buckets
    assert buckets["received-at"].startswith("20"), buckets
    sources = [{f["name"]: f["value"] for f in e["key-field"]}["source"] for e in buckets["entry"]]
    assert "10.9.8.7" in sources, buckets["entry"]
    # The guide's read of that one map, field by field.
    r = requests.get(f"{clean.restconf}/data/oko:switches/switch={clean.node_id}/program={PROG_ID}/received-map=1"
                     "?content=nonconfig", auth=AUTH, timeout=30)
    assert r.status_code == 200, r.text
    (one,) = r.json()["oko:received-map"]
    assert (one["map-index"], one["map-name"], one["map-type"], one["complete"], one["cookie"], one["table-id"],
            one["key-size"], one["value-size"], one["max-entries"]) == (1, "buckets", "lru-hash", True, "0", 0, 4, 16,
                                                                       65536), one
    assert one["event-id"] >= 1 and one["entry-count"] == len(one["entry"]), one
    entry = next(e for e in one["entry"] if e["key"] == "0a090807")
    assert len(entry["value"]) == 32 and sorted(f["name"] for f in entry["value-field"]) == ["last_ns", "tokens_ns"], \
        entry


def test_restconf_stream_subscriber_receives_maps_received(clean):
    """An application subscribes to oko:maps-received over a RESTCONF notification stream (server-sent events)
    and receives the event an over-limit source triggers, with the decoded map."""
    subscriber = MapsReceivedSubscriber(clean.restconf, AUTH, until="10.9.8.6")
    for _ in range(6):
        clean.sh(f"ovs-ofctl -O OpenFlow13 packet-out {clean.bridge} "
                 f"'in_port=LOCAL packet={udp_frame('10.9.8.6')} actions=table'")
    mine = subscriber.received(60)
    assert mine, subscriber.events
    event = mine[0]
    assert (event["node"], event["program-id"], event["program"]) == (clean.node_id, PROG_ID, "limiter"), event
    (buckets,) = event["map"]
    assert buckets["map-name"] == "buckets", buckets
    sources = [{f["name"]: f["value"] for f in e["key-field"]}["source"] for e in buckets["entry"]]
    assert "10.9.8.6" in sources, sources


@pytest.mark.parametrize("body, status, text", [
    ({"elf": base64.b64encode(b"hello").decode()}, 400, "elf: not an ELF object"),
    ({"library-filter": "no-such-filter"}, 400,
     "library-filter 'no-such-filter': the filter library has no such filter"),
    ({"program": "not-stored"}, 400, "program: 'not-stored' is not configured under /programs"),
])
def test_load_program_refuses_bad_input_naming_the_field(clean, body, status, text):
    r = _rpc(clean, "load-program", {"node": clean.node_id, "program-id": 31, **body})
    assert r.status_code == status and "invalid-value" in r.text, r.text
    assert text in _error_message(r), r.text
    assert "program 31:" not in _oko_show(clean)


def test_load_program_refuses_an_oversize_elf(clean):
    r = _rpc(clean, "load-program", {"node": clean.node_id, "program-id": 31,
                                     "elf": base64.b64encode(bytes(65504)).decode()})
    assert r.status_code == 400, r.text
    assert _error_message(r) == ("elf: 65504 bytes; a program is at most 65503 bytes (LOAD_PROG carries it in one"
                                 " OpenFlow message)"), r.text
    assert "program 31:" not in _oko_show(clean)


def test_programs_are_created_with_post_and_deleted(clean):
    r = requests.post(f"{clean.restconf}/data/oko:programs", auth=AUTH, timeout=30,
                      json={"oko:program": [{"name": "reference", "library-filter": "baseline"}]})
    assert r.status_code == 201, r.text
    url = f"{clean.restconf}/data/oko:programs/program=reference"
    r = requests.post(f"{clean.restconf}/data/oko:programs", auth=AUTH, timeout=30,
                      json={"oko:program": [{"name": "reference", "library-filter": "baseline"}]})
    assert r.status_code == 409 and "data-exists" in r.text, r.text
    assert requests.get(url, auth=AUTH, timeout=30).json()["oko:program"][0]["library-filter"] == "baseline"
    assert requests.delete(url, auth=AUTH, timeout=30).status_code == 204
    # The configuration is gone at once; the operational copy (with its info) follows asynchronously.
    assert requests.get(url + "?content=config", auth=AUTH, timeout=30).status_code in (404, 409)
    wait_for(lambda: requests.get(url, auth=AUTH, timeout=30).status_code in (404, 409), 30,
             "the program's operational copy stayed")


def test_load_program_on_an_unknown_switch_is_refused(clean):
    r = _rpc(clean, "load-program", {"node": "openflow:99", "program-id": 31, "library-filter": "baseline"})
    assert r.status_code == 409 and "data-missing" in r.text, r.text
    assert "switch openflow:99 is unknown or not connected" in _error_message(r), r.text


def test_load_program_returns_the_verifiers_rejection(clean):
    elf = (PROGS / "unsafe_no_len_check.o").read_bytes()
    r = _rpc(clean, "load-program", {"node": clean.node_id, "program-id": 31,
                                     "elf": base64.b64encode(elf).decode()})
    assert r.status_code == 500 and "operation-failed" in r.text, r.text
    message = _error_message(r)
    assert f"{clean.node_id} rejected program 31: OKO_EC_VERIFIER_REJECTED: insn " in message, message
    assert "packet read of 1 bytes at offset 12 is not proven within len" in message, message
    assert "program 31:" not in _oko_show(clean)


def test_load_program_now_and_unload_it(clean):
    r = _rpc(clean, "load-program", {"node": clean.node_id, "program-id": 32, "library-filter": "baseline"})
    assert r.status_code == 200, r.text
    assert r.json()["oko:output"] == {"status": "installed", "message": "", "instructions": 2}
    assert "program 32:" in _oko_show(clean)
    r = _rpc(clean, "load-program", {"node": clean.node_id, "program-id": 32, "library-filter": "baseline"})
    assert r.status_code == 500 and _error_message(r).startswith(
        f"{clean.node_id} rejected program 32: OKO_EC_PROG_EXISTS: "), r.text
    r = _rpc(clean, "unload-program", {"node": clean.node_id, "program-id": 32})
    assert r.status_code == 204, r.text          # the guide's step 7: no output
    assert "program 32:" not in _oko_show(clean)


@pytest.mark.parametrize("program, text", [
    ({"name": "bad-limiter", "library-filter": "rate-limiter", "parameter": [{"name": "rate", "value": "-1"}]},
     "program 'bad-limiter': parameter 'rate': '-1' does not fit 8 unsigned bytes"),
    ({"name": "bad-limiter", "elf": base64.b64encode(b"hello").decode()},
     "program 'bad-limiter': elf: not an ELF object"),
    ({"name": "bad-limiter", "library-filter": "no-such-filter"},
     "program 'bad-limiter': library-filter 'no-such-filter': the filter library has no such filter"),
    ({"name": "bad-limiter", "library-filter": "rate-limiter", "initial-map": [
        {"map": "params", "entry": [{"key": "AA==", "value": "AA=="}]}]},
     "program 'bad-limiter': initial-map 'params' entry 00: key 1 and value 1 bytes, the map takes key 4 and value 16"),
    ({"name": "bad-limiter", "elf": base64.b64encode(bytes(65504)).decode()},
     "program 'bad-limiter': elf: 65504 bytes; a program is at most 65503 bytes"),
])
def test_storing_a_program_no_switch_could_load_is_refused(clean, program, text):
    url = f"{clean.restconf}/data/oko:programs/program=bad-limiter"
    r = requests.put(url, json={"oko:program": [program]}, auth=AUTH, timeout=30,
                     headers={"Accept": "application/json"})     # as the guide's $A: errors in JSON
    assert r.status_code == 500, r.text          # how OpenDaylight's RESTCONF reports a refused commit
    (error,) = r.json()["errors"]["error"]
    assert error["error-tag"] == "operation-failed" and text in error["error-info"], r.text
    r = requests.get(url, auth=AUTH, timeout=30)
    assert r.status_code in (404, 409) and "data-missing" in r.text, r.text
    # The stored programs are untouched.
    r = requests.get(f"{clean.restconf}/data/oko:programs/program=limiter?content=config", auth=AUTH, timeout=30)
    assert r.status_code == 200, r.text


def test_switch_restart_gets_the_program_back_before_its_flow(clean):
    """ovs-vswitchd restarts and forgets everything; on reconnect the controller loads the configured program
    (parameters included) before the forwarding rules manager pushes the flow: the switch's log of every
    OpenFlow message it received shows LOAD_PROG and UPDATE_MAP of program 30 before the FLOW_MOD naming it,
    and the switch refused nothing."""
    pidfile = clean.run_dir / "ovs" / "ovs-vswitchd.pid"
    pid = int(pidfile.read_text().strip())
    os.kill(pid, signal.SIGTERM)
    wait_for(lambda: not os.path.exists(f"/proc/{pid}"), 60, "ovs-vswitchd did not stop")
    subprocess.run([str(REPO / "it" / "system" / "up")], check=True, timeout=900,
                   env={**clean.env, "OKO_VSWITCHD_VLOG": "-vvconn:file:dbg"})
    wait_for(lambda: f"filter_prog={PROG_ID}" in clean.sh(
        f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout, 120, "the flow did not come back")
    assert f"program {PROG_ID}:" in _oko_show(clean)
    # The restarted switch got the configured parameters again (not the RPC's later change).
    assert _dump_params(clean) == {"rate": "5", "burst": "8"}
    assert _initial_bucket(clean) == [{"tokens_ns": "7", "last_ns": "11"}]

    log = (clean.run_dir / "ovs" / "ovs-vswitchd.log").read_text()
    received = [line.split("received: ", 1)[1] for line in log[log.rfind("opened log file"):].splitlines()
                if "vconn|DBG|tcp:" in line and "received: " in line]
    load = next(i for i, m in enumerate(received) if m.startswith("OKOT_LOAD_PROG") and f"prog_id={PROG_ID} " in m)
    update = next(i for i, m in enumerate(received) if m.startswith("OKOT_UPDATE_MAP") and f"prog_id={PROG_ID} " in m)
    flow = next(i for i, m in enumerate(received)
                if m.startswith("OFPT_FLOW_MOD") and "ADD" in m and f"filter_prog={PROG_ID}" in m)
    assert load < update < flow, received[:40]
    assert "OKO_UNKNOWN_PROG" not in log[log.rfind("opened log file"):]


def test_deleting_the_configuration_unloads_the_program(clean):
    flow = (f"{clean.restconf}/data/opendaylight-inventory:nodes/node={clean.node_id}"
            f"/flow-node-inventory:table=0/flow={FLOW_ID}")
    assert requests.delete(flow, auth=AUTH, timeout=30).status_code in (200, 204)
    wait_for(lambda: f"filter_prog={PROG_ID}" not in clean.sh(
        f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout, 60, "the flow was not removed")
    r = requests.delete(f"{clean.restconf}/data/oko:switches/switch={clean.node_id}/program={PROG_ID}",
                        auth=AUTH, timeout=30)
    assert r.status_code in (200, 204), r.text
    wait_for(lambda: f"program {PROG_ID}:" not in _oko_show(clean), 60, "the program stayed on the switch")
    wait_for(lambda: _switch_program(clean, PROG_ID) is None, 30, "the operational entry stayed")
    # What the guide's step 8 says: after steps 1 to 8 (step 7's program unloaded), no program is left.
    assert _oko_show(clean) == f"{clean.bridge}: 0 programs\n", _oko_show(clean)


def test_a_removed_switch_leaves_no_operational_entry(clean):
    """A bridge that ran a program is deleted, then its switch entry is removed from the configuration:
    /oko:switches (operational) no longer lists it (it stayed there as switch-disconnected until Karaf restarted)."""
    bridge, node = "br-gone", "openflow:185"
    entry = f"{clean.restconf}/data/oko:switches/switch={node}"
    r = requests.put(f"{clean.restconf}/data/oko:programs/program=gone-baseline", auth=AUTH, timeout=30,
                     json={"oko:program": [{"name": "gone-baseline", "library-filter": "baseline"}]})
    assert r.status_code in (200, 201, 204), r.text
    r = clean.sh(f"ovs-vsctl add-br {bridge} -- set bridge {bridge} datapath_type=netdev protocols=OpenFlow13 "
                 f"fail_mode=secure other-config:datapath-id=00000000000000b9 "
                 f"-- set-controller {bridge} tcp:127.0.0.1:{clean.env['OKO_OF_PORT']}")
    assert r.returncode == 0, r.stderr

    def status():
        r = requests.get(f"{entry}/program=40?content=nonconfig", auth=AUTH, timeout=30)
        return r.json()["oko:program"][0].get("status") if r.status_code == 200 else None
    try:
        r = requests.put(f"{entry}/program=40", auth=AUTH, timeout=30,
                         json={"oko:program": [{"program-id": 40, "program": "gone-baseline"}]})
        assert r.status_code in (200, 201, 204), r.text
        wait_for(lambda: status() == "installed", 60, f"program 40 installed on {node}")
    finally:
        clean.sh(f"ovs-vsctl --if-exists del-br {bridge}; ip link del {bridge} 2>/dev/null")
    wait_for(lambda: status() == "switch-disconnected", 60, f"{node} marked disconnected")

    r = requests.delete(entry, auth=AUTH, timeout=30)
    assert r.status_code in (200, 204), r.text
    wait_for(lambda: requests.get(f"{entry}?content=nonconfig", auth=AUTH, timeout=30).status_code == 409, 30,
             f"{node} still listed in the operational /oko:switches")
    requests.delete(f"{clean.restconf}/data/oko:programs/program=gone-baseline", auth=AUTH, timeout=30)
