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
#include "oko/ofproto-oko.h"

#include <errno.h>
#include <string.h>
#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#include "cmap.h"
#include "connmgr.h"
#include "oko/oko-connmgr.h"
#include "hash.h"
#include "odp-util.h"
#include "dp-packet.h"
#include "oko-filter.h"
#include "oko/oko-chain.h"
#include "oko/oko-dp.h"
#include "oko/oko-fold-xlate.h"
#include "oko/oko-fused.h"
#include "oko/oko-instance.h"
#include "oko/oko-ofp-msgs.h"
#include "oko/oko-ofp.h"
#include "ofproto-provider.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/ofp-flow.h"
#include "openvswitch/list.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "guarded-list.h"
#include "openvswitch/ofp-actions.h"
#include "ovs-rcu.h"
#include "seq.h"
#include "simap.h"
#include "timeval.h"
#include "unaligned.h"
#include "ovs-thread.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(ofproto_oko);

/* A loaded program.  Translation threads reach 'inst' through RCU: a
 * replacement publishes the new instance and drops the table's reference to
 * the old one, which is freed when no cached flow refers to it and a grace
 * period has passed, so no packet sees a half-replaced program. */
struct oko_prog {
    struct cmap_node node;          /* In oko_ofproto's 'progs'. */
    uint32_t id;
    OVSRCU_TYPE(struct oko_instance *) inst;

    /* SEND_MAPS (docs/protocol.md 5.6): the rate limit is a token bucket
     * kept as a theoretical arrival time (GCRA), so the packet threads
     * that ask for events need no lock. */
    atomic_llong send_tat;          /* In ms (time_msec()). */
    atomic_uint32_t suppressed;     /* Since the last event sent. */
    uint32_t next_event_id;         /* Main thread only. */

    /* The events sent last, for REPLAY_MAPS (docs/protocol.md 5.7): a
     * controller that was not listening (a cluster's new master taking the
     * switch over) asks for them.  Main thread only, oldest first. */
    /* Contains "struct oko_retained_event"s. */
    struct ovs_list retained;
    size_t n_retained;
    /* Their memory: entries and bookkeeping. */
    size_t retained_bytes;

    /* SHA-256 of the ELF object the running program was loaded from
     * (PROG_STATS, docs/protocol.md 4.3): a controller that takes the switch
     * over sees whether the program it would load runs already.  Main thread
     * only, like LOAD_PROG and PROG_STATS. */
    bool has_elf_sha256;
    uint8_t elf_sha256[OKO_PROG_STATS_SHA256_LEN];

    /* The last MARK_INSTALLED since the program was loaded (docs/protocol.md
     * 4.4), all zero if none: the controller that installed the program
     * says its map writes all went through, so a controller taking the
     * switch over can tell a complete install from one cut short.  Main
     * thread only. */
    uint8_t install_mark[OKO_INSTALL_MARK_LEN];
};

/* A SEND_MAPS action ran: the maps to send, queued for the main thread. */
struct oko_send_request {
    struct ovs_list list_node;
    uint32_t prog_id;
    uint64_t map_mask;
    ovs_be64 cookie;
    uint8_t table_id;
};

#define OKO_SEND_MAPS_PER_SEC 10
#define OKO_SEND_MAPS_BURST 10
#define OKO_SEND_QUEUE_MAX 1024

/* A SEND_MAPS event as it was sent: the maps' entries, each in its own
 * buffer trimmed to size. */
struct oko_retained_event {
    struct ovs_list list_node;      /* In oko_prog's 'retained'. */
    struct oko_send_maps_event event;
    size_t bytes;                   /* Memory it holds, entries and all. */
    size_t n_maps;
    struct oko_map_contents *maps;
    struct ofpbuf *bufs;
};

/* What a program retains: at the rate limit, 256 events are the last 25.6
 * seconds, long enough for a cluster's failover; 1 MiB bounds the memory
 * of a program that sends large maps, and 16 MiB that of a bridge with many
 * such programs (a program whose event does not fit drops its own oldest). */
#define OKO_RETAIN_EVENTS 256
#define OKO_RETAIN_BYTES (1024 * 1024)
#define OKO_RETAIN_BRIDGE_BYTES (16 * 1024 * 1024)

/* How many rules name a program id (whether or not it is loaded: a forced
 * unload leaves rules behind, and they count again when the id is loaded
 * again). */
struct oko_rule_count {
    struct hmap_node node;          /* In oko_ofproto's 'rule_counts'. */
    uint32_t id;
    unsigned int n;
};

struct oko_ofproto {
    struct ovs_list list_node;      /* In 'all_okos'. */
    struct ofproto *ofproto;
    struct cmap progs;              /* Contains "struct oko_prog"s, by id. */
    size_t n_progs;
    struct hmap rule_counts;        /* Contains "struct oko_rule_count"s. */
    char *error_text;               /* Why the last flow mod was refused. */

    /* SEND_MAPS requests from packet threads; 'send_seq' wakes the main
     * thread. */
    struct guarded_list send_requests;
    struct seq *send_seq;
    uint64_t send_seq_seen;

    /* Memory of every program's retained SEND_MAPS events (main thread). */
    size_t retained_bytes;
};

/* Every bridge that has had a program, for oko/show. */
static struct ovs_list all_okos = OVS_LIST_INITIALIZER(&all_okos);

static struct oko_ofproto *
oko_ofproto_get(struct ofproto *ofproto)
{
    if (!ofproto->oko) {
        ofproto->oko = xzalloc(sizeof *ofproto->oko);
        ofproto->oko->ofproto = ofproto;
        cmap_init(&ofproto->oko->progs);
        hmap_init(&ofproto->oko->rule_counts);
        guarded_list_init(&ofproto->oko->send_requests);
        ofproto->oko->send_seq = seq_create();
        ofproto->oko->send_seq_seen = seq_read(ofproto->oko->send_seq);
        ovs_list_push_back(&all_okos, &ofproto->oko->list_node);
    }
    return ofproto->oko;
}

static struct oko_prog *
prog_find(const struct oko_ofproto *oko, uint32_t id)
{
    struct oko_prog *prog;

    CMAP_FOR_EACH_WITH_HASH (prog, node, hash_int(id, 0), &oko->progs) {
        if (prog->id == id) {
            return prog;
        }
    }
    return NULL;
}

/* The loaded program 'id' in '*progp', or OKO_UNKNOWN_PROG with a text. */
static enum ofperr
find_prog(struct ofproto *ofproto, uint32_t id, struct oko_prog **progp,
          struct ds *why)
{
    *progp = prog_find(oko_ofproto_get(ofproto), id);
    if (!*progp) {
        ds_put_format(why, "program %"PRIu32" is not loaded", id);
        return OFPERR_OKO_UNKNOWN_PROG;
    }
    return 0;
}

static struct oko_instance *
prog_inst(const struct oko_prog *prog)
{
    return ovsrcu_get(struct oko_instance *, &prog->inst);
}

static struct oko_filter *
prog_filter(const struct oko_prog *prog)
{
    return prog_inst(prog)->filter;
}

