# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""State outlives `make down` / `make up` and a new distribution; only `make reset` deletes it."""
import os
import random
import signal
import subprocess
import threading
import time

import requests

from conftest import REPO, SYSTEM
from helpers import AUTH, wait_for

PROGRAM = {"oko:program": [{"name": "kept", "library-filter": "rate-limiter",
                            "parameter": [{"name": "rate", "value": "100"}]}]}


def switch_entry(system):
    return f"{system.restconf}/data/oko:switches/switch={system.node_id}/program=31"


def status(system):
    r = requests.get(switch_entry(system) + "?content=nonconfig", auth=AUTH, timeout=30)
    return r.json()["oko:program"][0].get("status") if r.status_code == 200 else None


def flow_url(system):
    return (f"{system.restconf}/data/opendaylight-inventory:nodes/node={system.node_id}"
            "/flow-node-inventory:table=0/flow=kept-flow")


KEPT_FLOW = {"flow-node-inventory:flow": [{
    "id": "kept-flow", "table_id": 0, "priority": 310,
    "match": {"ethernet-match": {"ethernet-type": {"type": 2048}},
              "openflowplugin-extension-general:extension-list": [{
                  "extension-key": "oko-openflowplugin:filter-prog-key",
                  "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": 31}}}]},
    "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
        {"order": 0, "drop-action": {}}]}}]}}]}


def switch_has_kept_flow(system):
    r = system.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {system.bridge}")
    return "priority=310,ip,filter_prog=31" in r.stdout


