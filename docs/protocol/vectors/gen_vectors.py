#!/usr/bin/env python3
"""Writes the Oko protocol test vectors (docs/protocol.md, section 8).

Each vector is spelled out field by field, following the tables of
docs/protocol.md, so a reviewer can check it against the document.

    gen_vectors.py           (re)write every NAME.hex next to this script
    gen_vectors.py --check   exit 1 if a committed vector differs or is missing
"""
import hashlib
import os
import struct
import sys

OKO = 0x4F4B4F00
OFP13 = 0x04
OFPT_ERROR, OFPT_EXPERIMENTER, OFPT_MP_REQUEST, OFPT_MP_REPLY, OFPT_FLOW_MOD = 1, 4, 18, 19, 14
OFPMP_EXPERIMENTER = 0xFFFF
OFPMPF_REPLY_MORE = 0x0001

(LOAD_PROG, UNLOAD_PROG, UPDATE_MAP, DELETE_MAP_ENTRIES, SEND_MAPS, DUMP_MAPS, PROG_STATS, REPLAY_MAPS,
 MARK_INSTALLED) = (1, 2, 3, 4, 5, 6, 7, 8, 9)
OKO_REPLAY_ALL = 0x0001
OKO_LOAD_REPLACE, OKO_LOAD_KEEP_MAPS = 0x0001, 0x0002
OKO_UNLOAD_FORCE = 0x0001
OKO_DELETE_ALL = 0x01
OKO_SECTION_CONTINUES = 0x01
OKO_SEND_MAPS_LAST = 0x01
MAP_HASH, MAP_ARRAY, MAP_LRU_HASH, MAP_BLOOM, MAP_COUNT_MIN, MAP_LPM = 1, 2, 3, 4, 5, 6
OKO_ACTION_SEND_MAPS = 1

# A real program: filter-library's baseline.o is built at test time; the
# vectors carry a tiny stand-in (the ELF magic and a few bytes) because the
# codecs treat the object as opaque bytes.
ELF_STUB = bytes.fromhex("7f454c46020101000000000000000000")


def u8(v): return struct.pack(">B", v)
def u16(v): return struct.pack(">H", v)
def u32(v): return struct.pack(">I", v)
def u64(v): return struct.pack(">Q", v)
def le32(v): return struct.pack("<I", v)
def le64(v): return struct.pack("<Q", v)


def ofp_header(msg_type, length, xid):
    return u8(OFP13) + u8(msg_type) + u16(length) + u32(xid)


def experimenter_msg(exp_type, body, xid=1, length=None):
    """OFPT_EXPERIMENTER with the Oko header (protocol.md section 3)."""
    total = 16 + len(body) if length is None else length
    return ofp_header(OFPT_EXPERIMENTER, total, xid) + u32(OKO) + u32(exp_type) + body


def load_prog(prog_id, flags, elf, elf_len=None, reserved=0):
    n = len(elf) if elf_len is None else elf_len
    return u32(prog_id) + u16(flags) + u16(0) + u32(n) + u32(reserved) + elf


def unload_prog(prog_id, flags):
    return u32(prog_id) + u16(flags) + u16(0)


def mark_installed(prog_id, install_mark, reserved=0):
    """MARK_INSTALLED body (docs/protocol.md 4.4): prog_id, reserved, the 32-byte mark."""
    return u32(prog_id) + u32(reserved) + install_mark


def map_msg(prog_id, map_index, flags, key_size, value_size, entries, n_entries=None, reserved=0):
    n = len(entries) if n_entries is None else n_entries
    data = b"".join(k + v for k, v in entries)
    return (u32(prog_id) + u8(map_index) + u8(flags) + u16(key_size) + u16(value_size) + u16(reserved)
            + u32(n) + data)


def section(map_index, flags, map_type, key_size, value_size, entries):
    data = b"".join(k + v for k, v in entries)
    body = (u8(map_index) + u8(flags) + u8(map_type) + u8(0) + u16(key_size) + u16(value_size)
            + u32(len(entries)) + u32(0) + data)
    return body + b"\0" * (-len(body) % 8)


def send_maps(prog_id, event_id, cookie, table_id, flags, fragment, sections, suppressed=0, n_sections=None):
    n = len(sections) if n_sections is None else n_sections
    return (u32(prog_id) + u32(event_id) + u64(cookie) + u8(table_id) + u8(flags) + u16(fragment)
            + u16(n) + u16(0) + u32(suppressed) + u32(0) + b"".join(sections))


def mp_request(body, xid=1, exp_type=DUMP_MAPS):
    total = 24 + len(body)
    return (ofp_header(OFPT_MP_REQUEST, total, xid) + u16(OFPMP_EXPERIMENTER) + u16(0) + b"\0" * 4
            + u32(OKO) + u32(exp_type) + body)