static void
retained_event_destroy(struct oko_retained_event *r)
{
    for (size_t i = 0; i < r->n_maps; i++) {
        ofpbuf_uninit(&r->bufs[i]);
    }
    free(r->bufs);
    free(r->maps);
    free(r);
}

static void
prog_destroy_cb(struct oko_prog *prog)
{
    struct oko_retained_event *r;

    oko_instance_unref(
        ovsrcu_get_protected(struct oko_instance *, &prog->inst));
    LIST_FOR_EACH_POP (r, list_node, &prog->retained) {
        retained_event_destroy(r);
    }
    free(prog);
}

static struct oko_rule_count *
rule_count_find(const struct oko_ofproto *oko, uint32_t id)
{
    struct oko_rule_count *rc;

    HMAP_FOR_EACH_WITH_HASH (rc, node, hash_int(id, 0), &oko->rule_counts) {
        if (rc->id == id) {
            return rc;
        }
    }
    return NULL;
}

static unsigned int
rules_naming(const struct oko_ofproto *oko, uint32_t id)
{
    const struct oko_rule_count *rc = rule_count_find(oko, id);
    return rc ? rc->n : 0;
}

/* Cached translations that ran a program may now be wrong: have the
 * revalidators look at every datapath flow. */
static void
translations_changed(struct ofproto *ofproto)
{
    ovs_mutex_lock(&ofproto_mutex);
    ofproto->ofproto_class->set_tables_version(ofproto,
                                               ofproto->tables_version);
    ovs_mutex_unlock(&ofproto_mutex);
}

/* Sends Oko error 'error' with the text in 'why' in reply to 'oh'. */
static enum ofperr
send_oko_error(struct ofconn *ofconn, const struct ofp_header *oh,
               enum ofperr error, struct ds *why)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

    if (!oko_is_oko_error(error)) {
        return error;               /* ofproto sends it, with the request */
    }
    VLOG_INFO_RL(&rl, "%s: %s: %s", ofconn_get_ofproto(ofconn)->name,
                 ofperr_get_name(error), ds_cstr(why));
    ofconn_send_reply(ofconn, oko_encode_error(error, oh, ds_cstr(why)));
    return 0;
}

/* The SHA-256 of an ELF object, into 'out'; false when this build has no
 * SHA-256 (no OpenSSL): PROG_STATS then omits it. */
static bool
elf_sha256(const uint8_t *elf, size_t len,
           uint8_t out[OKO_PROG_STATS_SHA256_LEN])
{
#ifdef HAVE_OPENSSL
    unsigned int out_len = 0;
    if (EVP_Digest(elf, len, out, &out_len, EVP_sha256(), NULL)
        && out_len == OKO_PROG_STATS_SHA256_LEN) {
        return true;
    }
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    VLOG_WARN_RL(&rl,
                 "SHA-256 of a loaded ELF object failed: PROG_STATS omits it");
#else
    (void) elf;
    (void) len;
    (void) out;
#endif
    return false;
}

static enum ofperr
handle_load_prog(struct ofproto *ofproto, const struct ofp_header *oh,
                 struct ds *why)
{
    struct oko_load_prog_msg m;
    enum ofperr error = oko_decode_load_prog(oh, &m, why);
    if (error) {
        return error;
    }

    struct oko_ofproto *oko = oko_ofproto_get(ofproto);
    struct oko_prog *prog = prog_find(oko, m.prog_id);
    if (prog && !(m.flags & OKO_LOAD_REPLACE)) {
        ds_put_format(why,
                      "program %" PRIu32
                      " is already loaded (load it with replace to "
                      "replace it)",
                      m.prog_id);
        return OFPERR_OKO_PROG_EXISTS;
    }
    if (!prog && oko->n_progs >= OKO_MAX_PROGS_PER_BRIDGE) {
        ds_put_format(why, "%d programs are loaded; no more fit",
                      OKO_MAX_PROGS_PER_BRIDGE);
        return OFPERR_OKO_RESOURCES;
    }

    /* Parse, then verify, compile and create the maps. */
    char text[OKO_ERROR_MAX];
    struct oko_program program;
    int err = oko_program_load_elf(m.elf, m.elf_len, &program, text);
    if (err) {
        ds_put_cstr(why, text);
        return OFPERR_OKO_BAD_ELF;
    }
    struct oko_filter_options opts = {
        .keep_maps_from
        = prog && m.flags & OKO_LOAD_KEEP_MAPS ? prog_filter(prog) : NULL,
    };
    struct oko_filter *filter;
    err = oko_filter_from_program(&program, &opts, &filter, text);
    if (err) {
        ds_put_cstr(why, text);
        return (err == ENOEXEC ? OFPERR_OKO_BAD_ELF
                : err == EINVAL ? OFPERR_OKO_VERIFIER_REJECTED
                : OFPERR_OKO_RESOURCES);
    }

    struct oko_instance *inst = oko_instance_create(filter, m.prog_id);
    if (prog) {
        struct oko_instance *old = prog_inst(prog);
        ovsrcu_set(&prog->inst, inst);
        oko_instance_unref(old);
    } else {
        prog = xzalloc(sizeof *prog);
        prog->id = m.prog_id;
        ovs_list_init(&prog->retained);
        ovsrcu_set_hidden(&prog->inst, inst);
        cmap_insert(&oko->progs, &prog->node, hash_int(prog->id, 0));
        oko->n_progs++;
    }
    prog->has_elf_sha256 = elf_sha256(m.elf, m.elf_len, prog->elf_sha256);
    /* Loaded again: not installed until the controller marks it so. */
    memset(prog->install_mark, 0, sizeof prog->install_mark);
    translations_changed(ofproto);
    VLOG_INFO("%s: %s program %" PRIu32 " (%" PRIuSIZE
              " instructions, %" PRIuSIZE " maps, "
              "%s)",
              ofproto->name,
              opts.keep_maps_from          ? "replaced, keeping maps,"
              : m.flags & OKO_LOAD_REPLACE ? "loaded or replaced"
                                           : "loaded",
              m.prog_id, filter->prog.n_insns, filter->prog.n_maps,
              filter->jit.fn ? "jit" : "interpreter");
    return 0;
}

static enum ofperr
handle_unload_prog(struct ofproto *ofproto, const struct ofp_header *oh,
                   struct ds *why)
{
    struct oko_unload_prog_msg m;
    enum ofperr error = oko_decode_unload_prog(oh, &m, why);
    if (error) {
        return error;
    }
    struct oko_ofproto *oko = oko_ofproto_get(ofproto);
    struct oko_prog *prog = prog_find(oko, m.prog_id);
    if (!prog) {
        ds_put_format(why, "program %"PRIu32" is not loaded", m.prog_id);
        return OFPERR_OKO_UNKNOWN_PROG;
    }
    unsigned int n_rules = rules_naming(oko, m.prog_id);
    if (n_rules && !(m.flags & OKO_UNLOAD_FORCE)) {
        ds_put_format(why,
                      "program %" PRIu32
                      " is used by %u rules (unload it with force "
                      "to unload it anyway: those rules then match no packet)",
                      m.prog_id, n_rules);
        return OFPERR_OKO_PROG_IN_USE;
    }
    cmap_remove(&oko->progs, &prog->node, hash_int(prog->id, 0));
    oko->n_progs--;
    oko->retained_bytes -= prog->retained_bytes;     /* Freed with 'prog'. */
    ovsrcu_postpone(prog_destroy_cb, prog);
    translations_changed(ofproto);
    VLOG_INFO("%s: unloaded program %"PRIu32, ofproto->name, m.prog_id);
    return 0;
}

