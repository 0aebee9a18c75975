# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""What the operator sees (issue 22): per-program statistics read from the switch over OpenFlow (PROG_STATS),
equal to what the switch's own oko/show prints; a stock Open vSwitch without Oko (Debian's, in its own network
namespace) named as such, sent nothing Oko, and still given plain flows; flows the switch refuses because of Oko
listed with the switch's reason and pushed again once their program is installed. The tests run in file order."""
import base64
import re

import pytest
import requests

from conftest import REPO
from helpers import AUTH, udp_frame, wait_for
from stockswitch import StockSwitch

PROGS = REPO / "datapath" / "runtime" / "build" / "progs"
PROG_ID = 44                # not another test module's id: each leaves its programs behind otherwise
LATE_PROG_ID = 46           # configured only after the flow that names it
INSTANT_PROG_ID = 47
PACKETS = 5


def _switch(system, node):
    r = requests.get(f"{system.restconf}/data/oko:switches/switch={node}?content=nonconfig", auth=AUTH, timeout=30)
    return r.json()["oko:switch"][0] if r.status_code == 200 else {}


def _program(system, node, prog_id):
    return next((p for p in _switch(system, node).get("program", []) if p["program-id"] == prog_id), {})


def _flows(system, node):
    return f"{system.restconf}/data/opendaylight-inventory:nodes/node={node}/flow-node-inventory:table=0"


def _filter_flow(flow_id, prog_id, priority):
    return {"flow-node-inventory:flow": [{
        "id": flow_id, "table_id": 0, "priority": priority,
        "match": {"ethernet-match": {"ethernet-type": {"type": 0x0800}}, "ip-match": {"ip-protocol": 17},
                  "openflowplugin-extension-general:extension-list": [{
                      "extension-key": "oko-openflowplugin:filter-prog-key",
                      "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": prog_id}}}]},
        "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": []}}]}}]}


def _refused(system, node, flow_id):
    return next((f for f in _switch(system, node).get("refused-flow", []) if f["flow-id"] == flow_id), {})


def _program_info(system, name):
    r = requests.get(f"{system.restconf}/data/oko:programs/program={name}/info?content=nonconfig", auth=AUTH,
                     timeout=30)
    return r.json()["oko:info"] if r.status_code == 200 else {}


def _karaf_log(system):
    return (system.karaf / "data" / "log" / "karaf.log").read_text(errors="replace")


def _forget_everything(system):
    requests.delete(_flows(system, system.node_id), auth=AUTH, timeout=30)
    for path in ("oko:switches", "oko:programs"):
        requests.delete(f"{system.restconf}/data/{path}", auth=AUTH, timeout=30)


@pytest.fixture(scope="module")
def clean(system):
    """Starts from an empty oko configuration and no flows in table 0 (the datastore outlives `down`), and
    leaves none behind for the next module."""
    _forget_everything(system)
    yield system
    _forget_everything(system)


@pytest.fixture(scope="module")
def stock(system):
    switch = StockSwitch(system.run_dir, int(system.env["OKO_OF_PORT"])).start()
    try:
        wait_for(lambda: requests.get(f"{system.restconf}/data/opendaylight-inventory:nodes/node={switch.node_id}"
                                      "?content=nonconfig", auth=AUTH, timeout=30).status_code == 200, 90,
                 f"{switch.node_id} (stock Open vSwitch) never connected")
        yield switch
    finally:
        requests.delete(f"{system.restconf}/data/opendaylight-inventory:nodes/node={switch.node_id}", auth=AUTH,
                        timeout=30)
        switch.stop()


def test_the_oko_switch_answers_the_probe(clean):
    sw = wait_for(lambda: _switch(clean, clean.node_id).get("oko-supported") is not None
                  and _switch(clean, clean.node_id), 60, "the Oko switch has no oko-supported")
    assert sw["oko-supported"] is True and sw["oko-support-message"] == "answered PROG_STATS", sw
    assert sw["connected"] is True, sw


