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

/* Oko's pass through the userspace datapath's caches with filter-program
 * chain checks: oko_dp_netdev_input__(), which dp_netdev_input() and
 * dp_netdev_recirculate() run instead of dp_netdev_input__() while a thread
 * needs chain checks (oko_dp_pass_needed(), oko-dp.h).
 *
 * This file is not compiled on its own: lib/dpif-netdev.c includes it
 * (patch 0011), after dp_netdev_input__(), so that it can use that file's
 * static functions and types (dfc_processing(), struct
 * packet_batch_per_flow, ...), which OVS does not export.
 *
 * The pass is made of copies of OVS functions with the checks added, so that
 * OVS's own functions stay OVS's code, compiled as OVS compiles them, for
 * the pass without programs.  Each copy says which function it mirrors;
 * datapath/oko/mirrors records a digest of each original as it was in the
 * OVS release the copy was made from (Open vSwitch 3.5.0), and the build
 * stops, naming the function, when the OVS source it is built against has
 * another one (datapath/ovs/check-mirrors).  The lines a copy adds or
 * changes are marked "Oko:" (a changed signature is explained in the copy's
 * header comment), except two that differ only as OVS's checkpatch asks of
 * new code, which the originals predate: a cast's spacing in
 * oko_fast_path_processing() and a comment's to-do marker, "Note:" in
 * oko_handle_packet_upcall(). */

/* Mirrors dp_netdev_upcall() (Open vSwitch 3.5.0): a miss upcall whose
 * translation replays the packet's filter-program history, the results of
 * the programs the datapath already ran for it, and reports the
 * translation's chain in 'oko_chain'. */
static int
oko_dp_netdev_upcall(struct dp_netdev_pmd_thread *pmd,
                     struct dp_packet *packet_, struct flow *flow,
                     struct flow_wildcards *wc, ovs_u128 *ufid,
                     struct ofpbuf *actions, struct ofpbuf *put_actions,
                     const struct oko_chain *oko_history,
                     struct oko_chain *oko_chain)
{
    /* Oko: only misses come here. */
    const enum dpif_upcall_type type = DPIF_UC_MISS;
    const struct nlattr *userdata = NULL;
    struct dp_netdev *dp = pmd->dp;

    if (OVS_UNLIKELY(!dp->upcall_cb)) {
        return ENODEV;
    }

    if (OVS_UNLIKELY(!VLOG_DROP_DBG(&upcall_rl))) {
        struct ds ds = DS_EMPTY_INITIALIZER;
        char *packet_str;
        struct ofpbuf key;
        struct odp_flow_key_parms odp_parms = {
            .flow = flow,
            .mask = wc ? &wc->masks : NULL,
            .support = dp_netdev_support,
        };

        ofpbuf_init(&key, 0);
        odp_flow_key_from_flow(&odp_parms, &key);
        packet_str = ofp_dp_packet_to_string(packet_);

        odp_flow_key_format(key.data, key.size, &ds);

        VLOG_DBG("%s: %s upcall:\n%s\n%s", dp->name,
                 dpif_upcall_type_to_string(type), ds_cstr(&ds), packet_str);

        ofpbuf_uninit(&key);
        free(packet_str);

        ds_destroy(&ds);
    }

    if (type != DPIF_UC_MISS) {
        dp_packet_ol_send_prepare(packet_, 0);
    }

    /* Oko: with the history and the chain. */
    return dp->upcall_cb(packet_, flow, ufid, pmd->core_id, type, userdata,
                         actions, wc, put_actions, oko_history, oko_chain,
                         dp->upcall_aux);
}

/* Mirrors handle_packet_upcall() (Open vSwitch 3.5.0): the upcall has the
 * packet's history, and the flow it installs the translation's chain. */
static inline int
oko_handle_packet_upcall(struct dp_netdev_pmd_thread *pmd,
                         struct dp_packet *packet,
                         const struct netdev_flow_key *key,
                         struct ofpbuf *actions, struct ofpbuf *put_actions)
{
    struct ofpbuf *add_actions;
    struct dp_packet_batch b;
    struct match match;
    ovs_u128 ufid;
    int error;
    uint64_t cycles = cycles_counter_update(&pmd->perf_stats);
    odp_port_t orig_in_port = packet->md.orig_in_port;
    struct oko_chain oko_history, oko_chain;    /* Oko. */

