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

#ifndef OFPROTO_OKO_H
#define OFPROTO_OKO_H 1

/* A bridge's filter programs: loading, replacing, unloading, their maps
 * (update, delete, dump), as the Oko messages ask (docs/protocol.md).
 * Compiled into libofproto; called from ofproto.c's message dispatch. */

#include "openvswitch/ofp-errors.h"
#include "openvswitch/ofp-msgs.h"
#include "openvswitch/types.h"
#include "oko/oko-ofp.h"

struct dp_packet;
struct flow;
struct flow_wildcards;
struct ofconn;
struct ofp_header;
struct simap;
struct ofproto;
struct ofputil_flow_mod;
struct oko_chain;
struct ofpbuf;
struct user_action_cookie;
struct uuid;

#define OKO_MAX_PROGS_PER_BRIDGE 1024

/* Handles an OFPTYPE_OKO_* request from 'ofconn'.  Errors whose data is a
 * text are sent from here (and 0 returned); others are returned for
 * ofproto to send. */
enum ofperr ofproto_oko_handle(struct ofconn *, const struct ofp_header *,
                               enum ofptype);

/* Registers the unixctl commands (oko/show). */
void ofproto_oko_init(void);

/* Frees the bridge's programs; no thread may run them any more. */
void ofproto_oko_destroy(struct ofproto *);

/* Adds "oko-programs" and "oko-map-kB" to memory/show's 'usage'. */
void ofproto_oko_get_memory_usage(const struct ofproto *, struct simap *usage);

/* Flow mods and rules (ofproto.c).  A flow mod's filter_prog must name a
 * loaded program (OKO_EC_UNKNOWN_PROG otherwise).  The rule counts back
 * UNLOAD_PROG's "in use" check and oko/show. */
enum ofperr ofproto_oko_check_flow_mod(struct ofproto *,
                                       const struct ofputil_flow_mod *);
void ofproto_oko_rule_count(struct ofproto *, uint32_t prog_id, int delta);

/* The OFPT_ERROR ofproto sends for an Oko error (connmgr.c): its data is the
 * text of the check that failed. */
struct ofpbuf *ofproto_oko_error_reply(struct ofproto *, enum ofperr,
                                       const struct ofp_header *request);

/* Translation: does program 'prog_id' of 'ofproto' accept 'packet'?  A
 * program whose verdict folds is decided from 'upcall_flow' (the packet's
 * flow as the datapath received it), with what it depends on un-wildcarded
 * in 'wc' (NULL: no folding), and leaves no trace in 'chain'
 * (oko-fold-xlate.h).  Otherwise
 * the answer comes from 'chain' (this translation's chain so far), else
 * from 'history' (results the datapath already has for this packet, or the
 * cached chain revalidation replays; may be NULL), else from running the
 * program on 'packet'; it is appended to 'chain'.  Without a packet and
 * history nothing runs: the answer is no and the chain is marked
 * unresolved.  A program that is not loaded accepts nothing. */
bool ofproto_oko_filter(const struct ofproto *, uint32_t prog_id,
                        const struct dp_packet *packet,
                        const struct flow *upcall_flow,
                        struct flow_wildcards *wc,
                        const struct oko_chain *history,
                        struct oko_chain *chain);

/* SEND_MAPS (docs/protocol.md 5.6).  A packet thread that runs a rule's
 * SEND_MAPS action asks for an event (rate limited per program, no lock);
 * the main thread (ofproto_run()) copies the maps and sends the event to
 * the controllers. */
void ofproto_oko_send_maps_request(const struct ofproto *, uint32_t prog_id,
                                   uint64_t map_mask, ovs_be64 cookie,
                                   uint8_t table_id);

/* Translates a rule's SEND_MAPS action (the rule has program 'prog_id' in
 * table 'table_id'): appends to 'odp_actions' a userspace action, to netlink
 * port 'pid', so that the datapath runs it for every packet of a cached flow
 * too.  Its upcall, ofproto_oko_send_maps_upcall(), makes the request. */
void ofproto_oko_put_send_maps(struct ofpbuf *odp_actions,
                               const struct uuid *ofproto_uuid, uint32_t pid,
                               uint32_t prog_id, uint8_t table_id,
                               ovs_be64 rule_cookie, uint64_t map_mask);
void ofproto_oko_send_maps_upcall(const struct ofproto *,
                                  const struct user_action_cookie *);

void ofproto_oko_run(struct ofproto *);
void ofproto_oko_wait(struct ofproto *);

#endif /* ofproto-oko.h */