def test_statistics_move_with_traffic_and_equal_oko_show(clean):
    elf = base64.b64encode((PROGS / "verdict_map.o").read_bytes()).decode()
    one = base64.b64encode((1).to_bytes(8, "little")).decode()
    r = requests.put(f"{clean.restconf}/data/oko:programs/program=verdict", auth=AUTH, timeout=30, json={
        "oko:program": [{"name": "verdict", "elf": elf, "initial-map": [
            {"map": "verdict", "entry": [{"key": base64.b64encode(bytes(4)).decode(), "value": one}]}]}]})
    assert r.status_code in (200, 201, 204), r.text
    r = requests.put(f"{clean.restconf}/data/oko:switches/switch={clean.node_id}/program={PROG_ID}", auth=AUTH,
                     timeout=30, json={"oko:program": [{"program-id": PROG_ID, "program": "verdict"}]})
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: _program(clean, clean.node_id, PROG_ID).get("status") == "installed", 60,
             "the program never became installed")
    r = requests.put(f"{_flows(clean, clean.node_id)}/flow=verdict-udp", json=_filter_flow("verdict-udp", PROG_ID, 300),
                     auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: f"filter_prog={PROG_ID}" in clean.sh(
        f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout, 60, "the flow never reached the switch")

    # Before any packet: the controller reads zero runs, and the rule that names the program.
    stats = wait_for(lambda: (_program(clean, clean.node_id, PROG_ID).get("statistics") or {}).get("rules") == 1
                     and _program(clean, clean.node_id, PROG_ID)["statistics"], 30,
                     "no statistics with the flow's rule for the program")
    assert int(stats["runs"]) == 0, stats

    for _ in range(PACKETS):
        r = clean.sh(f"ovs-ofctl -O OpenFlow13 packet-out {clean.bridge} "
                     f"'in_port=LOCAL packet={udp_frame()} actions=table'")
        assert r.returncode == 0, r.stderr
    stats = wait_for(lambda: int((_program(clean, clean.node_id, PROG_ID).get("statistics") or {})
                                 .get("runs", 0)) == PACKETS and _program(clean, clean.node_id, PROG_ID)
                     ["statistics"], 30, "the statistics did not move with the traffic")

    show = clean.sh(f"ovs-appctl oko/show {clean.bridge}").stdout
    block = show[show.index(f"program {PROG_ID}:"):]
    rules, dp_flows = re.search(r"used by (\d+) rules, (\d+) datapath flows", block).groups()
    runs, matches, errors, ns = re.search(r"runs (\d+), matches (\d+), errors (\d+), ([0-9.]+) ns per run",
                                          block).groups()
    assert (int(stats["runs"]), int(stats["matches"]), int(stats["errors"])) == (int(runs), int(matches),
                                                                                 int(errors)) == (PACKETS,) * 2 + (0,)
    assert float(stats["average-ns-per-run"]) == float(ns), (stats, show)
    assert (stats["rules"], stats["datapath-flows"]) == (int(rules), int(dp_flows)), (stats, show)
    verdict = next(m for m in stats["map"] if m["map-name"] == "verdict")
    assert (verdict["map-type"], verdict["used"], verdict["max-entries"]) == ("array", 1, 1), verdict
    assert "map 0 'verdict': array, key 4, value 8, 1 of 1 entries" in block, show


def test_the_console_shows_the_statistics(clean):
    r = clean.karaf_console(f"oko:stats {clean.node_id}")
    assert r.returncode == 0, r.stdout + r.stderr
    row = next((line.split() for line in r.stdout.splitlines() if line.split()[:2] == [clean.node_id,
                                                                                       str(PROG_ID)]), None)
    assert row is not None and row[2:6] == ["verdict", str(PACKETS), str(PACKETS), "0"], r.stdout
    assert "map 0 verdict (array): 1 of 1 used" in r.stdout, r.stdout


def test_a_switch_without_oko_is_named_as_such_and_sent_nothing_oko(clean, stock):
    expected = "Open vSwitch 3.1.0 answered BADEXPERIMENTER"
    # The verdict comes with the probe's answer; the switch's software is named once openflowplugin has put its
    # description into the inventory (just after).
    wait_for(lambda: _switch(clean, stock.node_id).get("oko-supported") is False
             and _switch(clean, stock.node_id).get("oko-support-message") == expected, 60,
             f"{stock.node_id} is not oko-supported false with '{expected}': {_switch(clean, stock.node_id)}")

    r = requests.put(f"{clean.restconf}/data/oko:switches/switch={stock.node_id}/program={PROG_ID}", auth=AUTH,
                     timeout=30, json={"oko:program": [{"program-id": PROG_ID, "program": "verdict"}]})
    assert r.status_code in (200, 201, 204), r.text
    program = wait_for(lambda: _program(clean, stock.node_id, PROG_ID).get("status") == "unsupported"
                       and _program(clean, stock.node_id, PROG_ID), 60, "the program is not unsupported")
    assert program["status-message"] == f"{stock.node_id} does not support Oko ({expected})", program

    # The only Oko message the switch ever received is the probe, once per connection.
    log = stock.log()
    connections = len(re.findall(r"<->unix:.*: connected", log))
    refused = len(re.findall(r"received: \*\*\*decode error: OFPBRC_BAD_VENDOR", log))
    assert connections >= 1 and refused == connections, (connections, refused, log[-3000:])

    r = requests.post(f"{clean.restconf}/operations/oko:load-program", auth=AUTH, timeout=60, json={
        "input": {"node": stock.node_id, "program-id": PROG_ID, "library-filter": "baseline"}})
    assert "operation-not-supported" in r.text and f"{stock.node_id} does not support Oko ({expected})" in r.text, \
        r.text

    r = clean.karaf_console("oko:stats")
    assert f"{stock.node_id}" in r.stdout and f"does not support Oko ({expected})" in r.stdout, r.stdout


def test_a_plain_flow_still_reaches_the_switch_without_oko(clean, stock):
    flow = {"flow-node-inventory:flow": [{
        "id": "plain-drop", "table_id": 0, "priority": 10,
        "match": {"ethernet-match": {"ethernet-type": {"type": 0x0800}}},
        "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": []}}]}}]}
    r = requests.put(f"{_flows(clean, stock.node_id)}/flow=plain-drop", json=flow, auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: "priority=10,ip" in stock.ofctl("dump-flows", stock.bridge), 60,
             "the plain flow never reached the stock switch")


