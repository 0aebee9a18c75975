# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""Fixtures of the end-to-end tests: the real system, started by it/system/up."""
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SYSTEM = REPO / "it" / "system"


def system_env():
    """Environment of it/system/env.sh, as a dict."""
    out = subprocess.run(
        ["bash", "-c", f". {SYSTEM}/env.sh && env -0"],
        check=True, capture_output=True, text=True).stdout
    return dict(item.split("=", 1) for item in out.split("\0") if "=" in item)


class System:
    """The running Oko system: Karaf with odl-oko and the patched OVS."""

    def __init__(self):
        self.env = system_env()
        self.run_dir = pathlib.Path(self.env["OKO_RUN"])
        self.restconf = self.env["OKO_RESTCONF"]
        self.bridge = self.env["OKO_BRIDGE"]
        self.node_id = "openflow:%d" % int(self.env["OKO_DPID"], 16)
        self.karaf = pathlib.Path(self.env["OKO_KARAF"])

    def up(self):
        subprocess.run([str(SYSTEM / "up")], check=True, env=self.env, timeout=900)

    def down(self):
        return subprocess.run([str(SYSTEM / "down")], env=self.env, timeout=300,
                              capture_output=True, text=True)

    def sh(self, cmd, **kw):
        """Runs a shell command with the system's environment (OVS tools on PATH)."""
        return subprocess.run(["bash", "-c", cmd], env=self.env, capture_output=True,
                              text=True, timeout=kw.pop("timeout", 120), **kw)

    def karaf_console(self, command):
        return self.sh(f"echo '{command}' | '{self.karaf}/bin/client' -b", timeout=120)


@pytest.fixture(scope="module")
def system():
    s = System()
    s.up()
    try:
        yield s
    finally:
        s.down()