    match.tun_md.valid = false;
    miniflow_expand(&key->mf, &match.flow);
    memset(&match.wc, 0, sizeof match.wc);

    ofpbuf_clear(actions);
    ofpbuf_clear(put_actions);

    odp_flow_key_hash(&match.flow, sizeof match.flow, &ufid);
    /* Oko: what already ran for the packet, and the chain to report. */
    oko_dp_history_get(packet, &oko_history);
    oko_chain_init(&oko_chain);
    error = oko_dp_netdev_upcall(pmd, packet, &match.flow, &match.wc,
                                 &ufid, actions, put_actions,
                                 &oko_history, &oko_chain);
    if (OVS_UNLIKELY(error && error != ENOSPC)) {
        dp_packet_delete(packet);
        COVERAGE_INC(datapath_drop_upcall_error);
        return error;
    }

    /* The Netlink encoding of datapath flow keys cannot express
     * wildcarding the presence of a VLAN tag. Instead, a missing VLAN
     * tag is interpreted as exact match on the fact that there is no
     * VLAN.  Unless we refactor a lot of code that translates between
     * Netlink and struct flow representations, we have to do the same
     * here.  This must be in sync with 'match' in dpif_netdev_flow_put(). */
    if (!match.wc.masks.vlans[0].tci) {
        match.wc.masks.vlans[0].tci = htons(VLAN_VID_MASK | VLAN_CFI);
    }

    /* We can't allow the packet batching in the next loop to execute
     * the actions.  Otherwise, if there are any slow path actions,
     * we'll send the packet up twice. */
    dp_packet_batch_init_packet(&b, packet);
    dp_netdev_execute_actions(pmd, &b, true, &match.flow,
                              actions->data, actions->size);

    add_actions = put_actions->size ? put_actions : actions;
    if (OVS_LIKELY(error != ENOSPC)) {
        struct dp_netdev_flow *netdev_flow;

        /* Note: There's a race window where a flow covering this packet
         * could have already been installed since we last did the flow
         * lookup before upcall.  This could be solved by moving the
         * mutex lock outside the loop, but that's an awful long time
         * to be locking revalidators out of making flow modifications. */
        /* Oko: a chained flow is found by its ufid (which includes the
         * chain): flows with the same key and mask but other chains
         * coexist.  A chain that names a program replaced meanwhile is not
         * installed ('oko_ok' false). */
        bool oko_ok = true;
        struct oko_dp_chain *oko_dp_chain
            = oko_dp_chain_create(&oko_chain, pmd, &oko_ok);

        ovs_mutex_lock(&pmd->flow_mutex);
        netdev_flow = (OVS_LIKELY(!oko_dp_chain)
                       ? dp_netdev_pmd_lookup_flow(pmd, key, NULL)
                       : dp_netdev_pmd_find_flow(pmd, &ufid, NULL, 0));
        if (OVS_LIKELY(!netdev_flow) && OVS_LIKELY(oko_ok)) {
            netdev_flow = oko_dp_netdev_flow_add(pmd, &match, &ufid,
                                                 add_actions->data,
                                                 add_actions->size,
                                                 orig_in_port, oko_dp_chain);
        } else {
            oko_dp_chain_destroy(oko_dp_chain);
        }
        ovs_mutex_unlock(&pmd->flow_mutex);
        if (OVS_UNLIKELY(!netdev_flow)) {
            goto out;           /* Oko: a program was replaced meanwhile. */
        }
        uint32_t hash = dp_netdev_flow_hash(&netdev_flow->ufid);
        smc_insert(pmd, key, hash);
        emc_probabilistic_insert(pmd, key, netdev_flow);
    }
out:                            /* Oko. */
    if (pmd_perf_metrics_enabled(pmd)) {
        /* Update upcall stats. */
        cycles = cycles_counter_update(&pmd->perf_stats) - cycles;
        struct pmd_perf_stats *s = &pmd->perf_stats;
        s->current.upcalls++;
        s->current.upcall_cycles += cycles;
        histogram_add_sample(&s->cycles_per_upcall, cycles);
    }
    return error;
}

/* Mirrors fast_path_processing() (Open vSwitch 3.5.0): its upcalls make
 * chained flows.  Out of line: oko_dp_netdev_input__() inlines every call it
 * can. */
