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

#include <config.h>
#include "oko/oko-ofp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "byte-order.h"
#include "oko/oko-ofp-msgs.h"
#include "oko-program.h"
#include "openflow/openflow.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofp-errors.h"
#include "openvswitch/ofp-msgs.h"
#include "openvswitch/ofpbuf.h"
#include "unaligned.h"
#include "util.h"

static enum ofperr
oko_error(struct ds *why, enum ofperr error, const char *format, ...)
    OVS_PRINTF_FORMAT(3, 4);

static enum ofperr
oko_error(struct ds *why, enum ofperr error, const char *format, ...)
{
    if (why) {
        va_list args;

        va_start(args, format);
        ds_put_format_valist(why, format, args);
        va_end(args);
    }
    return error;
}

/* Puts the body of 'oh' (after the experimenter header) in 'b'. */
static void
pull_body(const struct ofp_header *oh, struct ofpbuf *b)
{
    *b = ofpbuf_const_initializer(oh, ntohs(oh->length));
    ofpraw_pull_assert(b);
}

enum ofperr
oko_decode_load_prog(const struct ofp_header *oh,
                     struct oko_load_prog_msg *msg, struct ds *why)
{
    struct ofpbuf b;

    pull_body(oh, &b);
    const struct oko_load_prog *lp = ofpbuf_pull(&b, sizeof *lp);
    msg->prog_id = ntohl(lp->prog_id);
    msg->flags = ntohs(lp->flags);
    msg->elf_len = ntohl(lp->elf_len);
    msg->elf = b.data;
    if (lp->reserved0 || lp->reserved1) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "LOAD_PROG: reserved field is not zero");
    }
    if (msg->elf_len != b.size || !msg->elf_len
        || msg->elf_len > OKO_MAX_ELF_LEN) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "LOAD_PROG: elf_len %" PRIuSIZE
                         " but the message carries "
                         "%" PRIu32 " bytes of object (1 to %d)",
                         msg->elf_len, b.size, OKO_MAX_ELF_LEN);
    }
    if (!msg->prog_id) {
        return oko_error(why, OFPERR_OKO_BAD_PROG_ID,
                         "program id 0 is reserved");
    }
    if (msg->flags & ~(OKO_LOAD_REPLACE | OKO_LOAD_KEEP_MAPS)) {
        return oko_error(why, OFPERR_OKO_BAD_FLAGS,
                         "LOAD_PROG: undefined flags 0x%" PRIx16,
                         (uint16_t) (msg->flags
                                     & ~(OKO_LOAD_REPLACE
                                         | OKO_LOAD_KEEP_MAPS)));
    }
    if ((msg->flags & OKO_LOAD_KEEP_MAPS)
        && !(msg->flags & OKO_LOAD_REPLACE)) {
        return oko_error(why, OFPERR_OKO_BAD_FLAGS,
                         "LOAD_PROG: keep-maps (0x2) needs replace (0x1)");
    }
    return 0;
}

enum ofperr
oko_decode_unload_prog(const struct ofp_header *oh,
                       struct oko_unload_prog_msg *msg, struct ds *why)
{
    struct ofpbuf b;

    pull_body(oh, &b);
    const struct oko_unload_prog *up = ofpbuf_pull(&b, sizeof *up);
    msg->prog_id = ntohl(up->prog_id);
    msg->flags = ntohs(up->flags);
    if (b.size) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "UNLOAD_PROG: %" PRIu32
                         " bytes after the 24-byte message",
                         b.size);
    }
    if (up->reserved) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "UNLOAD_PROG: reserved field is not zero");
    }
    if (!msg->prog_id) {
        return oko_error(why, OFPERR_OKO_BAD_PROG_ID,
                         "program id 0 is reserved");
    }
    if (msg->flags & ~OKO_UNLOAD_FORCE) {
        return oko_error(why, OFPERR_OKO_BAD_FLAGS,
                         "UNLOAD_PROG: undefined flags 0x%" PRIx16,
                         (uint16_t) (msg->flags & ~OKO_UNLOAD_FORCE));
    }
    return 0;
}

enum ofperr
oko_decode_map_msg(const struct ofp_header *oh,
                   struct oko_map_msg_decoded *msg, struct ds *why)
{
    enum ofpraw raw;
    struct ofpbuf b = ofpbuf_const_initializer(oh, ntohs(oh->length));

    raw = ofpraw_pull_assert(&b);
    msg->is_delete = raw == OFPRAW_OKOT_DELETE_MAP_ENTRIES;
    const char *name = msg->is_delete ? "DELETE_MAP_ENTRIES" : "UPDATE_MAP";
    const struct oko_map_msg *mm = ofpbuf_pull(&b, sizeof *mm);
    msg->prog_id = ntohl(mm->prog_id);
    msg->map_index = mm->map_index;
    msg->flags = mm->flags;
    msg->key_size = ntohs(mm->key_size);
    msg->value_size = ntohs(mm->value_size);
    msg->n_entries = ntohl(mm->n_entries);
    msg->entries = b.data;

    if (mm->reserved) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "%s: reserved field is not zero", name);
    }
    /* The count must fit the message exactly; checked in 64 bits, before
     * anything is sized by it. */
    uint64_t entry_size = (uint64_t) msg->key_size + msg->value_size;
    if ((uint64_t) msg->n_entries * entry_size != b.size) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "%s: %" PRIu32 " entries of %" PRIu64
                         " bytes do not make the "
                         "%" PRIu32 " bytes that follow",
                         name, msg->n_entries, entry_size, b.size);
    }
    if (!msg->prog_id) {
        return oko_error(why, OFPERR_OKO_BAD_PROG_ID,
                         "program id 0 is reserved");
    }
    if (msg->map_index >= OKO_MAX_MAPS) {
        return oko_error(why, OFPERR_OKO_BAD_MAP_INDEX,
                         "map index %" PRIu8 " (maps are 0 to 63)",
                         msg->map_index);
    }
    if (msg->is_delete) {
        if (msg->flags & ~OKO_DELETE_ALL) {
            return oko_error(why, OFPERR_OKO_BAD_FLAGS,
                             "%s: undefined flags 0x%" PRIx8, name,
                             (uint8_t) (msg->flags & ~OKO_DELETE_ALL));
        }
        if (msg->value_size) {
            return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                             "%s: value_size must be 0", name);
        }
        if (msg->flags & OKO_DELETE_ALL
                ? msg->n_entries != 0
                : msg->n_entries == 0 || msg->key_size == 0) {
            return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                             msg->flags & OKO_DELETE_ALL
                                 ? "%s: delete-all carries no keys"
                                 : "%s: no keys to delete (key_size and "
                                   "n_entries must not be 0)",
                             name);
        }
    } else {
        if (msg->flags) {
            return oko_error(why, OFPERR_OKO_BAD_FLAGS,
                             "%s: undefined flags 0x%" PRIx8, name,
                             msg->flags);
        }
        if (!msg->n_entries || !msg->key_size) {
            return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                             "%s: key_size and n_entries must not be 0", name);
        }
    }
    return 0;
}

