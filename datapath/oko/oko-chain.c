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
#include "oko/oko-chain.h"

#include <string.h>

#include "hash.h"
#include "oko/oko-instance.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"
#include "uuid.h"

atomic_bool oko_chain_caching = true;

void
oko_chain_append(struct oko_chain *chain, const struct oko_instance *inst,
                 bool result)
{
    if (chain->n < OKO_CHAIN_MAX) {
        chain->links[chain->n++] = (struct oko_chain_link) {
            .inst = inst,
            .serial = inst->serial,
            .prog_id = inst->prog_id,
            .result = result,
        };
    } else {
        chain->overflow = true;
    }
}

bool
oko_chain_equal(const struct oko_chain *a, const struct oko_chain *b)
{
    unsigned int na = a ? a->n : 0, nb = b ? b->n : 0;

    if (na != nb) {
        return false;
    }
    for (unsigned int i = 0; i < na; i++) {
        if (a->links[i].serial != b->links[i].serial
            || a->links[i].result != b->links[i].result) {
            return false;
        }
    }
    return true;
}

void
oko_chain_fold_ufid(const struct oko_chain *chain, ovs_u128 *ufid)
{
    struct {
        ovs_u128 ufid;
        uint64_t links[OKO_CHAIN_MAX];
    } in;

    if (!chain->n) {
        return;
    }
    memset(&in, 0, sizeof in);
    in.ufid = *ufid;
    for (unsigned int i = 0; i < chain->n; i++) {
        /* Serials count from 1 and stay far below 2^63. */
        in.links[i] = chain->links[i].serial << 1 | chain->links[i].result;
    }
    hash_bytes128(&in, sizeof in.ufid + chain->n * sizeof in.links[0], 0,
                  ufid);
    uuid_set_bits_v4((struct uuid *) ufid);
}

struct oko_chain *
oko_chain_clone(const struct oko_chain *chain)
{
    return chain->n ? xmemdup(chain, sizeof *chain) : NULL;
}

void
oko_chain_format(const struct oko_chain *chain, struct ds *s)
{
    ds_put_char(s, '[');
    for (unsigned int i = 0; i < chain->n; i++) {
        ds_put_format(s, "%s%"PRIu32":%d", i ? "," : "",
                      chain->links[i].prog_id, chain->links[i].result);
    }
    ds_put_char(s, ']');
}
