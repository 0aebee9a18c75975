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

/* ovs-ofctl's Oko commands: argument handling and file reading, one
 * function per command (oko-ofctl.h).  The messages are encoded by
 * oko-ofp.c. */

#include <config.h>
#include "oko/oko-ofctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko/oko-ofp-msgs.h"
#include "oko/oko-ofp.h"
#include "oko-program.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* The largest OpenFlow message, and the header of a map message in front
 * of its entries. */
#define MAX_OFP_MSG_LEN UINT16_MAX
#define MAP_MSG_HEADER_LEN (16 + sizeof(struct oko_map_msg))

static char * OVS_WARN_UNUSED_RESULT
check_version(enum ofp_version version)
{
    return (version < OFP13_VERSION
            ? xstrdup("Oko messages need OpenFlow 1.3 or later "
                      "(use -O OpenFlow13)")
            : NULL);
}

static char * OVS_WARN_UNUSED_RESULT
parse_u32(const char *s, const char *what, uint32_t *value)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*s == '\0' || *end || errno || v > UINT32_MAX) {
        return xasprintf("%s: '%s' is not a number from 0 to 4294967295",
                         what, s);
    }
    *value = v;
    return NULL;
}

static char * OVS_WARN_UNUSED_RESULT
parse_map_index(const char *s, uint32_t *map)
{
    char *error = parse_u32(s, "map index", map);
    if (!error && *map >= OKO_MAX_MAPS) {
        error = xasprintf("map index %"PRIu32" (maps are 0 to 63)", *map);
    }
    return error;
}

/* The version check and argv[2], the program id, that every command but
 * dump-prog-stats starts with. */
static char * OVS_WARN_UNUSED_RESULT
parse_version_and_prog(int argc, char *argv[], enum ofp_version version,
                       uint32_t *prog_id)
{
    char *error = check_version(version);
    if (!error) {
        error = (argc < 3
                 ? xasprintf("%s: missing program id", argv[0])
                 : parse_u32(argv[2], "program id", prog_id));
    }
    return error;
}

/* Appends the bytes of hex string 's' to 'b'; returns their count or -1. */
static int
put_hex(struct ofpbuf *b, const char *s)
{
    size_t len = strlen(s);
    if (len % 2) {
        return -1;
    }
    for (size_t i = 0; i < len; i += 2) {
        bool ok;
        uint8_t byte = hexits_value(s + i, 2, &ok);
        if (!ok) {
            return -1;
        }
        ofpbuf_put(b, &byte, 1);
    }
    return len / 2;
}

static char * OVS_WARN_UNUSED_RESULT
read_file(const char *name, struct ofpbuf *b)
{
    FILE *f = fopen(name, "rb");
    if (!f) {
        return xasprintf("%s: %s", name, ovs_strerror(errno));
    }
    for (;;) {
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf, f);
        ofpbuf_put(b, buf, n);
        if (n < sizeof buf) {
            break;
        }
    }
    fclose(f);
    if (b->size > OKO_MAX_ELF_LEN) {
        return xasprintf("%s: %"PRIu32" bytes; an object must be at most "
                         "%d bytes", name, b->size, OKO_MAX_ELF_LEN);
    }
    if (!b->size) {
        return xasprintf("%s: empty file", name);
    }
    return NULL;
}

/* load-filter-prog SWITCH ID FILE.o [replace] [keep-maps] */
char *
oko_ofctl_load_filter_prog(int argc, char *argv[], enum ofp_version version,
                           struct ofpbuf **request)
{
    uint32_t prog_id;
    uint16_t flags = 0;

    *request = NULL;
    char *error = parse_version_and_prog(argc, argv, version, &prog_id);
    if (error) {
        return error;
    }
    if (argc < 4) {
        return xstrdup("load-filter-prog: missing FILE.o");
    }
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "replace")) {
            flags |= OKO_LOAD_REPLACE;
        } else if (!strcmp(argv[i], "keep-maps")) {
            flags |= OKO_LOAD_KEEP_MAPS;
        } else {
            return xasprintf("load-filter-prog: unknown option '%s' "
                             "(replace, keep-maps)", argv[i]);
        }
    }

    struct ofpbuf elf;
    ofpbuf_init(&elf, 0);
    error = read_file(argv[3], &elf);
    if (!error) {
        *request = oko_encode_load_prog(version, prog_id, flags, elf.data,
                                        elf.size);
    }
    ofpbuf_uninit(&elf);
    return error;
}

