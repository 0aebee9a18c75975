#!/usr/bin/env python3
"""Experiment 7 of bench/evaluate: the SYN guard's reaction (docs/syn-guard.md), on the real system (Karaf with
odl-oko, the patched OVS, started by it/system/up).

  bench/syn_guard.py [--rounds N] [--client-rate R] [--flood-factor F] [--json OUT]

Each round configures a guard over RESTCONF (detection threshold 4x the clients' rate, sampling rate 100 SYN/s,
learning period 10 s), sends the three clients' SYNs (Linux, Windows, macOS layouts; R SYN/s together) until the
guard has learned them, then a flood tool's SYNs at F times the clients' rate for 15 s, alternating the two tools
of it/tests/synflood.py between rounds; then deletes the guard. Measured from what left the switch (p2's pcap), in
slices of 200 ms: the time from the flood's first SYN until every later slice had >= 90 % of the flood dropped,
and the clients' SYNs lost before that instant (detection) and after it (mitigation). Traffic enters through
netdev-dummy/receive: the rates are those a test can drive, not a line rate; what is measured is the controller's
reaction (sampling, detection, selection, the switch's update), which the rate does not change once the threshold
is crossed."""
import argparse
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
from helpers import AUTH, wait_for  # noqa: E402
from synflood import TOOLS, Traffic, add_dummy_ports  # noqa: E402

GUARD = "bench"
LEARNING = 10
FLOOD_SECONDS = 15
SAMPLING_RATE = 100


def ports(system):
    try:
        add_dummy_ports(system)
    except RuntimeError as e:
        raise SystemExit(f"syn-guard bench: {e}") from None
    forward = {"flow-node-inventory:flow": [{
        "id": "bench-to-servers", "table_id": 1, "priority": 10,
        "match": {"in-port": f"{system.node_id}:1", "ethernet-match": {"ethernet-type": {"type": 0x0800}}},
        "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
            {"order": 0, "output-action": {"output-node-connector": "2"}}]}}]}}]}
    url = (f"{system.restconf}/data/opendaylight-inventory:nodes/node={system.node_id}"
           "/flow-node-inventory:table=1/flow=bench-to-servers")

    def on_switch():
        requests.put(url, json=forward, auth=AUTH, timeout=60)
        deadline = time.time() + 10
        while time.time() < deadline:
            if "output:2" in system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {system.bridge} table=1").stdout:
                return True
            time.sleep(1)
        return False
    wait_for(on_switch, 180, "the forwarding flow never reached the switch")


def one_round(system, number, client_rate, flood_factor):
    guard_url = f"{system.restconf}/data/oko-syn-guard:syn-guards/syn-guard={GUARD}"
    guard = {"oko-syn-guard:syn-guard": [{
        "name": GUARD, "node": [system.node_id],
        "protected-destination": [{"prefix": "10.0.2.0/24", "port": [80]}],
        "sampling-rate": SAMPLING_RATE, "detection-threshold": 4 * client_rate, "learning-period": LEARNING,
        "hold-time": 5}]}
    r = requests.put(guard_url, json=guard, auth=AUTH, timeout=60)
    if r.status_code not in (200, 201, 204):
        raise SystemExit(f"syn-guard bench: the guard was refused: {r.status_code} {r.text}")

    def state():
        r = requests.get(f"{guard_url}/state?content=nonconfig", auth=AUTH, timeout=30)
        return r.json()["oko-syn-guard:state"] if r.status_code == 200 else {}
    traffic = Traffic(system, client_rate, flood_factor * client_rate)
    traffic.run(LEARNING + 30, until=lambda: state().get("phase") == "watching"
                and len(state().get("learned-signature", [])) >= 3)
    tool = list(TOOLS)[number % len(TOOLS)]
    start = time.time()
    traffic.run(FLOOD_SECONDS, flood=tool)
    end = time.time()
    time.sleep(1)
    seconds, before, after = traffic.reaction(tool, start, end)
    installed = [a["signature"] for a in state().get("active-signature", [])]
    requests.delete(guard_url, auth=AUTH, timeout=60)
    wait_for(lambda: requests.get(guard_url, auth=AUTH, timeout=30).status_code in (404, 409), 60,
             "the guard was not deleted")
    time.sleep(5)                                   # its flows and programs go meanwhile
    result = {"tool": tool, "seconds_to_90": seconds, "clients_lost_detection": before,
              "clients_lost_mitigation": after, "signatures": installed,
              "expected_signature": TOOLS[tool][3]}
    print(f"  round {number + 1}: {tool}: 90 % dropped after "
          f"{'never' if seconds is None else f'{seconds:.1f} s'}; clients lost {before[0]}/{before[1]} during "
          f"detection, {after[0]}/{after[1]} after; installed {installed}", flush=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--client-rate", type=int, default=30)
    parser.add_argument("--flood-factor", type=int, default=10)
    parser.add_argument("--json")
    args = parser.parse_args()
    system = System()
    rounds = []
    try:
        system.up()
        ports(system)
        for number in range(args.rounds):
            rounds.append(one_round(system, number, args.client_rate, args.flood_factor))
    finally:
        requests.delete(f"{system.restconf}/data/oko-syn-guard:syn-guards/syn-guard={GUARD}", auth=AUTH, timeout=60)
        requests.delete(f"{system.restconf}/data/opendaylight-inventory:nodes/node={system.node_id}"
                        "/flow-node-inventory:table=1/flow=bench-to-servers", auth=AUTH, timeout=60)
        time.sleep(5)                               # the guard's removal, before the controller stops
        system.down()
    reacted = [r["seconds_to_90"] for r in rounds if r["seconds_to_90"] is not None]
    summary = {
        "client_rate": args.client_rate, "flood_rate": args.flood_factor * args.client_rate,
        "sampling_rate": SAMPLING_RATE, "threshold": 4 * args.client_rate, "rounds": rounds,
        "median_seconds_to_90": statistics.median(reacted) if reacted else None,
        "max_seconds_to_90": max(reacted) if reacted else None,
        "never": len(rounds) - len(reacted),
        "clients_lost_detection": [sum(r["clients_lost_detection"][i] for r in rounds) for i in (0, 1)],
        "clients_lost_mitigation": [sum(r["clients_lost_mitigation"][i] for r in rounds) for i in (0, 1)],
        "right_signature": sum(r["signatures"] == [r["expected_signature"]] for r in rounds),
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump([summary], f, indent=1)


if __name__ == "__main__":
    main()
