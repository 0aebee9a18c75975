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


#ifndef OKO_CONNMGR_H
#define OKO_CONNMGR_H 1

/* Oko's asynchronous messages (SEND_MAPS events) through ofproto's
 * connection manager: oko-connmgr.c, compiled into ofproto/connmgr.c. */

#include "openflow/openflow-common.h"

struct connmgr;
struct ovs_list;

/* Appends the messages to send, for OpenFlow 'version', to 'msgs'. */
typedef void connmgr_oko_encode_func(enum ofp_version version,
                                     struct ovs_list *msgs, void *aux);

/* Sends the messages 'encode' makes for each connection's OpenFlow version
 * (1.3 or later) to every connection that gets OVS's own asynchronous
 * messages. */
void connmgr_send_oko_async(struct connmgr *, connmgr_oko_encode_func *,
                            void *aux);

#endif /* oko-connmgr.h */
