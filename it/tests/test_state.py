# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""State outlives `make down` / `make up` and a new distribution; only `make reset` deletes it."""
import os
import subprocess

import requests

from conftest import REPO, SYSTEM
from helpers import wait_for

AUTH = ("admin", "admin")
PROGRAM = {"oko:program": [{"name": "kept", "library-filter": "rate-limiter",
                            "parameter": [{"name": "rate", "value": "100"}]}]}


def switch_entry(system):
    return f"{system.restconf}/data/oko:switches/switch={system.node_id}/program=31"


def status(system):
    r = requests.get(switch_entry(system) + "?content=nonconfig", auth=AUTH, timeout=30)
    return r.json()["oko:program"][0].get("status") if r.status_code == 200 else None


def test_configuration_and_ovs_database_survive_down_up_and_a_new_distribution(system):
    r = requests.put(f"{system.restconf}/data/oko:programs/program=kept", json=PROGRAM, auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    r = requests.put(switch_entry(system), auth=AUTH, timeout=30,
                     json={"oko:program": [{"program-id": 31, "program": "kept"}]})
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
        r = system.sh(f"ovs-vsctl get bridge {system.bridge} external-ids:oko-test")
        assert r.stdout.strip().strip('"') == "kept", r.stdout + r.stderr


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