enum ofperr
oko_decode_dump_maps_request(const struct ofp_header *oh,
                             struct oko_dump_maps_request_msg *msg,
                             struct ds *why)
{
    struct ofpbuf b;

    pull_body(oh, &b);
    const struct oko_dump_maps_request *dr = ofpbuf_pull(&b, sizeof *dr);
    msg->prog_id = ntohl(dr->prog_id);
    msg->map_mask = ntohll(dr->map_mask);
    if (b.size || dr->reserved) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "DUMP_MAPS: trailing bytes or reserved field not "
                         "zero");
    }
    if (!msg->prog_id) {
        return oko_error(why, OFPERR_OKO_BAD_PROG_ID,
                         "program id 0 is reserved");
    }
    return 0;
}

enum ofperr
oko_decode_prog_stats_request(const struct ofp_header *oh, uint32_t *prog_id,
                              struct ds *why)
{
    struct ofpbuf b;

    pull_body(oh, &b);
    const struct oko_prog_stats_request *r = ofpbuf_pull(&b, sizeof *r);
    *prog_id = ntohl(r->prog_id);
    if (b.size || r->reserved) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "PROG_STATS: trailing bytes or reserved field not "
                         "zero");
    }
    return 0;
}

static bool all_zero(const void *, size_t);

enum ofperr
oko_decode_replay_maps_request(const struct ofp_header *oh,
                               struct oko_replay_maps_request_msg *msg,
                               struct ds *why)
{
    struct ofpbuf b;

    pull_body(oh, &b);
    const struct oko_replay_maps_request *r = ofpbuf_pull(&b, sizeof *r);
    uint16_t flags = ntohs(r->flags);
    msg->prog_id = ntohl(r->prog_id);
    msg->after_event_id = ntohl(r->after_event_id);
    msg->all = (flags & OKO_REPLAY_ALL) != 0;
    if (b.size || !all_zero(r->reserved, sizeof r->reserved)) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "REPLAY_MAPS: trailing bytes or reserved field not "
                         "zero");
    }
    if (flags & ~OKO_REPLAY_ALL) {
        return oko_error(why, OFPERR_OKO_BAD_FLAGS,
                         "REPLAY_MAPS: undefined flags %#" PRIx16, flags);
    }
    if (msg->all && msg->after_event_id) {
        return oko_error(why, OFPERR_OKO_BAD_FLAGS,
                         "REPLAY_MAPS: 'all' with after_event_id %" PRIu32
                         " (must be 0)",
                         msg->after_event_id);
    }
    if (!msg->prog_id) {
        return oko_error(why, OFPERR_OKO_BAD_PROG_ID,
                         "program id 0 is reserved");
    }
    return 0;
}

bool
oko_event_after(uint32_t event_id, uint32_t after)
{
    uint32_t d = event_id - after;
    return d && d < UINT32_C(0x80000000);
}

static bool
all_zero(const void *p_, size_t n)
{
    const uint8_t *p = p_;
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

enum ofperr
oko_decode_mark_installed(const struct ofp_header *oh,
                          struct oko_mark_installed_msg *msg, struct ds *why)
{
    struct ofpbuf b;

    /* OVS's framing checked the length: exactly 56 bytes. */
    pull_body(oh, &b);
    const struct oko_mark_installed *mi = ofpbuf_pull(&b, sizeof *mi);
    msg->prog_id = ntohl(mi->prog_id);
    memcpy(msg->install_mark, mi->install_mark, sizeof msg->install_mark);
    if (mi->reserved) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "MARK_INSTALLED: reserved field is not zero");
    }
    if (!msg->prog_id) {
        return oko_error(why, OFPERR_OKO_BAD_PROG_ID,
                         "program id 0 is reserved");
    }
    if (all_zero(msg->install_mark, sizeof msg->install_mark)) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "MARK_INSTALLED: the install mark is all zero "
                         "(which means 'not installed')");
    }
    return 0;
}

/* Decodes one program record at the front of 'b' into 'ps'. */
static enum ofperr
decode_prog_stats_record(struct ofpbuf *b, unsigned int i,
                         struct oko_prog_stats *ps, struct ds *why)
{
    const struct oko_prog_stats_record *r = ofpbuf_try_pull(b, sizeof *r);
    if (!r) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "PROG_STATS: program record %u of "
                         "%" PRIuSIZE " bytes is cut short (a record has 72)",
                         i, sizeof *r);
    }
    size_t length = ntohs(r->length);
    size_t maps_end
        = sizeof *r + r->n_maps * sizeof(struct oko_map_stats_record);
    if (r->n_maps > OKO_MAX_MAPS
        || (length != maps_end
            && length != maps_end + OKO_PROG_STATS_SHA256_LEN
            && length != (maps_end + OKO_PROG_STATS_SHA256_LEN
                          + OKO_INSTALL_MARK_LEN))) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "PROG_STATS: program record %u has "
                         "length %" PRIuSIZE
                         " for %u maps (72 + 32 per map, + 32 with the "
                         "ELF's SHA-256, + 32 more with the install mark; "
                         "at most 64 maps)",
                         i, length, r->n_maps);
    }
    if (r->reserved) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "PROG_STATS: program record %u: reserved field not "
                         "zero",
                         i);
    }
    if (r->flags & ~OKO_PROG_STATS_JIT) {
        return oko_error(why, OFPERR_OKO_BAD_FLAGS,
                         "PROG_STATS: program record %u: undefined flags %#x",
                         i, r->flags);
    }
    const struct oko_map_stats_record *maps
        = ofpbuf_try_pull(b, length - sizeof *r);
    if (!maps) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "PROG_STATS: program record %u "
                         "(%" PRIuSIZE
                         " bytes) goes past the end of the message",
                         i, length);
    }
    *ps = (struct oko_prog_stats) {
        .prog_id = ntohl(r->prog_id),
        .jit = r->flags & OKO_PROG_STATS_JIT,
        .runs = ntohll(get_32aligned_be64(&r->runs)),
        .matches = ntohll(get_32aligned_be64(&r->matches)),
        .errors = ntohll(get_32aligned_be64(&r->errors)),
        .timed_runs = ntohll(get_32aligned_be64(&r->timed_runs)),
        .timed_ns = ntohll(get_32aligned_be64(&r->timed_ns)),
        .rules = ntohl(r->rules),
        .datapath_flows = ntohl(r->datapath_flows),
        .instructions = ntohl(r->instructions),
        .memory = ntohll(get_32aligned_be64(&r->memory)),
        .n_maps = r->n_maps,
        .has_elf_sha256 = length > maps_end,
        .has_install_mark
            = length > maps_end + OKO_PROG_STATS_SHA256_LEN,
    };
    const uint8_t *after_maps
        = (const uint8_t *) maps + (maps_end - sizeof *r);
    if (ps->has_elf_sha256) {
        memcpy(ps->elf_sha256, after_maps, OKO_PROG_STATS_SHA256_LEN);
    }
    if (ps->has_install_mark) {
        memcpy(ps->install_mark, after_maps + OKO_PROG_STATS_SHA256_LEN,
               OKO_INSTALL_MARK_LEN);
    }
    if (!ps->prog_id) {
        return oko_error(why, OFPERR_OKO_BAD_PROG_ID,
                         "PROG_STATS: program record %u has program id 0", i);
    }
    for (size_t m = 0; m < r->n_maps; m++) {
        const struct oko_map_stats_record *mr = &maps[m];
        if (mr->map_index != m || mr->reserved0 || mr->reserved1) {
            return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                             "PROG_STATS: program %" PRIu32
                             " map record %" PRIuSIZE
                             ": map_index %u or a reserved field "
                             "is wrong",
                             ps->prog_id, m, mr->map_index);
        }
        ps->maps[m] = (struct oko_map_stats) {
            .map_type = mr->map_type,
            .used = ntohl(mr->used),
            .max_entries = ntohl(mr->max_entries),
            .evictions = ntohll(get_32aligned_be64(&mr->evictions)),
            .refused_full = ntohll(get_32aligned_be64(&mr->refused_full)),
        };
    }
    return 0;
}

