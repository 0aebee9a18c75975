# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""Three OpenDaylight members (it/system/up --cluster 3) and the patched switch connected to all of them.

The switch's own OpenFlow log (vconn at debug level) is the witness of what reached it, and over which
controller connection: configuration written on any member is loaded once, by the switch's master; after a
kill -9 of the master another member takes the switch over without loading anything again, and every SEND_MAPS event
the switch sends on the way is recorded once (those nobody received are asked for again with REPLAY_MAPS); the killed member rejoins and pushes nothing."""
import base64
import collections
import datetime
import os
import re
import shutil
import signal
import subprocess
import threading
import time

import pytest
import requests

from conftest import SYSTEM, system_env
from helpers import AUTH, LocalPortSource, MapsReceivedSubscriber, wait_for

MEMBERS = 3
PROG_ID = 31
LATER_PROG_ID = 32
PROGRAM = {"oko:program": [{"name": "kept", "library-filter": "rate-limiter",
                            "parameter": [{"name": "rate", "value": "100"}]}]}
FLOW = {"flow-node-inventory:flow": [{
    "id": "kept-flow", "table_id": 0, "priority": 310,
    "match": {"ethernet-match": {"ethernet-type": {"type": 2048}},
              "openflowplugin-extension-general:extension-list": [{
                  "extension-key": "oko-openflowplugin:filter-prog-key",
                  "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": PROG_ID}}}]},
    "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
        {"order": 0, "drop-action": {}}]}}]}}]}
# A rate-limiter bucket for 10.1.1.1: state a reload that reset maps would lose.
BUCKET_KEY = bytes([10, 1, 1, 1])
# SEND_MAPS events across the failover: a rate limiter of one packet a second, and a flow that sends its buckets
# map (index 1) for every packet from EVENTS_SOURCE over that limit. With EVENTS_PER_SECOND + 1 packets a second
# the switch sends about EVENTS_PER_SECOND events a second (it sends at most 10).
EVENTS_PROG_ID = 33
EVENTS_SOURCE = "10.7.7.7"
EVENTS_PER_SECOND = 5
EVENTS_PROGRAM = {"oko:program": [{"name": "events", "library-filter": "rate-limiter",
                                   "parameter": [{"name": "rate", "value": "1"}, {"name": "burst", "value": "1"}]}]}
EVENTS_FLOW = {"flow-node-inventory:flow": [{
    "id": "events-flow", "table_id": 0, "priority": 320,
    "match": {"ethernet-match": {"ethernet-type": {"type": 2048}}, "ip-match": {"ip-protocol": 17},
              "ipv4-source": f"{EVENTS_SOURCE}/32",
              "openflowplugin-extension-general:extension-list": [{
                  "extension-key": "oko-openflowplugin:filter-prog-key",
                  "extension": {"oko-openflowplugin:oko-filter-prog": {"prog-id": EVENTS_PROG_ID}}}]},
    "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [
        {"order": 0, "oko-openflowplugin:oko-send-maps": {"map-mask": 2}}]}}]}}]}


class Cluster:
    def __init__(self):
        self.env = system_env()
        self.run_dir = self.env["OKO_RUN"]
        self.node_id = "openflow:%d" % int(self.env["OKO_DPID"], 16)
        self.bridge = self.env["OKO_BRIDGE"]

    def up(self):
        # Every OpenFlow message the switch receives, with the controller connection it came over, from its start.
        subprocess.run([str(SYSTEM / "up"), "--cluster", str(MEMBERS)], check=True, timeout=900,
                       env=dict(self.env, OKO_VSWITCHD_VLOG="-vvconn:file:dbg"))

    def down(self):
        subprocess.run([str(SYSTEM / "down")], env=self.env, timeout=400, capture_output=True)

    def restconf(self, member):
        return f"http://127.0.0.{member}:8181/rests"

    def sh(self, cmd):
        return subprocess.run(["bash", "-c", cmd], env=self.env, capture_output=True, text=True, timeout=120)

    def ovs_log(self):
        with open(os.path.join(self.run_dir, "ovs", "ovs-vswitchd.log"), errors="replace") as f:
            return f.read()

    def switch_entry(self, member):
        r = requests.get(f"{self.restconf(member)}/data/oko:switches/switch={self.node_id}?content=nonconfig",
                         auth=AUTH, timeout=30)
        return r.json()["oko:switch"][0] if r.status_code == 200 else None

    def status(self, member, prog_id):
        entry = self.switch_entry(member) or {}
        return {p["program-id"]: p.get("status") for p in entry.get("program", [])}.get(prog_id)

    def master(self):
        """The member (1-3) every answering member names as the switch's master, or None while they disagree."""
        named = set()
        for member in self.alive():
            entry = self.switch_entry(member) or {}
            named.add(entry.get("master") if entry.get("connected") else None)
        if len(named) != 1 or None in named:
            return None
        return int(named.pop().split("-")[1])

    def pidfile(self, member):
        return os.path.join(self.run_dir, f"karaf-{member}.pid")

    def alive(self):
        members = []
        for member in range(1, MEMBERS + 1):
            try:
                os.killpg(int(open(self.pidfile(member)).read().strip()), 0)
                members.append(member)
            except (OSError, ValueError):
                pass
        return members

    def configure(self, member, program_name, program, prog_id, flow):
        """Through `member`'s RESTCONF: the program, the switch entry that installs it as `prog_id`, and the flow
        that names it (three PUTs, as docs/northbound.md's steps)."""
        base = self.restconf(member)
        for url, body in ((f"{base}/data/oko:programs/program={program_name}", program),
                          (f"{base}/data/oko:switches/switch={self.node_id}/program={prog_id}",
                           {"oko:program": [{"program-id": prog_id, "program": program_name}]}),
                          (f"{base}/data/opendaylight-inventory:nodes/node={self.node_id}"
                           f"/flow-node-inventory:table=0/flow={flow['flow-node-inventory:flow'][0]['id']}", flow)):
            r = requests.put(url, json=body, auth=AUTH, timeout=30)
            assert r.status_code in (200, 201, 204), r.text

    def rpc(self, member, name, body):
        return requests.post(f"{self.restconf(member)}/operations/oko:{name}", json={"input": body}, auth=AUTH,
                             timeout=120)