def test_a_flow_written_before_its_program_reaches_the_switch_once_the_program_is_installed(clean):
    node, flows = clean.node_id, _flows(clean, clean.node_id)
    log_start = len(_karaf_log(clean))          # the log outlives `make down`
    r = requests.put(f"{flows}/flow=late-udp", json=_filter_flow("late-udp", LATE_PROG_ID, 310), auth=AUTH,
                     timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    refused = wait_for(lambda: _refused(clean, node, "late-udp"), 60,
                       f"the flow naming program {LATE_PROG_ID} is not listed as refused: {_switch(clean, node)}")
    assert refused["program-id"] == LATE_PROG_ID and refused["table-id"] == 0, refused
    assert refused["reason"] == f"OKO_EC_UNKNOWN_PROG: program {LATE_PROG_ID} is not loaded", refused
    assert refused["refused-at"].startswith("20"), refused
    r = requests.get(f"{clean.restconf}/data/oko:switches/switch={node}?content=nonconfig&fields=refused-flow",
                     auth=AUTH, timeout=30)                                  # the guide's command
    assert r.status_code == 200 and r.json()["oko:switch"][0]["refused-flow"] == [refused], r.text
    assert f"filter_prog={LATE_PROG_ID}" not in clean.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout
    lines = [line for line in _karaf_log(clean)[log_start:].splitlines()
             if "flow late-udp (table 0) is not on the switch" in line]
    assert len(lines) == 1 and "WARN" in lines[0], lines
    assert lines[0].endswith(f"is not on the switch: OKO_EC_UNKNOWN_PROG: program {LATE_PROG_ID} is not loaded; "
                             f"it is pushed again when program {LATE_PROG_ID} is installed there"), lines

    # The program it names is configured afterwards: once installed, the flow is pushed again and accepted.
    r = requests.put(f"{clean.restconf}/data/oko:switches/switch={node}/program={LATE_PROG_ID}", auth=AUTH,
                     timeout=30, json={"oko:program": [{"program-id": LATE_PROG_ID, "program": "verdict"}]})
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: f"filter_prog={LATE_PROG_ID}" in clean.sh(
        f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout, 60,
        "the flow never reached the switch after its program was installed")
    wait_for(lambda: not _refused(clean, node, "late-udp"), 30, "the accepted flow is still listed as refused")
    assert (f"{node}: flow late-udp (table 0) is on the switch now that program {LATE_PROG_ID} is installed"
            in _karaf_log(clean)[log_start:])
    assert _program(clean, node, LATE_PROG_ID)["status"] == "installed"

    # Deleted: the flow leaves the switch, and its program can go.
    assert requests.delete(f"{flows}/flow=late-udp", auth=AUTH, timeout=30).status_code == 204
    wait_for(lambda: f"filter_prog={LATE_PROG_ID}" not in clean.sh(
        f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout, 60, "the deleted flow stayed on the switch")
    r = requests.delete(f"{clean.restconf}/data/oko:switches/switch={node}/program={LATE_PROG_ID}", auth=AUTH,
                        timeout=30)
    assert r.status_code == 204, r.text


def test_a_filter_flow_for_the_switch_without_oko_is_listed_as_refused(clean, stock):
    flow = _filter_flow("filtered-udp", PROG_ID, 300)
    r = requests.put(f"{_flows(clean, stock.node_id)}/flow=filtered-udp", json=flow, auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    refused = wait_for(lambda: _refused(clean, stock.node_id, "filtered-udp"), 60,
                       f"the filter flow is not listed as refused: {_switch(clean, stock.node_id)}")
    assert refused["reason"] == (f"{stock.node_id} does not support Oko (Open vSwitch 3.1.0 answered "
                                 "BADEXPERIMENTER); a switch without Oko refuses flows with a filter_prog match"), refused
    # The forwarding rules manager's push was refused by the switch itself.
    wait_for(lambda: "OFPBMC_BAD_FIELD" in stock.log(), 30, "the stock switch did not refuse the flow")
    assert "priority=300" not in stock.ofctl("dump-flows", stock.bridge)
    assert requests.delete(f"{_flows(clean, stock.node_id)}/flow=filtered-udp", auth=AUTH,
                           timeout=30).status_code == 204
    wait_for(lambda: not _refused(clean, stock.node_id, "filtered-udp"), 30, "the deleted flow is still listed")


def test_info_and_status_exist_as_soon_as_the_write_is_answered(clean):
    node = clean.node_id
    r = requests.put(f"{clean.restconf}/data/oko:programs/program=instant", auth=AUTH, timeout=30,
                     json={"oko:program": [{"name": "instant", "library-filter": "baseline"}]})
    assert r.status_code in (200, 201, 204), r.text
    r = requests.get(f"{clean.restconf}/data/oko:programs/program=instant/info?content=nonconfig", auth=AUTH,
                     timeout=30)
    assert r.status_code == 200 and r.json()["oko:info"]["valid"] is True, r.text

    entry = f"{clean.restconf}/data/oko:switches/switch={node}/program={INSTANT_PROG_ID}"
    r = requests.put(entry, auth=AUTH, timeout=30,
                     json={"oko:program": [{"program-id": INSTANT_PROG_ID, "program": "instant"}]})
    assert r.status_code in (200, 201, 204), r.text
    r = requests.get(f"{entry}?content=nonconfig", auth=AUTH, timeout=30)
    assert r.status_code == 200, r.text
    program = r.json()["oko:program"][0]
    # 'pending' as the commit wrote it, or already 'loading' (the controller has begun), or done.
    assert program["program"] == "instant" and (program["status"] == "installed" or (
        program["status"] == "pending" and program["status-message"] in (
            "configured; the controller loads it next", "loading"))), program
    wait_for(lambda: _program(clean, node, INSTANT_PROG_ID).get("status") == "installed", 60,
             "the program never became installed")

    # The id reused for another program: its status says so at once, not the earlier program's 'installed'.
    r = requests.put(entry, auth=AUTH, timeout=30,
                     json={"oko:program": [{"program-id": INSTANT_PROG_ID, "program": "verdict"}]})
    assert r.status_code in (200, 201, 204), r.text
    program = requests.get(f"{entry}?content=nonconfig", auth=AUTH, timeout=30).json()["oko:program"][0]
    assert program["program"] == "verdict" and (program["status"] == "pending" or (
        program["status"] == "installed" and program["sha256"] != _program_info(clean, "instant")["sha256"])), \
        program
    wait_for(lambda: _program(clean, node, INSTANT_PROG_ID).get("status") == "installed"
             and _program(clean, node, INSTANT_PROG_ID).get("program") == "verdict", 60,
             "the reused id never became installed with its new program")


def test_a_program_a_switch_entry_names_cannot_be_deleted(clean):
    node = clean.node_id
    entry = f"{clean.restconf}/data/oko:switches/switch={node}/program={INSTANT_PROG_ID}"
    r = requests.put(entry, auth=AUTH, timeout=30,
                     json={"oko:program": [{"program-id": INSTANT_PROG_ID, "program": "instant"}]})
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: _program(clean, node, INSTANT_PROG_ID).get("program") == "instant"
             and _program(clean, node, INSTANT_PROG_ID).get("status") == "installed", 60, "not installed")

    # Refused: the switch would keep running a program nothing in the configuration names.
    log_start = len(_karaf_log(clean))
    r = requests.delete(f"{clean.restconf}/data/oko:programs/program=instant", auth=AUTH, timeout=30)
    assert r.status_code == 500 and "operation-failed" in r.text and "Transaction to delete failed" in r.text, r.text
    assert requests.get(f"{clean.restconf}/data/oko:programs/program=instant?content=config", auth=AUTH,
                        timeout=30).status_code == 200
    assert f"program {INSTANT_PROG_ID}:" in clean.sh(f"ovs-appctl oko/show {clean.bridge}").stdout
    assert _program(clean, node, INSTANT_PROG_ID)["status"] == "installed"
    assert any(f"Configuration write refused: program 'instant' is configured for {node} as program {INSTANT_PROG_ID}: delete "
               f"/oko:switches/switch={node}/program={INSTANT_PROG_ID} first, or in the same request" in line
               and "WARN" in line for line in _karaf_log(clean)[log_start:].splitlines())

    # Both in one request (a YANG patch): the program leaves the switch and the configuration.
    r = requests.patch(f"{clean.restconf}/data", auth=AUTH, timeout=30,
                       headers={"Content-Type": "application/yang-patch+json"},
                       json={"ietf-yang-patch:yang-patch": {"patch-id": "remove-instant", "edit": [
                           {"edit-id": "1", "operation": "delete",
                            "target": f"/oko:switches/switch={node}/program={INSTANT_PROG_ID}"},
                           {"edit-id": "2", "operation": "delete", "target": "/oko:programs/program=instant"}]}})
    assert r.status_code == 200 and "error" not in r.text, r.text
    wait_for(lambda: f"program {INSTANT_PROG_ID}:" not in clean.sh(f"ovs-appctl oko/show {clean.bridge}").stdout,
             60, "the program stayed on the switch")
    assert requests.get(f"{clean.restconf}/data/oko:programs/program=instant?content=config", auth=AUTH,
                        timeout=30).status_code in (404, 409)


def test_a_program_the_switch_kept_is_installed_again_when_configured_again(clean):
    """The switch entry goes while a flow still uses the program: the switch keeps it (OKO_EC_PROG_IN_USE) and the
    entry says so; configured again, it is 'installed' again (it stayed 'failed' for good)."""
    node, flows = clean.node_id, _flows(clean, clean.node_id)
    entry = f"{clean.restconf}/data/oko:switches/switch={node}/program={INSTANT_PROG_ID}"
    r = requests.put(f"{clean.restconf}/data/oko:programs/program=instant", auth=AUTH, timeout=30,
                     json={"oko:program": [{"name": "instant", "library-filter": "baseline"}]})
    assert r.status_code in (200, 201, 204), r.text
    r = requests.put(entry, auth=AUTH, timeout=30,
                     json={"oko:program": [{"program-id": INSTANT_PROG_ID, "program": "instant"}]})
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: _program(clean, node, INSTANT_PROG_ID).get("status") == "installed", 60, "not installed")
    r = requests.put(f"{flows}/flow=kept-udp", json=_filter_flow("kept-udp", INSTANT_PROG_ID, 320), auth=AUTH,
                     timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: f"filter_prog={INSTANT_PROG_ID}" in clean.sh(
        f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout, 60, "the flow never reached the switch")
    try:
        assert requests.delete(entry, auth=AUTH, timeout=30).status_code == 204
        failed = wait_for(lambda: _program(clean, node, INSTANT_PROG_ID).get("status") == "failed"
                          and _program(clean, node, INSTANT_PROG_ID), 60, "the kept program is not 'failed'")
        assert failed["status-message"].startswith("no longer configured, but the switch keeps it: ") \
            and "OKO_EC_PROG_IN_USE" in failed["status-message"], failed
        assert f"program {INSTANT_PROG_ID}:" in clean.sh(f"ovs-appctl oko/show {clean.bridge}").stdout

        r = requests.put(entry, auth=AUTH, timeout=30,
                         json={"oko:program": [{"program-id": INSTANT_PROG_ID, "program": "instant"}]})
        assert r.status_code in (200, 201, 204), r.text
        wait_for(lambda: _program(clean, node, INSTANT_PROG_ID).get("status") == "installed", 60,
                 f"configured again, it stays {_program(clean, node, INSTANT_PROG_ID)}")
    finally:
        requests.delete(f"{flows}/flow=kept-udp", auth=AUTH, timeout=30)
    wait_for(lambda: f"filter_prog={INSTANT_PROG_ID}" not in clean.sh(
        f"ovs-ofctl -O OpenFlow13 dump-flows {clean.bridge}").stdout, 60, "the flow stayed")
    assert requests.delete(entry, auth=AUTH, timeout=30).status_code == 204
    wait_for(lambda: f"program {INSTANT_PROG_ID}:" not in clean.sh(
        f"ovs-appctl oko/show {clean.bridge}").stdout, 60, "the program stayed on the switch")
