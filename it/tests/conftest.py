# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""Fixtures of the end-to-end tests: the real system, started by it/system/up."""
import os
import pathlib
import shutil
import subprocess
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SYSTEM = REPO / "it" / "system"
ARTIFACTS = REPO / "it" / "artifacts"
# Processes the tests start carry one of these in their command line.
STARTED_BY_TESTS = ("org.apache.karaf.main.Main", "ovs-vswitchd unix:", "ovsdb-server ")


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

    def stop_karaf(self, sig):
        """Sends `sig` to Karaf's process group (setsid: its id is the recorded PID) and waits until the whole
        group is gone (the JVM outlives the launcher script); OVS keeps running, and up() starts Karaf again."""
        group = int((self.run_dir / "karaf.pid").read_text().strip())
        os.killpg(group, sig)
        deadline = time.time() + 180
        while True:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return
            assert time.time() < deadline, f"Karaf did not stop on signal {sig}"
            time.sleep(1)

    def karaf_console(self, command):
        return self.sh(f"echo '{command}' | '{self.karaf}/bin/client' -b", timeout=120)


@pytest.fixture(scope="module")
def system():
    s = System()
    try:
        s.up()
    except BaseException:
        s.down()                # what did start is stopped: no process is left behind
        raise
    try:
        yield s
    finally:
        s.down()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, keeps the logs of Karaf and OVS as artifacts (it/artifacts/<test>/): `down` and the
    next module's `up` would bury them."""
    outcome = yield
    report = outcome.get_result()
    if report.when not in ("setup", "call") or not report.failed:
        return
    env = system_env()
    run = pathlib.Path(env["OKO_RUN"])
    target = ARTIFACTS / item.nodeid.replace("/", "_").replace("::", "__")[:150]
    target.mkdir(parents=True, exist_ok=True)
    for log in (run / "karaf" / "data" / "log" / "karaf.log", run / "ovs" / "ovs-vswitchd.log",
                run / "ovs" / "ovsdb-server.log", run / "karaf.out"):
        if log.exists():
            shutil.copy(log, target / log.name)
    for member in sorted(run.glob("karaf-[0-9]")):      # a cluster's members (it/system/up --cluster)
        log = member / "data" / "log" / "karaf.log"
        if log.exists():
            shutil.copy(log, target / f"{member.name}.log")
    # The artifacts stay on the machine that ran the tests; what says whether the switch itself failed goes into
    # the report, which CI prints.
    report.sections.append(("ovs-vswitchd at the failure", vswitchd_state(run)))


# Log lines that tell how ovs-vswitchd ended or what went wrong in it: the fatal-signal handler's lines and its
# SIGSEGV backtrace (one "0x..." line a frame, with libunwind), assertion failures (EMER) and errors; the
# per-message vconn debugging of some tests is left out.
VSWITCHD_NOTABLE = ("|EMER|", "|ERR|", "SIGSEGV detected", "|fatal_signal|")


def notable_lines(lines):
    """The last 40 of `lines` (ovs-vswitchd's log) that VSWITCHD_NOTABLE or a backtrace frame names."""
    return [line.rstrip() for line in lines if "|vconn|" not in line
            and (line.startswith("0x") or any(mark in line for mark in VSWITCHD_NOTABLE))][-40:]


def vswitchd_state(run):
    """Whether the tests' ovs-vswitchd still runs, and the last notable lines of its log."""
    pidfile = run / "ovs" / "ovs-vswitchd.pid"
    try:
        pid = int(pidfile.read_text().strip())
        os.kill(pid, 0)
        state = f"ovs-vswitchd (pid {pid}) is running"
    except (OSError, ValueError):
        state = f"ovs-vswitchd is NOT running (pidfile {pidfile})"
    log = run / "ovs" / "ovs-vswitchd.log"
    lines = []
    if log.exists():
        with open(log, errors="replace") as f:
            lines = notable_lines(f)
    return "\n".join([state, f"last notable lines of {log}:"] + lines)


# What ovs-vswitchd writes into its log when it crashes (the fatal-signal handler, built with libunwind) or an
# assertion fails (ovs_assert: EMER).
VSWITCHD_CRASHED = ("SIGSEGV detected", "|EMER|")


def log_position(log):
    """Where `log` ends now, as (inode, size); None if it does not exist."""
    try:
        st = log.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size


def log_lines_since(log, position):
    """The lines written to `log` after `position` (log_position()); all of it if it was made anew since."""
    now = log_position(log)
    if now is None:
        return []
    start = position[1] if position and position[0] == now[0] and position[1] <= now[1] else 0
    with open(log, "rb") as f:
        f.seek(start)
        return f.read().decode(errors="replace").splitlines()


@pytest.fixture(autouse=True)
def the_switch_does_not_crash():
    """A test during which the tests' ovs-vswitchd crashed or failed an assertion fails, with the lines of its log
    that say where, even if what the test asserts still held (a switch restarted by a later `up` would hide it)."""
    log = pathlib.Path(system_env()["OKO_RUN"]) / "ovs" / "ovs-vswitchd.log"
    start = log_position(log)
    yield
    lines = log_lines_since(log, start)
    if any(mark in line for line in lines for mark in VSWITCHD_CRASHED):
        pytest.fail(f"ovs-vswitchd crashed during this test ({log}):\n" + "\n".join(notable_lines(lines)),
                    pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def nothing_left_behind():
    """After the suite: no Karaf, ovs-vswitchd or ovsdb-server of ours still runs, and no network namespace or
    hugepage mount of ours is left (the suite checks itself)."""
    yield
    ours = [line for line in subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
            .splitlines() if any(p in line for p in STARTED_BY_TESTS) and (str(REPO) in line or "plain-run" in line)]
    namespaces = [n for n in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
                  .split() if n.startswith("oko-")]
    mounts = [line for line in pathlib.Path("/proc/mounts").read_text().splitlines()
              if " hugetlbfs " in line and (str(REPO) in line or "plain-run" in line)]
    assert not ours and not namespaces and not mounts, \
        f"left behind: processes {ours}, namespaces {namespaces}, hugepage mounts {mounts}"