def log_time(line):
    """The time (seconds since the epoch) of an ovs-vswitchd log line."""
    return datetime.datetime.strptime(line[:23], "%Y-%m-%dT%H:%M:%S.%f").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def sent_events(log, prog_id, since):
    """(time, connection address, role the switch gave that connection then, time it gave that role, event id) of
    each SEND_MAPS event of program `prog_id` the switch sent after offset `since` of its log, in order. A
    connection is 'equal' from its connection until a ROLE_REQUEST makes it primary or secondary; the switch sends
    its asynchronous messages to every connection but secondaries."""
    roles, sent, at = {}, [], 0
    for line in log.splitlines(keepends=True):
        at += len(line)
        if m := re.search(r"<->tcp:(127\.0\.0\.\d):6653: connected$", line):
            roles[m[1]] = ("equal", log_time(line))
        elif m := re.search(r"tcp:(127\.0\.0\.\d):6653: received: OFPT_ROLE_REQUEST .*role=(primary|secondary|equal)",
                            line):
            roles[m[1]] = (m[2], log_time(line))
        elif m := re.search(r"tcp:(127\.0\.0\.\d):6653: sent \(Success\): OKOT_SEND_MAPS \(OF1\.3\) "
                            r"\(xid=0x[0-9a-f]+\): prog_id=(\d+) event=(\d+) .*fragment=0\b", line):
            if int(m[2]) == prog_id and at > since:
                role, role_since = roles.get(m[1], ("equal", 0))
                sent.append((log_time(line), m[1], role, role_since, int(m[3])))
    return sent


def received(log, what):
    """(connection address, message) of each Oko message of kind `what` the switch received."""
    return re.findall(r"tcp:(127\.0\.0\.\d):6653: received: OKOT_" + what + r" \(OF1\.3\) \(xid=0x[0-9a-f]+\): "
                      r"prog_id=(\d+)", log)