enum ofperr
oko_decode_prog_stats_reply(const struct ofp_header *oh,
                            struct oko_prog_stats **progs, size_t *n,
                            struct ds *why)
{
    struct ofpbuf b;

    *progs = NULL;
    *n = 0;
    pull_body(oh, &b);
    const struct oko_prog_stats_reply *r = ofpbuf_pull(&b, sizeof *r);
    if (!all_zero(r->reserved, sizeof r->reserved)) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "PROG_STATS: reserved field not zero");
    }
    size_t n_programs = ntohs(r->n_programs);
    if (n_programs > b.size / sizeof(struct oko_prog_stats_record)) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "PROG_STATS: %" PRIuSIZE " program "
                         "records do not fit in %" PRIu32 " bytes",
                         n_programs, b.size);
    }
    struct oko_prog_stats *ps
        = n_programs ? xmalloc(n_programs * sizeof *ps) : NULL;
    for (size_t i = 0; i < n_programs; i++) {
        enum ofperr error = decode_prog_stats_record(&b, i, &ps[i], why);
        if (error) {
            free(ps);
            return error;
        }
    }
    if (b.size) {
        free(ps);
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "PROG_STATS: %" PRIu32 " bytes after "
                         "the last program record",
                         b.size);
    }
    *progs = ps;
    *n = n_programs;
    return 0;
}

/* Prints 'n' bytes as hex, two digits each (map keys and values are raw
 * bytes in the program's layout, not numbers). */
static void
put_bytes(struct ds *s, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ds_put_format(s, "%02"PRIx8, p[i]);
    }
}

/* ---- Map sections (SEND_MAPS, DUMP_MAPS replies) ---- */

/* Checks 'n_sections' sections in 'b' and, if 's' is nonnull, prints them. */
static enum ofperr
decode_sections(struct ofpbuf *b, unsigned int n_sections, struct ds *s,
                struct ds *why)
{
    for (unsigned int i = 0; i < n_sections; i++) {
        const struct oko_map_section *sec = ofpbuf_try_pull(b, sizeof *sec);
        if (!sec) {
            return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                             "section %u of %u is missing", i + 1, n_sections);
        }
        uint16_t key_size = ntohs(sec->key_size),
                 value_size = ntohs(sec->value_size);
        uint64_t n = ntohl(sec->n_entries);
        uint64_t bytes = n * (key_size + value_size);
        uint64_t padded = ROUND_UP(bytes, 8);
        if (sec->map_index >= OKO_MAX_MAPS || sec->reserved0
            || sec->reserved1 || sec->flags & ~OKO_SECTION_CONTINUES) {
            return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                             "section %u: bad header", i + 1);
        }
        if (padded > b->size) {
            return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                             "section %u: %" PRIu64 " entries need %" PRIu64
                             " bytes, "
                             "%" PRIu32 " left",
                             i + 1, n, padded, b->size);
        }
        const uint8_t *p = ofpbuf_pull(b, padded);
        if (s) {
            ds_put_format(s,
                          "\n map %" PRIu8 " type %" PRIu8 ": %" PRIu64
                          " entries%s",
                          sec->map_index, sec->map_type, n,
                          sec->flags & OKO_SECTION_CONTINUES ? " (continues)"
                                                             : "");
            for (uint64_t e = 0; e < n; e++) {
                ds_put_cstr(s, "\n  ");
                put_bytes(s, p + e * (key_size + value_size), key_size);
                if (value_size) {
                    ds_put_cstr(s, "=");
                    put_bytes(s, p + e * (key_size + value_size) + key_size,
                              value_size);
                }
            }
        }
    }
    if (b->size) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "%"PRIu32" bytes after the last section", b->size);
    }
    return 0;
}

/* ---- filter_prog OXM and SEND_MAPS action ---- */

/* Big-endian fields at any alignment. */
static uint16_t
get_be16(const uint8_t *p)
{
    ovs_be16 v;
    memcpy(&v, p, sizeof v);
    return ntohs(v);
}

static uint32_t
get_be32(const uint8_t *p)
{
    ovs_be32 v;
    memcpy(&v, p, sizeof v);
    return ntohl(v);
}

static uint64_t
get_be64(const uint8_t *p)
{
    ovs_be64 v;
    memcpy(&v, p, sizeof v);
    return ntohll(v);
}

enum ofperr
oko_decode_filter_prog_oxm(const void *oxm, size_t size, uint32_t *prog_id)
{
    const uint8_t *p = oxm;

    if (size < 4) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    uint32_t header = get_be32(p);
    if ((header & 0xfffffe00) != (OKO_OXM_FILTER_PROG & 0xfffffe00)) {
        return OFPERR_OFPBMC_BAD_FIELD;
    }
    if (header & 0x100) {
        return OFPERR_OFPBMC_BAD_MASK;      /* filter_prog has no mask */
    }
    if ((header & 0xff) != 8) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    if (size != 4 + 8) {
        return OFPERR_OFPBMC_BAD_LEN;       /* truncated, or trailing bytes */
    }
    if (get_be32(p + 4) != OKO_VENDOR_ID) {
        return OFPERR_OFPBMC_BAD_FIELD;
    }
    *prog_id = get_be32(p + 8);
    return *prog_id ? 0 : OFPERR_OFPBMC_BAD_VALUE;
}