static void OKO_NOINLINE
oko_fast_path_processing(struct dp_netdev_pmd_thread *pmd,
                         struct dp_packet_batch *packets_,
                         struct netdev_flow_key **keys,
                         struct dp_packet_flow_map *flow_map,
                         uint8_t *index_map,
                         odp_port_t in_port)
{
    const size_t cnt = dp_packet_batch_size(packets_);
#if !defined(__CHECKER__) && !defined(_WIN32)
    const size_t PKT_ARRAY_SIZE = cnt;
#else
    /* Sparse or MSVC doesn't like variable length array. */
    enum { PKT_ARRAY_SIZE = NETDEV_MAX_BURST };
#endif
    struct dp_packet *packet;
    struct dpcls *cls;
    struct dpcls_rule *rules[PKT_ARRAY_SIZE];
    struct dp_netdev *dp = pmd->dp;
    int upcall_ok_cnt = 0, upcall_fail_cnt = 0;
    int lookup_cnt = 0, add_lookup_cnt;
    bool any_miss;

    for (size_t i = 0; i < cnt; i++) {
        /* Key length is needed in all the cases, hash computed on demand. */
        keys[i]->len = netdev_flow_key_size(miniflow_n_values(&keys[i]->mf));
    }
    /* Get the classifier for the in_port */
    cls = dp_netdev_pmd_lookup_dpcls(pmd, in_port);
    if (OVS_LIKELY(cls)) {
        any_miss = !dpcls_lookup(cls, (const struct netdev_flow_key **) keys,
                                rules, cnt, &lookup_cnt);
    } else {
        any_miss = true;
        memset(rules, 0, sizeof(rules));
    }
    if (OVS_UNLIKELY(any_miss) && !fat_rwlock_tryrdlock(&dp->upcall_rwlock)) {
        uint64_t actions_stub[512 / 8], slow_stub[512 / 8];
        struct ofpbuf actions, put_actions;

        ofpbuf_use_stub(&actions, actions_stub, sizeof actions_stub);
        ofpbuf_use_stub(&put_actions, slow_stub, sizeof slow_stub);

        DP_PACKET_BATCH_FOR_EACH (i, packet, packets_) {
            struct dp_netdev_flow *netdev_flow;

            if (OVS_LIKELY(rules[i])) {
                continue;
            }

            /* It's possible that an earlier slow path execution installed
             * a rule covering this flow.  In this case, it's a lot cheaper
             * to catch it here than execute a miss. */
            netdev_flow = dp_netdev_pmd_lookup_flow(pmd, keys[i],
                                                    &add_lookup_cnt);
            if (netdev_flow) {
                lookup_cnt += add_lookup_cnt;
                rules[i] = &netdev_flow->cr;
                continue;
            }

            /* Oko: the upcall with the packet's history. */
            int error = oko_handle_packet_upcall(pmd, packet, keys[i],
                                                 &actions, &put_actions);

            if (OVS_UNLIKELY(error)) {
                upcall_fail_cnt++;
            } else {
                upcall_ok_cnt++;
            }
        }

        ofpbuf_uninit(&actions);
        ofpbuf_uninit(&put_actions);
        fat_rwlock_unlock(&dp->upcall_rwlock);
    } else if (OVS_UNLIKELY(any_miss)) {
        DP_PACKET_BATCH_FOR_EACH (i, packet, packets_) {
            if (OVS_UNLIKELY(!rules[i])) {
                dp_packet_delete(packet);
                COVERAGE_INC(datapath_drop_lock_error);
                upcall_fail_cnt++;
            }
        }
    }

    DP_PACKET_BATCH_FOR_EACH (i, packet, packets_) {
        struct dp_netdev_flow *flow;
        /* Get the original order of this packet in received batch. */
        int recv_idx = index_map[i];
        uint16_t tcp_flags;

        if (OVS_UNLIKELY(!rules[i])) {
            continue;
        }

        flow = dp_netdev_flow_cast(rules[i]);
        uint32_t hash =  dp_netdev_flow_hash(&flow->ufid);
        smc_insert(pmd, keys[i], hash);

        emc_probabilistic_insert(pmd, keys[i], flow);
        /* Add these packets into the flow map in the same order
         * as received.
         */
        tcp_flags = miniflow_get_tcp_flags(&keys[i]->mf);
        packet_enqueue_to_flow_map(packet, flow, tcp_flags,
                                   flow_map, recv_idx);
    }

    pmd_perf_update_counter(&pmd->perf_stats, PMD_STAT_MASKED_HIT,
                            cnt - upcall_ok_cnt - upcall_fail_cnt);
    pmd_perf_update_counter(&pmd->perf_stats, PMD_STAT_MASKED_LOOKUP,
                            lookup_cnt);
    pmd_perf_update_counter(&pmd->perf_stats, PMD_STAT_MISS,
                            upcall_ok_cnt);
    pmd_perf_update_counter(&pmd->perf_stats, PMD_STAT_LOST,
                            upcall_fail_cnt);
}

