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

#ifndef OKO_FOLD_XLATE_H
#define OKO_FOLD_XLATE_H 1

/* Folded verdicts at translation (docs/filter-programs.md, "Folded
 * results").  A program whose verdict folds (the runtime's oko-fold.h) is
 * decided once per cached flow: translation un-wildcards the bytes it
 * depends on, runs it on those bytes as the flow has them, and caches the
 * verdict like any match, with no chain entry.  The cached flow's packets
 * then run nothing. */

#include <stdbool.h>

struct flow;
struct flow_wildcards;
struct oko_instance;

/* If 'inst' folds for the packets of 'upcall_flow' (the flow as the
 * datapath received it), sets '*match' to its verdict, un-wildcards in
 * 'wc' what the verdict depends on, and returns true.  'count' counts the
 * run in the program's statistics (a packet's translation; not for
 * revalidation).  False if it does not fold, folding is off, 'wc' is NULL
 * (a translation whose wildcards do not become the cached flow's, such as
 * a native tunnel's underlay), or the run failed (r0 neither 0 nor 1). */
bool oko_fold_xlate(const struct oko_instance *inst,
                    const struct flow *upcall_flow, struct flow_wildcards *wc,
                    bool count, bool *match);

/* "ovs-appctl oko/disable-result-folding" (benchmarks that measure what a
 * program costs per packet) and its opposite; on by default.  Flows made
 * the other way stay until revalidated. */
void oko_fold_xlate_set_enabled(bool);
bool oko_fold_xlate_is_enabled(void);

#endif /* oko-fold-xlate.h */