void
oko_format_filter_prog(struct ds *s, uint32_t prog_id, bool after_field)
{
    if (prog_id) {
        ds_put_format(s, "%sfilter_prog=%"PRIu32, after_field ? "," : "",
                      prog_id);
    }
}

char *
oko_parse_filter_prog(const char *value, uint32_t *prog_id)
{
    char *tail;
    errno = 0;
    unsigned long long id = strtoull(value, &tail, 0);
    if (!*value || *tail || errno || !id || id > UINT32_MAX
        || strchr(value, '-')) {
        return xasprintf("filter_prog=%s: a program id is a number from 1 "
                         "to 4294967295", value);
    }
    *prog_id = id;
    return NULL;
}

bool
oko_try_pull_filter_prog_oxm(struct ofpbuf *b, uint32_t *prog_id,
                             enum ofperr *error)
{
    if (b->size < 8) {
        return false;
    }
    const uint8_t *p = b->data;
    uint32_t header = get_be32(p);
    if ((header & 0xfffffe00) != (OKO_OXM_FILTER_PROG & 0xfffffe00)
        || get_be32(p + 4) != OKO_VENDOR_ID) {
        return false;
    }

    size_t size = 4 + (header & 0xff);
    if (size < 8 || size > b->size) {
        *error = OFPERR_OFPBMC_BAD_LEN;
        return true;
    }
    if (*prog_id) {
        *error = OFPERR_OFPBMC_DUP_FIELD;
        return true;
    }
    *error = oko_decode_filter_prog_oxm(b->data, size, prog_id);
    ofpbuf_pull(b, size);
    return true;
}

void
oko_put_filter_prog_oxm(struct ofpbuf *b, uint32_t prog_id)
{
    struct oko_oxm_filter_prog *oxm = ofpbuf_put_uninit(b, sizeof *oxm);
    oxm->header = htonl(OKO_OXM_FILTER_PROG);
    oxm->experimenter = htonl(OKO_VENDOR_ID);
    oxm->prog_id = htonl(prog_id);
}

enum ofperr
oko_decode_send_maps_action(const void *action, size_t size,
                            uint64_t *map_mask)
{
    const uint8_t *p = action;

    if (size < 10) {
        return OFPERR_OFPBAC_BAD_LEN;
    }
    uint16_t len = get_be16(p + 2);
    if (get_be16(p) != 0xffff
        || get_be32(p + 4) != OKO_VENDOR_ID) {
        return OFPERR_OFPBAC_BAD_TYPE;
    }
    if (get_be16(p + 8) != OKO_ACTION_SEND_MAPS) {
        return OFPERR_OFPBAC_BAD_VENDOR_TYPE;
    }
    if (len != sizeof(struct oko_action_send_maps) || size != len) {
        return OFPERR_OFPBAC_BAD_LEN;
    }
    *map_mask = get_be64(p + 16);
    return *map_mask ? 0 : OFPERR_OFPBAC_BAD_ARGUMENT;
}

void
oko_put_send_maps_action(struct ofpbuf *b, uint64_t map_mask)
{
    struct oko_action_send_maps *a = ofpbuf_put_zeros(b, sizeof *a);
    a->type = htons(0xffff);
    a->len = htons(sizeof *a);
    a->experimenter = htonl(OKO_VENDOR_ID);
    a->subtype = htons(OKO_ACTION_SEND_MAPS);
    a->map_mask = htonll(map_mask);
}

/* ---- Map sections: SEND_MAPS events and DUMP_MAPS replies ---- */

/* Starts the next message of a sequence and returns it, with its fixed body
 * (whose be16 n_sections is at the packer's 'n_sections_ofs') in place. */
typedef struct ofpbuf *start_msg_fn(void *aux);

struct section_packer {
    start_msg_fn *start;
    void *aux;
    size_t n_sections_ofs;
    size_t max_len;
};

static size_t
start_section(const struct section_packer *p, struct ofpbuf *msg,
              const struct oko_map_contents *m)
{
    size_t ofs = msg->size;
    struct oko_map_section *sec = ofpbuf_put_zeros(msg, sizeof *sec);
    sec->map_index = m->map_index;
    sec->map_type = m->map_type;
    sec->key_size = htons(m->key_size);
    sec->value_size = htons(m->value_size);
    ovs_be16 *n_sections
        = ofpbuf_at_assert(msg, p->n_sections_ofs, sizeof *n_sections);
    *n_sections = htons(ntohs(*n_sections) + 1);
    return ofs;
}

static void
end_section(struct ofpbuf *msg, size_t section_ofs, uint32_t n_entries,
            bool continues)
{
    struct oko_map_section *sec
        = ofpbuf_at_assert(msg, section_ofs, sizeof *sec);
    sec->n_entries = htonl(n_entries);
    sec->flags = continues ? OKO_SECTION_CONTINUES : 0;
    size_t bytes = msg->size - section_ofs - sizeof *sec;
    ofpbuf_put_zeros(msg, ROUND_UP(bytes, 8) - bytes);
}

/* Puts the 'n' maps into sections of messages of at most 'max_len' bytes,
 * starting a new message (p->start) whenever the current one is full: a
 * map that does not fit continues in the next message, an entry is never
 * split (docs/protocol.md 5.4). */
static void
pack_sections(const struct section_packer *p,
              const struct oko_map_contents *maps, size_t n)
{
    struct ofpbuf *msg = p->start(p->aux);

    for (size_t i = 0; i < n; i++) {
        const struct oko_map_contents *m = &maps[i];
        size_t entry = m->key_size + m->value_size;
        if (msg->size + sizeof(struct oko_map_section) + ROUND_UP(entry, 8)
            > p->max_len) {
            ofpmsg_update_length(msg);
            msg = p->start(p->aux);
        }
        size_t section_ofs = start_section(p, msg, m);
        uint32_t in_section = 0;
        for (uint32_t e = 0; e < m->n_entries; e++) {
            /* entry + worst padding */
            if (msg->size + entry + 7 > p->max_len) {
                end_section(msg, section_ofs, in_section, true);
                ofpmsg_update_length(msg);
                msg = p->start(p->aux);
                section_ofs = start_section(p, msg, m);
                in_section = 0;
            }
            ofpbuf_put(msg, m->entries + e * entry, entry);
            in_section++;
        }
        end_section(msg, section_ofs, in_section, false);
    }
    ofpmsg_update_length(msg);
}

/* Offset of a message's body after its experimenter header. */
/* ofp_header, experimenter, exp_type */
#define SEND_MAPS_BODY_OFS 16
/* ofp11_stats_msg, experimenter, exp_type */
#define DUMP_MAPS_BODY_OFS 24