/* Finds the program and map that 'prog_id'/'map_index' name. */
static enum ofperr
find_map(struct ofproto *ofproto, uint32_t prog_id, unsigned int map_index,
         struct oko_filter **filterp, struct ds *why)
{
    struct oko_prog *prog;
    enum ofperr error = find_prog(ofproto, prog_id, &prog, why);
    if (error) {
        return error;
    }
    *filterp = prog_filter(prog);
    if (map_index >= (*filterp)->prog.n_maps) {
        ds_put_format(why,
                      "program %" PRIu32 " has %" PRIuSIZE
                      " maps; there is no map %u",
                      prog_id, (*filterp)->prog.n_maps, map_index);
        return OFPERR_OKO_BAD_MAP_INDEX;
    }
    return 0;
}

enum { MAP_HASH = 1, MAP_ARRAY, MAP_LRU, MAP_BLOOM, MAP_COUNT_MIN, MAP_LPM };

/* Checks entry 'i''s key for the map's type (docs/protocol.md 5.3). */
static enum ofperr
check_key(const struct oko_map_decl *d, const uint8_t *key, uint32_t i,
          struct ds *why)
{
    uint32_t v;
    if (d->type == MAP_ARRAY) {
        memcpy(&v, key, 4);
        if (v >= d->max_entries) {
            ds_put_format(why,
                          "entry %" PRIu32 ": array index %" PRIu32
                          " is not below "
                          "max_entries %" PRIu32,
                          i + 1, v, d->max_entries);
            return OFPERR_OKO_BAD_KEY;
        }
    } else if (d->type == MAP_LPM) {
        memcpy(&v, key, 4);
        if (v > (d->key_size - 4) * 8) {
            ds_put_format(why,
                          "entry %" PRIu32 ": prefix length %" PRIu32
                          " is longer than "
                          "the %" PRIu32 "-bit address",
                          i + 1, v, (d->key_size - 4) * 8);
            return OFPERR_OKO_BAD_KEY;
        }
    }
    return 0;
}

static enum ofperr
handle_map_msg(struct ofproto *ofproto, const struct ofp_header *oh,
               struct ds *why)
{
    struct oko_map_msg_decoded m;
    struct oko_filter *filter;
    enum ofperr error = oko_decode_map_msg(oh, &m, why);
    if (!error) {
        error = find_map(ofproto, m.prog_id, m.map_index, &filter, why);
    }
    if (error) {
        return error;
    }
    struct oko_map *map = filter->maps[m.map_index];
    const struct oko_map_decl *d = &filter->prog.maps[m.map_index];
    bool sketch = d->type == MAP_BLOOM || d->type == MAP_COUNT_MIN;
    bool delete_all = m.is_delete && m.flags & OKO_DELETE_ALL;

    /* Every check before anything changes. */
    if (!delete_all || m.key_size) {
        if (m.key_size != d->key_size
            || (!m.is_delete && m.value_size != d->value_size)) {
            ds_put_format(why,
                          "map %" PRIu8 " has key %" PRIu32 " value %" PRIu32
                          ", message has "
                          "key %" PRIu16 " value %" PRIu16,
                          m.map_index, d->key_size, d->value_size, m.key_size,
                          m.value_size);
            return OFPERR_OKO_BAD_MAP_SIZES;
        }
    }
    if (m.is_delete && !delete_all && sketch) {
        ds_put_format(why,
                      "map %" PRIu8
                      " is a sketch: its elements cannot be deleted one by "
                      "one (delete all)",
                      m.map_index);
        return OFPERR_OKO_UNSUPPORTED;
    }
    size_t entry = m.key_size + m.value_size;
    for (uint32_t i = 0; i < m.n_entries; i++) {
        error = check_key(d, m.entries + i * entry, i, why);
        if (error) {
            return error;
        }
    }

    if (delete_all) {
        oko_map_clear(map);
        return 0;
    }
    for (uint32_t i = 0; i < m.n_entries; i++) {
        const uint8_t *key = m.entries + i * entry;
        int err;
        if (m.is_delete) {
            err = oko_map_delete_ctl(map, key);
            err = err == -ENOENT ? 0 : err;
        } else if (sketch) {
            uint32_t increment = 1;
            if (d->type == MAP_COUNT_MIN) {
                memcpy(&increment, key + m.key_size, 4);
            }
            oko_map_add(map, key, increment);
            err = 0;
        } else {
            err = oko_map_update_ctl(map, key, key + m.key_size, 0);
        }
        if (err) {
            ds_put_format(why, "applied %" PRIu32 " of %" PRIu32 " entries", i,
                          m.n_entries);
            if (err != -E2BIG) {
                ds_put_format(why, ": %s", ovs_strerror(-err));
            }
            return err == -E2BIG ? OFPERR_OKO_MAP_FULL : OFPERR_OKO_RESOURCES;
        }
    }
    return 0;
}

/* Appends one entry, as it travels on the wire, to the map's buffer. */
static int
collect_entry(const void *key, uint32_t key_size, const void *value,
              uint32_t value_size, void *aux)
{
    struct ofpbuf *buf = aux;
    ofpbuf_put(buf, key, key_size);
    ofpbuf_put(buf, value, value_size);
    return 0;
}

/* The key and value sizes of map 'd''s entries in map sections
 * (docs/protocol.md 5.4): sketches and arrays are keyed by a u32 cell or
 * index, a bloom cell is a u64 word. */
static void
wire_sizes(const struct oko_map_decl *d, uint32_t *key_size,
           uint32_t *value_size)
{
    bool sketch = d->type == MAP_BLOOM || d->type == MAP_COUNT_MIN;
    *key_size = sketch || d->type == MAP_ARRAY ? 4 : d->key_size;
    *value_size = d->type == MAP_BLOOM ? 8 : d->value_size;
}

/* The first map 'mask' selects whose entries are too large for any message
 * that carries entries, or -1.  (A map may hold values up to 65536 bytes for
 * the program's own use; it cannot be sent.) */
static int
oversized_map(const struct oko_filter *filter, uint64_t mask)
{
    for (size_t i = 0; i < filter->prog.n_maps && i < 64; i++) {
        uint32_t key_size, value_size;
        if (!(mask & (UINT64_C(1) << i))) {
            continue;
        }
        wire_sizes(&filter->prog.maps[i], &key_size, &value_size);
        if ((uint64_t) key_size + value_size > OKO_MAX_ENTRY_LEN) {
            return i;
        }
    }
    return -1;
}

