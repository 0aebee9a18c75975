# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""docs/writing-filters.md, section 5, against the real controller and switch: the guide's own filter,
compiled here, stored with its ELF and an initial entry, installed, used by a drop flow; SYNs to the guarded
port are dropped by the flow, others are not; update-map-entries guards another port at once."""
import base64
import re
import subprocess

import requests

from conftest import REPO
from helpers import AUTH, wait_for

PROG_ID = 40
FLOW_ID = "guard-ports"
EXAMPLE = REPO / "filter-library" / "examples" / "tcp-port-guard.c"


def syn_frame(port):
    eth = bytes.fromhex("000000000001" "000000000002" "0800")
    tcp = (40000).to_bytes(2, "big") + port.to_bytes(2, "big") + bytes(8) + bytes([0x50, 0x02]) + bytes(6)
    ip = bytes([0x45, 0, 0, 40, 0, 0, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2])
    return (eth + ip + tcp).hex()


def guard_flow_packets(system):
    flows = system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {system.bridge}").stdout
    line = next((l for l in flows.splitlines() if f"filter_prog={PROG_ID}" in l), None)
    return int(re.search(r"n_packets=(\d+)", line)[1]) if line else None


def send(system, port):
    r = system.sh(f"ovs-ofctl -O OpenFlow13 packet-out {system.bridge} "
                  f"'in_port=LOCAL packet={syn_frame(port)} actions=table'")
    assert r.returncode == 0, r.stderr


def test_the_guides_filter_from_c_to_the_switch(system, tmp_path):
    obj = tmp_path / "tcp-port-guard.o"
    subprocess.run(["clang", "-O2", "-target", "bpf", "-I", str(REPO / "filter-library" / "include"), "-c",
                    str(EXAMPLE), "-o", str(obj)], check=True)
    data = f"{system.restconf}/data"
    flow_url = (f"{data}/opendaylight-inventory:nodes/node={system.node_id}/flow-node-inventory:table=0"
                f"/flow={FLOW_ID}")
    program = {"oko:program": [{
        "name": "port-guard", "elf": base64.b64encode(obj.read_bytes()).decode(),
        "initial-map": [{"map": "guarded", "entry": [{"key": "ABc=", "value": "AAAAAAAAAAA="}]}]}]}
    try:
        r = requests.put(f"{data}/oko:programs/program=port-guard", json=program, auth=AUTH, timeout=30)
        assert r.status_code in (200, 201, 204), r.text
        r = requests.put(f"{data}/oko:switches/switch={system.node_id}/program={PROG_ID}",
                         json={"oko:program": [{"program-id": PROG_ID, "program": "port-guard"}]}, auth=AUTH, timeout=30)
        assert r.status_code in (200, 201, 204), r.text

        def status():
            r = requests.get(f"{data}/oko:switches/switch={system.node_id}/program={PROG_ID}?content=nonconfig",
                             auth=AUTH, timeout=30)
            return r.json()["oko:program"][0].get("status") == "installed" if r.status_code == 200 else False
        wait_for(status, 60, "port-guard was not installed")

        flow = {"flow-node-inventory:flow": [{
            "id": FLOW_ID, "table_id": 0, "priority": 400,
            "match": {"ethernet-match": {"ethernet-type": {"type": 0x0800}}, "ip-match": {"ip-protocol": 6},
                      "openflowplugin-extension-general:extension-list": [{
                          "extension-key": "oko-openflowplugin:filter-prog-key",
                          "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": PROG_ID}}}]},
            "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": []}}]}}]}
        r = requests.put(flow_url, json=flow, auth=AUTH, timeout=30)
        assert r.status_code in (200, 201, 204), r.text
        wait_for(lambda: guard_flow_packets(system) is not None, 60, "the flow never reached the switch")

        for port in (23, 80, 22, 23):
            send(system, port)
        wait_for(lambda: guard_flow_packets(system) == 2, 10, "port 23 SYNs not matched")

        r = requests.post(f"{system.restconf}/operations/oko:update-map-entries", auth=AUTH, timeout=60, json={
            "input": {"node": system.node_id, "program-id": PROG_ID, "map": "guarded",
                      "entry": [{"key": "ABY=", "value": "AAAAAAAAAAA="}]}})
        assert r.status_code in (200, 204), r.text
        send(system, 22)
        wait_for(lambda: guard_flow_packets(system) == 3, 10, "port 22 not guarded after update-map-entries")

        r = requests.post(f"{system.restconf}/operations/oko:dump-maps", auth=AUTH, timeout=60, json={
            "input": {"node": system.node_id, "program-id": PROG_ID}})
        assert r.status_code == 200, r.text
        (guarded,) = r.json()["oko:output"]["map"]
        counts = {e["key"]: int.from_bytes(bytes.fromhex(e["value"]), "little") for e in guarded["entry"]}
        assert counts == {"0017": 2, "0016": 1}, guarded
    finally:
        requests.delete(flow_url, auth=AUTH, timeout=30)
        requests.delete(f"{data}/oko:switches/switch={system.node_id}/program={PROG_ID}", auth=AUTH, timeout=30)
        requests.delete(f"{data}/oko:programs/program=port-guard", auth=AUTH, timeout=30)