@pytest.fixture(scope="module")
def cluster():
    c = Cluster()

    def fresh_up():
        # Fresh members, from an empty configuration: what an earlier run stored would be loaded before the first
        # test looks.
        for member in range(1, MEMBERS + 1):
            shutil.rmtree(os.path.join(c.run_dir, f"karaf-{member}"), ignore_errors=True)
        c.up()
    try:
        try:
            fresh_up()
        except subprocess.CalledProcessError as failed:
            # Seen twice in fresh-clone CI runs (2026-11-26): a member's RESTCONF did not take the generated admin
            # password within up's 400 s (cause not known yet). Its log's last warnings go to the test's output,
            # the logs are kept in .run/cluster-start-failure, and the cluster starts once more from scratch.
            kept = os.path.join(c.run_dir, "cluster-start-failure")
            shutil.rmtree(kept, ignore_errors=True)
            print(f"cluster start failed: {failed}\n{failed.stdout or ''}{failed.stderr or ''}", flush=True)
            c.down()
            for member in range(1, MEMBERS + 1):
                # The launcher's output too: a member whose JVM never got as far as karaf.log (seen once: only
                # member 1's log was there, and it had formed a cluster of its own) says why only there.
                out = os.path.join(c.run_dir, f"karaf-{member}.out")
                if os.path.exists(out):
                    os.makedirs(kept, exist_ok=True)
                    shutil.copy(out, os.path.join(kept, f"karaf-{member}.out"))
                log = os.path.join(c.run_dir, f"karaf-{member}", "data", "log", "karaf.log")
                if os.path.exists(log):
                    os.makedirs(kept, exist_ok=True)
                    shutil.copy(log, os.path.join(kept, f"karaf-{member}.log"))
                    with open(log, errors="replace") as f:
                        warnings = [line for line in f if " WARN " in line or " ERROR " in line]
                    print(f"karaf-{member}: last warnings:\n" + "".join(warnings[-15:]), flush=True)
            fresh_up()
    except BaseException:
        c.down()
        raise
    try:
        yield c
    finally:
        c.down()


def test_configuration_written_on_any_member_reaches_the_switch_once_from_its_master(cluster):
    master = wait_for(cluster.master, 60, "no member is named master of the switch by all members")
    writer = next(m for m in range(1, MEMBERS + 1) if m != master)
    start = len(cluster.ovs_log())
    cluster.configure(writer, "kept", PROGRAM, PROG_ID, FLOW)
    for member in range(1, MEMBERS + 1):
        wait_for(lambda: cluster.status(member, PROG_ID) == "installed", 90,
                 f"member {member} does not say program {PROG_ID} is installed")
    wait_for(lambda: "filter_prog=31" in cluster.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {cluster.bridge}").stdout,
             60, "the flow naming the program is not on the switch")
    time.sleep(3)
    loads = received(cluster.ovs_log()[start:], "LOAD_PROG")
    assert loads == [(f"127.0.0.{master}", str(PROG_ID))], loads
    # The Karaf console of any member lists the switch with its master.
    r = cluster.sh(f"{SYSTEM}/console --member {writer} oko:switches")
    assert re.search(rf"^{cluster.node_id} +yes +member-{master} +yes +1 installed\s*$", r.stdout, re.M), \
        r.stdout + r.stderr