/* Copies the entries of each map of 'filter' that 'mask' selects, as the
 * wire carries them, into 'bufs' (the caller uninits them) described by
 * 'contents'.  Returns how many maps were copied. */
static size_t
snapshot_maps(const struct oko_filter *filter, uint64_t mask,
              struct oko_map_contents contents[64], struct ofpbuf bufs[64])
{
    size_t n = 0;

    for (size_t i = 0; i < filter->prog.n_maps && i < 64; i++) {
        if (!(mask & (UINT64_C(1) << i))) {
            continue;
        }
        const struct oko_map_decl *d = &filter->prog.maps[i];
        ofpbuf_init(&bufs[n], 0);
        oko_epoch_enter();
        oko_map_foreach(filter->maps[i], collect_entry, &bufs[n]);
        oko_epoch_exit();
        struct oko_map_contents *c = &contents[n];
        uint32_t key_size, value_size;
        wire_sizes(d, &key_size, &value_size);
        /* oversized_map() */
        ovs_assert(key_size + value_size <= OKO_MAX_ENTRY_LEN);
        c->map_index = i;
        c->map_type = d->type;
        c->key_size = key_size;
        c->value_size = value_size;
        c->n_entries = bufs[n].size / (c->key_size + c->value_size);
        c->entries = bufs[n].data;
        n++;
    }
    return n;
}

static enum ofperr
handle_dump_maps(struct ofproto *ofproto, struct ofconn *ofconn,
                 const struct ofp_header *oh, struct ds *why)
{
    struct oko_dump_maps_request_msg m;
    enum ofperr error = oko_decode_dump_maps_request(oh, &m, why);
    if (error) {
        return error;
    }
    struct oko_prog *prog;
    error = find_prog(ofproto, m.prog_id, &prog, why);
    if (error) {
        return error;
    }
    struct oko_filter *filter = prog_filter(prog);
    size_t n_maps = filter->prog.n_maps;
    uint64_t all = n_maps >= 64 ? UINT64_MAX : (UINT64_C(1) << n_maps) - 1;
    if (m.map_mask & ~all) {
        ds_put_format(why,
                      "program %" PRIu32 " has %" PRIuSIZE
                      " maps; mask %#" PRIx64 " selects others",
                      m.prog_id, n_maps, m.map_mask);
        return OFPERR_OKO_BAD_MAP_INDEX;
    }
    uint64_t mask = m.map_mask ? m.map_mask : all;
    int big = oversized_map(filter, mask);
    if (big >= 0) {
        ds_put_format(why,
                      "map %d's entries are %" PRIu32 " + %" PRIu32
                      " bytes; a message carries "
                      "entries of at most %d bytes",
                      big, filter->prog.maps[big].key_size,
                      filter->prog.maps[big].value_size, OKO_MAX_ENTRY_LEN);
        return OFPERR_OKO_UNSUPPORTED;
    }

    /* Copy each selected map's entries (as the wire carries them), then
     * pack them into replies. */
    struct oko_map_contents contents[64];
    struct ofpbuf bufs[64];
    size_t n = snapshot_maps(filter, mask, contents, bufs);
    struct ovs_list replies = OVS_LIST_INITIALIZER(&replies);
    oko_encode_dump_maps_replies(oh, m.prog_id, contents, n, &replies);
    for (size_t i = 0; i < n; i++) {
        ofpbuf_uninit(&bufs[i]);
    }
    ofconn_send_replies(ofconn, &replies);
    return 0;
}

/* Fills 'ps' with program 'prog''s statistics (docs/protocol.md 4.3). */
static void
get_prog_stats(const struct oko_ofproto *oko, const struct oko_prog *prog,
               struct oko_prog_stats *ps)
{
    const struct oko_filter *f = prog_filter(prog);
    struct oko_instance_totals t;

    oko_instance_get_totals(prog_inst(prog), &t);
    *ps = (struct oko_prog_stats) {
        .prog_id = prog->id,
        .jit = f->jit.fn != NULL,
        .runs = t.runs,
        .matches = t.matches,
        .errors = t.errors,
        .timed_runs = t.timed_runs,
        .timed_ns = t.timed_ns,
        .rules = rules_naming(oko, prog->id),
        .datapath_flows = t.datapath_flows,
        .instructions = MIN(f->prog.n_insns, UINT32_MAX),
        .memory = f->memory,
        .n_maps = MIN(f->prog.n_maps, ARRAY_SIZE(ps->maps)),
        .has_elf_sha256 = prog->has_elf_sha256,
        .has_install_mark = true,
    };
    memcpy(ps->elf_sha256, prog->elf_sha256, sizeof ps->elf_sha256);
    memcpy(ps->install_mark, prog->install_mark, sizeof ps->install_mark);
    for (size_t m = 0; m < ps->n_maps; m++) {
        struct oko_map_stats_counts c;
        oko_map_get_stats(f->maps[m], &c);
        ps->maps[m] = (struct oko_map_stats) {
            .map_type = f->prog.maps[m].type,
            .used = c.used,
            .max_entries = c.max_entries,
            .evictions = c.evictions,
            .refused_full = c.refused_full,
        };
    }
}

static int compare_progs(const void *, const void *);

static enum ofperr
handle_prog_stats(struct ofproto *ofproto, struct ofconn *ofconn,
                  const struct ofp_header *oh, struct ds *why)
{
    uint32_t prog_id;
    enum ofperr error = oko_decode_prog_stats_request(oh, &prog_id, why);
    if (error) {
        return error;
    }
    struct oko_ofproto *oko = oko_ofproto_get(ofproto);
    struct oko_prog **progs = xmalloc((oko->n_progs + 1) * sizeof *progs);
    size_t n = 0;
    if (prog_id) {
        progs[0] = prog_find(oko, prog_id);
        if (!progs[0]) {
            free(progs);
            ds_put_format(why, "program %"PRIu32" is not loaded", prog_id);
            return OFPERR_OKO_UNKNOWN_PROG;
        }
        n = 1;
    } else {
        struct oko_prog *prog;
        CMAP_FOR_EACH (prog, node, &oko->progs) {
            progs[n++] = prog;
        }
        qsort(progs, n, sizeof *progs, compare_progs);
    }

    struct oko_prog_stats *stats = xmalloc(MAX(n, 1) * sizeof *stats);
    for (size_t i = 0; i < n; i++) {
        get_prog_stats(oko, progs[i], &stats[i]);
    }
    struct ovs_list replies = OVS_LIST_INITIALIZER(&replies);
    oko_encode_prog_stats_replies(oh, stats, n, &replies);
    ofconn_send_replies(ofconn, &replies);
    free(stats);
    free(progs);
    return 0;
}

/* REPLAY_MAPS (docs/protocol.md 5.7): the retained events after the one
 * the controller names, or all of them, in event order. */