struct send_maps_ctx {
    enum ofp_version version;
    const struct oko_send_maps_event *event;
    uint16_t fragment;
    struct ovs_list *fragments;
};

/* Appends the fixed part of fragment 'fragment' of 'event' to 'msg'. */
static void
put_fragment_header(struct ofpbuf *msg,
                    const struct oko_send_maps_event *event, uint16_t fragment)
{
    struct oko_send_maps *sm = ofpbuf_put_zeros(msg, sizeof *sm);
    sm->prog_id = htonl(event->prog_id);
    sm->event_id = htonl(event->event_id);
    sm->cookie = htonll(event->cookie);
    sm->table_id = event->table_id;
    sm->fragment = htons(fragment);
    sm->suppressed = htonl(event->suppressed);
}

/* Marks the last message of 'msgs', whose fragment header is at 'ofs', as
 * the event's last fragment. */
static void
mark_last_fragment(struct ovs_list *msgs, size_t ofs)
{
    struct ofpbuf *last
        = CONTAINER_OF(ovs_list_back(msgs), struct ofpbuf, list_node);
    struct oko_send_maps *sm = ofpbuf_at_assert(last, ofs, sizeof *sm);
    sm->flags = OKO_SEND_MAPS_LAST;
}

/* Sets OFPSF_REPLY_MORE on every multipart reply of 'replies' but the last. */
static void
mark_reply_more(struct ovs_list *replies)
{
    struct ofpbuf *msg;
    LIST_FOR_EACH (msg, list_node, replies) {
        if (msg->list_node.next != replies) {
            /* mp_flags: offset 10 of an OpenFlow 1.1+ multipart reply. */
            ovs_be16 *flags = ofpbuf_at_assert(msg, 10, sizeof *flags);
            *flags |= htons(OFPSF_REPLY_MORE);
        }
    }
}

static struct ofpbuf *
start_fragment(void *ctx_)
{
    struct send_maps_ctx *ctx = ctx_;
    struct ofpbuf *msg
        = ofpraw_alloc_xid(OFPRAW_OKOT_SEND_MAPS, ctx->version, htonl(0), 0);
    put_fragment_header(msg, ctx->event, ctx->fragment++);
    ovs_list_push_back(ctx->fragments, &msg->list_node);
    return msg;
}

void
oko_encode_send_maps(enum ofp_version version,
                     const struct oko_send_maps_event *event,
                     const struct oko_map_contents *maps, size_t n,
                     size_t max_len, struct ovs_list *fragments)
{
    struct send_maps_ctx ctx = { version, event, 0, fragments };
    struct section_packer p = {
        start_fragment,
        &ctx,
        SEND_MAPS_BODY_OFS + offsetof(struct oko_send_maps, n_sections),
        max_len,
    };
    pack_sections(&p, maps, n);
    mark_last_fragment(fragments, SEND_MAPS_BODY_OFS);
}

struct dump_ctx {
    const struct ofp_header *request;
    uint32_t prog_id;
    struct ovs_list *replies;
};

static struct ofpbuf *
start_dump_reply(void *ctx_)
{
    struct dump_ctx *ctx = ctx_;
    struct ofpbuf *msg = ofpraw_alloc_stats_reply(ctx->request, 0);
    struct oko_dump_maps_reply *body = ofpbuf_put_zeros(msg, sizeof *body);
    body->prog_id = htonl(ctx->prog_id);
    ovs_list_push_back(ctx->replies, &msg->list_node);
    return msg;
}

void
oko_encode_dump_maps_replies(const struct ofp_header *request,
                             uint32_t prog_id,
                             const struct oko_map_contents *maps, size_t n,
                             struct ovs_list *replies)
{
    struct dump_ctx ctx = { request, prog_id, replies };
    struct section_packer p = {
        start_dump_reply,
        &ctx,
        DUMP_MAPS_BODY_OFS + offsetof(struct oko_dump_maps_reply, n_sections),
        UINT16_MAX,
    };
    pack_sections(&p, maps, n);
    mark_reply_more(replies);
}

/* ofp11_stats_msg, experimenter, exp_type */
#define REPLAY_MAPS_BODY_OFS 24
#define REPLAY_FRAGMENT_OFS                                                   \
    (REPLAY_MAPS_BODY_OFS + sizeof(struct oko_replay_maps_reply))

struct replay_ctx {
    const struct ofp_header *request;
    uint32_t prog_id;
    uint32_t next_event_id;
    const struct oko_send_maps_event *event;
    uint16_t fragment;
    struct ovs_list *replies;
};

static struct ofpbuf *
start_replay_reply(const struct replay_ctx *ctx)
{
    struct ofpbuf *msg = ofpraw_alloc_stats_reply(ctx->request, 0);
    struct oko_replay_maps_reply *r = ofpbuf_put_zeros(msg, sizeof *r);
    r->prog_id = htonl(ctx->prog_id);
    r->next_event_id = htonl(ctx->next_event_id);
    ovs_list_push_back(ctx->replies, &msg->list_node);
    return msg;
}

static struct ofpbuf *
start_replay_fragment(void *ctx_)
{
    struct replay_ctx *ctx = ctx_;
    struct ofpbuf *msg = start_replay_reply(ctx);
    put_fragment_header(msg, ctx->event, ctx->fragment++);
    return msg;
}

void
oko_encode_replay_maps_replies(const struct ofp_header *request,
                               uint32_t prog_id, uint32_t next_event_id,
                               const struct oko_replay_event *events, size_t n,
                               size_t max_len, struct ovs_list *replies)
{
    struct replay_ctx ctx
        = { request, prog_id, next_event_id, NULL, 0, replies };

    if (!n) {
        ofpmsg_update_length(start_replay_reply(&ctx));
    }
    for (size_t i = 0; i < n; i++) {
        ctx.event = &events[i].event;
        ctx.fragment = 0;
        struct section_packer p = {
            start_replay_fragment,
            &ctx,
            REPLAY_FRAGMENT_OFS + offsetof(struct oko_send_maps, n_sections),
            max_len,
        };
        pack_sections(&p, events[i].maps, events[i].n_maps);
        mark_last_fragment(replies, REPLAY_FRAGMENT_OFS);
    }
    mark_reply_more(replies);
}

/* ofp11_stats_msg, experimenter, exp_type */
#define PROG_STATS_BODY_OFS 24

static struct ofpbuf *
start_prog_stats_reply(const struct ofp_header *request,
                       struct ovs_list *replies)
{
    struct ofpbuf *msg = ofpraw_alloc_stats_reply(request, 0);
    ofpbuf_put_zeros(msg, sizeof(struct oko_prog_stats_reply));
    ovs_list_push_back(replies, &msg->list_node);
    return msg;
}

