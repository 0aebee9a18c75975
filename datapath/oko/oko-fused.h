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

#ifndef OKO_FUSED_H
#define OKO_FUSED_H 1

/* Fused chains: one native function per distinct datapath chain (its
 * program instances and their results, in order) that runs the programs
 * one after the other and compares each result inline
 * (oko_jit_compile_chain()), instead of one indirect call per program, for
 * each packet of a batch in turn (one call a flow's packets of a burst).
 *
 * A fused chain is compiled when the first datapath flow with that chain is
 * made, shared by every flow with the same chain (a pipeline typically has
 * a few distinct chains and many flows), and freed with the last one.  Its
 * code embeds the programs' instructions and map addresses; it lives no
 * longer than the flows' chains, which hold references on the instances,
 * so it never outlives a program: a program replaced or unloaded makes new
 * flows with new instances, hence new fused chains.
 *
 * Each fused chain is a copy of its programs' native code, so chains that
 * share programs multiply it: their code together is held to
 * OKO_FUSED_MAX_BYTES, checked before compiling from the programs' own
 * code sizes (an upper bound), so a flood of distinct chains costs neither
 * memory nor compilations beyond it.
 *
 * Without one (no JIT on this machine, a program run by the interpreter,
 * OKO_FUSED_MAX distinct chains alive or their code at OKO_FUSED_MAX_BYTES,
 * fusion turned off with "ovs-appctl oko/disable-chain-fusion",
 * compilation failed) the chain runs its programs one by one, with the same
 * results. */

#include <stdbool.h>
#include "oko-jit.h"

struct oko_dp_link;
struct oko_fused;

/* Distinct fused chains alive at most (each is at least one page), and
 * their code's bytes at most. */
#define OKO_FUSED_MAX 1024
#define OKO_FUSED_MAX_BYTES (64u << 20)

/* The fused chain of 'links' with a reference, or NULL (see above). */
struct oko_fused *oko_fused_get(const struct oko_dp_link *links,
                                unsigned int n);
void oko_fused_put(struct oko_fused *);
/* The function runs on dp_packets (struct dp_packet *), read as
 * oko_fused_pkt_layout() says. */
oko_jit_chain_fn *oko_fused_fn(const struct oko_fused *);
const struct oko_jit_pkt_layout *oko_fused_pkt_layout(void);

/* Whether new datapath chains are fused (default: yes).  Flows already
 * made keep what they have; "ovs-appctl revalidator/purge" remakes them. */
void oko_fused_set_enabled(bool);
bool oko_fused_is_enabled(void);

/* The bytes fused chains' code may take, OKO_FUSED_MAX_BYTES by default
 * (0 restores it); for tests. */
void oko_fused_set_max_bytes(size_t);

/* Fused chains alive now, and the bytes of their code. */
unsigned int oko_fused_count(void);
size_t oko_fused_bytes(void);

#endif /* oko-fused.h */