static enum ofperr
handle_replay_maps(struct ofproto *ofproto, struct ofconn *ofconn,
                   const struct ofp_header *oh, struct ds *why)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
    struct oko_replay_maps_request_msg m;
    enum ofperr error = oko_decode_replay_maps_request(oh, &m, why);
    if (error) {
        return error;
    }
    struct oko_prog *prog;
    error = find_prog(ofproto, m.prog_id, &prog, why);
    if (error) {
        return error;
    }

    struct oko_replay_event *events
        = xmalloc(MAX(prog->n_retained, 1) * sizeof *events);
    const struct oko_retained_event *r;
    size_t n = 0;
    LIST_FOR_EACH (r, list_node, &prog->retained) {
        if (m.all || oko_event_after(r->event.event_id, m.after_event_id)) {
            events[n++]
                = (struct oko_replay_event){ r->event, r->maps, r->n_maps };
        }
    }
    struct ovs_list replies = OVS_LIST_INITIALIZER(&replies);
    oko_encode_replay_maps_replies(oh, m.prog_id, prog->next_event_id, events,
                                   n, UINT16_MAX, &replies);
    char asked[32];
    if (m.all) {
        ovs_strlcpy(asked, "all", sizeof asked);
    } else {
        snprintf(asked, sizeof asked, "after %"PRIu32, m.after_event_id);
    }
    VLOG_INFO_RL(&rl,
                 "%s: program %" PRIu32 ": sent %" PRIuSIZE " of %" PRIuSIZE
                 " retained "
                 "events again (asked: %s; next event %" PRIu32 ")",
                 ofproto->name, m.prog_id, n, prog->n_retained, asked,
                 prog->next_event_id);
    free(events);
    ofconn_send_replies(ofconn, &replies);
    return 0;
}

/* MARK_INSTALLED (docs/protocol.md 4.4). */
static enum ofperr
handle_mark_installed(struct ofproto *ofproto, const struct ofp_header *oh,
                      struct ds *why)
{
    struct oko_mark_installed_msg m;
    enum ofperr error = oko_decode_mark_installed(oh, &m, why);
    if (error) {
        return error;
    }
    struct oko_prog *prog;
    error = find_prog(ofproto, m.prog_id, &prog, why);
    if (error) {
        return error;
    }
    memcpy(prog->install_mark, m.install_mark, sizeof prog->install_mark);
    VLOG_INFO("%s: program %" PRIu32 " marked installed "
              "(mark %02x%02x%02x%02x...)", ofproto->name, m.prog_id,
              m.install_mark[0], m.install_mark[1], m.install_mark[2],
              m.install_mark[3]);
    return 0;
}

enum ofperr
ofproto_oko_handle(struct ofconn *ofconn, const struct ofp_header *oh,
                   enum ofptype type)
{
    struct ofproto *ofproto = ofconn_get_ofproto(ofconn);
    struct ds why = DS_EMPTY_INITIALIZER;
    enum ofperr error;

    /* Statistics are read-only: a secondary connection may read them, as it
     * may read OVS's own. */
    error = (ofconn_get_role(ofconn) == OFPCR12_ROLE_SECONDARY
                     && type != OFPTYPE_OKO_PROG_STATS_REQUEST
                 ? OFPERR_OFPBRC_IS_SECONDARY
                 : 0);
    if (!error) {
        if (type == OFPTYPE_OKO_LOAD_PROG) {
            error = handle_load_prog(ofproto, oh, &why);
        } else if (type == OFPTYPE_OKO_UNLOAD_PROG) {
            error = handle_unload_prog(ofproto, oh, &why);
        } else if (type == OFPTYPE_OKO_UPDATE_MAP
                   || type == OFPTYPE_OKO_DELETE_MAP_ENTRIES) {
            error = handle_map_msg(ofproto, oh, &why);
        } else if (type == OFPTYPE_OKO_DUMP_MAPS_REQUEST) {
            error = handle_dump_maps(ofproto, ofconn, oh, &why);
        } else if (type == OFPTYPE_OKO_PROG_STATS_REQUEST) {
            error = handle_prog_stats(ofproto, ofconn, oh, &why);
        } else if (type == OFPTYPE_OKO_REPLAY_MAPS_REQUEST) {
            error = handle_replay_maps(ofproto, ofconn, oh, &why);
        } else if (type == OFPTYPE_OKO_MARK_INSTALLED) {
            error = handle_mark_installed(ofproto, oh, &why);
        } else {
            OVS_NOT_REACHED();
        }
    }
    if (error) {
        error = send_oko_error(ofconn, oh, error, &why);
    }
    ds_destroy(&why);
    return error;
}

/* For memory/show: the bridge's programs and what their maps take (in KiB:
 * simap values are 'unsigned int').  A program unloaded is gone from here at
 * once; its memory goes back to the system when no thread can run it any
 * more (after an RCU grace period), by munmap (oko-map.c). */
void
ofproto_oko_get_memory_usage(const struct ofproto *ofproto,
                             struct simap *usage)
{
    struct oko_ofproto *oko = ofproto->oko;
    if (!oko || !oko->n_progs) {
        return;
    }
    size_t bytes = 0;
    struct oko_prog *prog;
    CMAP_FOR_EACH (prog, node, &oko->progs) {
        bytes += prog_filter(prog)->memory;
    }
    simap_increase(usage, "oko-programs", oko->n_progs);
    simap_increase(usage, "oko-map-kB", DIV_ROUND_UP(bytes, 1024));
    if (oko->retained_bytes) {
        /* SEND_MAPS events kept for REPLAY_MAPS. */
        simap_increase(usage, "oko-send-maps-kB",
                       DIV_ROUND_UP(oko->retained_bytes, 1024));
    }
}

void
ofproto_oko_destroy(struct ofproto *ofproto)
{
    struct oko_ofproto *oko = ofproto->oko;
    struct oko_prog *prog;

    if (!oko) {
        return;
    }
    CMAP_FOR_EACH (prog, node, &oko->progs) {
        cmap_remove(&oko->progs, &prog->node, hash_int(prog->id, 0));
        ovsrcu_postpone(prog_destroy_cb, prog);
    }
    cmap_destroy(&oko->progs);
    struct oko_rule_count *rc;
    HMAP_FOR_EACH_POP (rc, node, &oko->rule_counts) {
        free(rc);
    }
    hmap_destroy(&oko->rule_counts);
    free(oko->error_text);
    struct ovs_list requests;
    struct oko_send_request *request;
    guarded_list_pop_all(&oko->send_requests, &requests);
    LIST_FOR_EACH_POP (request, list_node, &requests) {
        free(request);
    }
    guarded_list_destroy(&oko->send_requests);
    seq_destroy(oko->send_seq);
    ovs_list_remove(&oko->list_node);
    free(oko);
    ofproto->oko = NULL;
}

/* oko/show [BRIDGE]: each bridge's programs, by id, and their maps. */
static int
compare_progs(const void *a_, const void *b_)
{
    const struct oko_prog *const *a = a_, *const *b = b_;
    return (*a)->id < (*b)->id ? -1 : (*a)->id > (*b)->id;
}