/* unload-filter-prog SWITCH ID [force] */
char *
oko_ofctl_unload_filter_prog(int argc, char *argv[], enum ofp_version version,
                             struct ofpbuf **request)
{
    uint32_t prog_id;
    uint16_t flags = 0;

    *request = NULL;
    char *error = parse_version_and_prog(argc, argv, version, &prog_id);
    if (error) {
        return error;
    }
    if (argc > 3) {
        if (argc > 4 || strcmp(argv[3], "force")) {
            return xstrdup("unload-filter-prog: the only option is 'force'");
        }
        flags = OKO_UNLOAD_FORCE;
    }
    *request = oko_encode_unload_prog(version, prog_id, flags);
    return NULL;
}

/* The entries of update-map (KEY=VALUE, or KEY for bloom and count-min
 * maps) or delete-map-entries (KEY), argv[4] on, as hex: one message. */
static char *
build_map_msg(int argc, char *argv[], enum ofp_version version,
              bool is_delete, struct ofpbuf **request)
{
    const char *cmd = argv[0];
    uint32_t prog_id, map;

    *request = NULL;
    char *error = parse_version_and_prog(argc, argv, version, &prog_id);
    if (error) {
        return error;
    }
    if (argc < 5) {
        return xasprintf("%s: usage: %s SWITCH PROG MAP %s...", cmd, cmd,
                         is_delete ? "KEY|all" : "KEY[=VALUE]");
    }
    error = parse_map_index(argv[3], &map);
    if (error) {
        return error;
    }
    if (is_delete && argc == 5 && !strcmp(argv[4], "all")) {
        *request = oko_encode_map_msg(version, true, prog_id, map,
                                      OKO_DELETE_ALL, 0, 0, 0, NULL);
        return NULL;
    }

    struct ofpbuf entries;
    ofpbuf_init(&entries, 0);
    int key_size = -1, value_size = -1;
    for (int i = 4; i < argc; i++) {
        char *arg = xstrdup(argv[i]);
        char *eq = strchr(arg, '=');
        if (eq) {
            *eq = '\0';
        }
        int k = put_hex(&entries, arg);
        int v = eq ? put_hex(&entries, eq + 1) : 0;
        free(arg);
        if (k <= 0 || v < 0 || (is_delete && eq)) {
            ofpbuf_uninit(&entries);
            return xasprintf("%s: '%s' is not %s", cmd, argv[i],
                             is_delete ? "a hex key" : "hex KEY or KEY=VALUE");
        }
        if ((key_size >= 0 && k != key_size)
            || (value_size >= 0 && v != value_size)) {
            ofpbuf_uninit(&entries);
            return xasprintf("%s: '%s' has a different size than the "
                             "entries before it", cmd, argv[i]);
        }
        key_size = k;
        value_size = v;
    }
    size_t msg_len = MAP_MSG_HEADER_LEN + entries.size;
    if (msg_len > MAX_OFP_MSG_LEN) {
        ofpbuf_uninit(&entries);
        return xasprintf("%s: %d entries make a %"PRIuSIZE"-byte message; an "
                         "OpenFlow message is at most 65535 bytes (give "
                         "fewer entries per command)", cmd, argc - 4,
                         msg_len);
    }
    *request = oko_encode_map_msg(version, is_delete, prog_id, map, 0,
                                  key_size, value_size, argc - 4,
                                  entries.data);
    ofpbuf_uninit(&entries);
    return NULL;
}

/* update-map SWITCH ID MAP KEY[=VALUE]... */
char *
oko_ofctl_update_map(int argc, char *argv[], enum ofp_version version,
                     struct ofpbuf **request)
{
    return build_map_msg(argc, argv, version, false, request);
}

/* delete-map-entries SWITCH ID MAP KEY...|all */
char *
oko_ofctl_delete_map_entries(int argc, char *argv[], enum ofp_version version,
                             struct ofpbuf **request)
{
    return build_map_msg(argc, argv, version, true, request);
}

