#!/usr/bin/env python3
"""Experiment 6 of bench/evaluate: the controller side, on the real system
(Karaf with odl-oko, the patched OVS, started by it/system/up).

  bench/controller.py [--rounds N] [--loads N] [--flows N] [--json OUT]

  LOAD_PROG round trip: `oko:load-program` over RESTCONF (library filter
      baseline) until the switch's answer is back in the RPC's output,
      --loads times (each on a new program id, unloaded afterwards);
      median and 99th percentile.
  Flows per second: --flows flows PUT over RESTCONF by 4 clients at once,
      timed from the first request until `ovs-ofctl dump-flows` shows them
      all on the switch; with a `filter-prog` match (program loaded) and
      without, alternating, --rounds times each after one round of each
      that is not counted (the JVM's warm-up).
  SEND_MAPS messages per second decoded into the datastore: a real switch
      sends at most 10 events per second per program, so a second switch
      speaks for itself here (it/tests/ofpeer.py, a minimal OpenFlow 1.3
      switch on a TCP connection): the controller loads a program on it,
      then it sends --events SEND_MAPS events (docs/protocol/vectors/
      send_maps.hex, three maps, with consecutive event ids) as fast as
      the connection takes them; timed until the last event's maps are in
      the operational datastore, --rounds times.  When the last event never
      gets there (the controller failed to record it), the result says so
      instead of a rate."""
import argparse
import base64
import concurrent.futures
import json
import os
import statistics
import sys
import time

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "it", "tests"))
from conftest import System  # noqa: E402
from helpers import AUTH  # noqa: E402
from ofpeer import OpenFlowPeer  # noqa: E402

FIRST_PROG_ID = 1000
CLIENTS = 4
PEER_DPID = 0x99
SEND_MAPS_VECTOR = os.path.join(REPO, "docs", "protocol", "vectors", "send_maps.hex")
SEND_MAPS_PROG_ID = 7                  # the vector's


def rpc(system, name, body):
    r = requests.post(f"{system.restconf}/operations/oko:{name}", json={"input": body}, auth=AUTH, timeout=120)
    if r.status_code not in (200, 204):
        raise SystemExit(f"controller bench: {name} failed: {r.status_code} {r.text}")
    return r.json().get("oko:output", {}) if r.status_code == 200 else {}


def load_round_trips(system, loads):
    times = []
    for k in range(loads):
        prog_id = FIRST_PROG_ID + 1 + k
        start = time.perf_counter()
        out = rpc(system, "load-program", {"node": system.node_id, "program-id": prog_id,
                                           "library-filter": "baseline"})
        times.append(time.perf_counter() - start)
        if out.get("status") != "installed":
            raise SystemExit(f"controller bench: program {prog_id} not installed: {out}")
        rpc(system, "unload-program", {"node": system.node_id, "program-id": prog_id})
    times.sort()
    return {"label": "LOAD_PROG round trip", "loads": loads, "median_ms": statistics.median(times) * 1e3,
            "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))] * 1e3, "max_ms": times[-1] * 1e3}


def flow_body(system, n, with_program):
    match = {"in-port": f"{system.node_id}:1", "ethernet-match": {"ethernet-type": {"type": 0x0800}},
             "ipv4-destination": f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}/32"}
    if with_program:
        match["openflowplugin-extension-general:extension-list"] = [{
            "extension-key": "oko-openflowplugin:filter-prog-key",
            "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": FIRST_PROG_ID}}}]
    return {"flow-node-inventory:flow": [{
        "id": f"bench-{n}", "table_id": 0, "priority": 100, "match": match,
        "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
            {"order": 0, "drop-action": {}}]}}]}}]}


def switch_flows(system):
    out = system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {system.bridge}").stdout
    return sum(1 for line in out.splitlines() if "priority=100" in line)


def wait_switch_flows(system, count, timeout=300):
    deadline = time.time() + timeout
    while switch_flows(system) != count:
        if time.time() > deadline:
            raise SystemExit(f"controller bench: the switch does not reach {count} flows "
                             f"(has {switch_flows(system)})")
        time.sleep(0.05)


def install_flows(system, flows, with_program):
    table = (f"{system.restconf}/data/opendaylight-inventory:nodes/node={system.node_id}"
             f"/flow-node-inventory:table=0")
    session = requests.Session()

    def put(n):
        r = session.put(f"{table}/flow=bench-{n}", json=flow_body(system, n, with_program), auth=AUTH, timeout=120)
        if r.status_code not in (200, 201, 204):
            raise SystemExit(f"controller bench: flow {n}: {r.status_code} {r.text}")

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(put, range(flows)))
    wait_switch_flows(system, flows)
    elapsed = time.perf_counter() - start
    requests.delete(table, auth=AUTH, timeout=120)
    wait_switch_flows(system, 0)
    return flows / elapsed