static void
oko_show(struct unixctl_conn *conn, int argc, const char *argv[],
         void *aux OVS_UNUSED)
{
    static const char *const types[] = {
        "?", "hash", "array", "lru_hash", "bloom", "count_min", "lpm",
    };
    struct ds s = DS_EMPTY_INITIALIZER;
    struct oko_ofproto *oko;
    bool found = argc < 2;

    LIST_FOR_EACH (oko, list_node, &all_okos) {
        if (argc > 1 && strcmp(argv[1], oko->ofproto->name)) {
            continue;
        }
        found = true;
        struct oko_prog **progs = xmalloc((oko->n_progs + 1) * sizeof *progs);
        struct oko_prog *prog;
        size_t n = 0;
        CMAP_FOR_EACH (prog, node, &oko->progs) {
            progs[n++] = prog;
        }
        qsort(progs, n, sizeof *progs, compare_progs);
        ds_put_format(&s, "%s: %"PRIuSIZE" programs\n", oko->ofproto->name, n);
        for (size_t i = 0; i < n; i++) {
            const struct oko_filter *f = prog_filter(progs[i]);
            struct oko_instance_totals t;
            oko_instance_get_totals(prog_inst(progs[i]), &t);
            ds_put_format(&s,
                          "  program %" PRIu32 ": %" PRIuSIZE
                          " instructions, %s, "
                          "%" PRIuSIZE " maps (%" PRIuSIZE
                          " bytes), used by %u rules, "
                          "%" PRIu32 " datapath flows\n",
                          progs[i]->id, f->prog.n_insns,
                          f->jit.fn ? "jit" : "interpreter", f->prog.n_maps,
                          f->memory, rules_naming(oko, progs[i]->id),
                          t.datapath_flows);
            ds_put_format(&s,
                          "    runs %" PRIu64 ", matches %" PRIu64
                          ", errors %" PRIu64 ", %.1f ns per run\n",
                          t.runs, t.matches, t.errors, t.avg_ns);
            char fold[128];
            oko_fold_format(&f->fold, fold, sizeof fold);
            ds_put_format(&s, "    %s\n", fold);
            for (size_t m = 0; m < f->prog.n_maps; m++) {
                const struct oko_map_decl *d = &f->prog.maps[m];
                struct oko_map_stats_counts c;
                oko_map_get_stats(f->maps[m], &c);
                ds_put_format(&s,
                              "    map %" PRIuSIZE " '%s': %s, key %" PRIu32
                              ", value %" PRIu32 ", %" PRIu32 " of %" PRIu32
                              " %s",
                              m, d->name,
                              d->type < ARRAY_SIZE(types) ? types[d->type]
                                                          : "?",
                              d->key_size, d->value_size, c.used,
                              c.max_entries,
                              d->type == MAP_BLOOM || d->type == MAP_COUNT_MIN
                                  ? "cells used (sketch)"
                                  : "entries");
                if (d->type == MAP_LRU) {
                    ds_put_format(&s, ", %"PRIu64" evicted", c.evictions);
                } else if (d->type == MAP_HASH || d->type == MAP_LPM) {
                    ds_put_format(&s, ", %" PRIu64 " refused (full)",
                                  c.refused_full);
                }
                ds_put_char(&s, '\n');
            }
        }
        free(progs);
    }
    if (!found && ofproto_lookup(argv[1])) {
        /* A bridge that has never had a program: an empty table. */
        ds_put_format(&s, "%s: 0 programs\n", argv[1]);
        found = true;
    }
    if (!found) {
        ds_put_format(&s, "no such bridge: %s", argv[1]);
        unixctl_command_reply_error(conn, ds_cstr(&s));
    } else {
        unixctl_command_reply(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

static void
oko_set_chain_caching(struct unixctl_conn *conn, int argc OVS_UNUSED,
                      const char *argv[] OVS_UNUSED, void *enable_)
{
    bool enable = enable_ != NULL;

    atomic_store_relaxed(&oko_chain_caching, enable);
    /* Flows cached the other way change as revalidators meet them;
     * "revalidator/purge" drops them at once. */
    VLOG_INFO("new datapath flows %s filter-program chains",
              enable ? "carry" : "do not carry (slow path)");
    unixctl_command_reply(conn, enable ? "chain caching enabled"
                                       : "chain caching disabled");
}

static void
oko_set_chain_fusion(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[] OVS_UNUSED, void *enable_)
{
    bool enable = enable_ != NULL;
    char *reply;

    oko_fused_set_enabled(enable);
    /* Flows made the other way keep their chains until they go;
     * "revalidator/purge" drops them at once. */
    VLOG_INFO("new datapath chains %s", enable ? "are fused"
              : "run their programs one by one (fusion off)");
    reply = xasprintf("chain fusion %s (%u fused chains alive)",
                      enable ? "enabled" : "disabled", oko_fused_count());
    unixctl_command_reply(conn, reply);
    free(reply);
}

static void
oko_set_result_folding(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[] OVS_UNUSED, void *enable_)
{
    bool enable = enable_ != NULL;

    oko_fold_xlate_set_enabled(enable);
    /* Flows translated the other way stay until revalidated;
     * "revalidator/purge" drops them at once. */
    VLOG_INFO("programs whose verdict folds are %s",
              enable ? "decided once per cached flow (result folding on)"
                     : "run on every packet (result folding off)");
    unixctl_command_reply(conn, enable ? "result folding enabled"
                                       : "result folding disabled");
}

static void
oko_show_fused_chains(struct unixctl_conn *conn, int argc OVS_UNUSED,
                      const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    char *reply = xasprintf("%u fused chains alive (%"PRIuSIZE" kB of "
                            "code), fusion %s\n", oko_fused_count(),
                            oko_fused_bytes() / 1024,
                            oko_fused_is_enabled() ? "enabled" : "disabled");
    unixctl_command_reply(conn, reply);
    free(reply);
}

static void
oko_show_datapath_chains(struct unixctl_conn *conn, int argc OVS_UNUSED,
                         const char *argv[] OVS_UNUSED,
                         void *aux OVS_UNUSED)
{
    unsigned int n_chains, n_flows;

    oko_dp_chain_count(&n_chains, &n_flows);
    char *reply = xasprintf("%u datapath chains alive, for %u datapath "
                            "flows\n", n_chains, n_flows);
    unixctl_command_reply(conn, reply);
    free(reply);
}

void
ofproto_oko_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        unixctl_command_register("oko/show", "[bridge]", 0, 1, oko_show, NULL);
        unixctl_command_register("oko/disable-chain-caching", "", 0, 0,
                                 oko_set_chain_caching, NULL);
        unixctl_command_register("oko/enable-chain-caching", "", 0, 0,
                                 oko_set_chain_caching, &oko_chain_caching);
        unixctl_command_register("oko/disable-chain-fusion", "", 0, 0,
                                 oko_set_chain_fusion, NULL);
        static bool enable = true;
        unixctl_command_register("oko/enable-chain-fusion", "", 0, 0,
                                 oko_set_chain_fusion, &enable);
        unixctl_command_register("oko/fused-chains", "", 0, 0,
                                 oko_show_fused_chains, NULL);
        unixctl_command_register("oko/datapath-chains", "", 0, 0,
                                 oko_show_datapath_chains, NULL);
        unixctl_command_register("oko/disable-result-folding", "", 0, 0,
                                 oko_set_result_folding, NULL);
        unixctl_command_register("oko/enable-result-folding", "", 0, 0,
                                 oko_set_result_folding, &enable);
        ovsthread_once_done(&once);
    }
}

/* Rules and flow mods. */

static enum ofperr
refuse_flow_mod(struct oko_ofproto *oko, enum ofperr error, char *text)
{
    free(oko->error_text);
    oko->error_text = text;
    return error;
}

enum ofperr
ofproto_oko_check_flow_mod(struct ofproto *ofproto,
                           const struct ofputil_flow_mod *fm)
{
    const struct ofpact_oko_send_maps *send_maps = NULL;
    const struct ofpact *a;

    OFPACT_FOR_EACH_FLATTENED (a, fm->ofpacts, fm->ofpacts_len) {
        if (a->type == OFPACT_OKO_SEND_MAPS) {
            send_maps = ofpact_get_OKO_SEND_MAPS(a);
        }
    }
    if (!fm->filter_prog && !send_maps) {
        return 0;
    }

    struct oko_ofproto *oko = oko_ofproto_get(ofproto);
    if (!fm->filter_prog) {
        return refuse_flow_mod(oko, OFPERR_OKO_NO_FILTER_FOR_ACTION,
                               xstrdup(
                                   "send_maps needs a rule with filter_prog "
                                   "(it sends that program's maps)"));
    }
    const struct oko_prog *prog = prog_find(oko, fm->filter_prog);
    if (!prog) {
        return refuse_flow_mod(oko, OFPERR_OKO_UNKNOWN_PROG,
                               xasprintf("program %"PRIu32" is not loaded",
                                         fm->filter_prog));
    }
    if (send_maps) {
        size_t n_maps = prog_filter(prog)->prog.n_maps;
        uint64_t all = n_maps >= 64 ? UINT64_MAX : (UINT64_C(1) << n_maps) - 1;
        if (send_maps->map_mask & ~all) {
            return refuse_flow_mod(oko, OFPERR_OKO_BAD_MAP_INDEX,
                                   xasprintf("program %" PRIu32
                                             " has %" PRIuSIZE " maps; "
                                             "send_maps mask %#" PRIx64
                                             " selects others",
                                             fm->filter_prog, n_maps,
                                             send_maps->map_mask));
        }
        const struct oko_filter *filter = prog_filter(prog);
        int big = oversized_map(filter, send_maps->map_mask);
        if (big >= 0) {
            return refuse_flow_mod(oko, OFPERR_OKO_UNSUPPORTED,
                                   xasprintf("send_maps: map %d's entries are "
                                             "%" PRIu32 " + "
                                             "%" PRIu32 " bytes; a message "
                                                        "carries entries "
                                             "of at most %d bytes",
                                             big,
                                             filter->prog.maps[big].key_size,
                                             filter->prog.maps[big].value_size,
                                             OKO_MAX_ENTRY_LEN));
        }
    }
    return 0;
}

void
ofproto_oko_rule_count(struct ofproto *ofproto, uint32_t prog_id, int delta)
{
    struct oko_ofproto *oko = oko_ofproto_get(ofproto);
    struct oko_rule_count *rc = rule_count_find(oko, prog_id);

    if (!rc) {
        ovs_assert(delta > 0);
        rc = xzalloc(sizeof *rc);
        rc->id = prog_id;
        hmap_insert(&oko->rule_counts, &rc->node, hash_int(prog_id, 0));
    }
    ovs_assert(delta > 0 || rc->n >= -delta);
    rc->n += delta;
    if (!rc->n) {
        hmap_remove(&oko->rule_counts, &rc->node);
        free(rc);
    }
}

struct ofpbuf *
ofproto_oko_error_reply(struct ofproto *ofproto, enum ofperr error,
                        const struct ofp_header *request)
{
    struct oko_ofproto *oko = oko_ofproto_get(ofproto);
    struct ofpbuf *reply = oko_encode_error(error, request,
                                            oko->error_text ? oko->error_text
                                            : ofperr_get_description(error));
    free(oko->error_text);
    oko->error_text = NULL;
    return reply;
}

/* Translation. */

bool
ofproto_oko_filter(const struct ofproto *ofproto, uint32_t prog_id,
                   const struct dp_packet *packet,
                   const struct flow *upcall_flow, struct flow_wildcards *wc,
                   const struct oko_chain *history, struct oko_chain *chain)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    const struct oko_ofproto *oko = ofproto->oko;
    const struct oko_prog *prog = oko ? prog_find(oko, prog_id) : NULL;

    if (!prog) {
        /* Unloaded by force while rules still name it. */
        VLOG_DBG_RL(&rl,
                    "%s: program %" PRIu32
                    " is not loaded: its rules match nothing",
                    ofproto->name, prog_id);
        return false;
    }

    const struct oko_instance *inst = prog_inst(prog);
    bool match;
    if (oko_fold_xlate(inst, upcall_flow, wc, packet != NULL, &match)) {
        return match;
    }

    int result = oko_chain_find(chain, inst->serial);
    if (result >= 0) {
        return result;          /* This translation asked already. */
    }

    /* The packet's history: the datapath ran it already, or revalidation
     * replays a cached flow's chain. */
    result = oko_chain_find(history, inst->serial);
    if (result < 0) {
        if (!packet) {
            /* Revalidation that the cached chain does not cover, or a trace
             * without a packet: nothing to run the program on. */
            chain->unresolved = true;
            return false;
        }
        result = oko_instance_run(inst, packet);
    }
    oko_chain_append(chain, inst, result);
    return result;
}

