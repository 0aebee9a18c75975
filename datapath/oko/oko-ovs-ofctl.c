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


/* ovs-ofctl's Oko commands: the handlers and their command-table entries.
 *
 * This file is not compiled on its own: utilities/ovs-ofctl.c includes it
 * (patch 0005) just before its command table, so that the handlers send
 * requests like OVS's own commands do, with that file's static helpers
 * (open_vconn(), run(), transact_noreply(), 'verbosity'), and the table
 * lists them with OKO_OFCTL_COMMANDS.  The requests themselves are built
 * by oko-ofctl.c, one function per command. */

/* Runs an Oko command whose request 'build' makes from the command line.
 * A multipart request (dump-maps, dump-prog-stats, replay-maps) prints its
 * replies; any other is confirmed with a barrier (transact_noreply()).
 * An error, from 'build' or from the switch, goes to stderr and exits with
 * status 1. */
static void
ofctl_oko(struct ovs_cmdl_context *ctx,
          char *(*build)(int argc, char *argv[], enum ofp_version,
                         struct ofpbuf **request))
{
    struct ofpbuf *request;
    struct vconn *vconn;
    char *error;

    open_vconn(ctx->argv[1], &vconn);
    error = build(ctx->argc, ctx->argv, vconn_get_version(vconn), &request);
    if (error) {
        ovs_fatal(0, "%s", error);
    }
    if (ofpmsg_is_stat_request(request->data)) {
        /* Like dump_transaction(), but an error goes to stderr and fails. */
        ovs_be32 xid = ((struct ofp_header *) request->data)->xid;
        bool more = true;

        run(vconn_send_block(vconn, request), "talking to %s", ctx->argv[1]);
        while (more) {
            struct ofpbuf *reply;
            const struct ofp_header *oh;
            enum ofptype type;
            bool is_error;

            run(vconn_recv_xid(vconn, xid, &reply), "talking to %s",
                ctx->argv[1]);
            oh = reply->data;
            is_error = !ofptype_decode(&type, oh) && type == OFPTYPE_ERROR;
            ofp_print(is_error ? stderr : stdout, reply->data, reply->size,
                      NULL, NULL, verbosity + 1);
            more = !is_error && ofpmp_more(oh);
            ofpbuf_delete(reply);
            if (is_error) {
                exit(1);
            }
        }
    } else {
        transact_noreply(vconn, request);
    }
    vconn_close(vconn);
}

static void
ofctl_load_filter_prog(struct ovs_cmdl_context *ctx)
{
    ofctl_oko(ctx, oko_ofctl_load_filter_prog);
}

static void
ofctl_unload_filter_prog(struct ovs_cmdl_context *ctx)
{
    ofctl_oko(ctx, oko_ofctl_unload_filter_prog);
}

static void
ofctl_update_map(struct ovs_cmdl_context *ctx)
{
    ofctl_oko(ctx, oko_ofctl_update_map);
}

static void
ofctl_delete_map_entries(struct ovs_cmdl_context *ctx)
{
    ofctl_oko(ctx, oko_ofctl_delete_map_entries);
}

static void
ofctl_dump_maps(struct ovs_cmdl_context *ctx)
{
    ofctl_oko(ctx, oko_ofctl_dump_maps);
}

static void
ofctl_dump_prog_stats(struct ovs_cmdl_context *ctx)
{
    ofctl_oko(ctx, oko_ofctl_dump_prog_stats);
}

static void
ofctl_replay_maps(struct ovs_cmdl_context *ctx)
{
    ofctl_oko(ctx, oko_ofctl_replay_maps);
}

static void
ofctl_mark_installed(struct ovs_cmdl_context *ctx)
{
    ofctl_oko(ctx, oko_ofctl_mark_installed);
}

/* The Oko commands' entries in ovs-ofctl's command table (their help lines
 * are oko_ofctl_usage()'s). */
#define OKO_OFCTL_COMMANDS                                              \
    { "load-filter-prog", "switch id file [replace] [keep-maps]",       \
      3, 5, ofctl_load_filter_prog, OVS_RW },                           \
    { "unload-filter-prog", "switch id [force]",                        \
      2, 3, ofctl_unload_filter_prog, OVS_RW },                         \
    { "update-map", "switch id map key[=value]...",                     \
      4, INT_MAX, ofctl_update_map, OVS_RW },                           \
    { "delete-map-entries", "switch id map key...|all",                 \
      4, INT_MAX, ofctl_delete_map_entries, OVS_RW },                   \
    { "dump-maps", "switch id [map...]",                                \
      2, INT_MAX, ofctl_dump_maps, OVS_RO },                            \
    { "dump-prog-stats", "switch [id]",                                 \
      1, 2, ofctl_dump_prog_stats, OVS_RO },                            \
    { "replay-maps", "switch id [after]",                               \
      2, 3, ofctl_replay_maps, OVS_RO },                                \
    { "mark-installed", "switch id mark",                               \
      3, 3, ofctl_mark_installed, OVS_RW }