/* The flow that takes 'packet', a packet a chain refused, classified
 * again (its key extracted into 'key'): the flow the megaflow lookup finds
 * if its chain, if any, accepts the packet, else the next flow with the
 * same key and mask whose chain accepts it, or NULL.  The packet's history
 * decides what already ran for it: no program runs twice. */
static struct dp_netdev_flow *
oko_lookup_refused(struct dp_netdev_pmd_thread *pmd, struct dp_packet *packet,
                   bool md_is_valid, struct netdev_flow_key *key)
{
    struct dp_netdev_flow *flow;

    miniflow_extract(packet, &key->mf);
    key->len = netdev_flow_key_size(miniflow_n_values(&key->mf));
    key->hash = (md_is_valid
                 ? dpif_netdev_packet_get_rss_hash(packet, &key->mf)
                 : dpif_netdev_packet_get_rss_hash_orig_pkt(packet,
                                                            &key->mf));
    flow = dp_netdev_pmd_lookup_flow(pmd, key, NULL);
    if (flow && flow->oko_chain
        && !oko_dp_chain_accepts(flow->oko_chain, packet)) {
        struct dpcls_rule *rule = oko_dpcls_next_accepting(&flow->cr, packet);

        flow = rule ? dp_netdev_flow_cast(rule) : NULL;
    }
    return flow;
}

/* A packet a chain refused left its flow's batch and is classified
 * again: the flow the megaflow cache finds, if its chain accepts the packet
 * (the packet's history says what already ran), else the next flow with
 * the same match whose chain does; it joins that flow's batch in arrival
 * order.  A packet no flow takes (or whose flow has no batch yet when
 * 'batches' holds 'max_batches') goes to 'upcalls', for an upcall once the
 * pass's batches are closed (an upcall executes the packet, which may
 * recirculate: a nested pass must not add to this pass's checked
 * batches). */
static void
oko_reclassify(struct dp_netdev_pmd_thread *pmd,
               struct dp_packet_batch *refused, bool md_is_valid,
               struct dp_packet *const arrival[], size_t n_arrival,
               struct packet_batch_per_flow batches[], size_t *n_batches,
               size_t max_batches, struct dp_packet_batch *upcalls)
{
    struct dp_packet_batch *joined[NETDEV_MAX_BURST];
    struct oko_dp_arrival order;
    size_t n_joined = 0;
    struct dp_packet *packet;

    if (n_arrival) {
        oko_dp_arrival_init(&order, arrival, n_arrival);
        oko_dp_arrival_sort(&order, refused);
    }
    DP_PACKET_BATCH_FOR_EACH (i, packet, refused) {
        struct netdev_flow_key key;
        struct dp_netdev_flow *flow;

        flow = oko_lookup_refused(pmd, packet, md_is_valid, &key);
        if (flow && !flow->batch && *n_batches >= max_batches) {
            /* Cannot happen (see oko_check_batches()); if it did, the slow
             * path would execute it, with its history, as a miss. */
            flow = NULL;
        }
        if (flow) {
            dp_netdev_queue_batches(packet, flow,
                                    miniflow_get_tcp_flags(&key.mf),
                                    batches, n_batches);
            /* (Refused packets of one flow mostly join one batch, one
             * after another: that batch once.) */
            struct dp_packet_batch *b = &flow->batch->array;

            if (n_joined < ARRAY_SIZE(joined)
                && (!n_joined || joined[n_joined - 1] != b)) {
                joined[n_joined++] = b;
            }
        } else {
            dp_packet_batch_add(upcalls, packet);
        }
    }
    for (size_t i = 0; n_arrival && i < n_joined; i++) {
        oko_dp_arrival_sort(&order, joined[i]);
    }
}