/* SEND_MAPS. */

void
ofproto_oko_send_maps_request(const struct ofproto *ofproto, uint32_t prog_id,
                              uint64_t map_mask, ovs_be64 cookie,
                              uint8_t table_id)
{
    struct oko_ofproto *oko = ofproto->oko;
    struct oko_prog *prog = oko ? prog_find(oko, prog_id) : NULL;

    if (!prog) {
        return;
    }

    /* Rate limit: one event per interval, up to a burst ahead. */
    const long long int interval = 1000 / OKO_SEND_MAPS_PER_SEC;
    const long long int tolerance = interval * (OKO_SEND_MAPS_BURST - 1);
    long long int now = time_msec();
    long long int tat, new_tat;
    uint32_t orig;

    atomic_read_relaxed(&prog->send_tat, &tat);
    do {
        new_tat = MAX(tat, now) + interval;
        if (new_tat - now > tolerance + interval) {
            atomic_add_relaxed(&prog->suppressed, 1, &orig);
            return;
        }
    } while (
        !atomic_compare_exchange_weak_relaxed(&prog->send_tat, &tat, new_tat));

    struct oko_send_request *request = xmalloc(sizeof *request);
    *request = (struct oko_send_request) {
        .prog_id = prog_id,
        .map_mask = map_mask,
        .cookie = cookie,
        .table_id = table_id,
    };
    if (!guarded_list_push_back(&oko->send_requests, &request->list_node,
                                OKO_SEND_QUEUE_MAX)) {
        free(request);
        atomic_add_relaxed(&prog->suppressed, 1, &orig);
        return;
    }
    seq_change(oko->send_seq);
}

