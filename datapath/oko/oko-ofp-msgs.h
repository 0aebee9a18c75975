/*
 * Copyright (c) 2026 Oko contributors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at:
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

#ifndef OKO_OFP_MSGS_H
#define OKO_OFP_MSGS_H 1

/* Wire layouts of Oko's OpenFlow messages (docs/protocol.md in the Oko
 * tree: the contract).  Each structure is the body that follows the
 * message's experimenter header: 16 bytes (ofp_header, experimenter,
 * exp_type) for messages, 24 (ofp11_stats_msg, experimenter, exp_type) for
 * the DUMP_MAPS, PROG_STATS and REPLAY_MAPS multiparts.  lib/ofp-msgs.c
 * includes this file for the sizes of the OFPRAW_OKO* messages. */

#include "openflow/openflow.h"

/* LOAD_PROG (exp_type 1), followed by 'elf_len' bytes of ELF object. */
struct oko_load_prog {
    ovs_be32 prog_id;
    ovs_be16 flags;                 /* OKO_LOAD_* */
    ovs_be16 reserved0;
    ovs_be32 elf_len;
    ovs_be32 reserved1;
};
OFP_ASSERT(sizeof(struct oko_load_prog) == 16);

#define OKO_LOAD_REPLACE   0x0001
#define OKO_LOAD_KEEP_MAPS 0x0002

/* UNLOAD_PROG (exp_type 2). */
struct oko_unload_prog {
    ovs_be32 prog_id;
    ovs_be16 flags;                 /* OKO_UNLOAD_* */
    ovs_be16 reserved;
};
OFP_ASSERT(sizeof(struct oko_unload_prog) == 8);

#define OKO_UNLOAD_FORCE 0x0001

/* UPDATE_MAP (exp_type 3) and DELETE_MAP_ENTRIES (exp_type 4), followed by
 * 'n_entries' x (key, value) packed. */
struct oko_map_msg {
    ovs_be32 prog_id;
    uint8_t map_index;
    uint8_t flags;                  /* DELETE_MAP_ENTRIES: OKO_DELETE_ALL */
    ovs_be16 key_size;
    ovs_be16 value_size;
    ovs_be16 reserved;
    ovs_be32 n_entries;
};
OFP_ASSERT(sizeof(struct oko_map_msg) == 16);

#define OKO_DELETE_ALL 0x01

/* SEND_MAPS (exp_type 5), followed by map sections. */
struct oko_send_maps {
    ovs_be32 prog_id;
    ovs_be32 event_id;
    ovs_be64 cookie;
    uint8_t table_id;
    uint8_t flags;                  /* OKO_SEND_MAPS_LAST */
    ovs_be16 fragment;
    ovs_be16 n_sections;
    ovs_be16 reserved0;
    ovs_be32 suppressed;
    ovs_be32 reserved1;
};
OFP_ASSERT(sizeof(struct oko_send_maps) == 32);

#define OKO_SEND_MAPS_LAST 0x01

/* DUMP_MAPS (exp_type 6) multipart request. */
struct oko_dump_maps_request {
    ovs_be32 prog_id;
    ovs_be32 reserved;
    ovs_be64 map_mask;              /* 0: every map */
};
OFP_ASSERT(sizeof(struct oko_dump_maps_request) == 16);

/* DUMP_MAPS multipart reply, followed by map sections. */
struct oko_dump_maps_reply {
    ovs_be32 prog_id;
    ovs_be16 n_sections;
    ovs_be16 reserved;
};
OFP_ASSERT(sizeof(struct oko_dump_maps_reply) == 8);

/* PROG_STATS (exp_type 7) multipart request. */
struct oko_prog_stats_request {
    ovs_be32 prog_id;               /* 0: every program */
    ovs_be32 reserved;
};
OFP_ASSERT(sizeof(struct oko_prog_stats_request) == 8);

/* PROG_STATS multipart reply, followed by 'n_programs' program records. */
struct oko_prog_stats_reply {
    ovs_be16 n_programs;
    uint8_t reserved[6];
};
OFP_ASSERT(sizeof(struct oko_prog_stats_reply) == 8);