/* A program record's length on the wire (docs/protocol.md 4.3). */
static size_t
prog_stats_record_len(const struct oko_prog_stats *ps)
{
    return (sizeof(struct oko_prog_stats_record)
            + (MIN(ps->n_maps, OKO_MAX_MAPS)
               * sizeof(struct oko_map_stats_record))
            + (ps->has_elf_sha256 ? OKO_PROG_STATS_SHA256_LEN : 0)
            + (ps->has_elf_sha256 && ps->has_install_mark
               ? OKO_INSTALL_MARK_LEN : 0));
}

static void
put_prog_stats_record(struct ofpbuf *msg, const struct oko_prog_stats *ps)
{
    size_t n_maps = MIN(ps->n_maps, OKO_MAX_MAPS);
    struct oko_prog_stats_record *r = ofpbuf_put_zeros(msg, sizeof *r);
    r->prog_id = htonl(ps->prog_id);
    r->length = htons(prog_stats_record_len(ps));
    r->n_maps = n_maps;
    r->flags = ps->jit ? OKO_PROG_STATS_JIT : 0;
    put_32aligned_be64(&r->runs, htonll(ps->runs));
    put_32aligned_be64(&r->matches, htonll(ps->matches));
    put_32aligned_be64(&r->errors, htonll(ps->errors));
    put_32aligned_be64(&r->timed_runs, htonll(ps->timed_runs));
    put_32aligned_be64(&r->timed_ns, htonll(ps->timed_ns));
    r->rules = htonl(ps->rules);
    r->datapath_flows = htonl(ps->datapath_flows);
    r->instructions = htonl(ps->instructions);
    put_32aligned_be64(&r->memory, htonll(ps->memory));
    for (size_t m = 0; m < n_maps; m++) {
        const struct oko_map_stats *ms = &ps->maps[m];
        struct oko_map_stats_record *mr = ofpbuf_put_zeros(msg, sizeof *mr);
        mr->map_index = m;
        mr->map_type = ms->map_type;
        mr->used = htonl(ms->used);
        mr->max_entries = htonl(ms->max_entries);
        put_32aligned_be64(&mr->evictions, htonll(ms->evictions));
        put_32aligned_be64(&mr->refused_full, htonll(ms->refused_full));
    }
    if (ps->has_elf_sha256) {
        ofpbuf_put(msg, ps->elf_sha256, OKO_PROG_STATS_SHA256_LEN);
        if (ps->has_install_mark) {
            ofpbuf_put(msg, ps->install_mark, OKO_INSTALL_MARK_LEN);
        }
    }
}

void
oko_encode_prog_stats_replies(const struct ofp_header *request,
                              const struct oko_prog_stats *progs, size_t n,
                              struct ovs_list *replies)
{
    struct ofpbuf *msg = start_prog_stats_reply(request, replies);
    unsigned int in_msg = 0;

    for (size_t i = 0; i < n; i++) {
        size_t len = prog_stats_record_len(&progs[i]);
        if (msg->size + len > UINT16_MAX) {
            msg = start_prog_stats_reply(request, replies);
            in_msg = 0;
        }
        put_prog_stats_record(msg, &progs[i]);
        struct oko_prog_stats_reply *body
            = ofpbuf_at_assert(msg, PROG_STATS_BODY_OFS, sizeof *body);
        body->n_programs = htons(++in_msg);
    }
    LIST_FOR_EACH (msg, list_node, replies) {
        ofpmsg_update_length(msg);
        if (msg->list_node.next != replies) {
            /* mp_flags: offset 10 of an OpenFlow 1.1+ multipart reply. */
            ovs_be16 *flags = ofpbuf_at_assert(msg, 10, sizeof *flags);
            *flags |= htons(OFPSF_REPLY_MORE);
        }
    }
}

