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

#ifndef OKO_OFP_H
#define OKO_OFP_H 1

/* Oko's OpenFlow messages: decoding (with every check of docs/protocol.md
 * that needs no switch state), encoding, printing, and error replies that
 * carry a text. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "openvswitch/ofp-errors.h"
#include "openvswitch/ofp-msgs.h"
#include "openvswitch/list.h"

struct ds;
struct ofpbuf;
struct ofp_header;

#define OKO_MAX_ELF_LEN 65503
#define OKO_MAX_ERROR_TEXT 1024

struct oko_load_prog_msg {
    uint32_t prog_id;
    uint16_t flags;                 /* OKO_LOAD_* */
    const uint8_t *elf;
    size_t elf_len;
};

struct oko_unload_prog_msg {
    uint32_t prog_id;
    uint16_t flags;                 /* OKO_UNLOAD_* */
};

/* UPDATE_MAP or DELETE_MAP_ENTRIES. */
struct oko_map_msg_decoded {
    bool is_delete;
    uint32_t prog_id;
    uint8_t map_index;
    uint8_t flags;
    uint16_t key_size, value_size;
    uint32_t n_entries;
    const uint8_t *entries;         /* n_entries x (key, value) */
};

struct oko_dump_maps_request_msg {
    uint32_t prog_id;
    uint64_t map_mask;
};

/* PROG_STATS (docs/protocol.md 4.3): one program's statistics. */
struct oko_map_stats {
    uint8_t map_type;
    uint32_t used, max_entries;
    uint64_t evictions, refused_full;
};

struct oko_prog_stats {
    uint32_t prog_id;
    bool jit;
    uint64_t runs, matches, errors;
    uint64_t timed_runs, timed_ns;
    uint32_t rules, datapath_flows, instructions;
    uint64_t memory;
    size_t n_maps;                  /* At most 64. */
    struct oko_map_stats maps[64];  /* By map index. */
    bool has_elf_sha256;            /* Version 1.2 records carry it. */
    uint8_t elf_sha256[32];         /* SHA-256 of the ELF object loaded. */
    bool has_install_mark;          /* Version 1.4 records carry it (and
                                     * always the SHA-256 too). */
    uint8_t install_mark[32];       /* All zero: none since the last load. */
};

/* MARK_INSTALLED (docs/protocol.md 4.4). */
struct oko_mark_installed_msg {
    uint32_t prog_id;
    uint8_t install_mark[32];       /* Never all zero. */
};

/* Decoders.  Each returns 0 or an error, with a one-line reason appended
 * to 'why' (if nonnull) for OFPERR_OKO_* errors. */
enum ofperr oko_decode_load_prog(const struct ofp_header *,
                                 struct oko_load_prog_msg *, struct ds *why);
enum ofperr oko_decode_unload_prog(const struct ofp_header *,
                                   struct oko_unload_prog_msg *,
                                   struct ds *why);
enum ofperr oko_decode_map_msg(const struct ofp_header *,
                               struct oko_map_msg_decoded *, struct ds *why);
enum ofperr oko_decode_dump_maps_request(const struct ofp_header *,
                                         struct oko_dump_maps_request_msg *,
                                         struct ds *why);
enum ofperr oko_decode_prog_stats_request(const struct ofp_header *,
                                          uint32_t *prog_id, struct ds *why);
enum ofperr oko_decode_mark_installed(const struct ofp_header *,
                                      struct oko_mark_installed_msg *,
                                      struct ds *why);

/* REPLAY_MAPS request (docs/protocol.md 5.7). */
struct oko_replay_maps_request_msg {
    uint32_t prog_id;
    uint32_t after_event_id;        /* 0 when 'all'. */
    bool all;                       /* OKO_REPLAY_ALL: every retained event. */
};
enum ofperr oko_decode_replay_maps_request(
    const struct ofp_header *, struct oko_replay_maps_request_msg *,
    struct ds *why);

/* True if event 'event_id' comes after event 'after' (serial number
 * arithmetic: between 1 and 2**31 - 1 later, so it survives the wrap). */
bool oko_event_after(uint32_t event_id, uint32_t after);

/* Decodes one PROG_STATS reply into '*progs' (malloc'd, '*n' records;
 * NULL if none).  The caller frees '*progs'. */