def test_configuration_and_ovs_database_survive_down_up_and_a_new_distribution(system):
    r = requests.put(f"{system.restconf}/data/oko:programs/program=kept", json=PROGRAM, auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    r = requests.put(switch_entry(system), auth=AUTH, timeout=30,
                     json={"oko:program": [{"program-id": 31, "program": "kept"}]})
    assert r.status_code in (200, 201, 204), r.text
    r = requests.put(flow_url(system), json=KEPT_FLOW, auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: status(system) == "installed", 60, "program 31 installed")
    assert system.sh(f"ovs-vsctl set bridge {system.bridge} external-ids:oko-test=kept").returncode == 0

    # A plain restart, then one with a distribution newer than the running copy (as after a rebuild:
    # `up` installs it around the kept datastore, users and logs).
    for newer_distribution in (False, True):
        system.down()
        if newer_distribution:
            os.utime(REPO / "features/oko-karaf/target/assembly/system")
        system.up()
        r = requests.get(f"{system.restconf}/data/oko:programs/program=kept", auth=AUTH, timeout=30)
        assert r.status_code == 200, f"program lost (new distribution: {newer_distribution}): {r.text}"
        wait_for(lambda: status(system) == "installed", 90, "program 31 installed again after the restart")
        r = requests.get(flow_url(system) + "?content=config", auth=AUTH, timeout=30)
        assert r.status_code == 200, f"flow lost (new distribution: {newer_distribution}): {r.text}"
        wait_for(lambda: switch_has_kept_flow(system), 60, "the stored flow on the switch")
        r = system.sh(f"ovs-vsctl get bridge {system.bridge} external-ids:oko-test")
        assert r.stdout.strip().strip('"') == "kept", r.stdout + r.stderr


def store_log_bytes(system):
    """The size of the configuration store's log (.run/karaf/oko-store/log): every committed configuration
    change appends one record to it, forced to disk before the write is answered."""
    return (system.karaf / "oko-store/log").stat().st_size


def settled_store_log_bytes(system):
    """The log's size once the controller has done what the last change caused (nothing appended for 3 s)."""
    last, since = store_log_bytes(system), time.time()
    while time.time() - since < 3:
        time.sleep(1)
        now = store_log_bytes(system)
        if now != last:
            last, since = now, time.time()
    return last


def name_program(system, node, prog_id, program):
    r = requests.put(f"{system.restconf}/data/oko:switches/switch={node}/program={prog_id}", auth=AUTH,
                     timeout=30, json={"oko:program": [{"program-id": prog_id, "program": program}]})
    assert r.status_code in (200, 201, 204), r.text


def test_what_one_switchs_change_writes_does_not_grow_with_the_switch_count(system):
    """One switch's change costs the configuration store's log the same with 10 and 100 configured switches:
    one record of that switch's entry, and nothing else the change causes writes configuration (the persistent
    journal this replaced grew as N squared: 32,096 entries at 100 switches)."""
    r = requests.put(f"{system.restconf}/data/oko:programs/program=fleet", auth=AUTH, timeout=30,
                     json={"oko:program": [{"name": "fleet", "library-filter": "rate-limiter"}]})
    assert r.status_code in (200, 201, 204), r.text
    per_change = {}
    configured = 0
    for fleet in (10, 100):
        for i in range(configured, fleet):
            name_program(system, f"openflow:{1000 + i}", 5, "fleet")
        configured = fleet
        before = settled_store_log_bytes(system)
        name_program(system, f"openflow:{1000 + fleet // 2}", 6, "fleet")
        per_change[fleet] = settled_store_log_bytes(system) - before
    print(f"configuration store bytes for one switch's change: {per_change}")
    assert per_change[10] > 0, per_change
    assert per_change[100] == per_change[10], per_change


def stored_switches(system):
    r = requests.get(f"{system.restconf}/data/oko:switches?content=config", auth=AUTH, timeout=60)
    assert r.status_code == 200, r.text
    return {s["node"] for s in r.json()["oko:switches"]["switch"]}


STOPS = (signal.SIGTERM, signal.SIGKILL, signal.SIGKILL, signal.SIGTERM, signal.SIGKILL, signal.SIGKILL)


def test_every_acknowledged_write_survives_stops_during_writes_for_a_hundred_switches(system):
    """Karaf is stopped six times, with TERM and with KILL, at random moments while switch entries are being
    written, one PUT each, 100 per round: every start recovers, and every write answered 2xx before the stop is
    there, with every earlier round's."""
    r = requests.delete(f"{system.restconf}/data/oko:switches", auth=AUTH, timeout=60)   # no earlier entries
    assert r.status_code in (204, 404, 409), r.text
    rng = random.Random(20261125)
    acknowledged = []
    for round_number, stop_signal in enumerate(STOPS):
        stop = threading.Event()

        def write_switches(first=3000 + 100 * round_number):
            for node in (f"openflow:{n}" for n in range(first, first + 100)):
                if stop.is_set():
                    return
                try:
                    r = requests.put(f"{system.restconf}/data/oko:switches/switch={node}/program=5", auth=AUTH,
                                     timeout=30, json={"oko:program": [{"program-id": 5, "program": "fleet"}]})
                except requests.RequestException:
                    return                                   # the controller went away mid-request
                if r.status_code in (200, 201, 204):
                    acknowledged.append(node)
        writer = threading.Thread(target=write_switches)
        writer.start()
        time.sleep(rng.uniform(0.5, 4.0))
        system.stop_karaf(stop_signal)
        stop.set()
        writer.join(60)
        system.up()
        stored = stored_switches(system)
        lost = [node for node in acknowledged if node not in stored]
        assert not lost, f"round {round_number} ({stop_signal.name}): acknowledged writes lost: {lost}"
    print(f"{len(acknowledged)} acknowledged writes over {len(STOPS)} stops (TERM and KILL), all kept")
    assert len(acknowledged) >= 20, acknowledged


def test_reset_refuses_while_running_then_deletes_all_state(system):
    r = subprocess.run([str(SYSTEM / "reset")], env=system.env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "still running" in r.stderr, r.stdout + r.stderr
    assert system.run_dir.exists()

    system.down()
    r = subprocess.run([str(SYSTEM / "reset")], env=system.env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "deleted" in r.stdout, r.stdout + r.stderr
    assert not system.run_dir.exists()

    system.up()
    r = requests.get(f"{system.restconf}/data/oko:programs/program=kept", auth=AUTH, timeout=30)
    assert r.status_code == 409, r.text                     # data-missing: the store was deleted
    r = system.sh(f"ovs-vsctl get bridge {system.bridge} external-ids:oko-test")
    assert r.returncode != 0, r.stdout                      # the OVS database was created anew