/* The upcalls of oko_reclassify(), each with the packet's history. */
static void OKO_NOINLINE
oko_upcall_refused(struct dp_netdev_pmd_thread *pmd,
                   struct dp_packet_batch *upcalls, bool md_is_valid)
{
    uint64_t actions_stub[512 / 8], slow_stub[512 / 8];
    struct ofpbuf actions, put_actions;
    int upcall_ok_cnt = 0, upcall_fail_cnt = 0;
    struct dp_packet *packet;

    if (fat_rwlock_tryrdlock(&pmd->dp->upcall_rwlock)) {
        DP_PACKET_BATCH_FOR_EACH (i, packet, upcalls) {
            dp_packet_delete(packet);
            COVERAGE_INC(datapath_drop_lock_error);
        }
        pmd_perf_update_counter(&pmd->perf_stats, PMD_STAT_LOST,
                                dp_packet_batch_size(upcalls));
        return;
    }
    ofpbuf_use_stub(&actions, actions_stub, sizeof actions_stub);
    ofpbuf_use_stub(&put_actions, slow_stub, sizeof slow_stub);
    DP_PACKET_BATCH_FOR_EACH (i, packet, upcalls) {
        struct netdev_flow_key key;
        struct dp_netdev_flow *flow;

        /* An earlier upcall of this list may have installed a flow that
         * takes this packet: then it takes that flow, as a miss does in
         * fast_path_processing(), instead of making a second flow. */
        flow = oko_lookup_refused(pmd, packet, md_is_valid, &key);
        if (flow) {
            struct dp_packet_batch one;

            dp_packet_batch_init_packet(&one, packet);
            dp_netdev_batch_execute(pmd, &one, &flow->cr,
                                    dp_packet_size(packet),
                                    miniflow_get_tcp_flags(&key.mf));
            continue;
        }
        if (oko_handle_packet_upcall(pmd, packet, &key, &actions,
                                     &put_actions)) {
            upcall_fail_cnt++;
        } else {
            upcall_ok_cnt++;
        }
    }
    fat_rwlock_unlock(&pmd->dp->upcall_rwlock);
    ofpbuf_uninit(&actions);
    ofpbuf_uninit(&put_actions);
    /* Counted as cache hits first, and as what they became too. */
    pmd_perf_update_counter(&pmd->perf_stats, PMD_STAT_MISS, upcall_ok_cnt);
    pmd_perf_update_counter(&pmd->perf_stats, PMD_STAT_LOST, upcall_fail_cnt);
}

/* Every packet the caches classified is in a flow's batch; a flow with
 * a chain keeps the packets its chain accepts (the batch's packets in
 * order, so a result that flips inside the batch sends the packets after
 * the flip on) and the others are classified again.  This is each packet's
 * first chain check in the pass.  The batches whose flows have the pass's
 * first chain (a thread's flows with the same chain share it; a pipeline
 * has few) are checked in one run of its code over their packets, gathered
 * in the batches' order: on a trace with many flows a batch has one to
 * three packets, and a run per batch cost more than the packets' programs.
 * Batches with other chains are checked one by one after them.  Out of
 * line, as the rest of Oko's code here: inlined into dp_netdev_input__()
 * it doubled that function and slowed the switch without programs by a few
 * percent.  'batches' has room for 'max_batches', at least the pass's
 * packets: batches left empty are dropped first, so the batches with
 * packets and the refused packets (at most one new batch each) together
 * fit. */