/* A program record, followed by 'n_maps' map records. */
struct oko_prog_stats_record {
    ovs_be32 prog_id;
    /* 72 + 32 * n_maps, + 32 with elf_sha256, + 32 with install_mark */
    ovs_be16 length;
    uint8_t n_maps;
    uint8_t flags;                  /* OKO_PROG_STATS_JIT */
    ovs_32aligned_be64 runs;
    ovs_32aligned_be64 matches;
    ovs_32aligned_be64 errors;
    ovs_32aligned_be64 timed_runs;
    ovs_32aligned_be64 timed_ns;
    ovs_be32 rules;
    ovs_be32 datapath_flows;
    ovs_be32 instructions;
    ovs_be32 reserved;
    ovs_32aligned_be64 memory;
};
OFP_ASSERT(sizeof(struct oko_prog_stats_record) == 72);

#define OKO_PROG_STATS_JIT 0x01

/* Version 1.2: a program record ends with the SHA-256 of the ELF object the
 * program was loaded from, after its map records; version 1.4 adds the
 * program's install mark (OKO_INSTALL_MARK_LEN bytes) after it. */
#define OKO_PROG_STATS_SHA256_LEN 32

/* REPLAY_MAPS (exp_type 8, version 1.3) multipart request. */
struct oko_replay_maps_request {
    ovs_be32 prog_id;
    ovs_be32 after_event_id;
    ovs_be16 flags;                 /* OKO_REPLAY_ALL */
    uint8_t reserved[6];
};
OFP_ASSERT(sizeof(struct oko_replay_maps_request) == 16);

#define OKO_REPLAY_ALL 0x0001

/* REPLAY_MAPS multipart reply, followed by nothing or by one SEND_MAPS
 * fragment ("struct oko_send_maps" and its map sections). */
struct oko_replay_maps_reply {
    ovs_be32 prog_id;
    ovs_be32 next_event_id;
};
OFP_ASSERT(sizeof(struct oko_replay_maps_reply) == 8);

/* MARK_INSTALLED (exp_type 9, version 1.4): the controller finished
 * installing the program (its LOAD_PROG and every UPDATE_MAP of its settings
 * went through); the switch keeps 'install_mark' until the program is loaded
 * again. */
#define OKO_INSTALL_MARK_LEN 32
struct oko_mark_installed {
    ovs_be32 prog_id;
    ovs_be32 reserved;
    uint8_t install_mark[OKO_INSTALL_MARK_LEN];     /* Not all zero. */
};
OFP_ASSERT(sizeof(struct oko_mark_installed) == 40);

/* A map record of a program record. */
struct oko_map_stats_record {
    uint8_t map_index;
    uint8_t map_type;
    ovs_be16 reserved0;
    ovs_be32 used;
    ovs_be32 max_entries;
    ovs_be32 reserved1;
    ovs_32aligned_be64 evictions;
    ovs_32aligned_be64 refused_full;
};
OFP_ASSERT(sizeof(struct oko_map_stats_record) == 32);

/* A map section: entries of one map, padded to 8 bytes. */
struct oko_map_section {
    uint8_t map_index;
    uint8_t flags;                  /* OKO_SECTION_CONTINUES */
    uint8_t map_type;
    uint8_t reserved0;
    ovs_be16 key_size;
    ovs_be16 value_size;
    ovs_be32 n_entries;
    ovs_be32 reserved1;
};
OFP_ASSERT(sizeof(struct oko_map_section) == 16);

#define OKO_SECTION_CONTINUES 0x01

/* The filter_prog match field: an experimenter OXM (docs/protocol.md 6.1). */
/* class 0xffff, field 1, no mask, len 8 */
#define OKO_OXM_FILTER_PROG 0xffff0208
struct oko_oxm_filter_prog {
    ovs_be32 header;                /* OKO_OXM_FILTER_PROG */
    ovs_be32 experimenter;          /* OKO_VENDOR_ID */
    ovs_be32 prog_id;
};
OFP_ASSERT(sizeof(struct oko_oxm_filter_prog) == 12);

/* The SEND_MAPS action (docs/protocol.md 6.2). */
#define OKO_ACTION_SEND_MAPS 1
struct oko_action_send_maps {
    ovs_be16 type;                  /* OFPAT_EXPERIMENTER (0xffff) */
    ovs_be16 len;                   /* 24 */
    ovs_be32 experimenter;          /* OKO_VENDOR_ID */
    ovs_be16 subtype;               /* OKO_ACTION_SEND_MAPS */
    uint8_t pad[6];
    ovs_be64 map_mask;
};
OFP_ASSERT(sizeof(struct oko_action_send_maps) == 24);

#endif /* oko-ofp-msgs.h */
