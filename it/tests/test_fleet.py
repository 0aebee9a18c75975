# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""A fleet of simulated Oko switches (it/tests/fleet.py) against the real controller: after a controller restart
every switch gets its program before the flows that name it, once."""
import os
import signal
import time

import requests

from fleet import Fleet
from helpers import AUTH, wait_for

SWITCHES = int(os.environ.get("OKO_FLEET_TEST_SWITCHES", "50"))
FIRST_DPID = 300000
PROG_ID = 41
TABLE = 0


def flow(node_index):
    """One flow per switch whose match names program PROG_ID (filter_prog), as an operator writes it."""
    return {"id": "fleet-flow", "table_id": TABLE, "priority": 410 + node_index % 7,
            "match": {"ethernet-match": {"ethernet-type": {"type": 2048}},
                      "openflowplugin-extension-general:extension-list": [{
                          "extension-key": "oko-openflowplugin:filter-prog-key",
                          "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": PROG_ID}}}]},
            "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
                {"order": 0, "drop-action": {}}]}}]}}


def in_inventory(system, nodes):
    r = requests.get(f"{system.restconf}/data/opendaylight-inventory:nodes?content=nonconfig&fields=node(id)",
                     auth=AUTH, timeout=120)
    if r.status_code != 200:
        return False
    return nodes <= {n["id"] for n in r.json().get("opendaylight-inventory:nodes", {}).get("node", [])}


def complete(fleet):
    """Switches that have the program and the flow naming it."""
    return sum(1 for sw in fleet.switches
               if PROG_ID in sw.programs and any(k[0] == TABLE for k in sw.flows))


def test_after_a_controller_restart_every_switch_gets_its_program_before_its_flows(system):
    nodes = [f"openflow:{FIRST_DPID + i}" for i in range(SWITCHES)]
    fleet = Fleet(SWITCHES, [f"{system.env.get('OKO_LISTEN', '127.0.0.1')}:6653"], FIRST_DPID).start()
    try:
        wait_for(lambda: in_inventory(system, set(nodes)), 180, f"{SWITCHES} simulated switches in the inventory")
        r = requests.put(f"{system.restconf}/data/oko:programs/program=fleet", auth=AUTH, timeout=60,
                         json={"oko:program": [{"name": "fleet", "library-filter": "rate-limiter"}]})
        assert r.status_code in (200, 201, 204), r.text
        r = requests.patch(f"{system.restconf}/data/oko:switches", auth=AUTH, timeout=300, json={"oko:switches": {
            "switch": [{"node": node, "program": [{"program-id": PROG_ID, "program": "fleet"}]} for node in nodes]}})
        assert r.status_code in (200, 201, 204), r.text
        r = requests.patch(f"{system.restconf}/data/opendaylight-inventory:nodes", auth=AUTH, timeout=300,
                           json={"opendaylight-inventory:nodes": {"node": [
                               {"id": node, "flow-node-inventory:table": [{"id": TABLE, "flow": [flow(i)]}]}
                               for i, node in enumerate(nodes)]}})
        assert r.status_code in (200, 201, 204), r.text
        wait_for(lambda: complete(fleet) == SWITCHES, 180, "the program and its flow on every simulated switch")

        # The controller stops; meanwhile every switch restarts too and forgets its programs and flows (the
        # hardest case for the order: nothing is there when the controller comes back).
        system.stop_karaf(signal.SIGTERM)
        for sw in fleet.switches:
            sw.programs.clear()
            sw.flows.clear()
            sw.received.clear()
        started = time.time()
        system.up()
        wait_for(lambda: complete(fleet) == SWITCHES, 300,
                 "the program and its flow on every simulated switch after the restart")
        print(f"{SWITCHES} simulated switches back (program and flow) {time.time() - started:.1f} s after "
              "the controller's start began")

        refused = {sw.dpid: sw.count("FLOW_REFUSED") for sw in fleet.switches if sw.count("FLOW_REFUSED")}
        assert not refused, f"flows refused because their program was not loaded yet: {refused}"
        for sw in fleet.switches:
            loads = [t for t, _, kind, prog in sw.received if kind == "LOAD_PROG" and prog == PROG_ID]
            flows = [t for t, _, kind, prog in sw.received if kind == "FLOW_MOD" and prog == PROG_ID]
            assert len(loads) == 1, f"switch {sw.dpid}: {len(loads)} LOAD_PROG of program {PROG_ID}"
            assert flows and loads[0] < flows[0], \
                f"switch {sw.dpid}: its flow came before its program ({sw.received})"
    finally:
        for node in nodes:
            requests.delete(f"{system.restconf}/data/oko:switches/switch={node}", auth=AUTH, timeout=60)
            requests.delete(f"{system.restconf}/data/opendaylight-inventory:nodes/node={node}", auth=AUTH,
                            timeout=60)
        requests.delete(f"{system.restconf}/data/oko:programs/program=fleet", auth=AUTH, timeout=60)
        fleet.stop()