def flow_rates(system, rounds, flows):
    # A round of each first, not counted: the controller's code is still being compiled by the JVM then
    # (the first rounds of a fresh Karaf were seen at half the rate of the later ones).
    for with_program in (True, False):
        install_flows(system, flows, with_program)
    with_prog, without = [], []
    for r in range(rounds):
        order = (True, False) if r % 2 == 0 else (False, True)
        for with_program in order:
            rate = install_flows(system, flows, with_program)
            (with_prog if with_program else without).append(rate)
            print(f"  round {r + 1}: {flows} flows {'with' if with_program else 'without'} filter-prog: "
                  f"{rate:.1f} flows/s", flush=True)
    return {"label": "flows per second through RESTCONF", "flows": flows, "clients": CLIENTS,
            "with_filter_prog": with_prog, "without": without,
            "median_with": statistics.median(with_prog), "median_without": statistics.median(without),
            "median_ratio": statistics.median(w / o for w, o in zip(with_prog, without))}


def baseline_elf():
    """filter-library's baseline as an ELF of its own: no catalog layout, so the maps stay raw bytes."""
    with open(os.path.join(REPO, "filter-library", "build", "baseline.o"), "rb") as f:
        return base64.b64encode(f.read()).decode()


def send_maps_event(event_id):
    lines = [line for line in open(SEND_MAPS_VECTOR) if line.strip() and not line.startswith("#")]
    msg = bytearray.fromhex("".join(lines))
    msg[20:24] = event_id.to_bytes(4, "big")
    return bytes(msg)


def received_event(system, node):
    r = requests.get(f"{system.restconf}/data/oko:switches/switch={node}/program={SEND_MAPS_PROG_ID}"
                     "/received-map=0?content=nonconfig", auth=AUTH, timeout=30)
    return int(r.json()["oko:received-map"][0]["event-id"]) if r.status_code == 200 else -1


def send_maps_rates(system, rounds, events):
    node = f"openflow:{PEER_DPID}"
    peer = OpenFlowPeer(PEER_DPID).start()
    try:
        data = f"{system.restconf}/data"
        for url, body in ((f"{data}/oko:programs/program=bench-send-maps",
                           {"oko:program": [{"name": "bench-send-maps", "elf": baseline_elf()}]}),
                          (f"{data}/oko:switches/switch={node}/program={SEND_MAPS_PROG_ID}",
                           {"oko:program": [{"program-id": SEND_MAPS_PROG_ID, "program": "bench-send-maps"}]})):
            r = requests.put(url, json=body, auth=AUTH, timeout=60)
            if r.status_code not in (200, 201, 204):
                raise SystemExit(f"controller bench: {url}: {r.status_code} {r.text}")
        deadline = time.time() + 120
        while not peer.experimenter:            # the LOAD_PROG the controller sends
            if time.time() > deadline:
                raise SystemExit("controller bench: the controller never loaded the program on the second switch")
            time.sleep(0.2)
        time.sleep(2)
        rates, next_event = [], 0
        for r in range(rounds):
            batch = b"".join(send_maps_event(next_event + i) for i in range(events))
            last = next_event + events - 1
            start = time.perf_counter()
            peer.send(batch)
            seen, changed = -1, time.time()
            while seen != last:
                now_seen = received_event(system, node)
                if now_seen != seen:
                    seen, changed = now_seen, time.time()
                elif time.time() - changed > 10:
                    lost = (f"event {last} of {events} sent back to back never reached the operational datastore "
                            f"(the last recorded was {seen}; karaf.log: 'cannot record SEND_MAPS')")
                    print(f"  round {r + 1}: {lost}", flush=True)
                    return {"label": "SEND_MAPS events per second into the datastore", "events": events,
                            "maps_per_event": 3, "rates": rates, "error": lost}
                time.sleep(0.02)
            rates.append(events / (time.perf_counter() - start))
            next_event = last + 1
            print(f"  round {r + 1}: {events} SEND_MAPS events decoded in {events / rates[-1]:.2f} s: "
                  f"{rates[-1]:.0f} per second", flush=True)
    finally:
        peer.stop()
    return {"label": "SEND_MAPS events per second into the datastore", "events": events, "maps_per_event": 3,
            "rates": rates, "median": statistics.median(rates), "error": None}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--loads", type=int, default=100)
    parser.add_argument("--flows", type=int, default=300)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--json")
    args = parser.parse_args()
    system = System()
    try:
        system.up()
        # Flows right after the switch connects may not reach it (openflowplugin reconciles it first).
        time.sleep(10)
        rpc(system, "load-program", {"node": system.node_id, "program-id": FIRST_PROG_ID,
                                     "library-filter": "baseline"})
        load = load_round_trips(system, args.loads)
        print(f"  LOAD_PROG round trip: median {load['median_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms", flush=True)
        flows = flow_rates(system, args.rounds, args.flows)
        send_maps = send_maps_rates(system, args.rounds, args.events)
    finally:
        system.down()
    if args.json:
        with open(args.json, "w") as f:
            json.dump([load, flows, send_maps], f, indent=1)


if __name__ == "__main__":
    main()
