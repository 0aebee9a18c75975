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


/* Oko's SEND_MAPS action (docs/protocol.md 6.2): OFPACT_OKO_SEND_MAPS,
 * "send_maps(MASK)" in action syntax, OpenFlow 1.3 or later.
 *
 * This file is not compiled on its own: lib/ofp-actions.c includes it
 * (patch 0013), because its action codecs are static functions that the
 * tables generated from that file (ofp-actions.inc1 and .inc2, by
 * build-aux/extract-ofp-actions) call by name, and they use that file's
 * put_OKOAST_SEND_MAPS().  That the rule names a filter program with those
 * maps is checked when the flow mod is applied (ofproto-oko.c). */

static enum ofperr
decode_OKOAST_RAW_SEND_MAPS(ovs_be64 map_mask,
                            enum ofp_version ofp_version OVS_UNUSED,
                            struct ofpbuf *out)
{
    if (!map_mask) {
        return OFPERR_OFPBAC_BAD_ARGUMENT;
    }
    ofpact_put_OKO_SEND_MAPS(out)->map_mask = ntohll(map_mask);
    return 0;
}

static void
encode_OKO_SEND_MAPS(const struct ofpact_oko_send_maps *a,
                     enum ofp_version ofp_version, struct ofpbuf *out)
{
    if (ofp_version >= OFP13_VERSION) {
        put_OKOAST_SEND_MAPS(out, htonll(a->map_mask));
    }
}

static char * OVS_WARN_UNUSED_RESULT
parse_OKO_SEND_MAPS(char *arg, const struct ofpact_parse_params *pp)
{
    uint64_t map_mask;
    char *error = str_to_u64(arg, &map_mask);

    if (!error && !map_mask) {
        error = xstrdup("send_maps needs a nonzero map mask");
    }
    if (!error) {
        ofpact_put_OKO_SEND_MAPS(pp->ofpacts)->map_mask = map_mask;
        *pp->usable_protocols &= OFPUTIL_P_OF13_UP;
    }
    return error;
}

static void
format_OKO_SEND_MAPS(const struct ofpact_oko_send_maps *a,
                     const struct ofpact_format_params *fp)
{
    ds_put_format(fp->s, "%ssend_maps(%s%#"PRIx64"%s)%s", colors.paren,
                  colors.end, a->map_mask, colors.paren, colors.end);
}

static enum ofperr
check_OKO_SEND_MAPS(const struct ofpact_oko_send_maps *a OVS_UNUSED,
                    const struct ofpact_check_params *cp OVS_UNUSED)
{
    return 0;
}