def mp_reply(body, mp_flags=0, xid=1, exp_type=DUMP_MAPS):
    total = 24 + len(body)
    return (ofp_header(OFPT_MP_REPLY, total, xid) + u16(OFPMP_EXPERIMENTER) + u16(mp_flags) + b"\0" * 4
            + u32(OKO) + u32(exp_type) + body)


def dump_request(prog_id, map_mask):
    return u32(prog_id) + u32(0) + u64(map_mask)


def dump_reply(prog_id, sections):
    return u32(prog_id) + u16(len(sections)) + u16(0) + b"".join(sections)


def stats_request(prog_id, reserved=0):
    return u32(prog_id) + u32(reserved)


OKO_PROG_STATS_JIT = 0x01


def map_stats(map_index, map_type, used, max_entries, evictions, refused_full):
    """A PROG_STATS map record (docs/protocol.md 4.3): 32 bytes."""
    return (u8(map_index) + u8(map_type) + u16(0) + u32(used) + u32(max_entries) + u32(0)
            + u64(evictions) + u64(refused_full))


def prog_stats(prog_id, flags, runs, matches, errors, timed_runs, timed_ns, rules, datapath_flows,
               instructions, memory, maps, length=None, n_maps=None, elf_sha256=None, install_mark=None):
    """A PROG_STATS program record: 72 bytes, then its map records, then (version 1.2) the 32-byte SHA-256
    of the program's ELF object, then (version 1.4) the program's 32-byte install mark."""
    sha = (b"" if elf_sha256 is None else elf_sha256) + (b"" if install_mark is None else install_mark)
    length = 72 + 32 * len(maps) + len(sha) if length is None else length
    n_maps = len(maps) if n_maps is None else n_maps
    return (u32(prog_id) + u16(length) + u8(n_maps) + u8(flags)
            + u64(runs) + u64(matches) + u64(errors) + u64(timed_runs) + u64(timed_ns)
            + u32(rules) + u32(datapath_flows) + u32(instructions) + u32(0) + u64(memory)
            + b"".join(maps) + sha)


def stats_reply(records, n_programs=None):
    n_programs = len(records) if n_programs is None else n_programs
    return u16(n_programs) + b"\0" * 6 + b"".join(records)


def replay_request(prog_id, after_event_id, flags, reserved=b"\0" * 6):
    """A REPLAY_MAPS request body (docs/protocol.md 5.7): 16 bytes."""
    return u32(prog_id) + u32(after_event_id) + u16(flags) + reserved


def replay_reply(prog_id, next_event_id, fragment=b""):
    """A REPLAY_MAPS reply body: 8 bytes, then nothing or one SEND_MAPS fragment (send_maps())."""
    return u32(prog_id) + u32(next_event_id) + fragment


def oxm_filter_prog(prog_id, field_byte=0x02, length=8, experimenter=OKO):
    return u16(0xFFFF) + u8(field_byte) + u8(length) + u32(experimenter) + u32(prog_id)


def action_send_maps(map_mask, length=24, subtype=OKO_ACTION_SEND_MAPS, experimenter=OKO):
    return u16(0xFFFF) + u16(length) + u32(experimenter) + u16(subtype) + b"\0" * 6 + u64(map_mask)


def error(exp_code, text, xid=1):
    data = text.encode("utf-8")
    return ofp_header(OFPT_ERROR, 16 + len(data), xid) + u16(0xFFFF) + u16(exp_code) + u32(OKO) + data


def flow_mod_with_filter(prog_id, map_mask):
    """OF1.3 FLOW_MOD add: table 0, priority 100, match ip,nw_dst=10.0.0.1 + filter_prog,
    apply-actions SEND_MAPS then output:1."""
    oxm = (u32(0x80000A02) + u16(0x0800)          # eth_type = IPv4
           + u32(0x80001804) + u32(0x0A000001)     # ipv4_dst = 10.0.0.1
           + oxm_filter_prog(prog_id))
    match_len = 4 + len(oxm)
    match = u16(1) + u16(match_len) + oxm + b"\0" * (-match_len % 8)   # OFPMT_OXM
    actions = action_send_maps(map_mask) + u16(0) + u16(16) + u32(1) + u16(0) + b"\0" * 6  # output:1, max_len 0
    instruction = u16(4) + u16(8 + len(actions)) + b"\0" * 4 + actions                         # APPLY_ACTIONS
    body = (u64(0x0000000000C0FFEE) + u64(0)       # cookie, cookie_mask
            + u8(0) + u8(0)                        # table_id, command ADD
            + u16(0) + u16(0) + u16(100)           # idle, hard timeout, priority
            + u32(0xFFFFFFFF) + u32(0xFFFFFFFF) + u32(0xFFFFFFFF)  # buffer_id, out_port, out_group
            + u16(0) + u16(0))                     # flags, pad
    total = 8 + len(body) + len(match) + len(instruction)
    return ofp_header(OFPT_FLOW_MOD, total, 7) + body + match + instruction


