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

/* test-oko-ofp VECTORS_DIR: checks the C side of the protocol
 * against docs/protocol/vectors (the same files the Java codecs test):
 * every "ok" message vector decodes and, where OVS encodes that message,
 * re-encodes byte for byte; every "malformed" one is refused.  Prints one
 * line per vector and a summary.
 * OXM and action vectors go through the filter_prog and SEND_MAPS
 * codecs; FLOW_MOD vectors through OVS's own flow mod decoder and
 * encoder (filter_prog and SEND_MAPS in OVS's flow model). */

#include <config.h>
#undef NDEBUG
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte-order.h"
#include "oko/oko-ofp-msgs.h"
#include "oko/oko-ofp.h"
#include "openflow/openflow.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofp-flow.h"
#include "openvswitch/ofp-print.h"
#include "openvswitch/ofp-protocol.h"
#include "openvswitch/ofp-errors.h"
#include "openvswitch/ofp-msgs.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* OFPT_FLOW_MOD in OpenFlow 1.1 and later */
#define OFP11_TYPE_FLOW_MOD 14

struct vector {
    char kind[32];
    bool ok;
    struct ofpbuf bytes;
};

static bool
read_vector(const char *path, struct vector *v)
{
    FILE *f = fopen(path, "r");
    char line[1024];

    if (!f) {
        return false;
    }
    memset(v->kind, 0, sizeof v->kind);
    v->ok = false;
    ofpbuf_init(&v->bytes, 64);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            sscanf(line, "# kind: %31s", v->kind);
            if (!strncmp(line, "# expect: ok", 12)) {
                v->ok = true;
            }
            continue;
        }
        for (char *p = strtok(line, " \t\r\n"); p;
             p = strtok(NULL, " \t\r\n")) {
            uint8_t b = strtoul(p, NULL, 16);
            ofpbuf_put(&v->bytes, &b, 1);
        }
    }
    fclose(f);
    return true;
}

static struct ofpbuf *reencode_send_maps(const struct ofp_header *);
static struct ofpbuf *reencode_prog_stats(const struct ofp_header *);
static struct ofpbuf *reencode_replay_reply(const struct ofp_header *);

/* Decodes 'oh' as an Oko message; returns 0 if it is a well-formed one.
 * Sets '*reencoded' to OVS's encoding of the decoded value, if it has one. */
static enum ofperr
check_message(const struct ofp_header *oh, size_t size,
              struct ofpbuf **reencoded)
{
    enum ofptype type;
    enum ofperr error;