/* dump-maps SWITCH ID [MAP...] */
char *
oko_ofctl_dump_maps(int argc, char *argv[], enum ofp_version version,
                    struct ofpbuf **request)
{
    uint32_t prog_id, map;
    uint64_t mask = 0;

    *request = NULL;
    char *error = parse_version_and_prog(argc, argv, version, &prog_id);
    if (error) {
        return error;
    }
    for (int i = 3; i < argc; i++) {
        error = parse_map_index(argv[i], &map);
        if (error) {
            return error;
        }
        mask |= UINT64_C(1) << map;
    }
    *request = oko_encode_dump_maps_request(version, prog_id, mask);
    return NULL;
}

/* dump-prog-stats SWITCH [ID] (0 or none: every program) */
char *
oko_ofctl_dump_prog_stats(int argc, char *argv[], enum ofp_version version,
                          struct ofpbuf **request)
{
    uint32_t prog_id = 0;

    *request = NULL;
    char *error = check_version(version);
    if (!error && argc > 3) {
        error = xstrdup("dump-prog-stats: usage: dump-prog-stats SWITCH "
                        "[PROGRAM]");
    }
    if (!error && argc > 2) {
        error = parse_u32(argv[2], "program id", &prog_id);
    }
    if (!error) {
        *request = oko_encode_prog_stats_request(version, prog_id);
    }
    return error;
}

/* replay-maps SWITCH ID [AFTER-EVENT] (none: every retained event) */
char *
oko_ofctl_replay_maps(int argc, char *argv[], enum ofp_version version,
                      struct ofpbuf **request)
{
    struct oko_replay_maps_request_msg m = { .all = argc < 4 };

    *request = NULL;
    char *error = check_version(version);
    if (!error && argc < 3) {
        error = xstrdup("replay-maps: missing program id");
    }
    if (!error && argc > 4) {
        error = xstrdup("replay-maps: usage: replay-maps SWITCH PROGRAM "
                        "[AFTER-EVENT]");
    }
    if (!error) {
        error = parse_u32(argv[2], "program id", &m.prog_id);
    }
    if (!error && argc > 3) {
        error = parse_u32(argv[3], "event id", &m.after_event_id);
    }
    if (!error) {
        *request = oko_encode_replay_maps_request(version, &m);
    }
    return error;
}

/* mark-installed SWITCH ID MARK (64 hex digits, not all zero) */
char *
oko_ofctl_mark_installed(int argc, char *argv[], enum ofp_version version,
                         struct ofpbuf **request)
{
    struct oko_mark_installed_msg m;

    *request = NULL;
    char *error = check_version(version);
    if (!error && argc != 4) {
        error = xstrdup("mark-installed: usage: mark-installed SWITCH "
                        "PROGRAM MARK");
    }
    if (!error) {
        error = parse_u32(argv[2], "program id", &m.prog_id);
    }
    if (!error) {
        struct ofpbuf mark;
        ofpbuf_init(&mark, sizeof m.install_mark);
        if (put_hex(&mark, argv[3]) != sizeof m.install_mark) {
            error = xasprintf("mark-installed: %s is not %" PRIuSIZE
                              " bytes in hex", argv[3],
                              sizeof m.install_mark);
        } else {
            memcpy(m.install_mark, mark.data, sizeof m.install_mark);
            *request = oko_encode_mark_installed(version, &m);
        }
        ofpbuf_uninit(&mark);
    }
    return error;
}

void
oko_ofctl_usage(void)
{
    printf("\nFor Oko filter programs (OpenFlow 1.3 or later):\n"
           "  load-filter-prog SWITCH ID FILE.o [replace] [keep-maps]\n"
           "                              load an Oko filter program\n"
           "  unload-filter-prog SWITCH ID [force]\n"
           "                              unload an Oko filter program\n"
           "  update-map SWITCH ID MAP KEY[=VALUE]...\n"
           "                              write map entries (hex)\n"
           "  delete-map-entries SWITCH ID MAP KEY...|all\n"
           "                              delete map entries\n"
           "  dump-maps SWITCH ID [MAP...]  print a filter program's maps\n"
           "  dump-prog-stats SWITCH [ID]  print filter program statistics\n"
           "  replay-maps SWITCH ID [AFTER]\n"
           "                              print retained SEND_MAPS events\n"
           "  mark-installed SWITCH ID MARK\n"
           "                              mark a filter program installed\n");
}
