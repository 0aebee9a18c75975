# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""A stock Open vSwitch 3.1 without Oko (Debian's openvswitch-switch, installed by .ci/bootstrap) as a second
switch of the controller `make up` started: its own ovsdb-server and ovs-vswitchd, in their own network
namespace, with a userspace bridge. The controller listens on 127.0.0.1 only, which a namespace cannot reach:
the switch connects to a Unix socket (the file system is shared) that a relay here forwards to the
controller's OpenFlow port."""
import os
import pathlib
import shutil
import socket
import subprocess
import threading
import time

BIN = {"ovsdb-tool": "/usr/bin/ovsdb-tool", "ovsdb-server": "/usr/sbin/ovsdb-server",
       "ovs-vswitchd": "/usr/sbin/ovs-vswitchd", "ovs-vsctl": "/usr/bin/ovs-vsctl",
       "ovs-ofctl": "/usr/bin/ovs-ofctl", "ovs-appctl": "/usr/bin/ovs-appctl"}
SCHEMA = "/usr/share/openvswitch/vswitch.ovsschema"


class UnixRelay:
    """Accepts on a Unix socket and copies each connection both ways to a TCP address."""

    def __init__(self, path, target):
        self.path, self.target = str(path), target
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(4)
        self.sockets = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                inside, _ = self.server.accept()
            except OSError:
                return
            try:
                outside = socket.create_connection(self.target, timeout=10)
            except OSError:
                inside.close()
                continue
            outside.settimeout(None)
            self.sockets += [inside, outside]
            for a, b in ((inside, outside), (outside, inside)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.server.close()
        for s in self.sockets:
            s.close()


class StockSwitch:
    """Open vSwitch without Oko, bridge `bridge` with datapath id `dpid` (openflowplugin's node openflow:<dpid>)."""

    def __init__(self, run_dir, of_port, dpid=170, bridge="stock0", namespace="oko-stock"):
        missing = [path for path in BIN.values() if not os.access(path, os.X_OK)]
        assert not missing, f"Debian's openvswitch-switch is not installed ({missing}): run .ci/bootstrap"
        self.dir = pathlib.Path(run_dir) / "stock-ovs"
        self.of_port, self.dpid, self.bridge, self.ns = of_port, dpid, bridge, namespace
        self.node_id = f"openflow:{dpid}"
        self.env = dict(os.environ, OVS_RUNDIR=str(self.dir), OVS_LOGDIR=str(self.dir), OVS_DBDIR=str(self.dir),
                        OVS_SYSCONFDIR=str(self.dir))
        self.relay = None

    def run(self, tool, *args, check=True):
        r = subprocess.run(["ip", "netns", "exec", self.ns, BIN[tool], *args], env=self.env, capture_output=True,
                           text=True, timeout=60)
        assert not check or r.returncode == 0, f"{tool} {' '.join(args)}: {r.stdout} {r.stderr}"
        return r

    def vsctl(self, *args):
        return self.run("ovs-vsctl", f"--db=unix:{self.dir}/db.sock", "--timeout=30", *args).stdout

    def ofctl(self, *args):
        return self.run("ovs-ofctl", "-O", "OpenFlow13", *args).stdout

    def start(self):
        self.stop()
        self.dir.mkdir(parents=True)
        subprocess.run(["ip", "netns", "add", self.ns], check=True)
        subprocess.run(["ip", "netns", "exec", self.ns, "ip", "link", "set", "lo", "up"], check=True)
        subprocess.run([BIN["ovsdb-tool"], "create", str(self.dir / "conf.db"), SCHEMA], check=True, env=self.env)
        self.run("ovsdb-server", str(self.dir / "conf.db"), f"--remote=punix:{self.dir}/db.sock",
                 f"--pidfile={self.dir}/ovsdb-server.pid", f"--log-file={self.dir}/ovsdb-server.log", "--detach")
        self.vsctl("--no-wait", "init")
        self.run("ovs-vswitchd", f"unix:{self.dir}/db.sock", f"--pidfile={self.dir}/ovs-vswitchd.pid",
                 f"--log-file={self.dir}/ovs-vswitchd.log", "--detach")
        # Every OpenFlow message the switch receives, in its log: what the controller sent it is countable.
        self.run("ovs-appctl", "-t", str(self.dir / f"ovs-vswitchd.{self._pid('ovs-vswitchd')}.ctl"),
                 "vlog/set", "vconn:file:dbg")
        self.relay = UnixRelay(self.dir / "controller.sock", ("127.0.0.1", self.of_port))
        self.vsctl("add-br", self.bridge, "--", "set", "bridge", self.bridge, "datapath_type=netdev",
                   "protocols=OpenFlow13", f"other-config:datapath-id={self.dpid:016x}",
                   "fail_mode=secure", "--", "set-controller", self.bridge, f"unix:{self.dir}/controller.sock")
        return self

    def _pid(self, daemon):
        return int((self.dir / f"{daemon}.pid").read_text().strip())

    def log(self):
        path = self.dir / "ovs-vswitchd.log"
        return path.read_text() if path.exists() else ""

    def stop(self):
        for daemon in ("ovs-vswitchd", "ovsdb-server"):
            pidfile = self.dir / f"{daemon}.pid"
            if pidfile.exists():
                try:
                    os.kill(int(pidfile.read_text().strip()), 15)
                except (ProcessLookupError, ValueError):
                    pass
        deadline = time.time() + 30
        while any((self.dir / f"{d}.pid").exists() for d in ("ovs-vswitchd", "ovsdb-server")) \
                and time.time() < deadline:
            time.sleep(0.2)
        if self.relay:
            self.relay.close()
            self.relay = None
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)
