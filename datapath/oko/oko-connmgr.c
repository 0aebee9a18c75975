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


/* Oko's asynchronous messages through the connection manager.
 *
 * This file is not compiled on its own: ofproto/connmgr.c includes it
 * (patch 0013), because which connections get a message depends on
 * struct ofconn's members (its type, its miss_send_len) and is sent with
 * ofconn_send(), all private to that file. */

#include "oko/oko-connmgr.h"

void
connmgr_send_oko_async(struct connmgr *mgr, connmgr_oko_encode_func *encode,
                       void *aux)
{
    struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, connmgr_node, &mgr->conns) {
        enum ofp_version version
            = ofputil_protocol_to_ofp_version(ofconn_get_protocol(ofconn));
        /* As for OVS's own asynchronous messages: not to secondaries, and
         * to a service connection only if it asked for them with a nonzero
         * miss_send_len (ovs-ofctl monitor BR MISS-LEN). */
        if (ofconn_get_role(ofconn) != OFPCR12_ROLE_SECONDARY
            && (ofconn->type != OFCONN_SERVICE || ofconn->miss_send_len)
            && rconn_is_connected(ofconn->rconn)
            && version >= OFP13_VERSION) {
            struct ovs_list msgs = OVS_LIST_INITIALIZER(&msgs);
            struct ofpbuf *msg;

            encode(version, &msgs, aux);
            LIST_FOR_EACH_POP (msg, list_node, &msgs) {
                ofconn_send(ofconn, msg, NULL);
            }
        }
    }
}