enum ofperr oko_decode_prog_stats_reply(const struct ofp_header *,
                                        struct oko_prog_stats **progs,
                                        size_t *n, struct ds *why);

/* Encoders (ovs-ofctl, tests). */
struct ofpbuf *oko_encode_load_prog(enum ofp_version, uint32_t prog_id,
                                    uint16_t flags, const void *elf,
                                    size_t elf_len);
struct ofpbuf *oko_encode_unload_prog(enum ofp_version, uint32_t prog_id,
                                      uint16_t flags);
struct ofpbuf *oko_encode_map_msg(enum ofp_version, bool is_delete,
                                  uint32_t prog_id, uint8_t map_index,
                                  uint8_t flags, uint16_t key_size,
                                  uint16_t value_size, uint32_t n_entries,
                                  const void *entries);
struct ofpbuf *oko_encode_dump_maps_request(enum ofp_version, uint32_t prog_id,
                                            uint64_t map_mask);
struct ofpbuf *oko_encode_prog_stats_request(enum ofp_version,
                                             uint32_t prog_id);
struct ofpbuf *oko_encode_mark_installed(
    enum ofp_version, const struct oko_mark_installed_msg *);
struct ofpbuf *oko_encode_replay_maps_request(
    enum ofp_version, const struct oko_replay_maps_request_msg *);

/* Encodes the PROG_STATS replies to 'request' with the 'n' records of
 * 'progs' (in increasing prog_id), appended to 'replies': each reply at
 * most 65535 bytes, OFPSF_REPLY_MORE on all but the last, at least one. */
void oko_encode_prog_stats_replies(const struct ofp_header *request,
                                   const struct oko_prog_stats *progs,
                                   size_t n, struct ovs_list *replies);

/* The filter_prog OXM ('size' bytes at 'oxm', one OXM TLV) and the
 * SEND_MAPS action: decoders with the errors of docs/protocol.md 6.1 and
 * 6.2, and encoders appending to 'b'. */
enum ofperr oko_decode_filter_prog_oxm(const void *oxm, size_t size,
                                       uint32_t *prog_id);
void oko_put_filter_prog_oxm(struct ofpbuf *b, uint32_t prog_id);

/* Flow syntax: appends ",filter_prog=N" (no comma unless 'after_field')
 * if 'prog_id' is nonzero; parses the N of "filter_prog=N" (returns a
 * malloc'd error text, or NULL). */
struct ds;
void oko_format_filter_prog(struct ds *, uint32_t prog_id, bool after_field);
char *oko_parse_filter_prog(const char *value, uint32_t *prog_id);

/* If the OXM at the front of 'b' is filter_prog (whatever its mask bit and
 * length), pulls it and returns true, with 0 or the error of docs/protocol.md
 * 6.1 in '*error' (a second filter_prog, when '*prog_id' is already nonzero,
 * is OFPBMC_DUP_FIELD).  Otherwise returns false and leaves 'b' alone. */
bool oko_try_pull_filter_prog_oxm(struct ofpbuf *b, uint32_t *prog_id,
                                  enum ofperr *error);
enum ofperr oko_decode_send_maps_action(const void *action, size_t size,
                                        uint64_t *map_mask);
void oko_put_send_maps_action(struct ofpbuf *b, uint64_t map_mask);

/* The largest entry (key and value, as map sections carry them) that fits
 * every message carrying entries: a REPLAY_MAPS reply has 64 bytes of
 * headers before its first section, a section header is 16 bytes, and a
 * section is padded to 8 (docs/protocol.md 2). */
#define OKO_MAX_ENTRY_LEN (((UINT16_MAX - 64 - 16) / 8) * 8)

/* The contents of one map as they travel in map sections
 * (docs/protocol.md 5.4): 'n_entries' x (key, value), packed. */
struct oko_map_contents {
    uint8_t map_index;
    uint8_t map_type;
    uint16_t key_size, value_size;
    uint32_t n_entries;
    const uint8_t *entries;
};

/* One SEND_MAPS event (docs/protocol.md 5.6). */
struct oko_send_maps_event {
    uint32_t prog_id;
    uint32_t event_id;
    uint64_t cookie;
    uint8_t table_id;
    uint32_t suppressed;
};