static void OKO_NOINLINE
oko_check_batches(struct dp_netdev_pmd_thread *pmd, bool md_is_valid,
                  struct dp_packet *const arrival[], size_t n_arrival,
                  struct packet_batch_per_flow batches[], size_t *n_batches,
                  size_t max_batches, struct dp_packet_batch *upcalls)
{
    /* Copied 4 at a time, as a constant size the compiler copies inline:
     * up to 3 slots past a batch's packets (its array has room). */
    enum { COPY = 4 };
    BUILD_ASSERT_DECL(NETDEV_MAX_BURST % COPY == 0);
    BUILD_ASSERT_DECL(NETDEV_MAX_BURST <= 64);  /* For 'in_run'. */
    struct dp_packet *gathered[NETDEV_MAX_BURST + COPY - 1];
    uint64_t in_run = 0;            /* Bit i: batch i is in the run. */
    uint64_t chained = 0;           /* Bit i: batch i's flow has a chain. */
    struct oko_dp_chain *chain = NULL;
    size_t n_pkts = 0, i;
    struct dp_packet_batch refused;
    struct oko_dp_checks checks;
    size_t n = *n_batches;

    /* 'batches' has PKT_ARRAY_SIZE entries, at most NETDEV_MAX_BURST. */
    ovs_assert(n <= NETDEV_MAX_BURST);
    dp_packet_batch_init(&refused);
    oko_dp_checks_init(&checks);
    /* The run: the batches whose flows have the pass's first chain, found
     * in a loop without a branch on whether a flow has one (on a trace with
     * many flows, some with a chain and some without, a branch went either
     * way), then only their packets copied, the first COPY at once (most
     * batches there are of one to three packets).  A pass's batches hold at
     * most NETDEV_MAX_BURST packets, but a recirculation during one of its
     * upcalls may add to a batch: a batch that does not fit is left out of
     * the run and checked on its own, after it. */
    for (i = 0; i < n; i++) {
        struct oko_dp_chain *c = batches[i].flow->oko_chain;

        chain = chain ? chain : c;
        chained |= (uint64_t) (c != NULL) << i;
        in_run |= (uint64_t) (c == chain) << i;
    }
    in_run &= chained;          /* 'c == chain' held for NULL before one. */
    ULLONG_FOR_EACH_1 (i, in_run) {
        const struct dp_packet_batch *b = &batches[i].array;
        size_t k = dp_packet_batch_size(b);

        if (OVS_UNLIKELY(n_pkts + k > NETDEV_MAX_BURST)) {
            in_run &= ~(UINT64_C(1) << i);
            continue;
        }
        memcpy(&gathered[n_pkts], &b->packets[0], COPY * sizeof gathered[0]);
        for (size_t m = COPY; m < k; m += COPY) {
            memcpy(&gathered[n_pkts + m], &b->packets[m],
                   COPY * sizeof gathered[0]);
        }
        n_pkts += k;
    }

    if (chain && OVS_UNLIKELY(oko_dp_chain_check_packets(&checks, chain,
                                                         gathered, n_pkts,
                                                         &refused))) {
        /* The refused packets' slots are NULL: each batch keeps the
         * others, in order, and counts their bytes (its TCP flags may keep
         * a refused packet's: the flow's statistics then name a flag one
         * packet less had). */
        size_t at = 0;

        ULLONG_FOR_EACH_1 (i, in_run) {
            struct packet_batch_per_flow *batch = &batches[i];
            struct dp_packet_batch *b = &batch->array;
            size_t k = dp_packet_batch_size(b), kept = 0;

            batch->byte_count = 0;
            for (size_t m = 0; m < k; m++) {
                struct dp_packet *packet = gathered[at + m];

                if (packet) {
                    b->packets[kept++] = packet;
                    batch->byte_count += dp_packet_size(packet);
                }
            }
            b->count = kept;
            at += k;
        }
    }
    /* The batches with chains outside the run. */
    uint64_t others = chained & ~in_run;
    if (OVS_UNLIKELY(others)) {
        ULLONG_FOR_EACH_1 (i, others) {
            struct packet_batch_per_flow *batch = &batches[i];
            struct dp_packet *packet;

            if (oko_dp_chain_check_batch(&checks, batch->flow->oko_chain,
                                         &batch->array, &refused)) {
                batch->byte_count = 0;
                DP_PACKET_BATCH_FOR_EACH (j, packet, &batch->array) {
                    batch->byte_count += dp_packet_size(packet);
                }
            }
        }
    }
    if (OVS_UNLIKELY(!dp_packet_batch_is_empty(&refused))) {
        size_t kept = 0;

        for (i = 0; i < n; i++) {
            if (dp_packet_batch_is_empty(&batches[i].array)) {
                batches[i].flow->batch = NULL;
            } else {
                if (kept != i) {
                    batches[kept] = batches[i];
                    batches[kept].flow->batch = &batches[kept];
                }
                kept++;
            }
        }
        *n_batches = kept;
        oko_reclassify(pmd, &refused, md_is_valid, arrival, n_arrival,
                       batches, n_batches, max_batches, upcalls);
    }
}

