# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""`make up` gives a working system and `make down` removes it (README's command 1)."""
import os
import re
import subprocess

import requests

AUTH = ("admin", "admin")


def test_restconf_lists_the_bridge_node(system):
    r = requests.get(f"{system.restconf}/data/opendaylight-inventory:nodes", auth=AUTH, timeout=30)
    assert r.status_code == 200, r.text
    ids = [n["id"] for n in r.json()["opendaylight-inventory:nodes"]["node"]]
    assert system.node_id in ids


def test_switch_is_connected_over_openflow13(system):
    r = system.sh(f"ovs-vsctl get controller {system.bridge} is_connected")
    assert r.stdout.strip() == "true", r.stdout + r.stderr
    # The bridge speaks only OpenFlow 1.3, so a connection is an OpenFlow 1.3 one.
    r = system.sh(f"ovs-vsctl get bridge {system.bridge} protocols")
    assert r.stdout.strip() == "[OpenFlow13]", r.stdout + r.stderr


def test_odl_oko_feature_is_started(system):
    r = system.karaf_console("feature:list -i")
    line = [l for l in r.stdout.splitlines() if re.match(r"\s*odl-oko\s", l)]
    assert line, r.stdout + r.stderr
    assert "Started" in line[0], line[0]


def test_oko_codecs_are_registered_with_openflowjava(system):
    log = (system.karaf / "data" / "log" / "karaf.log").read_text()
    assert "Oko OpenFlow codecs registered" in log


def test_restconf_refuses_a_wrong_password(system):
    r = requests.get(f"{system.restconf}/data/opendaylight-inventory:nodes", auth=("admin", "wrong"),
                     timeout=30)
    assert r.status_code == 401


def test_running_vswitchd_is_the_patched_build(system):
    pid = (system.run_dir / "ovs" / "ovs-vswitchd.pid").read_text().strip()
    exe = os.readlink(f"/proc/{pid}/exe")
    r = system.sh(f"'{exe}' --version")
    assert "Open vSwitch) 3.1.0" in r.stdout and "Oko " in r.stdout, r.stdout


def test_down_leaves_no_process_of_ours(system):
    pids = {}
    for name, f in [("karaf", system.run_dir / "karaf.pid"),
                    ("ovsdb-server", system.run_dir / "ovs" / "ovsdb-server.pid"),
                    ("ovs-vswitchd", system.run_dir / "ovs" / "ovs-vswitchd.pid")]:
        pids[name] = int(f.read_text().strip())
    r = system.down()
    assert r.returncode == 0, r.stdout + r.stderr
    for name, pid in pids.items():
        assert not os.path.exists(f"/proc/{pid}"), f"{name} (pid {pid}) still runs"
    # Nothing else started from our run folder (Karaf's JVM, OVS daemons) survives.
    left = subprocess.run(["pgrep", "-af", str(system.run_dir)], capture_output=True, text=True).stdout
    assert left.strip() == "", left
