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

struct ofconn;
struct ofp_header;
struct ofproto;

#define OKO_MAX_PROGS_PER_BRIDGE 1024

/* Handles an OFPTYPE_OKO_* request from 'ofconn'.  Errors whose data is a
 * text are sent from here (and 0 returned); others are returned for
 * ofproto to send. */
enum ofperr ofproto_oko_handle(struct ofconn *, const struct ofp_header *, enum ofptype);

/* Registers the unixctl commands (oko/show). */
void ofproto_oko_init(void);

/* Frees the bridge's programs; no thread may run them any more. */
void ofproto_oko_destroy(struct ofproto *);

#endif /* ofproto-oko.h */