KEY_A = bytes.fromhex("0a000001")          # 10.0.0.1 as the program stores it (network order bytes)
KEY_B = bytes.fromhex("0a000002")
VAL_1 = le64(1)
VAL_2 = le64(2)


def vectors():
    """(name, kind, expect, comment, bytes)"""
    v = []
    ok = lambda name, kind, comment, data: v.append((name, kind, "ok", comment, data))
    bad = lambda name, kind, comment, data: v.append((name, kind, "malformed", comment, data))

    # ---- LOAD_PROG
    ok("load_prog", "message", "LOAD_PROG prog_id 7, no flags, 16-byte ELF stand-in.",
       experimenter_msg(LOAD_PROG, load_prog(7, 0, ELF_STUB)))
    ok("load_prog_replace_keep_maps", "message",
       "LOAD_PROG prog_id 0xFFFFFFFF with OKO_LOAD_REPLACE|OKO_LOAD_KEEP_MAPS, xid 0x01020304.",
       experimenter_msg(LOAD_PROG, load_prog(0xFFFFFFFF, OKO_LOAD_REPLACE | OKO_LOAD_KEEP_MAPS, ELF_STUB),
                        xid=0x01020304))
    bad("load_prog_truncated", "message",
        "LOAD_PROG shorter than its 32-byte fixed part (length 24).",
        experimenter_msg(LOAD_PROG, load_prog(7, 0, b"")[:8]))
    bad("load_prog_elf_len_mismatch", "message",
        "elf_len says 17 but only 16 ELF bytes follow (length 48).",
        experimenter_msg(LOAD_PROG, load_prog(7, 0, ELF_STUB, elf_len=17)))
    bad("load_prog_empty_elf", "message", "elf_len 0: an ELF object of at least 1 byte is required.",
        experimenter_msg(LOAD_PROG, load_prog(7, 0, b"")))
    bad("load_prog_id_zero", "message", "prog_id 0 is reserved.",
        experimenter_msg(LOAD_PROG, load_prog(0, 0, ELF_STUB)))
    bad("load_prog_unknown_flags", "message", "flags 0x0004: undefined bit.",
        experimenter_msg(LOAD_PROG, load_prog(7, 0x0004, ELF_STUB)))
    bad("load_prog_keep_maps_without_replace", "message", "OKO_LOAD_KEEP_MAPS without OKO_LOAD_REPLACE.",
        experimenter_msg(LOAD_PROG, load_prog(7, OKO_LOAD_KEEP_MAPS, ELF_STUB)))
    bad("load_prog_reserved_nonzero", "message", "reserved u32 at offset 28 is 1.",
        experimenter_msg(LOAD_PROG, load_prog(7, 0, ELF_STUB, reserved=1)))
    bad("load_prog_bad_experimenter", "message",
        "experimenter 0x00002320 (Nicira) with Oko's LOAD_PROG layout: not an Oko message.",
        ofp_header(OFPT_EXPERIMENTER, 48, 1) + u32(0x00002320) + u32(LOAD_PROG) + load_prog(7, 0, ELF_STUB))
    bad("unknown_exp_type", "message", "Oko experimenter message with exp_type 99.",
        experimenter_msg(99, u32(7) + u32(0)))

    # ---- UNLOAD_PROG
    ok("unload_prog", "message", "UNLOAD_PROG prog_id 7.", experimenter_msg(UNLOAD_PROG, unload_prog(7, 0)))
    ok("unload_prog_force", "message", "UNLOAD_PROG prog_id 7 with OKO_UNLOAD_FORCE.",
       experimenter_msg(UNLOAD_PROG, unload_prog(7, OKO_UNLOAD_FORCE)))
    bad("unload_prog_long", "message", "UNLOAD_PROG with 4 extra bytes (length 28, must be 24).",
        experimenter_msg(UNLOAD_PROG, unload_prog(7, 0) + u32(0)))

    # ---- MARK_INSTALLED (version 1.4)
    mark7 = hashlib.sha256(b"settings of program 7").digest()
    ok("mark_installed", "message",
       "MARK_INSTALLED prog_id 7, install_mark the SHA-256 of the bytes 'settings of program 7'.",
       experimenter_msg(MARK_INSTALLED, mark_installed(7, mark7)))
    bad("mark_installed_zero_mark", "message", "MARK_INSTALLED with an all-zero install_mark (means 'none').",
        experimenter_msg(MARK_INSTALLED, mark_installed(7, b"\0" * 32)))
    bad("mark_installed_reserved", "message", "MARK_INSTALLED whose reserved u32 at offset 20 is 1.",
        experimenter_msg(MARK_INSTALLED, mark_installed(7, mark7, reserved=1)))
    bad("mark_installed_prog_zero", "message", "MARK_INSTALLED of program 0 (reserved).",
        experimenter_msg(MARK_INSTALLED, mark_installed(0, mark7)))
    bad("mark_installed_truncated", "message", "MARK_INSTALLED with 16 of the mark's 32 bytes (length 40, must be 56).",
        experimenter_msg(MARK_INSTALLED, mark_installed(7, mark7[:16])))
    bad("mark_installed_long", "message", "MARK_INSTALLED with 8 bytes after the mark (length 64, must be 56).",
        experimenter_msg(MARK_INSTALLED, mark_installed(7, mark7) + u64(0)))

    # ---- UPDATE_MAP / DELETE_MAP_ENTRIES
    ok("update_map", "message",
       "UPDATE_MAP prog 7 map 0, key 4 value 8, two entries: 10.0.0.1 -> 1, 10.0.0.2 -> 2 (values LE).",
       experimenter_msg(UPDATE_MAP, map_msg(7, 0, 0, 4, 8, [(KEY_A, VAL_1), (KEY_B, VAL_2)])))
    ok("update_map_bloom", "message", "UPDATE_MAP of a bloom map (map 3): value_size 0, one key.",
       experimenter_msg(UPDATE_MAP, map_msg(7, 3, 0, 4, 0, [(KEY_A, b"")])))
    bad("update_map_oversize_count", "message",
        "n_entries 0xFFFFFFFF with one entry of data: the count cannot fit the message.",
        experimenter_msg(UPDATE_MAP, map_msg(7, 0, 0, 4, 8, [(KEY_A, VAL_1)], n_entries=0xFFFFFFFF)))
    bad("update_map_wrong_length", "message",
        "n_entries 2 but 2.5 entries of data (6 bytes too many).",
        experimenter_msg(UPDATE_MAP, map_msg(7, 0, 0, 4, 8, [(KEY_A, VAL_1), (KEY_B, VAL_2)]) + b"\0" * 6))
    bad("update_map_no_entries", "message", "UPDATE_MAP with n_entries 0.",
        experimenter_msg(UPDATE_MAP, map_msg(7, 0, 0, 4, 8, [])))
    bad("update_map_bad_index", "message", "map_index 64 (maps are 0..63).",
        experimenter_msg(UPDATE_MAP, map_msg(7, 64, 0, 4, 8, [(KEY_A, VAL_1)])))
    bad("update_map_zero_key_size", "message", "key_size 0.",
        experimenter_msg(UPDATE_MAP, map_msg(7, 0, 0, 0, 8, [(b"", VAL_1)])))
    bad("update_map_flags", "message", "UPDATE_MAP defines no flags; flags 0x01 given.",
        experimenter_msg(UPDATE_MAP, map_msg(7, 0, 0x01, 4, 8, [(KEY_A, VAL_1)])))
    ok("delete_map_entries", "message", "DELETE_MAP_ENTRIES prog 7 map 0, key 4, one key 10.0.0.1.",
       experimenter_msg(DELETE_MAP_ENTRIES, map_msg(7, 0, 0, 4, 0, [(KEY_A, b"")])))
    ok("delete_map_entries_all", "message", "DELETE_MAP_ENTRIES prog 7 map 1 with OKO_DELETE_ALL.",
       experimenter_msg(DELETE_MAP_ENTRIES, map_msg(7, 1, OKO_DELETE_ALL, 0, 0, [])))
    bad("delete_map_entries_all_with_keys", "message", "OKO_DELETE_ALL with n_entries 1.",
        experimenter_msg(DELETE_MAP_ENTRIES, map_msg(7, 0, OKO_DELETE_ALL, 4, 0, [(KEY_A, b"")])))
    bad("delete_map_entries_value_size", "message", "DELETE_MAP_ENTRIES with value_size 8 (must be 0).",
        experimenter_msg(DELETE_MAP_ENTRIES, map_msg(7, 0, 0, 4, 8, [(KEY_A, VAL_1)])))

    # ---- SEND_MAPS message
    s_hash = section(0, 0, MAP_HASH, 4, 8, [(KEY_A, VAL_1), (KEY_B, VAL_2)])
    s_array = section(1, 0, MAP_ARRAY, 4, 4, [(le32(0), le32(5)), (le32(1), le32(9))])
    s_empty = section(2, 0, MAP_LRU_HASH, 16, 8, [])
    ok("send_maps", "message",
       "SEND_MAPS prog 7 event 0 cookie 0xC0FFEE table 0, one fragment (LAST), three sections: "
       "hash map 0 (2 entries), array map 1 (2 entries, 4+4 bytes, padded), empty LRU map 2.",
       experimenter_msg(SEND_MAPS, send_maps(7, 0, 0xC0FFEE, 0, OKO_SEND_MAPS_LAST, 0,
                                            [s_hash, s_array, s_empty]), xid=0))
    ok("send_maps_fragment_first", "message",
       "SEND_MAPS event 41, fragment 0 (not last), 3 suppressed events; map 0 continues.",
       experimenter_msg(SEND_MAPS, send_maps(7, 41, 0x1122334455667788, 3, 0, 0,
                                            [section(0, OKO_SECTION_CONTINUES, MAP_HASH, 4, 8,
                                                     [(KEY_A, VAL_1)])], suppressed=3), xid=0))
    ok("send_maps_fragment_last", "message",
       "SEND_MAPS event 41, fragment 1 (LAST): the rest of map 0.",
       experimenter_msg(SEND_MAPS, send_maps(7, 41, 0x1122334455667788, 3, OKO_SEND_MAPS_LAST, 1,
                                            [section(0, 0, MAP_HASH, 4, 8, [(KEY_B, VAL_2)])]), xid=0))
    bad("send_maps_section_overflow", "message",
        "A section whose n_entries (1000) runs past the end of the message.",
        experimenter_msg(SEND_MAPS, send_maps(7, 0, 0, 0, OKO_SEND_MAPS_LAST, 0,
                                             [s_hash[:8] + u32(1000) + s_hash[12:]]), xid=0))
    bad("send_maps_n_sections_mismatch", "message", "n_sections 2 but one section present.",
        experimenter_msg(SEND_MAPS, send_maps(7, 0, 0, 0, OKO_SEND_MAPS_LAST, 0, [s_hash], n_sections=2), xid=0))
    bad("send_maps_section_bad_padding", "message",
        "Array section without its 4 bytes of padding (section length must be a multiple of 8).",
        experimenter_msg(SEND_MAPS, send_maps(7, 0, 0, 0, OKO_SEND_MAPS_LAST, 0, [s_array[:-4]]), xid=0))

    # ---- DUMP_MAPS multipart
    ok("dump_maps_request", "multipart-request", "DUMP_MAPS request for prog 7, every map (mask 0).",
       mp_request(dump_request(7, 0)))
    ok("dump_maps_request_mask", "multipart-request", "DUMP_MAPS request for prog 7, maps 0 and 2.",
       mp_request(dump_request(7, 0b101), xid=9))
    ok("dump_maps_reply_more", "multipart-reply",
       "First DUMP_MAPS reply (REPLY_MORE): map 0, continues.",
       mp_reply(dump_reply(7, [section(0, OKO_SECTION_CONTINUES, MAP_HASH, 4, 8, [(KEY_A, VAL_1)])]),
                mp_flags=OFPMPF_REPLY_MORE, xid=9))
    ok("dump_maps_reply_last", "multipart-reply",
       "Last DUMP_MAPS reply: rest of map 0, then empty LRU map 2.",
       mp_reply(dump_reply(7, [section(0, 0, MAP_HASH, 4, 8, [(KEY_B, VAL_2)]), s_empty]), xid=9))
    ok("dump_maps_reply_lpm", "multipart-reply",
       "DUMP_MAPS reply with an LPM map 4: key = u32 prefix length (LE) + IPv4 address, value u32.",
       mp_reply(dump_reply(7, [section(4, 0, MAP_LPM, 8, 4, [(le32(24) + bytes([10, 0, 0, 0]), le32(1))])])))
    bad("dump_maps_request_truncated", "multipart-request", "DUMP_MAPS request without map_mask (length 32).",
        mp_request(dump_request(7, 0)[:8]))

    # ---- PROG_STATS multipart (version 1.1)
    ok("prog_stats_request_all", "multipart-request", "PROG_STATS request for every program (prog_id 0).",
       mp_request(stats_request(0), xid=3, exp_type=PROG_STATS))
    ok("prog_stats_request", "multipart-request", "PROG_STATS request for program 7.",
       mp_request(stats_request(7), xid=4, exp_type=PROG_STATS))
    bad("prog_stats_request_reserved", "multipart-request", "PROG_STATS request whose reserved field is not 0.",
        mp_request(stats_request(7, reserved=1), exp_type=PROG_STATS))
    bad("prog_stats_request_truncated", "multipart-request", "PROG_STATS request without its reserved field.",
        mp_request(stats_request(7)[:4], exp_type=PROG_STATS))
    ok("prog_stats_reply_empty", "multipart-reply", "PROG_STATS reply of a bridge without programs.",
       mp_reply(stats_reply([]), xid=3, exp_type=PROG_STATS))
    p7 = prog_stats(7, OKO_PROG_STATS_JIT, runs=1000, matches=250, errors=1, timed_runs=2, timed_ns=91,
                    rules=2, datapath_flows=3, instructions=22, memory=16,
                    maps=[map_stats(0, MAP_ARRAY, 1, 1, 0, 0), map_stats(1, MAP_LRU_HASH, 4, 4, 2, 0)],
                    elf_sha256=hashlib.sha256(b"program 7").digest())
    p9 = prog_stats(9, 0, runs=0x1_0000_0001, matches=0, errors=0, timed_runs=0, timed_ns=0,
                    rules=0, datapath_flows=0, instructions=5, memory=27296,
                    maps=[map_stats(0, MAP_HASH, 256, 256, 0, 7)],
                    elf_sha256=hashlib.sha256(b"program 9").digest())
    p11 = prog_stats(11, OKO_PROG_STATS_JIT, runs=0, matches=0, errors=0, timed_runs=0, timed_ns=0,
                     rules=0, datapath_flows=0, instructions=3, memory=0, maps=[])
    ok("prog_stats_reply", "multipart-reply",
       "PROG_STATS reply: program 7 (jit, 1000 runs, 250 matches, 1 error, 2 timed runs of 91 ns in all, "
       "2 rules, 3 datapath flows, 22 instructions, 16 bytes; an array map 1 of 1 used and an LRU map 4 of 4 "
       "with 2 evictions; its ELF's SHA-256 is that of the bytes 'program 7'), program 9 (interpreted, 2^32+1 "
       "runs; a full hash map with 7 refused inserts; SHA-256 of 'program 9') and program 11 without maps, in a "
       "version 1.1 record (no SHA-256).",
       mp_reply(stats_reply([p7, p9, p11]), xid=3, exp_type=PROG_STATS))
    ok("prog_stats_reply_more", "multipart-reply", "A PROG_STATS reply with REPLY_MORE: more records follow.",
       mp_reply(stats_reply([p11]), mp_flags=OFPMPF_REPLY_MORE, xid=3, exp_type=PROG_STATS))
    bad("prog_stats_reply_bad_record_length", "multipart-reply",
        "Program record whose length (104) does not agree with its 2 maps (72 + 2 x 32 = 136).",
        mp_reply(stats_reply([prog_stats(7, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0,
                                         [map_stats(0, MAP_ARRAY, 1, 1, 0, 0),
                                          map_stats(1, MAP_ARRAY, 1, 1, 0, 0)], length=104)]),
                 exp_type=PROG_STATS))
    bad("prog_stats_reply_sha256_cut", "multipart-reply",
        "Program record whose length (72 + 16) is neither 72 (1.1) nor 72 + 32 (1.2, with the SHA-256).",
        mp_reply(stats_reply([prog_stats(11, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, [], elf_sha256=b"\x11" * 16)]),
                 exp_type=PROG_STATS))
    ok("prog_stats_reply_install_mark", "multipart-reply",
       "PROG_STATS reply in version 1.4 records: program 7 (as in prog_stats_reply) whose install completed with "
       "the mark of MARK_INSTALLED's vector, and program 9 loaded again since its last mark (install_mark all "
       "zero), then program 11 in a version 1.1 record: a receiver takes every version, in any mix.",
       mp_reply(stats_reply([
           prog_stats(7, OKO_PROG_STATS_JIT, runs=1000, matches=250, errors=1, timed_runs=2, timed_ns=91,
                      rules=2, datapath_flows=3, instructions=22, memory=16,
                      maps=[map_stats(0, MAP_ARRAY, 1, 1, 0, 0), map_stats(1, MAP_LRU_HASH, 4, 4, 2, 0)],
                      elf_sha256=hashlib.sha256(b"program 7").digest(), install_mark=mark7),
           prog_stats(9, 0, runs=0x1_0000_0001, matches=0, errors=0, timed_runs=0, timed_ns=0,
                      rules=0, datapath_flows=0, instructions=5, memory=27296,
                      maps=[map_stats(0, MAP_HASH, 256, 256, 0, 7)],
                      elf_sha256=hashlib.sha256(b"program 9").digest(), install_mark=b"\0" * 32),
           p11]), xid=3, exp_type=PROG_STATS))
    bad("prog_stats_reply_install_mark_cut", "multipart-reply",
        "Program record whose length (72 + 32 + 16) is none of 72, 104 and 136: the install mark is cut.",
        mp_reply(stats_reply([prog_stats(11, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, [],
                                         elf_sha256=b"\x11" * 32, install_mark=b"\x22" * 16)]),
                 exp_type=PROG_STATS))
    bad("prog_stats_reply_count_overflow", "multipart-reply",
        "n_programs 0xFFFF with one record: the count does not fit the message.",
        mp_reply(stats_reply([p11], n_programs=0xFFFF), exp_type=PROG_STATS))
    bad("prog_stats_reply_truncated_record", "multipart-reply",
        "Program record cut after 40 of its 72 bytes.",
        mp_reply(stats_reply([p11[:40]], n_programs=1), exp_type=PROG_STATS))
    bad("prog_stats_reply_map_index", "multipart-reply",
        "Second map record says map_index 5; map records are in index order, each at its own index.",
        mp_reply(stats_reply([prog_stats(7, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0,
                                         [map_stats(0, MAP_ARRAY, 1, 1, 0, 0),
                                          map_stats(5, MAP_ARRAY, 1, 1, 0, 0)])]), exp_type=PROG_STATS))
    bad("prog_stats_reply_unknown_flags", "multipart-reply", "Program record flags 0x02: undefined bit.",
        mp_reply(stats_reply([prog_stats(11, 0x02, 0, 0, 0, 0, 0, 0, 0, 3, 0, [])]), exp_type=PROG_STATS))

    # ---- REPLAY_MAPS (version 1.3)
    ok("replay_maps_request", "multipart-request", "REPLAY_MAPS of program 7: the events after event 41.",
       mp_request(replay_request(7, 41, 0), xid=5, exp_type=REPLAY_MAPS))
    ok("replay_maps_request_all", "multipart-request", "REPLAY_MAPS of program 7: every retained event.",
       mp_request(replay_request(7, 0, OKO_REPLAY_ALL), xid=5, exp_type=REPLAY_MAPS))
    bad("replay_maps_request_all_after", "multipart-request",
        "REPLAY_MAPS with OKO_REPLAY_ALL and after_event_id 41 (must be 0 with ALL).",
        mp_request(replay_request(7, 41, OKO_REPLAY_ALL), exp_type=REPLAY_MAPS))
    bad("replay_maps_request_unknown_flags", "multipart-request", "REPLAY_MAPS flags 0x0002: undefined bit.",
        mp_request(replay_request(7, 41, 0x0002), exp_type=REPLAY_MAPS))
    bad("replay_maps_request_reserved", "multipart-request", "REPLAY_MAPS whose reserved bytes are not 0.",
        mp_request(replay_request(7, 41, 0, reserved=b"\0\0\0\0\0\1"), exp_type=REPLAY_MAPS))
    bad("replay_maps_request_prog_zero", "multipart-request", "REPLAY_MAPS of program 0 (reserved).",
        mp_request(replay_request(0, 41, 0), exp_type=REPLAY_MAPS))
    bad("replay_maps_request_truncated", "multipart-request", "REPLAY_MAPS request cut after 8 of 16 bytes.",
        mp_request(replay_request(7, 41, 0)[:8], exp_type=REPLAY_MAPS))
    ok("replay_maps_reply_none", "multipart-reply",
       "REPLAY_MAPS reply without an event: program 7 retains nothing after the event asked for; its next "
       "event will be 42.",
       mp_reply(replay_reply(7, 42), xid=5, exp_type=REPLAY_MAPS))
    ok("replay_maps_reply", "multipart-reply",
       "REPLAY_MAPS reply with event 41 of program 7 (cookie 0x1122334455667788, table 3, 2 suppressed "
       "before it), whole in one fragment: map 0 with two entries, empty LRU map 2; next event 42.",
       mp_reply(replay_reply(7, 42, send_maps(7, 41, 0x1122334455667788, 3, OKO_SEND_MAPS_LAST, 0,
                                              [s_hash, s_empty], suppressed=2)), xid=5, exp_type=REPLAY_MAPS))
    ok("replay_maps_reply_more", "multipart-reply",
       "A REPLAY_MAPS reply with REPLY_MORE: fragment 0 of event 40 (not its last); more replies follow.",
       mp_reply(replay_reply(7, 42, send_maps(7, 40, 0x1122334455667788, 3, 0, 0,
                                              [section(0, OKO_SECTION_CONTINUES, MAP_HASH, 4, 8,
                                                       [(KEY_A, VAL_1)])])),
                mp_flags=OFPMPF_REPLY_MORE, xid=5, exp_type=REPLAY_MAPS))
    bad("replay_maps_reply_fragment_cut", "multipart-reply",
        "REPLAY_MAPS reply with 8 bytes after its header: a fragment's fixed part is 32 bytes.",
        mp_reply(replay_reply(7, 42, send_maps(7, 41, 0, 0, OKO_SEND_MAPS_LAST, 0, [])[:8]),
                 exp_type=REPLAY_MAPS))
    bad("replay_maps_reply_section_overflow", "multipart-reply",
        "REPLAY_MAPS reply whose fragment's section says 1000 entries: past the end of the message.",
        mp_reply(replay_reply(7, 42, send_maps(7, 41, 0, 0, OKO_SEND_MAPS_LAST, 0,
                                               [s_hash[:8] + u32(1000) + s_hash[12:]])), exp_type=REPLAY_MAPS))

    # ---- filter_prog OXM
    ok("oxm_filter_prog", "oxm", "filter_prog=42.", oxm_filter_prog(42))
    ok("oxm_filter_prog_max", "oxm", "filter_prog=0xFFFFFFFF.", oxm_filter_prog(0xFFFFFFFF))
    bad("oxm_filter_prog_masked", "oxm", "hasmask set (field byte 0x03): filter_prog has no mask.",
        oxm_filter_prog(42, field_byte=0x03, length=12) + u32(0xFFFFFFFF))
    bad("oxm_filter_prog_bad_length", "oxm", "oxm_length 6 (must be 8).",
        oxm_filter_prog(42, length=6)[:10])
    bad("oxm_filter_prog_zero", "oxm", "prog_id 0.", oxm_filter_prog(0))
    bad("oxm_filter_prog_truncated", "oxm", "Header says 8 bytes of payload; 6 present.",
        oxm_filter_prog(42)[:10])

    # ---- SEND_MAPS action
    ok("action_send_maps", "action", "SEND_MAPS maps 0 and 1 (mask 0x3).", action_send_maps(0x3))
    ok("action_send_maps_all64", "action", "SEND_MAPS every possible map (mask all ones).",
       action_send_maps(0xFFFFFFFFFFFFFFFF))
    bad("action_send_maps_zero_mask", "action", "map_mask 0.", action_send_maps(0))
    bad("action_send_maps_bad_len", "action", "len 16 (must be 24).", action_send_maps(0x3, length=16)[:16])
    bad("action_send_maps_bad_subtype", "action", "subtype 2 is not defined.", action_send_maps(0x3, subtype=2))

    # ---- a whole FLOW_MOD as the controller sends it
    ok("flow_mod_filter_prog_send_maps", "message",
       "OF1.3 FLOW_MOD add, cookie 0xC0FFEE, table 0, priority 100, match eth_type=0x0800, "
       "ipv4_dst=10.0.0.1, filter_prog=42; apply-actions: SEND_MAPS mask 0x1, output:1.",
       flow_mod_with_filter(42, 0x1))

    # ---- errors
    ok("error_verifier_rejected", "error", "OKO_EC_VERIFIER_REJECTED (8) with the verifier's text.",
       error(8, "insn 12: back-edge to insn 4 (loops are not allowed)", xid=0x01020304))
    ok("error_prog_in_use", "error", "OKO_EC_PROG_IN_USE (6).",
       error(6, "program 7 is used by 3 rules (tables 0, 2)"))
    ok("error_map_full", "error", "OKO_EC_MAP_FULL (12).", error(12, "applied 3 of 5 entries"))
    bad("error_truncated", "error", "Experimenter error cut inside the experimenter field (length 14).",
        ofp_header(OFPT_ERROR, 14, 1) + u16(0xFFFF) + u16(5) + u32(OKO)[:2])
    return v


def to_hex(data):
    lines = []
    for i in range(0, len(data), 16):
        lines.append(" ".join("%02x" % b for b in data[i:i + 16]))
    return "\n".join(lines) + "\n"


def render(kind, expect, comment, data):
    return "# kind: %s\n# expect: %s\n# %s\n%s" % (kind, expect, comment, to_hex(data))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    check = "--check" in sys.argv[1:]
    names, bad = set(), 0
    for name, kind, expect, comment, data in vectors():
        assert name not in names, name
        names.add(name)
        path = os.path.join(here, name + ".hex")
        text = render(kind, expect, comment, data)
        if check:
            try:
                with open(path) as f:
                    if f.read() != text:
                        print("vector differs from gen_vectors.py: %s" % path)
                        bad += 1
            except FileNotFoundError:
                print("vector missing: %s" % path)
                bad += 1
        else:
            with open(path, "w") as f:
                f.write(text)
    stray = {f[:-4] for f in os.listdir(here) if f.endswith(".hex")} - names
    for s in sorted(stray):
        print("vector not written by gen_vectors.py: %s.hex" % s)
        bad += 1
    print("protocol vectors: %d %s, %d problems" % (len(names), "checked" if check else "written", bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
