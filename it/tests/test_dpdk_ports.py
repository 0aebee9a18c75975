# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""The second datapath set-up: DPDK ports (net_af_packet) on veth pairs whose other ends sit in two network
namespaces the test creates (and removes, also on failure). Real kernel traffic (ping) crosses the patched
OVS's PMD thread; a blocklist program and flows POSTed over RESTCONF stop one source and let it through again
when the controller empties the list."""
import base64
import re
import subprocess

import pytest
import requests

from helpers import AUTH, put, wait_for

NAMESPACES = {"oko-client": ("oko-c0", "oko-c1", "10.0.9.1", 21), "oko-server": ("oko-s0", "oko-s1", "10.0.9.2", 22)}


def run(cmd):
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)


def remove_namespaces():
    for ns, (outside, _inside, _addr, _port) in NAMESPACES.items():
        run(f"ip netns del {ns} 2>/dev/null; ip link del {outside} 2>/dev/null")


@pytest.fixture(scope="module")
def veth(system):
    remove_namespaces()
    probe = run("ip netns add oko-probe && ip netns del oko-probe")
    if probe.returncode:
        pytest.skip(f"network namespaces are not available here (needs root): {probe.stderr.strip()}")
    try:
        for ns, (outside, inside, addr, port) in NAMESPACES.items():
            for cmd in (f"ip netns add {ns}", f"ip link add {outside} type veth peer name {inside}",
                        f"ip link set {inside} netns {ns}", f"ip link set {outside} up",
                        f"ip netns exec {ns} ip link set {inside} up", f"ip netns exec {ns} ip link set lo up",
                        f"ip netns exec {ns} ip addr add {addr}/24 dev {inside}"):
                r = run(cmd)
                assert r.returncode == 0, f"{cmd}: {r.stderr}"
            r = system.sh(f"ovs-vsctl --may-exist add-port {system.bridge} dpdk-{port} -- set interface dpdk-{port} "
                          f"type=dpdk ofport_request={port} options:dpdk-devargs=net_af_packet{port},iface={outside}")
            assert r.returncode == 0, r.stderr
            state = wait_for(lambda: system.sh(f"ovs-vsctl get interface dpdk-{port} link_state").stdout.strip(),
                             30, f"dpdk-{port} has no link state")
            assert state == "up", system.sh(f"ovs-vsctl get interface dpdk-{port} error").stdout
        yield system
    finally:
        system.sh(f"ovs-vsctl --if-exists del-port {system.bridge} dpdk-21 -- "
                  f"--if-exists del-port {system.bridge} dpdk-22")
        remove_namespaces()


def ping(count=3):
    r = run("ip netns exec oko-client ping -c %d -i 0.2 -W 1 10.0.9.2" % count)
    return r.returncode == 0


def test_blocklist_on_dpdk_ports_with_real_traffic(veth):
    system = veth
    data = f"{system.restconf}/data"
    flows = f"{data}/opendaylight-inventory:nodes/node={system.node_id}/flow-node-inventory:table=0"
    try:
        put(f"{data}/oko:programs/program=dpdk-blocklist",
            {"oko:program": [{"name": "dpdk-blocklist", "library-filter": "blocklist"}]})
        put(f"{data}/oko:switches/switch={system.node_id}/program=71",
            {"oko:program": [{"program-id": 71, "program": "dpdk-blocklist"}]})

        def flow(flow_id, priority, in_port, out_port, prog=False):
            match = {"in-port": f"{system.node_id}:{in_port}"}
            if prog:
                match["ethernet-match"] = {"ethernet-type": {"type": 0x0800}}
                match["openflowplugin-extension-general:extension-list"] = [{
                    "extension-key": "oko-openflowplugin:filter-prog-key",
                    "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": 71}}}]
            actions = [] if out_port is None else [{"order": 0, "output-action": {"output-node-connector": str(out_port)}}]
            put(f"{flows}/flow={flow_id}", {"flow-node-inventory:flow": [{
                "id": flow_id, "table_id": 0, "priority": priority, "match": match,
                "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": actions}}]}}]})
        flow("dpdk-blocked", 500, 21, None, prog=True)
        flow("dpdk-c-to-s", 100, 21, 22)
        flow("dpdk-s-to-c", 100, 22, 21)
        wait_for(lambda: system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {system.bridge}").stdout
                 .count("in_port=2") >= 3, 120, "the flows did not reach the switch")
        wait_for(ping, 60, "no ping through the DPDK ports before anything is blocked")

        key = base64.b64encode((32).to_bytes(4, "little") + bytes([10, 0, 9, 1])).decode()
        r = requests.post(f"{system.restconf}/operations/oko:update-map-entries", auth=AUTH, timeout=60, json={
            "input": {"node": system.node_id, "program-id": 71, "map": "blocked",
                      "entry": [{"key": key, "value": base64.b64encode(bytes(8)).decode()}]}})
        assert r.status_code in (200, 204), r.text
        assert not ping(), "the blocked source still gets through"
        dump = system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {system.bridge}").stdout
        (blocked,) = [line for line in dump.splitlines() if "filter_prog=71" in line]
        assert int(re.search(r"n_packets=(\d+)", blocked)[1]) >= 3, blocked     # the dropped pings

        r = requests.post(f"{system.restconf}/operations/oko:delete-map-entries", auth=AUTH, timeout=60, json={
            "input": {"node": system.node_id, "program-id": 71, "map": "blocked", "all": True}})
        assert r.status_code in (200, 204), r.text
        wait_for(ping, 30, "the source stays blocked after the list was emptied")
    finally:
        for flow_id in ("dpdk-blocked", "dpdk-c-to-s", "dpdk-s-to-c"):
            requests.delete(f"{flows}/flow={flow_id}", auth=AUTH, timeout=30)
        requests.delete(f"{data}/oko:switches/switch={system.node_id}/program=71", auth=AUTH, timeout=30)
        requests.delete(f"{data}/oko:programs/program=dpdk-blocklist", auth=AUTH, timeout=30)
