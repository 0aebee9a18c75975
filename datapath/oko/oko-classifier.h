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


#ifndef OKO_CLASSIFIER_H
#define OKO_CLASSIFIER_H 1

/* The classifier's filtered rules (patch 0008): a rule with a filter program
 * matches only if its program accepts the packet, and the program runs only
 * when its rule would otherwise win.  classifier_lookup__() sets such rules
 * aside while it scans the subtables and decides them afterwards, here.
 *
 * Only the slow path's lookups (translation) get here; a lookup without
 * filtered rules only clears 'n'. */

#include <stddef.h>
#include "classifier.h"
#include "util.h"

struct cls_match;

/* The filtered candidates of one lookup: the best visible rule of each
 * subtable whose best rule has a filter program.  On the caller's stack. */
struct oko_cls_pending {
    size_t n;                         /* Candidates. */
    size_t allocated;                 /* Room in 'matches'. */
    const struct cls_match **matches; /* 'stub' or malloc'd. */
    const struct cls_match *stub[16];
};

static inline void
oko_cls_pending_init(struct oko_cls_pending *p)
{
    p->n = 0;
}

void oko_cls_pending_add(struct oko_cls_pending *, const struct cls_match *);
const struct cls_match *oko_cls_pending_resolve(struct oko_cls_pending *,
                                                const struct cls_match *hard,
                                                ovs_version_t,
                                                cls_filter_func *,
                                                void *aux);

#endif /* oko-classifier.h */