/* Encodes 'event' with the 'n' maps of 'maps' (in increasing map index)
 * as SEND_MAPS fragments of at most 'max_len' bytes (65535 on a switch;
 * smaller in tests), appended to 'fragments'.  A map that does not fit a
 * fragment continues in the next one; an entry is never split.  'max_len'
 * must hold at least the fixed part, one section header and one entry. */
void oko_encode_send_maps(enum ofp_version,
                          const struct oko_send_maps_event *event,
                          const struct oko_map_contents *maps, size_t n,
                          size_t max_len, struct ovs_list *fragments);

/* A retained SEND_MAPS event, for REPLAY_MAPS replies. */
struct oko_replay_event {
    struct oko_send_maps_event event;
    const struct oko_map_contents *maps;
    size_t n_maps;
};

/* Encodes the REPLAY_MAPS replies to 'request' for program 'prog_id' with
 * the 'n' events of 'events' (in event order), appended to 'replies': one
 * fragment per reply, each reply at most 'max_len' bytes (65535 on a
 * switch), one reply without a fragment when 'n' is 0, OFPSF_REPLY_MORE on
 * all but the last (docs/protocol.md 5.7). */
void oko_encode_replay_maps_replies(const struct ofp_header *request,
                                    uint32_t prog_id, uint32_t next_event_id,
                                    const struct oko_replay_event *events,
                                    size_t n, size_t max_len,
                                    struct ovs_list *replies);

/* Encodes the DUMP_MAPS replies to 'request' for program 'prog_id' with
 * the 'n' maps of 'maps' (in increasing map index), appended to 'replies':
 * each reply at most 65535 bytes, OFPSF_REPLY_MORE on all but the last. */
void oko_encode_dump_maps_replies(const struct ofp_header *request,
                                  uint32_t prog_id,
                                  const struct oko_map_contents *maps,
                                  size_t n, struct ovs_list *replies);

/* Calls 'cb' for each section of the SEND_MAPS, DUMP_MAPS or REPLAY_MAPS reply
 * 'oh' (already checked by oko_ofp_print()'s decoder).  Returns 0 or an error.
 */
typedef void oko_section_cb(const struct oko_map_contents *, bool continues,
                            void *aux);
enum ofperr oko_for_each_section(const struct ofp_header *oh,
                                 oko_section_cb *cb, void *aux);

/* An OFPT_ERROR for 'request' with 'error' (an OFPERR_OKO_* code) and
 * 'text' as its data, as docs/protocol.md section 7 specifies. */
struct ofpbuf *oko_encode_error(enum ofperr error,
                                const struct ofp_header *request,
                                const char *text);

/* True for the OFPERR_OKO_* errors (whose data is a text). */
bool oko_is_oko_error(enum ofperr);

/* ofp-print's hook for the OFPTYPE_OKO_* messages. */
enum ofperr oko_ofp_print(struct ds *, const struct ofp_header *, enum ofptype,
                          int verbosity);

/* The OFPTYPE_OKO_* message types as case labels, for OVS's exhaustive
 * switches over enum ofptype (patch 0004): the requests a switch handles,
 * the messages a switch sends, and both.  Write "OKO_OFPTYPE_CASES:". */
#define OKO_OFPTYPE_REQUEST_CASES               \
    case OFPTYPE_OKO_LOAD_PROG:                 \
    case OFPTYPE_OKO_UNLOAD_PROG:               \
    case OFPTYPE_OKO_UPDATE_MAP:                \
    case OFPTYPE_OKO_DELETE_MAP_ENTRIES:        \
    case OFPTYPE_OKO_DUMP_MAPS_REQUEST:         \
    case OFPTYPE_OKO_PROG_STATS_REQUEST:        \
    case OFPTYPE_OKO_REPLAY_MAPS_REQUEST:       \
    case OFPTYPE_OKO_MARK_INSTALLED
#define OKO_OFPTYPE_SENT_CASES                  \
    case OFPTYPE_OKO_SEND_MAPS:                 \
    case OFPTYPE_OKO_DUMP_MAPS_REPLY:           \
    case OFPTYPE_OKO_PROG_STATS_REPLY:          \
    case OFPTYPE_OKO_REPLAY_MAPS_REPLY
#define OKO_OFPTYPE_CASES                       \
    OKO_OFPTYPE_REQUEST_CASES:                  \
    OKO_OFPTYPE_SENT_CASES

#endif /* oko-ofp.h */
