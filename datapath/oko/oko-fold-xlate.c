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
#include "oko/oko-fold-xlate.h"

#include <string.h>

#include "flow.h"
#include "oko-filter.h"
#include "oko/oko-instance.h"
#include "ovs-atomic.h"
#include "packets.h"
#include "util.h"

/* A folded verdict holds for packets of OKO_FOLD_MIN_LEN bytes or more
 * when the program compares the length: the Ethernet header. */
BUILD_ASSERT_DECL(OKO_FOLD_MIN_LEN == ETH_HEADER_LEN);

/* The bytes a folded verdict may depend on: the Ethernet destination and
 * source addresses (bytes 0-11), which every frame has where the flow's
 * dl_dst and dl_src say.  Nothing after them: where the IPv4 header, say,
 * begins depends on VLAN tags and on 802.2 LLC/SNAP framing, and the flow
 * does not describe SNAP (miniflow_extract() gives a SNAP frame carrying
 * IPv4 dl_type 0x0800 with the IPv4 header 8 bytes further on). */
#define FOLD_ETH_ADDR_BYTES 0xfffULL

static atomic_bool folding = true;

void
oko_fold_xlate_set_enabled(bool enable)
{
    atomic_store_relaxed(&folding, enable);
}

bool
oko_fold_xlate_is_enabled(void)
{
    bool enabled;

    atomic_read_relaxed(&folding, &enabled);
    return enabled;
}

bool
oko_fold_xlate(const struct oko_instance *inst,
               const struct flow *upcall_flow, struct flow_wildcards *wc,
               bool count, bool *match)
{
    const struct oko_fold *fold = &inst->filter->fold;
    uint8_t frame[ETH_HEADER_LEN];

    if (!wc || !fold->foldable || fold->depends & ~FOLD_ETH_ADDR_BYTES
        || !oko_fold_xlate_is_enabled()) {
        return false;
    }
    memset(frame, 0, sizeof frame);
    if (fold->depends || fold->uses_len) {
        /* Every packet of the cached flow must be an Ethernet frame of 14
         * bytes or more: miniflow_extract() sets dl_type (at least to
         * FLOW_DL_TYPE_NONE) only for those, so the flow matches a dl_type
         * that is not 0. */
        if (upcall_flow->packet_type != htonl(PT_ETH)
            || !upcall_flow->dl_type) {
            return false;
        }
        wc->masks.packet_type = OVS_BE32_MAX;
        wc->masks.dl_type = OVS_BE16_MAX;
        for (int i = 0; i < ETH_ADDR_LEN; i++) {
            if (fold->depends >> i & 1) {
                wc->masks.dl_dst.ea[i] = 0xff;
            }
            if (fold->depends >> (ETH_ADDR_LEN + i) & 1) {
                wc->masks.dl_src.ea[i] = 0xff;
            }
        }
        memcpy(frame, upcall_flow->dl_dst.ea, ETH_ADDR_LEN);
        memcpy(frame + ETH_ADDR_LEN, upcall_flow->dl_src.ea, ETH_ADDR_LEN);
        /* Bytes 12-13 stay 0: the program does not depend on them. */
    }
    uint64_t r0 = oko_filter_run(inst->filter, frame, sizeof frame);
    if (r0 > 1) {
        /* An error (no stack for the run, say) is this run's, not the
         * flow's verdict: not cached; the program is asked per packet. */
        return false;
    }
    if (count) {
        oko_instance_count(inst, r0);
    }
    *match = r0 == 1;
    return true;
}
