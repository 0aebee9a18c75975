# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""A simulated fleet of Oko switches: thousands of OpenFlow 1.3 connections in one process (asyncio).

Each simulated switch has a datapath id and connects to every controller address given (a cluster's members,
as Open vSwitch does with several controllers). It completes the handshake, answers what OpenDaylight asks
(features, multipart, role, barrier, echo), and speaks Oko with state, per switch: LOAD_PROG keeps the program
(its ELF's SHA-256, replacing or refusing as docs/protocol.md 4.1 says), UNLOAD_PROG drops it, UPDATE_MAP and
DELETE_MAP_ENTRIES change its maps' entries, DUMP_MAPS returns them (5.5), MARK_INSTALLED marks a program installed
until it is loaded again (4.4), PROG_STATS (version 1.4) lists the programs with their SHA-256 and install mark,
REPLAY_MAPS answers that nothing is retained (a simulated switch sends no events),
FLOW_MOD adds and deletes flows, which the flow statistics report back; a flow whose
match names a program (filter_prog, 6.1) the switch has not loaded is refused with OKO_EC_UNKNOWN_PROG, as the
patched Open vSwitch does. What each switch received, and when, is
kept for the tests and benchmarks: the controller's side can be measured at a scale one ovs-vswitchd does not
reach.

    python3 it/tests/fleet.py --switches 1000 [--controllers 127.0.0.1:6653,...] [--first-dpid 1000]

runs a fleet until interrupted and prints, every 5 s, how many switches are connected and how many have
programs loaded.
"""
import argparse
import asyncio
import hashlib
import struct
import time

from ofpeer import (OFPMP_EXPERIMENTER, OFPT_ECHO_REQUEST, OFPT_ERROR, OFPT_EXPERIMENTER, OFPT_FLOW_MOD,
                    OFPT_HELLO, OFPT_MULTIPART_REPLY, OFPT_MULTIPART_REQUEST, OFPT_ROLE_REPLY, OFPT_ROLE_REQUEST,
                    answer, apply_flow_mod, header, multipart_reply)

OFPFC_ADD, OFPFC_MODIFY, OFPFC_MODIFY_STRICT = 0, 1, 2
OFPMPF_REPLY_MORE = 0x0001
OFPCR_ROLE_NOCHANGE, OFPCR_ROLE_EQUAL, OFPCR_ROLE_MASTER, OFPCR_ROLE_SLAVE = 0, 1, 2, 3
OFPET_BAD_REQUEST, OFPBRC_BAD_EXP_TYPE, OFPBRC_IS_SLAVE = 1, 4, 10
OFPET_EXPERIMENTER = 0xFFFF

# docs/protocol.md
OKO_EXPERIMENTER = 0x4F4B4F00
LOAD_PROG, UNLOAD_PROG, UPDATE_MAP, DELETE_MAP_ENTRIES, DUMP_MAPS, PROG_STATS, REPLAY_MAPS, MARK_INSTALLED = (
    1, 2, 3, 4, 6, 7, 8, 9)
OKO_LOAD_REPLACE = 0x0001
OKO_DELETE_ALL = 0x01
OKO_EC_BAD_MESSAGE, OKO_EC_PROG_EXISTS, OKO_EC_UNKNOWN_PROG = 1, 4, 5
FILTER_PROG_OXM = 0xFFFF0208            # class OFPXMC_EXPERIMENTER, field 1, no mask, length 8
MAP_TYPE_HASH = 1                       # 5.1; the simulated switch does not read the ELF's map declarations
MAX_MP_BODY = 65535 - 32                # a DUMP_MAPS reply's sections, at most
PROBE_INTERVAL = 5                      # s, Open vSwitch's default inactivity probe


class Program:
    def __init__(self, elf):
        self.sha256 = hashlib.sha256(elf).digest()
        self.install_mark = bytes(32)   # MARK_INSTALLED's, cleared by every load (a new Program)
        self.maps = {}                  # map index -> {key bytes: value bytes}
        self.sizes = {}                 # map index -> (key_size, value_size), from the first UPDATE_MAP


def filter_prog(flow_mod):
    """The program id a FLOW_MOD's match names (its filter_prog OXM, docs/protocol.md 6.1), or None."""
    match_len = struct.unpack(">H", flow_mod[50:52])[0]
    oxms, at = flow_mod[52:48 + match_len], 0
    while at + 4 <= len(oxms):
        oxm_header = struct.unpack(">I", oxms[at:at + 4])[0]
        if oxm_header == FILTER_PROG_OXM and oxms[at + 4:at + 8] == struct.pack(">I", OKO_EXPERIMENTER):
            return struct.unpack(">I", oxms[at + 8:at + 12])[0]
        at += 4 + (oxm_header & 0xFF)
    return None


class SimulatedSwitch:
    """One switch: its state, shared by its connections to every controller."""

    def __init__(self, dpid):
        self.dpid = dpid
        self.programs = {}              # prog_id -> Program
        self.flows = {}                 # (table, priority, match) -> FLOW_MOD bytes
        self.received = []              # (time, controller, kind, prog_id or None)
        self.connections = {}           # controller -> Connection
        self.generation = None

    def record(self, controller, kind, prog_id=None):
        self.received.append((time.monotonic(), controller, kind, prog_id))

    def count(self, kind, prog_id=None):
        return sum(1 for _, _, k, p in self.received if k == kind and (prog_id is None or p == prog_id))


class Connection:
    """One switch's connection to one controller."""

    def __init__(self, switch, controller):
        self.switch = switch
        self.controller = controller
        self.role = OFPCR_ROLE_EQUAL
        self.writer = None

    async def run(self, stopping):
        host, port = self.controller.rsplit(":", 1)
        while not stopping.is_set():
            try:
                reader, self.writer = await asyncio.open_connection(host, int(port))
            except OSError:
                await asyncio.sleep(1)
                continue
            self.switch.connections[self.controller] = self
            self.send(header(OFPT_HELLO, 8, 1))
            self.last_heard = time.monotonic()
            probe = asyncio.create_task(self.probe())
            try:
                while True:
                    head = await reader.readexactly(8)
                    self.last_heard = time.monotonic()
                    _, msg_type, length, xid = struct.unpack(">BBHI", head)
                    body = await reader.readexactly(length - 8)
                    self.handle(msg_type, xid, head + body)
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                pass
            finally:
                probe.cancel()
                self.switch.connections.pop(self.controller, None)
                self.writer.close()
            await asyncio.sleep(1)

    async def probe(self):
        """Open vSwitch's inactivity probe: an ECHO_REQUEST after PROBE_INTERVAL s without a message from the
        controller. It matters beyond realism: a connection silent for 15 s gets openflowplugin's own echo,
        whose xid 0 its outbound queue takes for the reply to its own first request (xid 0, not sent yet); that
        request (the role request of a switch mastered late, or set to slave) then fails with "Can't commit a
        completed message" and the connection is closed. Switch-side xids are taken from the top half of the
        range, away from the controller's, which its queue would pair the same way."""
        xid = 0x80000000
        while True:
            await asyncio.sleep(1)
            if time.monotonic() - self.last_heard >= PROBE_INTERVAL:
                self.send(header(OFPT_ECHO_REQUEST, 8, xid))
                xid = xid + 1 if xid < 0xFFFFFFFF else 0x80000000
                self.last_heard = time.monotonic()

    def send(self, data):
        self.writer.write(data)

    def error(self, xid, err_type, code, msg, data=b""):
        body = struct.pack(">HH", err_type, code) + data + msg[:64]
        self.send(header(OFPT_ERROR, 8 + len(body), xid) + body)

    def oko_error(self, xid, code, msg, text):
        # OFPET_EXPERIMENTER error: type, exp_code, experimenter, then the text (docs/protocol.md 7).
        del msg
        body = struct.pack(">HHI", OFPET_EXPERIMENTER, code, OKO_EXPERIMENTER) + text.encode()
        self.send(header(OFPT_ERROR, 8 + len(body), xid) + body)

    def handle(self, msg_type, xid, msg):
        sw = self.switch
        reply = answer(msg_type, xid, msg, sw.dpid)
        if reply:
            self.send(reply)
        elif msg_type == OFPT_ROLE_REQUEST:
            role, generation = struct.unpack(">I4xQ", msg[8:24])
            if role == OFPCR_ROLE_MASTER:
                for other in sw.connections.values():
                    if other is not self and other.role == OFPCR_ROLE_MASTER:
                        other.role = OFPCR_ROLE_SLAVE
            if role != OFPCR_ROLE_NOCHANGE:
                self.role = role
                sw.generation = generation
                sw.record(self.controller, "ROLE_%s" % {1: "EQUAL", 2: "MASTER", 3: "SLAVE"}.get(role, role))
            reply = struct.pack(">I4xQ", self.role, sw.generation or 0)
            self.send(header(OFPT_ROLE_REPLY, 24, xid) + reply)
        elif msg_type == OFPT_MULTIPART_REQUEST:
            self.multipart(xid, msg)
        elif msg_type == OFPT_FLOW_MOD:
            if self.role == OFPCR_ROLE_SLAVE:
                self.error(xid, OFPET_BAD_REQUEST, OFPBRC_IS_SLAVE, msg)
                return
            self.flow_mod(xid, msg)
        elif msg_type == OFPT_EXPERIMENTER:
            if self.role == OFPCR_ROLE_SLAVE:
                self.error(xid, OFPET_BAD_REQUEST, OFPBRC_IS_SLAVE, msg)
                return
            self.experimenter(xid, msg)

    def flow_mod(self, xid, msg):
        sw = self.switch
        prog_id = filter_prog(msg)
        if msg[25] in (OFPFC_ADD, OFPFC_MODIFY, OFPFC_MODIFY_STRICT) and prog_id is not None \
                and prog_id not in sw.programs:
            sw.record(self.controller, "FLOW_REFUSED", prog_id)
            self.oko_error(xid, OKO_EC_UNKNOWN_PROG, msg, f"program {prog_id} is not loaded")
            return
        sw.record(self.controller, "FLOW_MOD", prog_id)
        sw.flows = apply_flow_mod(sw.flows, msg)

    def experimenter(self, xid, msg):
        experimenter, exp_type = struct.unpack(">II", msg[8:16])
        sw = self.switch
        if experimenter != OKO_EXPERIMENTER:
            self.error(xid, OFPET_BAD_REQUEST, 3, msg)
            return
        if exp_type == LOAD_PROG:
            prog_id, flags, elf_len = struct.unpack(">IH2xI4x", msg[16:32])
            sw.record(self.controller, "LOAD_PROG", prog_id)
            if prog_id in sw.programs and not flags & OKO_LOAD_REPLACE:
                self.oko_error(xid, OKO_EC_PROG_EXISTS, msg, f"program {prog_id} is already loaded")
                return
            sw.programs[prog_id] = Program(msg[32:32 + elf_len])
        elif exp_type == UNLOAD_PROG:
            prog_id = struct.unpack(">I", msg[16:20])[0]
            sw.record(self.controller, "UNLOAD_PROG", prog_id)
            if sw.programs.pop(prog_id, None) is None:
                self.oko_error(xid, OKO_EC_UNKNOWN_PROG, msg, f"program {prog_id} is not loaded")
        elif exp_type in (UPDATE_MAP, DELETE_MAP_ENTRIES):
            self.map_message(xid, exp_type, msg)
        elif exp_type == MARK_INSTALLED and len(msg) == 56:
            prog_id = struct.unpack(">I", msg[16:20])[0]
            sw.record(self.controller, "MARK_INSTALLED", prog_id)
            if prog_id not in sw.programs:
                self.oko_error(xid, OKO_EC_UNKNOWN_PROG, msg, f"program {prog_id} is not loaded")
            else:
                sw.programs[prog_id].install_mark = msg[24:56]
        else:
            self.error(xid, OFPET_BAD_REQUEST, OFPBRC_BAD_EXP_TYPE, msg)

    def map_message(self, xid, exp_type, msg):
        """UPDATE_MAP and DELETE_MAP_ENTRIES (docs/protocol.md 5.2, 5.3): the entries, kept per map."""
        sw = self.switch
        prog_id, map_index, flags, key_size, value_size, _, count = struct.unpack(">IBBHHHI", msg[16:32])
        kind = "UPDATE_MAP" if exp_type == UPDATE_MAP else "DELETE_MAP_ENTRIES"
        sw.record(self.controller, kind, prog_id)
        program = sw.programs.get(prog_id)
        if program is None:
            self.oko_error(xid, OKO_EC_UNKNOWN_PROG, msg, f"program {prog_id} is not loaded")
            return
        if len(msg) != 32 + count * (key_size + value_size):
            self.oko_error(xid, OKO_EC_BAD_MESSAGE, msg, "entries do not fill the message")
            return
        entries = program.maps.setdefault(map_index, {})
        if exp_type == DELETE_MAP_ENTRIES and flags & OKO_DELETE_ALL:
            entries.clear()
            return
        program.sizes.setdefault(map_index, (key_size, value_size))
        step = key_size + value_size
        for at in range(32, len(msg), step):
            key = msg[at:at + key_size]
            if exp_type == UPDATE_MAP:
                entries[key] = msg[at + key_size:at + step]
            else:
                entries.pop(key, None)

    def dump_maps(self, xid, prog_id, map_mask, msg):
        """DUMP_MAPS (docs/protocol.md 5.5): one section per selected map, split over replies at 64 KiB."""
        sw = self.switch
        sw.record(self.controller, "DUMP_MAPS", prog_id)
        program = sw.programs.get(prog_id)
        if program is None:
            self.oko_error(xid, OKO_EC_UNKNOWN_PROG, msg, f"program {prog_id} is not loaded")
            return
        indexes = [i for i in range(64) if map_mask >> i & 1] if map_mask else sorted(program.maps)
        sections = []
        for index in indexes:
            key_size, value_size = program.sizes.get(index, (0, 0))
            entries = b"".join(k + v for k, v in program.maps.get(index, {}).items())
            count = len(program.maps.get(index, {}))
            section = struct.pack(">BBBxHHI4x", index, 0, MAP_TYPE_HASH, key_size, value_size, count) + entries
            sections.append(section + b"\0" * (-len(section) % 8))
        replies, current = [], []
        for section in sections:
            if current and sum(map(len, current)) + len(section) > MAX_MP_BODY:
                replies.append(current)
                current = []
            current.append(section)
        replies.append(current)
        for n, part in enumerate(replies):
            flags = OFPMPF_REPLY_MORE if n < len(replies) - 1 else 0
            body = (struct.pack(">HH4xII", OFPMP_EXPERIMENTER, flags, OKO_EXPERIMENTER, DUMP_MAPS)
                    + struct.pack(">IH2x", prog_id, len(part)) + b"".join(part))
            self.send(header(OFPT_MULTIPART_REPLY, 8 + len(body), xid) + body)

    def multipart(self, xid, msg):
        mp_type = struct.unpack(">H", msg[8:10])[0]
        if mp_type == OFPMP_EXPERIMENTER:
            experimenter, exp_type = struct.unpack(">II", msg[16:24])
            if experimenter == OKO_EXPERIMENTER and exp_type == PROG_STATS:
                self.prog_stats(xid, struct.unpack(">I", msg[24:28])[0], msg)
            elif experimenter == OKO_EXPERIMENTER and exp_type == DUMP_MAPS:
                prog_id, _, map_mask = struct.unpack(">IIQ", msg[24:40])
                self.dump_maps(xid, prog_id, map_mask, msg)
            elif experimenter == OKO_EXPERIMENTER and exp_type == REPLAY_MAPS:
                self.replay_maps(xid, struct.unpack(">I", msg[24:28])[0], msg)
            else:
                self.error(xid, OFPET_BAD_REQUEST, OFPBRC_BAD_EXP_TYPE, msg)
            return
        self.send(multipart_reply(xid, mp_type, ("Oko simulated fleet", "fleet.py", "1", "0", "fleet"),
                                  self.switch.flows.values()))

    def replay_maps(self, xid, prog_id, msg):
        """REPLAY_MAPS reply (docs/protocol.md 5.7): a simulated switch sends no SEND_MAPS events, so it retains none
        and its next event is 0."""
        sw = self.switch
        sw.record(self.controller, "REPLAY_MAPS", prog_id)
        if prog_id not in sw.programs:
            self.oko_error(xid, OKO_EC_UNKNOWN_PROG, msg, f"program {prog_id} is not loaded")
            return
        body = (struct.pack(">HH4xII", OFPMP_EXPERIMENTER, 0, OKO_EXPERIMENTER, REPLAY_MAPS)
                + struct.pack(">II", prog_id, 0))
        self.send(header(OFPT_MULTIPART_REPLY, 8 + len(body), xid) + body)

    def prog_stats(self, xid, prog_id, msg):
        """PROG_STATS reply (docs/protocol.md 4.3, version 1.4): a record without maps per program."""
        sw = self.switch
        sw.record(self.controller, "PROG_STATS", prog_id)
        if prog_id and prog_id not in sw.programs:
            self.oko_error(xid, OKO_EC_UNKNOWN_PROG, msg, f"program {prog_id} is not loaded")
            return
        ids = sorted(sw.programs) if prog_id == 0 else [prog_id]
        records = b"".join(struct.pack(">IHBB5QIIII Q", pid, 136, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0)
                           + sw.programs[pid].sha256 + sw.programs[pid].install_mark for pid in ids)
        body = (struct.pack(">HH4xII", OFPMP_EXPERIMENTER, 0, OKO_EXPERIMENTER, PROG_STATS)
                + struct.pack(">H6x", len(ids)) + records)
        self.send(header(OFPT_MULTIPART_REPLY, 8 + len(body), xid) + body)


class Fleet:
    """`count` simulated switches with datapath ids first_dpid, first_dpid + 1, ..., each connected to every
    controller; run in a thread of their own (`start`) or in the caller's event loop (`run`)."""

    def __init__(self, count, controllers=("127.0.0.1:6653",), first_dpid=1000, connect_rate=None):
        self.switches = [SimulatedSwitch(first_dpid + i) for i in range(count)]
        self.controllers = list(controllers)
        # Switches that start connecting per second (None: all at once). A real fleet comes up over time; a
        # thousand connections in the same second make openflowplugin time its own role requests out.
        self.connect_rate = connect_rate
        self.stopping = None
        self.loop = None
        self.thread = None

    async def run(self):
        self.stopping = asyncio.Event()
        tasks = [asyncio.create_task(self.connect(i, Connection(sw, c)))
                 for i, sw in enumerate(self.switches) for c in self.controllers]
        await self.stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def connect(self, index, connection):
        if self.connect_rate:
            await asyncio.sleep(index / self.connect_rate)
        await connection.run(self.stopping)

    def start(self):
        import threading
        ready = threading.Event()

        def main():
            self.loop = asyncio.new_event_loop()
            self.loop.call_soon(ready.set)
            self.loop.run_until_complete(self.run())
        self.thread = threading.Thread(target=main, daemon=True)
        self.thread.start()
        ready.wait(10)
        return self

    def stop(self):
        if self.loop and self.stopping:
            self.loop.call_soon_threadsafe(self.stopping.set)
        if self.thread:
            self.thread.join(30)

    def connected(self):
        return sum(1 for sw in self.switches if sw.connections)

    def with_program(self, prog_id):
        return sum(1 for sw in self.switches if prog_id in sw.programs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--switches", type=int, default=100)
    parser.add_argument("--controllers", default="127.0.0.1:6653")
    parser.add_argument("--first-dpid", type=int, default=1000)
    parser.add_argument("--connect-rate", type=float, help="switches that start connecting per second")
    args = parser.parse_args()
    fleet = Fleet(args.switches, args.controllers.split(","), args.first_dpid, args.connect_rate).start()
    try:
        while True:
            time.sleep(5)
            loaded = sum(1 for sw in fleet.switches if sw.programs)
            print(f"{fleet.connected()} of {len(fleet.switches)} connected, {loaded} with programs", flush=True)
    except KeyboardInterrupt:
        fleet.stop()


if __name__ == "__main__":
    main()
