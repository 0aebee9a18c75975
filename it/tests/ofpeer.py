# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""A minimal OpenFlow 1.3 switch for end-to-end tests of the controller.

It connects to the controller over TCP, completes the handshake, answers what
OpenDaylight asks (features, multipart, role, barrier, echo), keeps every
FLOW_MOD it receives (raw bytes, for assertions) and reports the flows it was
told to add in its flow-statistics replies, so that the controller's
operational inventory reads them back. It knows nothing of Oko: the Oko OXM
and action travel through it as the bytes the controller sent.
"""
import socket
import struct
import threading
import time

OFP_VERSION = 0x04
OFPT_HELLO, OFPT_ERROR, OFPT_ECHO_REQUEST, OFPT_ECHO_REPLY = 0, 1, 2, 3
OFPT_FEATURES_REQUEST, OFPT_FEATURES_REPLY = 5, 6
OFPT_GET_CONFIG_REQUEST, OFPT_GET_CONFIG_REPLY, OFPT_SET_CONFIG = 7, 8, 9
OFPT_EXPERIMENTER = 4
OFPT_FLOW_MOD = 14
OFPT_MULTIPART_REQUEST, OFPT_MULTIPART_REPLY = 18, 19
OFPT_BARRIER_REQUEST, OFPT_BARRIER_REPLY = 20, 21
OFPT_ROLE_REQUEST, OFPT_ROLE_REPLY = 24, 25
OFPT_GET_ASYNC_REQUEST, OFPT_GET_ASYNC_REPLY = 26, 27
OFPMP_DESC, OFPMP_FLOW, OFPMP_EXPERIMENTER = 0, 1, 0xFFFF
# Multipart replies openflowplugin reads with a fixed layout (an empty body fails its decoder, and the request
# waits for its timeout): a switch without groups or meters, all zeros. OFPMP_GROUP_FEATURES (8): types,
# capabilities, max_groups[4], actions[4]; OFPMP_METER_FEATURES (11): max_meter, band_types, capabilities,
# max_bands, max_color, pad.
FIXED_REPLY_BODIES = {8: b"\0" * 40, 11: b"\0" * 16}
OFPET_BAD_REQUEST, OFPBRC_BAD_EXPERIMENTER = 1, 3
OFPFC_ADD, OFPFC_DELETE, OFPFC_DELETE_STRICT = 0, 3, 4


def header(msg_type, length, xid):
    return struct.pack(">BBHI", OFP_VERSION, msg_type, length, xid)


def answer(msg_type, xid, msg, dpid):
    """The reply any switch gives to the controller's handshake and liveness requests (echo, features,
    get-config, barrier, get-async) as switch `dpid`, or None for other messages."""
    if msg_type == OFPT_ECHO_REQUEST:
        return header(OFPT_ECHO_REPLY, len(msg), xid) + msg[8:]
    if msg_type == OFPT_FEATURES_REQUEST:
        # datapath_id, n_buffers, n_tables, auxiliary_id, pad, capabilities (flow stats), reserved
        body = struct.pack(">QIBB2xII", dpid, 0, 254, 0, 0x1, 0)
        return header(OFPT_FEATURES_REPLY, 8 + len(body), xid) + body
    if msg_type == OFPT_GET_CONFIG_REQUEST:
        return header(OFPT_GET_CONFIG_REPLY, 12, xid) + struct.pack(">HH", 0, 0xFFFF)
    if msg_type == OFPT_BARRIER_REQUEST:
        return header(OFPT_BARRIER_REPLY, 8, xid)
    if msg_type == OFPT_GET_ASYNC_REQUEST:
        return header(OFPT_GET_ASYNC_REPLY, 32, xid) + b"\0" * 24
    return None


def multipart_reply(xid, mp_type, description, flows):
    """The reply to a standard multipart request of type `mp_type`: the description (manufacturer, hardware,
    software, serial number, datapath) for OFPMP_DESC, `flows` (FLOW_MODs) as flow statistics for OFPMP_FLOW,
    and an empty reply of its type (or its fixed part, zeros) for any other."""
    if mp_type == OFPMP_DESC:
        body = b"".join(s.encode().ljust(n, b"\0") for s, n in zip(description, (256, 256, 256, 32, 256)))
    elif mp_type == OFPMP_FLOW:
        body = b"".join(OpenFlowPeer.flow_stats(mod) for mod in flows)
    else:
        body = FIXED_REPLY_BODIES.get(mp_type, b"")
    reply = struct.pack(">HH4x", mp_type, 0) + body
    return header(OFPT_MULTIPART_REPLY, 8 + len(reply), xid) + reply


def apply_flow_mod(flows, msg):
    """The flows, keyed (table, priority, match bytes), after FLOW_MOD `msg`: an add, or a delete."""
    table, command = msg[24], msg[25]
    priority = struct.unpack(">H", msg[30:32])[0]
    match_len = struct.unpack(">H", msg[50:52])[0]
    match = msg[48:48 + match_len]
    if command == OFPFC_ADD:
        return {**flows, (table, priority, match): msg}
    if command in (OFPFC_DELETE, OFPFC_DELETE_STRICT):
        return {k: v for k, v in flows.items()
                if not (k[1:] == (priority, match) or command == OFPFC_DELETE and table == 0xFF)}
    return flows


class OpenFlowPeer:
    """A fake switch with datapath id `dpid` connected to host:port."""

    def __init__(self, dpid, host="127.0.0.1", port=6653):
        self.dpid = dpid
        self.address = (host, port)
        self.flow_mods = []            # raw FLOW_MOD messages, in arrival order
        self.experimenter = []         # raw OFPT_EXPERIMENTER messages, in arrival order
        self.flows = {}                # (table, priority, match bytes) -> flow_mod bytes
        self.lock = threading.Lock()
        self.sock = None
        self.thread = None
        self.stopping = False

    # ------------------------------------------------------------ lifecycle
    def start(self, timeout=60):
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.create_connection(self.address, timeout=5)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(1)
        self.sock.settimeout(None)
        self.send(header(OFPT_HELLO, 8, 1))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.stopping = True
        if self.sock:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.sock.close()

    def send(self, data):
        self.sock.sendall(data)

    def wait_for_flow_mod(self, predicate, timeout=60):
        return self._wait_for(self.flow_mods, predicate, timeout)

    def wait_for_experimenter(self, predicate, timeout=60):
        return self._wait_for(self.experimenter, predicate, timeout)

    def _wait_for(self, messages, predicate, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                for msg in messages:
                    if predicate(msg):
                        return msg
            time.sleep(0.2)
        return None

    # ------------------------------------------------------------ protocol
    def _recv_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("controller closed the connection")
            data += chunk
        return data

    def _run(self):
        try:
            while not self.stopping:
                head = self._recv_exact(8)
                _, msg_type, length, xid = struct.unpack(">BBHI", head)
                body = self._recv_exact(length - 8)
                self._handle(msg_type, xid, head + body)
        except (OSError, ConnectionError):
            pass

    def _handle(self, msg_type, xid, msg):
        reply = answer(msg_type, xid, msg, self.dpid)
        if reply:
            self.send(reply)
        elif msg_type == OFPT_ROLE_REQUEST:
            self.send(header(OFPT_ROLE_REPLY, len(msg), xid) + msg[8:])
        elif msg_type == OFPT_MULTIPART_REQUEST:
            self._multipart(xid, msg)
        elif msg_type == OFPT_FLOW_MOD:
            self._flow_mod(msg)
        elif msg_type == OFPT_EXPERIMENTER:
            with self.lock:
                self.experimenter.append(msg)
        # HELLO, SET_CONFIG and anything else need no answer.

    def _flow_mod(self, msg):
        with self.lock:
            self.flow_mods.append(msg)
            self.flows = apply_flow_mod(self.flows, msg)

    def _multipart(self, xid, msg):
        mp_type = struct.unpack(">H", msg[8:10])[0]
        if mp_type == OFPMP_EXPERIMENTER:
            # Like a switch without Oko (Open vSwitch): an unknown experimenter is OFPBRC_BAD_EXPERIMENTER, with
            # the request's first 64 bytes.
            error = struct.pack(">HH", OFPET_BAD_REQUEST, OFPBRC_BAD_EXPERIMENTER) + msg[:64]
            self.send(header(OFPT_ERROR, 8 + len(error), xid) + error)
            return
        with self.lock:
            flows = list(self.flows.values())
        self.send(multipart_reply(xid, mp_type, ("Oko test peer", "ofpeer.py", "1", "0", "peer"), flows))

    @staticmethod
    def flow_stats(mod):
        """ofp_flow_stats for a flow added by FLOW_MOD `mod` (match and instructions copied verbatim)."""
        cookie = mod[8:16]
        table = mod[24]
        idle, hard, priority = struct.unpack(">HHH", mod[26:32])
        flags = struct.unpack(">H", mod[44:46])[0]
        match_len = struct.unpack(">H", mod[50:52])[0]
        padded = (match_len + 7) // 8 * 8
        match = mod[48:48 + padded]
        instructions = mod[48 + padded:]
        fixed = struct.pack(">BxIIHHHH4x", table, 1, 0, priority, idle, hard, flags) + cookie + struct.pack(">QQ", 0, 0)
        entry = fixed + match + instructions
        return struct.pack(">H", 2 + len(entry)) + entry