enum ofperr
oko_for_each_section(const struct ofp_header *oh, oko_section_cb *cb,
                     void *aux)
{
    enum ofpraw raw;
    struct ofpbuf b = ofpbuf_const_initializer(oh, ntohs(oh->length));
    unsigned int n_sections;

    raw = ofpraw_pull_assert(&b);
    if (raw == OFPRAW_OKOT_SEND_MAPS) {
        const struct oko_send_maps *sm = ofpbuf_pull(&b, sizeof *sm);
        n_sections = ntohs(sm->n_sections);
    } else if (raw == OFPRAW_OKOST_DUMP_MAPS_REPLY) {
        const struct oko_dump_maps_reply *dr = ofpbuf_pull(&b, sizeof *dr);
        n_sections = ntohs(dr->n_sections);
    } else if (raw == OFPRAW_OKOST_REPLAY_MAPS_REPLY) {
        ofpbuf_pull(&b, sizeof(struct oko_replay_maps_reply));
        const struct oko_send_maps *sm = ofpbuf_try_pull(&b, sizeof *sm);
        if (!sm) {
            return b.size ? OFPERR_OKO_BAD_MESSAGE : 0;
        }
        n_sections = ntohs(sm->n_sections);
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    struct ofpbuf check = b;
    enum ofperr error = decode_sections(&check, n_sections, NULL, NULL);
    if (error) {
        return error;
    }
    for (unsigned int i = 0; i < n_sections; i++) {
        const struct oko_map_section *sec = ofpbuf_pull(&b, sizeof *sec);
        struct oko_map_contents m = {
            .map_index = sec->map_index,
            .map_type = sec->map_type,
            .key_size = ntohs(sec->key_size),
            .value_size = ntohs(sec->value_size),
            .n_entries = ntohl(sec->n_entries),
            .entries = b.data,
        };
        cb(&m, sec->flags & OKO_SECTION_CONTINUES, aux);
        ofpbuf_pull(&b, ROUND_UP((size_t) m.n_entries
                                     * (m.key_size + m.value_size),
                                 8));
    }
    return 0;
}

/* ---- Encoders ---- */

static struct ofpbuf *
alloc_msg(enum ofpraw raw, enum ofp_version version, size_t extra)
{
    return ofpraw_alloc(raw, version, extra);
}

struct ofpbuf *
oko_encode_load_prog(enum ofp_version version, uint32_t prog_id,
                     uint16_t flags, const void *elf, size_t elf_len)
{
    struct ofpbuf *msg = alloc_msg(OFPRAW_OKOT_LOAD_PROG, version,
                                   sizeof(struct oko_load_prog) + elf_len);
    struct oko_load_prog *lp = ofpbuf_put_zeros(msg, sizeof *lp);
    lp->prog_id = htonl(prog_id);
    lp->flags = htons(flags);
    lp->elf_len = htonl(elf_len);
    ofpbuf_put(msg, elf, elf_len);
    ofpmsg_update_length(msg);
    return msg;
}

struct ofpbuf *
oko_encode_unload_prog(enum ofp_version version, uint32_t prog_id,
                       uint16_t flags)
{
    struct ofpbuf *msg = alloc_msg(OFPRAW_OKOT_UNLOAD_PROG, version, 0);
    struct oko_unload_prog *up = ofpbuf_put_zeros(msg, sizeof *up);
    up->prog_id = htonl(prog_id);
    up->flags = htons(flags);
    ofpmsg_update_length(msg);
    return msg;
}

struct ofpbuf *
oko_encode_mark_installed(enum ofp_version version,
                          const struct oko_mark_installed_msg *m)
{
    struct ofpbuf *msg = alloc_msg(OFPRAW_OKOT_MARK_INSTALLED, version, 0);
    struct oko_mark_installed *mi = ofpbuf_put_zeros(msg, sizeof *mi);
    mi->prog_id = htonl(m->prog_id);
    memcpy(mi->install_mark, m->install_mark, sizeof mi->install_mark);
    ofpmsg_update_length(msg);
    return msg;
}

struct ofpbuf *
oko_encode_map_msg(enum ofp_version version, bool is_delete, uint32_t prog_id,
                   uint8_t map_index, uint8_t flags, uint16_t key_size,
                   uint16_t value_size, uint32_t n_entries,
                   const void *entries)
{
    size_t bytes = (size_t) n_entries * (key_size + value_size);
    struct ofpbuf *msg
        = alloc_msg(is_delete ? OFPRAW_OKOT_DELETE_MAP_ENTRIES
                              : OFPRAW_OKOT_UPDATE_MAP,
                    version, sizeof(struct oko_map_msg) + bytes);
    struct oko_map_msg *mm = ofpbuf_put_zeros(msg, sizeof *mm);
    mm->prog_id = htonl(prog_id);
    mm->map_index = map_index;
    mm->flags = flags;
    mm->key_size = htons(key_size);
    mm->value_size = htons(value_size);
    mm->n_entries = htonl(n_entries);
    ofpbuf_put(msg, entries, bytes);
    ofpmsg_update_length(msg);
    return msg;
}

struct ofpbuf *
oko_encode_dump_maps_request(enum ofp_version version, uint32_t prog_id,
                             uint64_t map_mask)
{
    struct ofpbuf *msg = alloc_msg(OFPRAW_OKOST_DUMP_MAPS_REQUEST, version, 0);
    struct oko_dump_maps_request *dr = ofpbuf_put_zeros(msg, sizeof *dr);
    dr->prog_id = htonl(prog_id);
    dr->map_mask = htonll(map_mask);
    ofpmsg_update_length(msg);
    return msg;
}

struct ofpbuf *
oko_encode_replay_maps_request(enum ofp_version version,
                               const struct oko_replay_maps_request_msg *m)
{
    struct ofpbuf *msg
        = alloc_msg(OFPRAW_OKOST_REPLAY_MAPS_REQUEST, version, 0);
    struct oko_replay_maps_request *r = ofpbuf_put_zeros(msg, sizeof *r);
    r->prog_id = htonl(m->prog_id);
    r->after_event_id = htonl(m->after_event_id);
    r->flags = htons(m->all ? OKO_REPLAY_ALL : 0);
    ofpmsg_update_length(msg);
    return msg;
}

struct ofpbuf *
oko_encode_prog_stats_request(enum ofp_version version, uint32_t prog_id)
{
    struct ofpbuf *msg
        = alloc_msg(OFPRAW_OKOST_PROG_STATS_REQUEST, version, 0);
    struct oko_prog_stats_request *r = ofpbuf_put_zeros(msg, sizeof *r);
    r->prog_id = htonl(prog_id);
    ofpmsg_update_length(msg);
    return msg;
}

bool
oko_is_oko_error(enum ofperr error)
{
    return error >= OFPERR_OKO_BAD_MESSAGE
           && error <= OFPERR_OKO_NO_FILTER_FOR_ACTION;
}

struct ofpbuf *
oko_encode_error(enum ofperr error, const struct ofp_header *request,
                 const char *text)
{
    char buf[OKO_MAX_ERROR_TEXT + 1];

    /* One line of at most 1024 bytes (docs/protocol.md, section 2). */
    snprintf(buf, sizeof buf, "%s", text);
    for (char *p = buf; *p; p++) {
        if (*p == '\n') {
            *p = ' ';
        }
    }
    struct ofpbuf *msg = ofperr_encode_hello(error, request->version, buf);
    struct ofp_header *oh = msg->data;
    oh->xid = request->xid;
    return msg;
}

/* ---- Printing ---- */

static void
print_flags(struct ds *s, uint16_t flags, const char *const names[], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (flags & (1u << i)) {
            ds_put_format(s, " %s", names[i]);
        }
    }
}

static const char *
map_type_name(uint8_t type)
{
    static const char *const names[] = {
        "?", "hash", "array", "lru_hash", "bloom", "count_min", "lpm",
    };
    return type < ARRAY_SIZE(names) ? names[type] : "?";
}

static void
oko_format_prog_stats(struct ds *s, const struct oko_prog_stats *ps)
{
    ds_put_format(s,
                  "\n prog_id=%" PRIu32 " %s runs=%" PRIu64 " matches=%" PRIu64
                  " errors=%" PRIu64 " ns_per_run=%.1f rules=%" PRIu32
                  " datapath_flows=%" PRIu32 " instructions=%" PRIu32
                  " memory=%" PRIu64,
                  ps->prog_id, ps->jit ? "jit" : "interpreter", ps->runs,
                  ps->matches, ps->errors,
                  ps->timed_runs ? (double) ps->timed_ns / ps->timed_runs
                                 : 0.0,
                  ps->rules, ps->datapath_flows, ps->instructions, ps->memory);
    if (ps->has_elf_sha256) {
        ds_put_cstr(s, " elf_sha256=");
        put_bytes(s, ps->elf_sha256, OKO_PROG_STATS_SHA256_LEN);
    }
    if (ps->has_install_mark) {
        if (all_zero(ps->install_mark, OKO_INSTALL_MARK_LEN)) {
            ds_put_cstr(s, " install_mark=none");
        } else {
            ds_put_cstr(s, " install_mark=");
            put_bytes(s, ps->install_mark, OKO_INSTALL_MARK_LEN);
        }
    }
    for (size_t m = 0; m < ps->n_maps; m++) {
        const struct oko_map_stats *ms = &ps->maps[m];
        ds_put_format(s,
                      "\n  map %" PRIuSIZE " %s: used=%" PRIu32
                      " max_entries=%" PRIu32 " evictions=%" PRIu64
                      " refused_full=%" PRIu64,
                      m, map_type_name(ms->map_type), ms->used,
                      ms->max_entries, ms->evictions, ms->refused_full);
    }
}