def test_kill_of_the_master_moves_the_switch_without_loading_anything_again(cluster):
    master = wait_for(cluster.master, 60, "no agreed master")
    survivor = next(m for m in range(1, MEMBERS + 1) if m != master)
    # State in the program's maps: a bucket for 10.1.1.1. The RPCs act through the switch's master; another
    # member says which member that is.
    r = requests.get(f"{cluster.restconf(survivor)}/data/oko:programs/program=kept/info?content=nonconfig",
                     auth=AUTH, timeout=30)
    assert r.status_code == 200, r.text
    (buckets,) = [m for m in r.json()["oko:info"]["map"] if m["map-name"] == "buckets"]
    value = bytes(range(1, buckets["value-size"] + 1))
    write = {"node": cluster.node_id, "program-id": PROG_ID, "map": "buckets",
             "entry": [{"key": base64.b64encode(BUCKET_KEY).decode(), "value": base64.b64encode(value).decode()}]}
    r = cluster.rpc(survivor, "update-map-entries", write)
    assert r.status_code == 409, r.text
    assert (f"{cluster.node_id} is mastered by member-{master}, not by this one (member-{survivor}): call the RPC "
            f"on member-{master}'s RESTCONF") in r.text, r.text
    r = cluster.rpc(master, "update-map-entries", write)
    assert r.status_code == 204, r.text

    # SEND_MAPS events flow through the failover, each member's maps-received stream is watched.
    cluster.configure(survivor, "events", EVENTS_PROGRAM, EVENTS_PROG_ID, EVENTS_FLOW)
    wait_for(lambda: "filter_prog=33" in cluster.sh(f"ovs-ofctl -O OpenFlow13 dump-flows {cluster.bridge}").stdout,
             60, "the flow sending events is not on the switch")
    subscribers = {m: MapsReceivedSubscriber(cluster.restconf(m), AUTH, until=None, silence=300)
                   for m in range(1, MEMBERS + 1)}
    events_from = len(cluster.ovs_log())
    source = LocalPortSource(cluster.bridge, EVENTS_SOURCE, EVENTS_PER_SECOND + 1).start()

    def recorded(member):
        return [n["event-id"] for n in subscribers[member].notifications() if n["program-id"] == EVENTS_PROG_ID]
    wait_for(lambda: len(recorded(master)) >= 10, 30, "the master records no SEND_MAPS events")
    flows_before = cluster.sh(f"ovs-ofctl -O OpenFlow13 --no-stats dump-flows {cluster.bridge}").stdout

    start = len(cluster.ovs_log())
    killed_at = time.time()
    os.killpg(int(open(cluster.pidfile(master)).read().strip()), signal.SIGKILL)
    wait_for(lambda: re.search(r"tcp:127\.0\.0\.(?!%d)\d:6653: received: OFPT_ROLE_REQUEST .*role=primary" % master,
                               cluster.ovs_log()[start:]), 60, "no other member asked the switch to be its master")
    new_master_s = time.time() - killed_at
    new = wait_for(lambda: cluster.master() not in (None, master) and cluster.master(), 60,
                   "the survivors do not name a new master")
    print(f"failover: the switch had a new master {new_master_s:.1f} s after the kill (member {new})")
    wait_for(lambda: all(cluster.status(m, PROG_ID) == "installed" for m in cluster.alive()), 60,
             "the program is not 'installed' on the survivors")

    # Nothing was loaded, unloaded or written again; the flows and the map entry are as they were.
    time.sleep(5)
    log = cluster.ovs_log()[start:]
    assert received(log, "LOAD_PROG") == [] and received(log, "UNLOAD_PROG") == [], log[-3000:]
    assert received(log, "UPDATE_MAP") == [], "the parameters were written again"
    assert cluster.sh(f"ovs-ofctl -O OpenFlow13 --no-stats dump-flows {cluster.bridge}").stdout == flows_before
    r = cluster.rpc(new, "dump-maps", {"node": cluster.node_id, "program-id": PROG_ID, "map": ["buckets"]})
    assert r.status_code == 200, r.text
    (dumped,) = r.json()["oko:output"]["map"]
    assert {e["key"]: e["value"] for e in dumped.get("entry", [])}.get(BUCKET_KEY.hex()) == value.hex(), dumped

    # Configuration written on a survivor reaches the switch, loaded once by the new master.
    applied_from = time.time()
    r = requests.put(f"{cluster.restconf(survivor)}/data/oko:switches/switch={cluster.node_id}"
                     f"/program={LATER_PROG_ID}", json={"oko:program": [{"program-id": LATER_PROG_ID,
                                                                           "program": "kept"}]},
                     auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    wait_for(lambda: cluster.status(survivor, LATER_PROG_ID) == "installed", 60,
             "the program configured after the failover is not installed")
    print(f"failover: configuration written on a survivor applied {time.time() - applied_from:.1f} s after the "
          f"write, {time.time() - killed_at:.1f} s after the kill")
    assert received(cluster.ovs_log()[start:], "LOAD_PROG") == [(f"127.0.0.{new}", str(LATER_PROG_ID))]

    # SEND_MAPS: every event the switch numbered was recorded, once, by one member: those a master received, those
    # openflowplugin dropped while the new master took the switch over and those sent while no member was master
    # (the new master asks the switch for them with REPLAY_MAPS); only events sent to the killed master in its last
    # second may have died with it (recorded there, not yet streamed to its subscriber).
    wait_for(lambda: len(recorded(new)) >= 10, 30, "the new master records no SEND_MAPS events")
    source.stop()
    stopped = time.time()
    time.sleep(1)
    log = cluster.ovs_log()
    assert "Dropped" not in log[events_from:], "the switch's log dropped lines: it cannot witness every event sent"
    sent = sent_events(log, EVENTS_PROG_ID, events_from)
    # The last events may still be on their way to the subscribers (the switch sent them, the member records and
    # publishes them, RESTCONF streams them): give them 20 s.
    last = max(event for *_, event in sent)
    wait_for(lambda: last in recorded(new) or time.time() > stopped + 20, 30, "unreachable")
    print(f"failover: the last event reached the new master's subscriber {time.time() - stopped:.1f} s after the "
          "source stopped" if last in recorded(new) else "failover: the last event did not reach it in 20 s")
    by_member = {m: recorded(m) for m in range(1, MEMBERS + 1)}
    twice = {e: n for e, n in collections.Counter(e for ids in by_member.values() for e in ids).items() if n > 1}
    assert not twice, f"SEND_MAPS events recorded more than once: {twice}"
    everything = set(range(min(min(ids) for ids in by_member.values() if ids), last + 1))
    died = {event for at, address, role, _, event in sent
            if address == f"127.0.0.{master}" and role == "primary" and at >= killed_at - 1}
    missing = sorted(everything - {e for ids in by_member.values() for e in ids})
    assert set(missing) <= died, (f"SEND_MAPS events never recorded: {sorted(set(missing) - died)} (sent: "
                                  f"{[e for e in sent if e[4] in missing]})")
    live_to_new = {event for _, address, role, _, event in sent if address == f"127.0.0.{new}" and role == "primary"}
    to_nobody = everything - {event for *_, event in sent}
    again = set(by_member[new]) - live_to_new
    print(f"failover: SEND_MAPS events {min(everything)}-{last}: {len(everything) - len(missing)} recorded once, "
          f"none twice (the killed master {len(by_member[master])}, the new one {len(by_member[new])}, of which "
          f"{len(again)} it asked the switch for again: {len(again & to_nobody)} sent while no member was master, "
          f"{len(again - to_nobody)} sent to a master that did not record them); {len(missing)} sent to the killed "
          "master in its last second not seen")


def test_the_killed_member_rejoins_and_pushes_nothing(cluster):
    dead = [m for m in range(1, MEMBERS + 1) if m not in cluster.alive()]
    assert len(dead) == 1, f"expected the member the previous test killed to be down: {dead}"
    (member,) = dead
    start = len(cluster.ovs_log())
    cluster.up()                    # starts the missing member only
    restored = open(os.path.join(cluster.run_dir, f"karaf-{member}", "oko-store", "restored")).read()
    assert "taken from the cluster's datastore" in restored, restored
    wait_for(lambda: cluster.status(member, LATER_PROG_ID) == "installed", 60,
             "the rejoined member does not see the programs installed")
    # It reconnects to the switch as a slave (OVS retries within a few seconds) and sends nothing Oko, and no
    # flow: the configuration it holds is the cluster's, already on the switch.
    wait_for(lambda: f"tcp:127.0.0.{member}:6653: received: OFPT_ROLE_REQUEST" in cluster.ovs_log()[start:], 60,
             "the rejoined member did not connect to the switch")
    time.sleep(10)
    log = cluster.ovs_log()[start:]
    for kind in ("LOAD_PROG", "UNLOAD_PROG", "UPDATE_MAP", "DELETE_MAP_ENTRIES"):
        assert received(log, kind) == [], f"{kind} after the member rejoined"
    assert "received: OFPT_FLOW_MOD" not in log, "a flow was pushed again"
    assert cluster.master() not in (None, member)


def shard_role(cluster, member, shard="default"):
    """The role (Leader, Follower, ...) of `member`'s replica of a configuration shard (cluster-admin's RPC)."""
    try:
        r = requests.post(f"{cluster.restconf(member)}/operations/cluster-admin:get-shard-role",
                          json={"input": {"shard-name": shard, "data-store-type": "config"}}, auth=AUTH, timeout=10)
    except requests.RequestException:
        return None
    return r.json()["cluster-admin:output"].get("role") if r.status_code == 200 else None


def test_a_member_paused_longer_than_an_election_answers_no_older_value_than_the_others_acknowledged(cluster):
    """The member that leads the shard of /oko:programs is paused (SIGSTOP, as a long garbage collection would);
    the others elect a new leader and acknowledge a new value of a stored program; a read sent to the paused member
    is answered once it runs again. OpenDaylight alone answers it at once from the member's own data tree, before
    the member learns it was deposed: the older value (seen by it/tools/chaos, and by this test without Oko's read
    barrier). With the barrier the read is confirmed by the shard's current leader first: the newer value, or 503
    when it cannot; or the connection closes when the member, told it was downed, restarts itself first (the others
    down a member silent for about 5 s, and the election takes 3 s of it)."""
    url = "data/oko:programs/program=paused-read"

    def body(rate):
        return {"oko:program": [{"name": "paused-read", "library-filter": "rate-limiter",
                                 "parameter": [{"name": "rate", "value": str(rate)}]}]}

    def rate(answer):
        return {p["name"]: p["value"] for p in answer.json()["oko:program"][0]["parameter"]}["rate"]

    cluster.up()                                      # every member running
    leader = wait_for(lambda: next((m for m in cluster.alive() if shard_role(cluster, m) == "Leader"), None),
                      120, "no leader of the default configuration shard")
    other = next(m for m in range(1, MEMBERS + 1) if m != leader)
    r = requests.put(f"{cluster.restconf(leader)}/{url}", json=body(1), auth=AUTH, timeout=30)
    assert r.status_code in (200, 201, 204), r.text
    group = int(open(cluster.pidfile(leader)).read().strip())
    result = {}

    def read_through_the_paused_member():
        try:
            result["answer"] = requests.get(f"{cluster.restconf(leader)}/{url}", params={"content": "config"},
                                            auth=AUTH, timeout=60)
        except requests.RequestException as e:
            result["error"] = e
    reader = threading.Thread(target=read_through_the_paused_member)
    os.killpg(group, signal.SIGSTOP)
    try:
        paused = time.time()
        while True:
            try:
                r = requests.put(f"{cluster.restconf(other)}/{url}", json=body(2), auth=AUTH, timeout=10)
                if r.status_code in (200, 201, 204):
                    break
            except requests.RequestException:
                pass
            assert time.time() < paused + 60, "the other members did not acknowledge the write"
            time.sleep(0.2)
        reader.start()                                # queued by the kernel until the member runs again
        time.sleep(0.3)
    finally:
        os.killpg(group, signal.SIGCONT)
    print(f"member {leader} paused for {time.time() - paused:.1f} s; member {other} acknowledged rate 2")
    reader.join(90)
    if "answer" not in result:
        print(f"the paused member closed the connection ({result.get('error')}): it restarted itself, downed")
        return
    answer = result["answer"]
    print(f"the paused member answered {answer.status_code}: {answer.text[:200]}")
    if answer.status_code == 200:
        assert rate(answer) == "2", (f"member {leader}, paused while member {other} acknowledged rate 2, answered "
                                     f"rate {rate(answer)} after it ran again")
    else:
        assert answer.status_code == 503 and "oko-configuration-read-not-confirmed" in answer.text, answer.text
