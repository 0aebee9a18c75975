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

/* Decoders.  Each returns 0 or an error, with a one-line reason appended
 * to 'why' (if nonnull) for OFPERR_OKO_* errors. */
enum ofperr oko_decode_load_prog(const struct ofp_header *, struct oko_load_prog_msg *,
                                 struct ds *why);
enum ofperr oko_decode_unload_prog(const struct ofp_header *, struct oko_unload_prog_msg *,
                                   struct ds *why);
enum ofperr oko_decode_map_msg(const struct ofp_header *, struct oko_map_msg_decoded *,
                               struct ds *why);
enum ofperr oko_decode_dump_maps_request(const struct ofp_header *,
                                         struct oko_dump_maps_request_msg *, struct ds *why);

/* Encoders (ovs-ofctl, tests). */
struct ofpbuf *oko_encode_load_prog(enum ofp_version, uint32_t prog_id, uint16_t flags,
                                    const void *elf, size_t elf_len);
struct ofpbuf *oko_encode_unload_prog(enum ofp_version, uint32_t prog_id, uint16_t flags);
struct ofpbuf *oko_encode_map_msg(enum ofp_version, bool is_delete, uint32_t prog_id,
                                  uint8_t map_index, uint8_t flags, uint16_t key_size,
                                  uint16_t value_size, uint32_t n_entries,
                                  const void *entries);
struct ofpbuf *oko_encode_dump_maps_request(enum ofp_version, uint32_t prog_id,
                                            uint64_t map_mask);

/* The filter_prog OXM ('size' bytes at 'oxm', one OXM TLV) and the
 * SEND_MAPS action: decoders with the errors of docs/protocol.md 6.1 and
 * 6.2, and encoders appending to 'b'. */
enum ofperr oko_decode_filter_prog_oxm(const void *oxm, size_t size, uint32_t *prog_id);
void oko_put_filter_prog_oxm(struct ofpbuf *b, uint32_t prog_id);
enum ofperr oko_decode_send_maps_action(const void *action, size_t size, uint64_t *map_mask);
void oko_put_send_maps_action(struct ofpbuf *b, uint64_t map_mask);

/* An OFPT_ERROR for 'request' with 'error' (an OFPERR_OKO_* code) and
 * 'text' as its data, as docs/protocol.md section 7 specifies. */
struct ofpbuf *oko_encode_error(enum ofperr error, const struct ofp_header *request,
                                const char *text);

/* True for the OFPERR_OKO_* errors (whose data is a text). */
bool oko_is_oko_error(enum ofperr);

/* ofp-print's hook for the OFPTYPE_OKO_* messages. */
enum ofperr oko_ofp_print(struct ds *, const struct ofp_header *, enum ofptype, int verbosity);

/* ovs-ofctl's hook: builds the request of Oko command argv[0] ("load-filter-prog",
 * "unload-filter-prog", "update-map", "delete-map-entries", "dump-maps"), whose
 * argv[1] is the switch, for an OpenFlow 'version' connection.  Returns NULL
 * and sets '*request', or returns a malloc'd error text. */
char *oko_ofctl_build_request(int argc, char *argv[], enum ofp_version version,
                              struct ofpbuf **request);

#endif /* oko-ofp.h */