/* Prints the SEND_MAPS fragment (fixed part and sections) at the front of
 * 'b', which must hold it all. */
static enum ofperr
print_fragment(struct ds *s, struct ofpbuf *b, struct ds *why)
{
    const struct oko_send_maps *sm = ofpbuf_try_pull(b, sizeof *sm);
    if (!sm) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "%" PRIu32 " bytes are not a fragment", b->size);
    }
    if (sm->flags & ~OKO_SEND_MAPS_LAST || sm->reserved0 || sm->reserved1) {
        return oko_error(why, OFPERR_OKO_BAD_MESSAGE,
                         "fragment: undefined flags or reserved field not "
                         "zero");
    }
    ds_put_format(s,
                  " prog_id=%" PRIu32 " event=%" PRIu32 " cookie=%#" PRIx64
                  " table=%" PRIu8 " fragment=%" PRIu16
                  "%s suppressed=%" PRIu32,
                  ntohl(sm->prog_id), ntohl(sm->event_id), ntohll(sm->cookie),
                  sm->table_id, ntohs(sm->fragment),
                  sm->flags & OKO_SEND_MAPS_LAST ? " last" : "",
                  ntohl(sm->suppressed));
    return decode_sections(b, ntohs(sm->n_sections), s, why);
}

enum ofperr
oko_ofp_print(struct ds *s, const struct ofp_header *oh, enum ofptype type,
              int verbosity)
{
    struct ds why = DS_EMPTY_INITIALIZER;
    enum ofperr error = 0;
    struct ofpbuf b;

    if (type == OFPTYPE_OKO_LOAD_PROG) {
        static const char *const names[] = { "replace", "keep-maps" };
        struct oko_load_prog_msg m;
        error = oko_decode_load_prog(oh, &m, &why);
        if (!error) {
            ds_put_format(s, " prog_id=%" PRIu32 " elf_len=%" PRIuSIZE,
                          m.prog_id, m.elf_len);
            print_flags(s, m.flags, names, ARRAY_SIZE(names));
            if (verbosity > 1) {
                ds_put_char(s, '\n');
                ds_put_hex_dump(s, m.elf, m.elf_len, 0, false);
            }
        }
    } else if (type == OFPTYPE_OKO_UNLOAD_PROG) {
        struct oko_unload_prog_msg m;
        error = oko_decode_unload_prog(oh, &m, &why);
        if (!error) {
            ds_put_format(s, " prog_id=%"PRIu32"%s", m.prog_id,
                          m.flags & OKO_UNLOAD_FORCE ? " force" : "");
        }
    } else if (type == OFPTYPE_OKO_UPDATE_MAP
               || type == OFPTYPE_OKO_DELETE_MAP_ENTRIES) {
        struct oko_map_msg_decoded m;
        error = oko_decode_map_msg(oh, &m, &why);
        if (!error) {
            ds_put_format(s, " prog_id=%" PRIu32 " map=%" PRIu8, m.prog_id,
                          m.map_index);
            if (m.flags & OKO_DELETE_ALL && m.is_delete) {
                ds_put_cstr(s, " all");
            }
            size_t entry = m.key_size + m.value_size;
            for (uint32_t i = 0; i < m.n_entries; i++) {
                ds_put_char(s, ' ');
                put_bytes(s, m.entries + i * entry, m.key_size);
                if (m.value_size) {
                    ds_put_char(s, '=');
                    put_bytes(s, m.entries + i * entry + m.key_size,
                              m.value_size);
                }
            }
        }
    } else if (type == OFPTYPE_OKO_SEND_MAPS) {
        pull_body(oh, &b);
        error = print_fragment(s, &b, &why);
    } else if (type == OFPTYPE_OKO_DUMP_MAPS_REQUEST) {
        struct oko_dump_maps_request_msg m;
        error = oko_decode_dump_maps_request(oh, &m, &why);
        if (!error) {
            ds_put_format(s, " prog_id=%" PRIu32 " maps=%#" PRIx64, m.prog_id,
                          m.map_mask);
        }
    } else if (type == OFPTYPE_OKO_DUMP_MAPS_REPLY) {
        pull_body(oh, &b);
        const struct oko_dump_maps_reply *dr = ofpbuf_pull(&b, sizeof *dr);
        ds_put_format(s, " prog_id=%"PRIu32, ntohl(dr->prog_id));
        error = decode_sections(&b, ntohs(dr->n_sections), s, &why);
    } else if (type == OFPTYPE_OKO_PROG_STATS_REQUEST) {
        uint32_t prog_id;
        error = oko_decode_prog_stats_request(oh, &prog_id, &why);
        if (!error) {
            if (prog_id) {
                ds_put_format(s, " prog_id=%"PRIu32, prog_id);
            } else {
                ds_put_cstr(s, " all programs");
            }
        }
    } else if (type == OFPTYPE_OKO_REPLAY_MAPS_REQUEST) {
        struct oko_replay_maps_request_msg m;
        error = oko_decode_replay_maps_request(oh, &m, &why);
        if (!error) {
            ds_put_format(s, " prog_id=%"PRIu32, m.prog_id);
            if (m.all) {
                ds_put_cstr(s, " all");
            } else {
                ds_put_format(s, " after=%"PRIu32, m.after_event_id);
            }
        }
    } else if (type == OFPTYPE_OKO_REPLAY_MAPS_REPLY) {
        pull_body(oh, &b);
        const struct oko_replay_maps_reply *r = ofpbuf_pull(&b, sizeof *r);
        ds_put_format(s, " prog_id=%"PRIu32" next_event=%"PRIu32,
                      ntohl(r->prog_id), ntohl(r->next_event_id));
        if (b.size) {
            ds_put_cstr(s, "\n");
            error = print_fragment(s, &b, &why);
        }
    } else if (type == OFPTYPE_OKO_MARK_INSTALLED) {
        struct oko_mark_installed_msg m;
        error = oko_decode_mark_installed(oh, &m, &why);
        if (!error) {
            ds_put_format(s, " prog_id=%" PRIu32 " install_mark=", m.prog_id);
            put_bytes(s, m.install_mark, sizeof m.install_mark);
        }
    } else if (type == OFPTYPE_OKO_PROG_STATS_REPLY) {
        struct oko_prog_stats *progs;
        size_t n;
        error = oko_decode_prog_stats_reply(oh, &progs, &n, &why);
        for (size_t i = 0; !error && i < n; i++) {
            oko_format_prog_stats(s, &progs[i]);
        }
        free(progs);
    } else {
        OVS_NOT_REACHED();
    }
    if (error && why.length) {
        ds_put_format(s, " ***%s***", ds_cstr(&why));
    }
    ds_destroy(&why);
    return error;
}
