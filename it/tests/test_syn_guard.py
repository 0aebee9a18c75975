# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""The SYN guard end to end (issue 25, docs/syn-guard.md): a guard configured over RESTCONF samples the SYNs
to a protected server, learns its clients' p0f signatures (Linux, Windows, macOS layouts), and when a flood tool's
SYNs arrive at 10x the clients' rate, installs a signature that drops the flood in the switch while the clients'
SYNs pass; the signature goes once the flood has stopped for the hold time, and a second flood with another
tool's fingerprint is caught too. Traffic enters dummy port p1 with netdev-dummy/receive, in slices of 200 ms;
what reaches the server leaves by p2 (a forwarding flow in the guard's next table). The requests are the guide's:
its forwarding flow, its guard (with shorter periods and a lower threshold), its veto. The tests run in file
order."""
import json
import re
import time

import pytest
import requests

from conftest import REPO
from helpers import AUTH, wait_for
from synflood import CLIENTS, TOOLS, Traffic, add_dummy_ports

GUARD = "web"
CLIENT_RATE = 15                                    # SYN/s of the three clients together
FLOOD_RATE = 10 * CLIENT_RATE
THRESHOLD = 40
LEARNING = 10
HOLD = 10
SAMPLING_RATE = 50
MITIGATION_BOUND = 15                               # seconds from the flood's start to its drop flow dropping
GUIDE = REPO / "docs" / "syn-guard.md"


def guide_request(path_part):
    """The URL (under $RESTCONF/data) and JSON body of the guide's curl command whose URL contains `path_part`."""
    for url, body in re.findall(r'"\$RESTCONF/data/([^"]+)" \\\n\s*-d \'(.*?)\'', GUIDE.read_text(), re.S):
        if path_part in url:
            return url, json.loads(body)
    raise AssertionError(f"docs/syn-guard.md has no request to {path_part}")


def _guard_url(system):
    return f"{system.restconf}/data/oko-syn-guard:syn-guards/syn-guard={GUARD}"


def _state(system):
    r = requests.get(f"{_guard_url(system)}/state?content=nonconfig", auth=AUTH, timeout=30)
    return r.json()["oko-syn-guard:state"] if r.status_code == 200 else {}


def _flows(system, table, bridge=None):
    out = system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {bridge or system.bridge} table={table}").stdout
    return [line for line in out.splitlines() if "priority=" in line]


def _drop_packets(system, bridge=None):
    """n_packets of the guard's drop flows on the switch, None while it has none."""
    counts = [int(line.split("n_packets=")[1].split(",")[0]) for line in _flows(system, 0, bridge)
              if "filter_prog=65001" in line]
    return sum(counts) if counts else None


def _program_gone(system):
    r = requests.get(f"{system.restconf}/data/oko:programs/program=syn-guard-{GUARD}-sampler", auth=AUTH, timeout=30)
    return r.status_code in (404, 409) and "data-missing" in r.text    # this RESTCONF answers 409


@pytest.fixture(scope="module")
def guarded(system):
    add_dummy_ports(system)
    path, forward = guide_request("flow=to-servers")
    url = f"{system.restconf}/data/{path}"
    # The flow manager may still be reconciling the new switch: write until the flow is there.

    def forwarding_on_switch():
        assert requests.put(url, json=forward, auth=AUTH, timeout=60).ok
        deadline = time.time() + 10
        while time.time() < deadline:
            if len(_flows(system, 1)) == 1:
                return True
            time.sleep(1)
        return False
    wait_for(forwarding_on_switch, 180, "the forwarding flow never reached the switch")
    yield system
    requests.delete(_guard_url(system), auth=AUTH, timeout=60)
    wait_for(lambda: _program_gone(system), 60, "the guard's programs were not removed")
    requests.delete(url, auth=AUTH, timeout=60)
    system.sh(f"ovs-vsctl --if-exists del-port {system.bridge} p1 -- --if-exists del-port {system.bridge} p2")


@pytest.fixture(scope="module")
def traffic(guarded):
    return Traffic(guarded, CLIENT_RATE, FLOOD_RATE)


def test_a_guard_installs_its_programs_and_flows_and_learns_the_clients(guarded, traffic):
    system = guarded
    path, guard = guide_request("syn-guard=web")
    assert f"{system.restconf}/data/{path}" == _guard_url(system)
    entry = guard["oko-syn-guard:syn-guard"][0]
    assert entry["node"] == [system.node_id]
    # The guide's values, shorter and lower for a test.
    entry.update({"sampling-rate": SAMPLING_RATE, "detection-threshold": THRESHOLD, "learning-period": LEARNING,
                  "hold-time": HOLD})
    r = requests.put(_guard_url(system), json=guard, auth=AUTH, timeout=60)
    assert r.status_code in (200, 201, 204), r.text
    # Its sampling and passing flows (ports 80 and 443) reach the switch once the sampler is installed there.
    wait_for(lambda: len(_flows(system, 0)) == 4, 90, "the guard's flows are not on the switch")
    flows = _flows(system, 0)
    for port in (80, 443):
        assert any(f"tp_dst={port},filter_prog=65000" in f and "CONTROLLER:160,goto_table:1" in f for f in flows), flows
        assert any(f"tp_dst={port} actions=goto_table:1" in f for f in flows), flows
    state = _state(system)
    assert state.get("phase") == "learning", state

    # The clients' SYNs pass while the guard learns them.
    start = time.time()
    traffic.run(LEARNING + 10, until=lambda: _state(system).get("phase") == "watching"
                and len(_state(system).get("learned-signature", [])) >= 3)
    state = _state(system)
    assert state.get("phase") == "watching", state
    learned = {s["signature"] for s in state.get("learned-signature", [])}
    assert len(learned) == 3, learned
    assert not any(sig == t[3] for t in TOOLS.values() for sig in learned)
    time.sleep(1)
    sent = traffic.outcome(start, time.time())
    assert all(total == passed for total, passed in sent.values()), sent


def test_a_signature_that_does_not_parse_is_refused_and_the_guard_keeps_running(guarded):
    system = guarded
    r = requests.post(_guard_url(system), json={"oko-syn-guard:pinned-signature": ["4:64:0:*:512"]}, auth=AUTH,
                      timeout=30, headers={"Accept": "application/json"})
    assert r.status_code == 500, r.text             # how OpenDaylight's RESTCONF reports a refused commit
    (error,) = r.json()["errors"]["error"]
    assert error["error-tag"] == "operation-failed", r.text
    assert "syn-guard web: pinned-signature '4:64:0:*:512'" in error["error-info"], r.text
    r = requests.get(f"{_guard_url(system)}?content=config", auth=AUTH, timeout=30)
    assert "pinned-signature" not in r.json()["oko-syn-guard:syn-guard"][0], r.text
    assert _state(system).get("phase") == "watching" and len(_flows(system, 0)) == 4


def _flood(system, traffic, tool):
    """Floods with `tool` (and the clients) until the drop flow has dropped for 5 seconds; returns the seconds
    to mitigation and the outcome after it."""
    start = time.time()
    mitigated = []

    def dropping():
        if not mitigated and (_drop_packets(system) or 0) > 0:
            mitigated.append(time.time())
        return mitigated and time.time() - mitigated[0] >= 5
    traffic.run(MITIGATION_BOUND + 10, flood=tool, until=dropping)
    assert mitigated, f"the flood of '{tool}' was not dropped within {MITIGATION_BOUND + 10} s: {_state(system)}"
    seconds = mitigated[0] - start
    time.sleep(1)
    return seconds, traffic.outcome(start, mitigated[0]), traffic.outcome(mitigated[0] + 1, time.time())


def test_a_flood_is_dropped_in_the_switch_and_the_clients_pass(guarded, traffic):
    system = guarded
    seconds, before, after = _flood(system, traffic, "window 512")
    print(f"syn-guard: flood 'window 512' dropped after {seconds:.1f} s; during detection {before}; after {after}")
    assert seconds <= MITIGATION_BOUND, seconds
    state = _state(system)
    active = state.get("active-signature", [])
    assert [a["signature"] for a in active] == [TOOLS["window 512"][3]], state
    assert float(active[0]["legitimate-share"]) == 0.0
    assert int(active[0]["dropped"]) > 0
    assert state["phase"] == "mitigating"
    # After the mitigation: no flood SYN leaves, every client SYN does (>= 99 % over the whole flood).
    flood_total, flood_passed = after["window 512"]
    assert flood_passed <= flood_total * 0.01, after
    clients = [before.get(k, (0, 0)) for k in CLIENTS] + [after.get(k, (0, 0)) for k in CLIENTS]
    total, passed = sum(c[0] for c in clients), sum(c[1] for c in clients)
    assert passed >= 0.99 * total, (before, after)


def test_the_signature_goes_after_the_hold_time_once_the_flood_stops(guarded, traffic):
    system = guarded
    stop = time.time()
    traffic.run(HOLD + 15, until=lambda: _drop_packets(system) is None)
    gone = time.time() - stop
    assert _drop_packets(system) is None, _flows(system, 0)
    assert gone >= HOLD - 1, f"removed {gone:.1f} s after the flood stopped, before the hold time"
    state = wait_for(lambda: (s := _state(system)).get("phase") == "watching" and s, 10, "not watching again")
    assert not state.get("active-signature"), state


def test_a_second_flood_with_another_fingerprint_is_caught_too(guarded, traffic):
    system = guarded
    seconds, before, after = _flood(system, traffic, "window 1024, ttl 255")
    print(f"syn-guard: flood 'window 1024, ttl 255' dropped after {seconds:.1f} s; after {after}")
    assert seconds <= MITIGATION_BOUND, seconds
    active = [a["signature"] for a in _state(system).get("active-signature", [])]
    assert active == [TOOLS["window 1024, ttl 255"][3]], active
    flood_total, flood_passed = after["window 1024, ttl 255"]
    assert flood_passed <= flood_total * 0.01, after
    assert all(after[k][0] == after[k][1] for k in CLIENTS if k in after), after


def _active(system):
    return [a["signature"] for a in _state(system).get("active-signature", [])]


def test_an_operators_veto_during_a_flood_takes_effect_at_once_and_keeps_what_was_learned(guarded, traffic):
    system = guarded
    tool, narrowest, any_window = "window 512", TOOLS["window 512"][3], "4:64:0:*:*,*:::0"
    traffic.run(MITIGATION_BOUND, flood=tool, until=lambda: narrowest in _active(system))
    assert narrowest in _active(system), _state(system)
    path, veto = guide_request("vetoed-signature=")
    r = requests.put(f"{system.restconf}/data/{path}", json=veto, auth=AUTH, timeout=60)
    assert r.status_code in (200, 201, 204), r.text
    # The same flood goes on: the guard chooses the looser signature the guide names, without learning again.
    traffic.run(MITIGATION_BOUND, flood=tool, until=lambda: any_window in _active(system))
    state = _state(system)
    assert any_window in _active(system) and narrowest not in _active(system), state
    assert state["phase"] == "mitigating" and len(state.get("learned-signature", [])) == 3, state
    since = time.time() + 1
    traffic.run(4, flood=tool)
    time.sleep(1)
    after = traffic.outcome(since, time.time())
    assert after[tool][1] <= after[tool][0] * 0.01, after
    assert all(after[k][0] == after[k][1] for k in CLIENTS if k in after), after


def test_deleting_the_guard_removes_what_it_installed(guarded):
    system = guarded
    r = requests.delete(_guard_url(system), auth=AUTH, timeout=60)
    assert r.status_code in (200, 204), r.text
    wait_for(lambda: not _flows(system, 0), 60, "the guard's flows are still on the switch")
    wait_for(lambda: _program_gone(system), 30, "the guard's programs are still configured")
    assert not _state(system)


# A guard on two switches: the clients enter the first, the flood the second (the same ovs-vswitchd, another
# bridge); both sample, the rates add up, and the drop flows go to both.
SECOND_BRIDGE = "br-guard2"
SECOND_DPID = 0xb26
SECOND_PORTS = ("q1", "q2")
EDGE = "edge"


def _edge_url(system):
    return f"{system.restconf}/data/oko-syn-guard:syn-guards/syn-guard={EDGE}"


def _edge_state(system):
    r = requests.get(f"{_edge_url(system)}/state?content=nonconfig", auth=AUTH, timeout=30)
    return r.json()["oko-syn-guard:state"] if r.status_code == 200 else {}


@pytest.fixture(scope="module")
def second_switch(guarded):
    system = guarded
    node = f"openflow:{SECOND_DPID}"
    r = system.sh(f"ovs-vsctl add-br {SECOND_BRIDGE} -- set bridge {SECOND_BRIDGE} datapath_type=netdev "
                  f"protocols=OpenFlow13 fail_mode=secure other-config:datapath-id={SECOND_DPID:016x} "
                  f"-- set-controller {SECOND_BRIDGE} tcp:127.0.0.1:{system.env['OKO_OF_PORT']}")
    assert r.returncode == 0, r.stderr
    add_dummy_ports(system, SECOND_BRIDGE, SECOND_PORTS)
    # The guide's forwarding flow, for this switch's ports.
    path, forward = guide_request("flow=to-servers")
    path = path.replace(f"node={system.node_id}", f"node={node}")
    forward["flow-node-inventory:flow"][0]["match"]["in-port"] = f"{node}:1"
    url = f"{system.restconf}/data/{path}"

    def forwarding_on_switch():
        assert requests.put(url, json=forward, auth=AUTH, timeout=60).ok
        deadline = time.time() + 10
        while time.time() < deadline:
            if len(_flows(system, 1, SECOND_BRIDGE)) == 1:
                return True
            time.sleep(1)
        return False
    wait_for(forwarding_on_switch, 180, f"the forwarding flow never reached {node}")
    yield node
    requests.delete(_edge_url(system), auth=AUTH, timeout=60)
    requests.delete(url, auth=AUTH, timeout=60)
    system.sh(f"ovs-vsctl --if-exists del-br {SECOND_BRIDGE}")


def test_a_guard_on_two_switches_learns_on_one_and_drops_a_flood_on_both(guarded, second_switch):
    system, node = guarded, second_switch
    _, guard = guide_request("syn-guard=web")
    entry = guard["oko-syn-guard:syn-guard"][0]
    entry.update({"name": EDGE, "node": [system.node_id, node], "sampling-rate": SAMPLING_RATE,
                  "detection-threshold": THRESHOLD, "learning-period": LEARNING, "hold-time": HOLD})
    r = requests.put(_edge_url(system), json=guard, auth=AUTH, timeout=60)
    assert r.status_code in (200, 201, 204), r.text
    for bridge in (system.bridge, SECOND_BRIDGE):
        wait_for(lambda: len(_flows(system, 0, bridge)) == 4, 90, f"the guard's flows are not on {bridge}")
    # The clients reach the servers through the first switch only: what the guard learns, it sampled there.
    clients = Traffic(system, CLIENT_RATE, 0)
    clients.run(LEARNING + 15, until=lambda: _edge_state(system).get("phase") == "watching"
                and len(_edge_state(system).get("learned-signature", [])) >= 3)
    state = _edge_state(system)
    assert state.get("phase") == "watching" and len(state.get("learned-signature", [])) == 3, state
    # The flood enters the second switch only: detected from its samples and counts, dropped there, and the
    # first switch gets the drop flows too.
    flood = Traffic(system, 0, FLOOD_RATE, ports=SECOND_PORTS)
    flood.run(MITIGATION_BOUND + 10, flood="window 512",
              until=lambda: (_drop_packets(system, SECOND_BRIDGE) or 0) > FLOOD_RATE)
    state = _edge_state(system)
    assert [a["signature"] for a in state.get("active-signature", [])] == [TOOLS["window 512"][3]], state
    assert (_drop_packets(system, SECOND_BRIDGE) or 0) > FLOOD_RATE, _flows(system, 0, SECOND_BRIDGE)
    assert _drop_packets(system) is not None, _flows(system, 0)
    assert int(state["active-signature"][0]["dropped"]) > 0, state


def test_a_program_or_guard_taking_a_running_guards_ids_or_priorities_is_refused(guarded, second_switch):
    system, node = guarded, second_switch
    mine = f"{system.restconf}/data/oko:programs/program=operators-own"
    r = requests.put(mine, auth=AUTH, timeout=30,
                     json={"oko:program": [{"name": "operators-own", "library-filter": "baseline"}]})
    assert r.status_code in (200, 201, 204), r.text
    try:
        r = requests.put(f"{system.restconf}/data/oko:switches/switch={node}/program=65001", auth=AUTH, timeout=30,
                         headers={"Accept": "application/json"},
                         json={"oko:program": [{"program-id": 65001, "program": "operators-own"}]})
        assert r.status_code == 500, r.text
        (error,) = r.json()["errors"]["error"]
        assert (f"syn-guard {EDGE}: switch {node} has program operators-own at id 65001, the guard's "
                "filter-program-id") in error["error-info"], r.text
    finally:
        requests.delete(mine, auth=AUTH, timeout=30)
    # The guard kept its own program there.
    r = requests.get(f"{system.restconf}/data/oko:switches/switch={node}/program=65001?content=config", auth=AUTH,
                     timeout=30)
    assert r.json()["oko:program"][0]["program"] == f"syn-guard-{EDGE}-p0f", r.text
    _, other = guide_request("syn-guard=web")
    other["oko-syn-guard:syn-guard"][0].update({"name": "other", "node": [node], "priority": 1002,
                                                 "sampler-program-id": 65100, "filter-program-id": 65101})
    r = requests.put(f"{system.restconf}/data/oko-syn-guard:syn-guards/syn-guard=other", json=other, auth=AUTH,
                     timeout=30, headers={"Accept": "application/json"})
    assert r.status_code == 500, r.text
    assert "too close to SYN guard" in r.text and "in table 0 on " + node in r.text, r.text


def test_writing_a_guard_again_puts_back_what_was_removed_by_hand(guarded, second_switch):
    system, node = guarded, second_switch
    samples = lambda: [f for f in _flows(system, 0, SECOND_BRIDGE) if "filter_prog=65000" in f]
    assert len(samples()) == 2, _flows(system, 0, SECOND_BRIDGE)
    flow = (f"{system.restconf}/data/opendaylight-inventory:nodes/node={node}/flow-node-inventory:table=0"
            f"/flow=syn-guard-{EDGE}-sample-0")
    assert requests.delete(flow, auth=AUTH, timeout=30).status_code in (200, 204)
    wait_for(lambda: len(samples()) == 1, 60, "the flow deleted by hand is still on the switch")
    r = requests.get(f"{_edge_url(system)}?content=config", auth=AUTH, timeout=30)
    learned = len(_edge_state(system).get("learned-signature", []))
    r = requests.put(_edge_url(system), json=r.json(), auth=AUTH, timeout=60)
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: len(samples()) == 2, 60, "writing the guard again did not put its flow back")
    assert len(_edge_state(system).get("learned-signature", [])) == learned   # it did not start learning again


def test_deleting_a_guard_on_two_switches_removes_its_flows_from_both(guarded, second_switch):
    system = guarded
    r = requests.delete(_edge_url(system), auth=AUTH, timeout=60)
    assert r.status_code in (200, 204), r.text
    for bridge in (system.bridge, SECOND_BRIDGE):
        wait_for(lambda: not _flows(system, 0, bridge), 60, f"the guard's flows are still on {bridge}")