/* Mirrors dp_netdev_input__() (Open vSwitch 3.5.0): the pass with the chain
 * checks, run instead of it while the thread needs them
 * (oko_dp_pass_needed(), oko-dp.h).  Flattened, so that the helpers inlined
 * into dp_netdev_input__() keep it as their only caller and gcc inlines them
 * there as in vanilla. */
static void OKO_NOINLINE OKO_FLATTEN
oko_dp_netdev_input__(struct dp_netdev_pmd_thread *pmd,
                      struct dp_packet_batch *packets,
                      bool md_is_valid, odp_port_t port_no)
{
#if !defined(__CHECKER__) && !defined(_WIN32)
    const size_t PKT_ARRAY_SIZE = dp_packet_batch_size(packets);
#else
    /* Sparse or MSVC doesn't like variable length array. */
    enum { PKT_ARRAY_SIZE = NETDEV_MAX_BURST };
#endif
    OVS_ALIGNED_VAR(CACHE_LINE_SIZE)
        struct netdev_flow_key keys[PKT_ARRAY_SIZE];
    struct netdev_flow_key *missed_keys[PKT_ARRAY_SIZE];
    struct packet_batch_per_flow batches[PKT_ARRAY_SIZE];
    size_t n_batches;
    struct dp_packet_flow_map flow_map[PKT_ARRAY_SIZE];
    uint8_t index_map[PKT_ARRAY_SIZE];
    size_t n_flows, i;

    odp_port_t in_port;
    /* Oko: the pass's input order and its refused packets that need an
     * upcall, kept off this stack (lib/oko/oko-dp.h). */
    struct oko_dp_pass *oko_pass = oko_dp_pass_enter(packets);

    n_batches = 0;
    dfc_processing(pmd, packets, keys, missed_keys, batches, &n_batches,
                   flow_map, &n_flows, index_map, md_is_valid, port_no);

    if (!dp_packet_batch_is_empty(packets)) {
        /* Get ingress port from first packet's metadata. */
        in_port = packets->packets[0]->md.in_port.odp_port;
        /* Oko: upcalls with the packets' histories. */
        oko_fast_path_processing(pmd, packets, missed_keys,
                                 flow_map, index_map, in_port);
    }

    /* Batch rest of packets which are in flow map. */
    for (i = 0; i < n_flows; i++) {
        struct dp_packet_flow_map *map = &flow_map[i];

        if (OVS_UNLIKELY(!map->flow)) {
            continue;
        }
        dp_netdev_queue_batches(map->packet, map->flow, map->tcp_flags,
                                batches, &n_batches);
     }

    /* Oko: while no datapath flow has a chain, there is nothing to check
     * (this pass runs for a nested or an asked-for pass). */
    if (OVS_LIKELY(oko_dp_chains_exist())) {
        oko_check_batches(pmd, md_is_valid, oko_pass->arrival,
                          oko_pass->n_arrival, batches, &n_batches,
                          PKT_ARRAY_SIZE, &oko_pass->upcalls);
    }

    /* All the flow batches need to be reset before any call to
     * packet_batch_per_flow_execute() as it could potentially trigger
     * recirculation. When a packet matching flow 'j' happens to be
     * recirculated, the nested call to dp_netdev_input__() could potentially
     * classify the packet as matching another flow - say 'k'. It could happen
     * that in the previous call to dp_netdev_input__() that same flow 'k' had
     * already its own batches[k] still waiting to be served.  So if its
     * 'batch' member is not reset, the recirculated packet would be wrongly
     * appended to batches[k] of the 1st call to dp_netdev_input__(). */
    for (i = 0; i < n_batches; i++) {
        batches[i].flow->batch = NULL;
    }

    /* Oko: the refused packets no flow took, once the batches are closed. */
    if (OVS_UNLIKELY(!dp_packet_batch_is_empty(&oko_pass->upcalls))) {
        oko_upcall_refused(pmd, &oko_pass->upcalls, md_is_valid);
    }

    /* Oko: every packet of the pass is classified; what its programs said
     * is needed no more (and recirculation starts a pass of its own). */
    oko_dp_pass_leave(oko_pass);

    for (i = 0; i < n_batches; i++) {
        packet_batch_per_flow_execute(&batches[i], pmd);
    }
}