    *reencoded = NULL;
    if (size < sizeof *oh || ntohs(oh->length) != size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    error = ofptype_decode(&type, oh);
    if (error) {
        return error;
    }
    if (type == OFPTYPE_ERROR) {
        struct ofpbuf payload;
        enum ofperr e = ofperr_decode_msg(oh, &payload);
        ofpbuf_uninit(&payload);
        return e && oko_is_oko_error(e) ? 0 : OFPERR_OFPBRC_BAD_TYPE;
    }
    if (type < OFPTYPE_OKO_LOAD_PROG || type > OFPTYPE_OKO_MARK_INSTALLED) {
        return OFPERR_OFPBRC_BAD_TYPE;      /* not an Oko message */
    }
    struct ds s = DS_EMPTY_INITIALIZER;
    error = oko_ofp_print(&s, oh, type, 1);
    ds_destroy(&s);
    if (error) {
        return error;
    }
    if (type == OFPTYPE_OKO_LOAD_PROG) {
        struct oko_load_prog_msg m;
        ovs_assert(!oko_decode_load_prog(oh, &m, NULL));
        *reencoded = oko_encode_load_prog(oh->version, m.prog_id, m.flags,
                                          m.elf, m.elf_len);
    } else if (type == OFPTYPE_OKO_UNLOAD_PROG) {
        struct oko_unload_prog_msg m;
        ovs_assert(!oko_decode_unload_prog(oh, &m, NULL));
        *reencoded = oko_encode_unload_prog(oh->version, m.prog_id, m.flags);
    } else if (type == OFPTYPE_OKO_UPDATE_MAP
               || type == OFPTYPE_OKO_DELETE_MAP_ENTRIES) {
        struct oko_map_msg_decoded m;
        ovs_assert(!oko_decode_map_msg(oh, &m, NULL));
        *reencoded = oko_encode_map_msg(oh->version, m.is_delete, m.prog_id,
                                        m.map_index, m.flags, m.key_size,
                                        m.value_size, m.n_entries, m.entries);
    } else if (type == OFPTYPE_OKO_DUMP_MAPS_REQUEST) {
        struct oko_dump_maps_request_msg m;
        ovs_assert(!oko_decode_dump_maps_request(oh, &m, NULL));
        *reencoded
            = oko_encode_dump_maps_request(oh->version, m.prog_id, m.map_mask);
    } else if (type == OFPTYPE_OKO_PROG_STATS_REQUEST) {
        uint32_t prog_id;
        ovs_assert(!oko_decode_prog_stats_request(oh, &prog_id, NULL));
        *reencoded = oko_encode_prog_stats_request(oh->version, prog_id);
    } else if (type == OFPTYPE_OKO_PROG_STATS_REPLY) {
        *reencoded = reencode_prog_stats(oh);
    } else if (type == OFPTYPE_OKO_REPLAY_MAPS_REQUEST) {
        struct oko_replay_maps_request_msg m;
        ovs_assert(!oko_decode_replay_maps_request(oh, &m, NULL));
        *reencoded = oko_encode_replay_maps_request(oh->version, &m);
    } else if (type == OFPTYPE_OKO_REPLAY_MAPS_REPLY) {
        *reencoded = reencode_replay_reply(oh);
    } else if (type == OFPTYPE_OKO_MARK_INSTALLED) {
        struct oko_mark_installed_msg m;
        ovs_assert(!oko_decode_mark_installed(oh, &m, NULL));
        *reencoded = oko_encode_mark_installed(oh->version, &m);
    }
    if (type == OFPTYPE_OKO_SEND_MAPS) {
        *reencoded = reencode_send_maps(oh);
    }
    if (*reencoded) {
        struct ofp_header *new = (*reencoded)->data;
        new->xid = oh->xid;
    }
    return 0;
}

/* Sections collected from messages, for re-encoding and reassembly. */
struct collected {
    struct oko_map_contents maps[64];
    struct ofpbuf data[64];
    size_t n;
    bool continues_seen;
};

static void
collect(const struct oko_map_contents *m, bool continues, void *aux)
{
    struct collected *c = aux;
    /* A section continuing the previous one (same map) is appended to it. */
    struct oko_map_contents *last = c->n ? &c->maps[c->n - 1] : NULL;
    if (!last || last->map_index != m->map_index || !c->continues_seen) {
        ovs_assert(c->n < ARRAY_SIZE(c->maps));
        last = &c->maps[c->n];
        *last = *m;
        last->n_entries = 0;
        ofpbuf_init(&c->data[c->n], 64);
        c->n++;
    }
    ofpbuf_put(&c->data[c->n - 1], m->entries,
               (size_t) m->n_entries * (m->key_size + m->value_size));
    last->n_entries += m->n_entries;
    last->entries = c->data[c->n - 1].data;
    c->continues_seen = continues;
}

static void
collected_destroy(struct collected *c)
{
    for (size_t i = 0; i < c->n; i++) {
        ofpbuf_uninit(&c->data[i]);
    }
}

/* A one-fragment SEND_MAPS re-encoded from its sections. */
static struct ofpbuf *
reencode_send_maps(const struct ofp_header *oh)
{
    struct ofpbuf b = ofpbuf_const_initializer(oh, ntohs(oh->length));
    ofpraw_pull_assert(&b);
    const struct oko_send_maps *sm = b.data;
    if (sm->fragment || !(sm->flags & OKO_SEND_MAPS_LAST)) {
        return NULL;                        /* part of a longer event */
    }
    struct oko_send_maps_event event = {
        .prog_id = ntohl(sm->prog_id), .event_id = ntohl(sm->event_id),
        .cookie = ntohll(sm->cookie), .table_id = sm->table_id,
        .suppressed = ntohl(sm->suppressed),
    };
    struct collected c = { .n = 0 };
    ovs_assert(!oko_for_each_section(oh, collect, &c));
    struct ovs_list fragments = OVS_LIST_INITIALIZER(&fragments);
    oko_encode_send_maps(oh->version, &event, c.maps, c.n, UINT16_MAX,
                         &fragments);
    collected_destroy(&c);
    ovs_assert(ovs_list_size(&fragments) == 1);
    return CONTAINER_OF(ovs_list_front(&fragments), struct ofpbuf, list_node);
}

/* A PROG_STATS reply re-encoded from its records, with the original's
 * mp_flags (the encoder sets REPLY_MORE by its own list of replies). */
static struct ofpbuf *
reencode_prog_stats(const struct ofp_header *oh)
{
    struct oko_prog_stats *progs;
    size_t n;
    ovs_assert(!oko_decode_prog_stats_reply(oh, &progs, &n, NULL));
    struct ofpbuf *request = oko_encode_prog_stats_request(oh->version, 0);
    ((struct ofp_header *) request->data)->xid = oh->xid;
    struct ovs_list replies = OVS_LIST_INITIALIZER(&replies);
    oko_encode_prog_stats_replies(request->data, progs, n, &replies);
    ofpbuf_delete(request);
    free(progs);
    ovs_assert(ovs_list_size(&replies) == 1);
    struct ofpbuf *msg
        = CONTAINER_OF(ovs_list_front(&replies), struct ofpbuf, list_node);
    memcpy(ofpbuf_at_assert(msg, 10, 2), (const uint8_t *) oh + 10, 2);
    return msg;
}

/* A REPLAY_MAPS reply re-encoded from its event (a whole one-fragment
 * event, or none), with the original's mp_flags. */
static struct ofpbuf *
reencode_replay_reply(const struct ofp_header *oh)
{
    struct ofpbuf b = ofpbuf_const_initializer(oh, ntohs(oh->length));
    ofpraw_pull_assert(&b);
    const struct oko_replay_maps_reply *r = ofpbuf_pull(&b, sizeof *r);
    const struct oko_send_maps *sm = b.size ? b.data : NULL;
    if (sm && (sm->fragment || !(sm->flags & OKO_SEND_MAPS_LAST))) {
        return NULL;                        /* part of a longer event */
    }
    struct oko_replay_maps_request_msg m = { .prog_id = ntohl(r->prog_id) };
    struct ofpbuf *request = oko_encode_replay_maps_request(oh->version, &m);
    ((struct ofp_header *) request->data)->xid = oh->xid;

    struct collected c = { .n = 0 };
    struct oko_replay_event event = { .maps = c.maps };
    if (sm) {
        event.event = (struct oko_send_maps_event) {
            .prog_id = ntohl(sm->prog_id), .event_id = ntohl(sm->event_id),
            .cookie = ntohll(sm->cookie), .table_id = sm->table_id,
            .suppressed = ntohl(sm->suppressed),
        };
        ovs_assert(!oko_for_each_section(oh, collect, &c));
        event.n_maps = c.n;
    }
    struct ovs_list replies = OVS_LIST_INITIALIZER(&replies);
    oko_encode_replay_maps_replies(request->data, ntohl(r->prog_id),
                                   ntohl(r->next_event_id), &event, sm != NULL,
                                   UINT16_MAX, &replies);
    collected_destroy(&c);
    ofpbuf_delete(request);
    ovs_assert(ovs_list_size(&replies) == 1);
    struct ofpbuf *msg
        = CONTAINER_OF(ovs_list_front(&replies), struct ofpbuf, list_node);
    memcpy(ofpbuf_at_assert(msg, 10, 2), (const uint8_t *) oh + 10, 2);
    return msg;
}

/* An event too large for one fragment: every fragment is well-formed and
 * at most 'max_len' bytes, only the last is LAST, and the sections add up
 * to the maps encoded. */
/* Decodes the FLOW_MOD 'oh' as ovs-vswitchd does and encodes it again;
 * '*same' says whether the bytes are the same. */
static enum ofperr
check_flow_mod(const struct ofp_header *oh, bool *same)
{
    enum ofputil_protocol protocol
        = ofputil_protocol_from_ofp_version(oh->version);
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;

    *same = false;
    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = ofputil_decode_flow_mod(&fm, oh, protocol, NULL, NULL,
                                                &ofpacts, OFPP_MAX, 255);
    if (!error) {
        struct ofpbuf *again = ofputil_encode_flow_mod(&fm, protocol);
        again->header = again->data;
        ((struct ofp_header *) again->data)->xid = oh->xid;
        *same = again->size == ntohs(oh->length)
                && !memcmp(again->data, oh, again->size);
        if (!*same) {
            char *s = ofp_to_string(again->data, again->size, NULL, NULL, 2);
            printf("  re-encoded differently: %s\n", s);
            free(s);
        }
        ofpbuf_delete(again);
        minimatch_destroy(&fm.match);
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

static bool
check_fragmentation(size_t max_len)
{
    enum { N_ENTRIES = 100, KEY = 12, VALUE = 8 };
    static uint8_t entries[N_ENTRIES * (KEY + VALUE)];
    for (size_t i = 0; i < sizeof entries; i++) {
        entries[i] = i * 7 + 3;
    }
    struct oko_map_contents maps[] = {
        { 0, 1, KEY, VALUE, N_ENTRIES, entries },
        { 1, 2, 4, 4, 0, NULL },
        { 5, 3, KEY, VALUE, 37, entries },
    };
    struct oko_send_maps_event event = { 9, 41, 0xc0ffee, 2, 3 };
    struct ovs_list fragments = OVS_LIST_INITIALIZER(&fragments);
    oko_encode_send_maps(OFP13_VERSION, &event, maps, ARRAY_SIZE(maps),
                         max_len, &fragments);

    struct collected c = { .n = 0 };
    struct ofpbuf *msg;
    size_t n = 0, n_last = 0;
    bool ok = true, last_is_last = false;
    LIST_FOR_EACH (msg, list_node, &fragments) {
        const struct ofp_header *oh = msg->data;
        struct ds s = DS_EMPTY_INITIALIZER;
        ok &= msg->size <= max_len && ntohs(oh->length) == msg->size;
        ok &= !oko_ofp_print(&s, oh, OFPTYPE_OKO_SEND_MAPS, 1);
        ds_destroy(&s);
        const struct oko_send_maps *sm = ofpbuf_at_assert(msg, 16, sizeof *sm);
        ok &= ntohs(sm->fragment) == n && ntohl(sm->event_id) == 41;
        n_last += (sm->flags & OKO_SEND_MAPS_LAST) != 0;
        last_is_last = (sm->flags & OKO_SEND_MAPS_LAST) != 0;
        ok &= !oko_for_each_section(oh, collect, &c);
        n++;
    }
    ok &= n_last == 1 && last_is_last;
    ok &= c.n == ARRAY_SIZE(maps);
    for (size_t i = 0; ok && i < c.n; i++) {
        size_t bytes = (size_t) maps[i].n_entries
                       * (maps[i].key_size + maps[i].value_size);
        ok &= c.maps[i].map_index == maps[i].map_index
              && c.maps[i].n_entries == maps[i].n_entries
              && (!bytes
                  || !memcmp(c.maps[i].entries, maps[i].entries, bytes));
    }
    collected_destroy(&c);
    ofpbuf_list_delete(&fragments);
    printf("fragmentation at %" PRIuSIZE " bytes: %" PRIuSIZE
           " fragments, %s\n",
           max_len, n, ok ? "pass" : "FAIL");
    return ok;
}

/* REPLAY_MAPS replies for three events (the middle one without maps), cut
 * at 'max_len': one fragment per reply, each reply at most 'max_len' bytes,
 * fragments numbered per event, LAST on each event's last, REPLY_MORE on
 * all but the last reply, and each event's sections add up to its maps. */
static bool
check_replay_fragmentation(size_t max_len)
{
    enum { N_ENTRIES = 100, KEY = 12, VALUE = 8 };
    static uint8_t entries[N_ENTRIES * (KEY + VALUE)];
    for (size_t i = 0; i < sizeof entries; i++) {
        entries[i] = i * 5 + 1;
    }
    struct oko_map_contents maps[] = {
        { 0, 1, KEY, VALUE, N_ENTRIES, entries },
        { 3, 2, 4, 4, 0, NULL },
    };
    struct oko_replay_event events[] = {
        { { 9, 0xfffffffe, 0xc0ffee, 2, 0 }, maps, ARRAY_SIZE(maps) },
        { { 9, 0xffffffff, 0xc0ffee, 2, 4 }, NULL, 0 },
        { { 9, 0, 0xc0ffee, 2, 0 }, maps, ARRAY_SIZE(maps) },
    };
    struct oko_replay_maps_request_msg m = { .prog_id = 9, .all = true };
    struct ofpbuf *request = oko_encode_replay_maps_request(OFP13_VERSION, &m);
    struct ovs_list replies = OVS_LIST_INITIALIZER(&replies);
    oko_encode_replay_maps_replies(request->data, 9, 1, events,
                                   ARRAY_SIZE(events), max_len, &replies);
    ofpbuf_delete(request);

    struct collected c[ARRAY_SIZE(events)];
    memset(c, 0, sizeof c);
    struct ofpbuf *msg;
    size_t n = 0, e = 0;
    uint16_t next_fragment = 0;
    bool ok = true;
    LIST_FOR_EACH (msg, list_node, &replies) {
        const struct ofp_header *oh = msg->data;
        struct ds s = DS_EMPTY_INITIALIZER;
        ok &= msg->size <= max_len && ntohs(oh->length) == msg->size;
        ok &= !oko_ofp_print(&s, oh, OFPTYPE_OKO_REPLAY_MAPS_REPLY, 1);
        ds_destroy(&s);
        ok &= ofpmp_more(oh) == (msg->list_node.next != &replies);
        const struct oko_replay_maps_reply *r
            = ofpbuf_at_assert(msg, 24, sizeof *r);
        const struct oko_send_maps *sm = ofpbuf_at_assert(msg, 32, sizeof *sm);
        ok &= ntohl(r->prog_id) == 9 && ntohl(r->next_event_id) == 1
              && e < ARRAY_SIZE(events);
        if (!ok) {
            break;
        }
        ok &= ntohl(sm->event_id) == events[e].event.event_id;
        ok &= ntohs(sm->fragment) == next_fragment++;
        ok &= ntohl(sm->suppressed) == events[e].event.suppressed;
        ok &= !oko_for_each_section(oh, collect, &c[e]);
        if (sm->flags & OKO_SEND_MAPS_LAST) {
            e++;
            next_fragment = 0;
        }
        n++;
    }
    ok &= e == ARRAY_SIZE(events);
    for (size_t i = 0; ok && i < ARRAY_SIZE(events); i++) {
        ok &= c[i].n == events[i].n_maps;
        for (size_t j = 0; ok && j < c[i].n; j++) {
            size_t bytes = (size_t) maps[j].n_entries
                           * (maps[j].key_size + maps[j].value_size);
            ok &= c[i].maps[j].map_index == maps[j].map_index
                  && c[i].maps[j].n_entries == maps[j].n_entries
                  && (!bytes
                      || !memcmp(c[i].maps[j].entries, maps[j].entries,
                                 bytes));
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(events); i++) {
        collected_destroy(&c[i]);
    }
    ofpbuf_list_delete(&replies);
    printf("replay fragmentation at %" PRIuSIZE " bytes: %" PRIuSIZE
           " replies, %s\n",
           max_len, n, ok ? "pass" : "FAIL");
    return ok;
}

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

int
main(int argc, char *argv[])
{
    const char *dir = argc > 1 ? argv[1] : ".";
    DIR *d = opendir(dir);
    char *names[256];
    size_t n = 0;
    int passed = 0, failed = 0, byte_exact = 0, not_message = 0;

    if (!d) {
        ovs_fatal(errno, "%s", dir);
    }
    for (struct dirent *e; (e = readdir(d)) && n < ARRAY_SIZE(names);) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".hex")) {
            names[n++] = xstrdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);

    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", dir, names[i]);
        struct vector v;
        ovs_assert(read_vector(path, &v));
        free(path);
        const struct ofp_header *oh = v.bytes.data;
        if (!strcmp(v.kind, "oxm") || !strcmp(v.kind, "action")) {
            /* Decode, and re-encode what decodes. */
            struct ofpbuf again;
            uint32_t prog_id;
            uint64_t mask;
            enum ofperr error;
            ofpbuf_init(&again, 32);
            if (v.kind[0] == 'o') {
                error = oko_decode_filter_prog_oxm(v.bytes.data, v.bytes.size,
                                                   &prog_id);
                if (!error) {
                    oko_put_filter_prog_oxm(&again, prog_id);
                }
            } else {
                error = oko_decode_send_maps_action(v.bytes.data, v.bytes.size,
                                                    &mask);
                if (!error) {
                    oko_put_send_maps_action(&again, mask);
                }
            }
            bool good = v.ok ? !error && again.size == v.bytes.size
                               && !memcmp(again.data, v.bytes.data, again.size)
                             : error != 0;
            byte_exact += v.ok && good;
            printf("%s: %s%s%s\n", names[i], good ? "pass" : "FAIL",
                   error ? ", refused: " : "",
                   error ? ofperr_get_name(error) : "");
            good ? passed++ : failed++;
            ofpbuf_uninit(&again);
            ofpbuf_uninit(&v.bytes);
            free(names[i]);
            continue;
        }
        if (v.bytes.size >= sizeof *oh && oh->type == OFP11_TYPE_FLOW_MOD) {
            /* A FLOW_MOD with Oko's match field and action: OVS's own
             * decoder and encoder must give back the same bytes. */
            bool same;
            enum ofperr error = check_flow_mod(oh, &same);
            bool good = v.ok ? !error && same : error != 0;
            byte_exact += v.ok && good;
            printf("%s: %s%s%s\n", names[i], good ? "pass" : "FAIL",
                   error ? ", refused: " : "",
                   error ? ofperr_get_name(error) : "");
            good ? passed++ : failed++;
            ofpbuf_uninit(&v.bytes);
            free(names[i]);
            continue;
        }
        struct ofpbuf *again;
        enum ofperr error = check_message(v.bytes.data, v.bytes.size, &again);
        bool good;
        if (v.ok) {
            good = !error;
            if (good && again) {
                good = again->size == v.bytes.size
                       && !memcmp(again->data, v.bytes.data, v.bytes.size);
                byte_exact += good;
            }
        } else {
            good = error != 0;
        }
        printf("%s: %s%s%s\n", names[i], good ? "pass" : "FAIL",
               error ? ", refused: " : "",
               error ? ofperr_get_name(error) : "");
        good ? passed++ : failed++;
        ofpbuf_delete(again);
        ofpbuf_uninit(&v.bytes);
        free(names[i]);
    }
    printf("vectors: %d pass (%d re-encoded byte for byte), %d fail, %d not "
           "messages\n",
           passed, byte_exact, failed, not_message);
    bool fragments_ok
        = (check_fragmentation(200) & check_fragmentation(UINT16_MAX)
           & check_replay_fragmentation(232)
           & check_replay_fragmentation(UINT16_MAX));
    return failed || !fragments_ok ? 1 : 0;
}
