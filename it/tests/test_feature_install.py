# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""Scenario 7: the distribution started without Oko; `feature:install odl-oko` at the Karaf console brings it
in (from the distribution's own system/ repository, offline); the switch connects and the `oko:` commands list
what RESTCONF shows."""
import os
import subprocess

import pytest
import requests

from conftest import REPO, SYSTEM, system_env
from helpers import wait_for

# `up` with OKO_UP_WAIT=console stops at the console, before it sets the generated admin password: this
# distribution keeps the default one (its RESTCONF is bound to 127.0.0.1 and lives for this test only).
DEFAULT_AUTH = ("admin", "admin")


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    env = dict(system_env(), OKO_RUN=str(tmp_path_factory.mktemp("plain-run")), OKO_KARAF_FEATURES="",
               OKO_UP_WAIT="console")
    env = dict(env, OKO_KARAF=os.path.join(env["OKO_RUN"], "karaf"),
               OVS_RUNDIR=os.path.join(env["OKO_RUN"], "ovs"), OVS_LOGDIR=os.path.join(env["OKO_RUN"], "ovs"),
               OVS_DBDIR=os.path.join(env["OKO_RUN"], "ovs"), OVS_SYSCONFDIR=os.path.join(env["OKO_RUN"], "ovs"))
    subprocess.run([str(SYSTEM / "up")], check=True, env=env, timeout=900)
    try:
        yield env
    finally:
        subprocess.run([str(SYSTEM / "down")], env=env, timeout=300)


def console(env, command):
    return subprocess.run(["bash", "-c", f"echo '{command}' | '{env['OKO_KARAF']}/bin/client' -b"], env=env,
                          capture_output=True, text=True, timeout=600)


def test_feature_install_odl_oko_on_a_plain_distribution(plain):
    before = console(plain, "feature:list -i")
    assert before.returncode == 0 and "Name" in before.stdout, before.stdout + before.stderr
    assert "odl-oko " not in before.stdout                      # really started without it
    installed = console(plain, "feature:install odl-oko")
    assert installed.returncode == 0 and "Error" not in installed.stdout, installed.stdout + installed.stderr
    assert "odl-oko " in console(plain, "feature:list -i").stdout

    restconf, node = plain["OKO_RESTCONF"], "openflow:%d" % int(plain["OKO_DPID"], 16)
    wait_for(lambda: requests.get(f"{restconf}/data/opendaylight-inventory:nodes/node={node}?fields=id",
                                  auth=DEFAULT_AUTH, timeout=30).status_code == 200, 300, "the switch did not connect")
    r = requests.put(f"{restconf}/data/oko:programs/program=after-install", auth=DEFAULT_AUTH, timeout=60,
                     json={"oko:program": [{"name": "after-install", "library-filter": "rate-limiter",
                                            "parameter": [{"name": "rate", "value": "5"}]}]})
    assert r.status_code in (200, 201, 204), r.text
    r = requests.put(f"{restconf}/data/oko:switches/switch={node}/program=70", auth=DEFAULT_AUTH, timeout=60,
                     json={"oko:program": [{"program-id": 70, "program": "after-install"}]})
    assert r.status_code in (200, 201, 204), r.text

    def installed_on_switch():
        r = requests.get(f"{restconf}/data/oko:switches/switch={node}/program=70?content=nonconfig",
                         auth=DEFAULT_AUTH, timeout=30)
        return r.status_code == 200 and r.json()["oko:program"][0].get("status") == "installed"
    wait_for(installed_on_switch, 120, "program 70 was not installed after feature:install")
    listed = wait_for(lambda: (out := console(plain, "oko:programs").stdout) and "after-install" in out and out,
                      60, "oko:programs does not list the program")
    assert "rate-limiter" in listed and "70" in listed and "installed" in listed, listed