struct send_maps_aux {
    const struct oko_send_maps_event *event;
    const struct oko_map_contents *contents;
    size_t n;
};

static void
encode_send_maps(enum ofp_version version, struct ovs_list *msgs, void *aux_)
{
    const struct send_maps_aux *aux = aux_;
    oko_encode_send_maps(version, aux->event, aux->contents, aux->n,
                         UINT16_MAX, msgs);
}

/* Keeps the event just sent, taking over 'bufs', and drops the oldest
 * events beyond the program's budget.  An event larger than the whole
 * budget is not kept: a controller that asks for it sees the gap in the
 * event ids. */
static void
retain_event(struct oko_ofproto *oko, struct oko_prog *prog,
             const struct oko_send_maps_event *event,
             const struct oko_map_contents *contents, struct ofpbuf *bufs,
             size_t n)
{
    /* What the event keeps in memory: its entries (trimmed below) and its
     * bookkeeping, so that the budget bounds the memory itself. */
    size_t bytes
        = sizeof(struct oko_retained_event)
          + n * (sizeof(struct oko_map_contents) + sizeof(struct ofpbuf));
    for (size_t i = 0; i < n; i++) {
        bytes += bufs[i].size;
    }
    if (bytes > OKO_RETAIN_BYTES) {
        for (size_t i = 0; i < n; i++) {
            ofpbuf_uninit(&bufs[i]);
        }
        return;
    }

    struct oko_retained_event *r = xmalloc(sizeof *r);
    r->event = *event;
    r->bytes = bytes;
    r->n_maps = n;
    r->maps = xmemdup(contents, n * sizeof *contents);
    r->bufs = xmemdup(bufs, n * sizeof *bufs);
    for (size_t i = 0; i < n; i++) {
        ofpbuf_trim(&r->bufs[i]);           /* Snapshots grow by doubling. */
        r->maps[i].entries = r->bufs[i].data;
    }
    ovs_list_push_back(&prog->retained, &r->list_node);
    prog->n_retained++;
    prog->retained_bytes += bytes;
    oko->retained_bytes += bytes;

    /* The bridge was within its budget before this event, which is within the
     * program's: dropping this program's events (this one last) gets both
     * back within theirs before the list runs empty. */
    while (prog->n_retained > OKO_RETAIN_EVENTS
           || prog->retained_bytes > OKO_RETAIN_BYTES
           || oko->retained_bytes > OKO_RETAIN_BRIDGE_BYTES) {
        ovs_assert(!ovs_list_is_empty(&prog->retained));
        struct oko_retained_event *oldest;
        oldest = CONTAINER_OF(ovs_list_pop_front(&prog->retained),
                              struct oko_retained_event, list_node);
        prog->n_retained--;
        prog->retained_bytes -= oldest->bytes;
        oko->retained_bytes -= oldest->bytes;
        retained_event_destroy(oldest);
    }
}

static void
send_maps_event(struct ofproto *ofproto,
                const struct oko_send_request *request)
{
    struct oko_prog *prog = prog_find(ofproto->oko, request->prog_id);
    if (!prog) {
        return;                         /* Unloaded meanwhile. */
    }

    int big = oversized_map(prog_filter(prog), request->map_mask);
    if (big >= 0) {
        /* The rule was accepted for the program this one replaced. */
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_WARN_RL(&rl,
                     "%s: program %" PRIu32
                     ": send_maps of map %d not sent: its entries "
                     "are larger than a message carries",
                     ofproto->name, request->prog_id, big);
        uint32_t orig;
        /* The next event says so. */
        atomic_add_relaxed(&prog->suppressed, 1, &orig);
        return;
    }
    struct oko_map_contents contents[64];
    struct ofpbuf bufs[64];
    size_t n
        = snapshot_maps(prog_filter(prog), request->map_mask, contents, bufs);
    uint32_t suppressed;
    suppressed = atomic_exchange(&prog->suppressed, 0);
    struct oko_send_maps_event event = {
        .prog_id = request->prog_id,
        .event_id = prog->next_event_id++,
        .cookie = ntohll(request->cookie),
        .table_id = request->table_id,
        .suppressed = suppressed,
    };
    struct send_maps_aux aux
        = { .event = &event, .contents = contents, .n = n };
    connmgr_send_oko_async(ofproto->connmgr, encode_send_maps, &aux);
    retain_event(ofproto->oko, prog, &event, contents, bufs, n);
}

void
ofproto_oko_put_send_maps(struct ofpbuf *odp_actions,
                          const struct uuid *ofproto_uuid, uint32_t pid,
                          uint32_t prog_id, uint8_t table_id,
                          ovs_be64 rule_cookie, uint64_t map_mask)
{
    struct user_action_cookie cookie;

    memset(&cookie, 0, sizeof cookie);
    cookie.type = USER_ACTION_COOKIE_OKO_SEND_MAPS;
    cookie.ofp_in_port = OFPP_NONE;
    cookie.ofproto_uuid = *ofproto_uuid;
    cookie.oko_send_maps.prog_id = prog_id;
    cookie.oko_send_maps.table_id = table_id;
    put_32aligned_be64(&cookie.oko_send_maps.rule_cookie, rule_cookie);
    put_32aligned_u64(&cookie.oko_send_maps.map_mask, map_mask);
    odp_put_userspace_action(pid, &cookie, sizeof cookie, ODPP_NONE, false,
                             odp_actions, NULL);
}

void
ofproto_oko_send_maps_upcall(const struct ofproto *ofproto,
                             const struct user_action_cookie *cookie)
{
    ofproto_oko_send_maps_request(
        ofproto, cookie->oko_send_maps.prog_id,
        get_32aligned_u64(&cookie->oko_send_maps.map_mask),
        get_32aligned_be64(&cookie->oko_send_maps.rule_cookie),
        cookie->oko_send_maps.table_id);
}

void
ofproto_oko_run(struct ofproto *ofproto)
{
    struct oko_ofproto *oko = ofproto->oko;
    if (!oko) {
        return;
    }

    uint64_t seq = seq_read(oko->send_seq);
    if (seq == oko->send_seq_seen) {
        return;
    }
    oko->send_seq_seen = seq;

    struct ovs_list requests;
    struct oko_send_request *request;
    guarded_list_pop_all(&oko->send_requests, &requests);
    LIST_FOR_EACH_POP (request, list_node, &requests) {
        send_maps_event(ofproto, request);
        free(request);
    }
}

void
ofproto_oko_wait(struct ofproto *ofproto)
{
    if (ofproto->oko) {
        seq_wait(ofproto->oko->send_seq, ofproto->oko->send_seq_seen);
    }
}
