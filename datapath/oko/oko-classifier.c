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
#include "oko/oko-classifier.h"

#include <limits.h>
#include "classifier-private.h"

void
oko_cls_pending_add(struct oko_cls_pending *p, const struct cls_match *match)
{
    if (!p->n) {
        p->matches = p->stub;
        p->allocated = ARRAY_SIZE(p->stub);
    } else if (p->n >= p->allocated) {
        p->matches = (p->matches == p->stub
                      ? xmemdup(p->stub, sizeof p->stub)
                      : p->matches);
        p->allocated *= 2;
        p->matches = xrealloc(p->matches,
                              p->allocated * sizeof *p->matches);
    }
    p->matches[p->n++] = match;
}

/* Returns the next rule after 'm' in its list (the same match, lower
 * priority, or the same priority with another filter program) that is
 * visible in 'version' and not conjunctive (conjunctive matching ignores
 * filter programs), or NULL. */
static const struct cls_match *
next_candidate(const struct cls_match *m, ovs_version_t version)
{
    do {
        m = cls_match_next(m);
    } while (m && (!cls_match_visible_in_version(m, version)
                   || ovsrcu_get(struct cls_conjunction_set *,
                                 &m->conj_set)));
    return m;
}

/* Decides the candidates 'p' holds against 'hard', the best rule without a
 * filter program (or NULL), and returns the lookup's rule: the highest-
 * priority one whose program accepts the packet, or 'hard' if none of higher
 * priority does.  Candidates are decided in priority order, so a program
 * runs only when its rule is the highest-priority one still in question; a
 * rejected candidate gives way to the next candidate of its list.  Without
 * 'filter', no filtered rule matches.  Empties 'p'. */
const struct cls_match *
oko_cls_pending_resolve(struct oko_cls_pending *p,
                        const struct cls_match *hard, ovs_version_t version,
                        cls_filter_func *filter, void *aux)
{
    if (!p->n) {
        return hard;            /* 'matches' is set by the first add. */
    }

    int hard_pri = hard ? hard->priority : INT_MIN;
    const struct cls_match **pend = p->matches;
    size_t n_pend = p->n;

    while (n_pend) {
        size_t best = 0;
        for (size_t i = 1; i < n_pend; i++) {
            if (pend[i]->priority > pend[best]->priority) {
                best = i;
            }
        }

        const struct cls_match *m = pend[best];
        if (m->priority <= hard_pri) {
            break;      /* So is every other candidate. */
        }
        if (filter && filter(m->cls_rule, aux)) {
            hard = m;
            break;
        }

        m = next_candidate(m, version);
        if (m && m->filter_prog) {
            pend[best] = m;
        } else {
            if (m && m->priority > hard_pri) {
                hard = m;
                hard_pri = m->priority;
            }
            pend[best] = pend[--n_pend];
        }
    }

    if (p->matches != p->stub) {
        free(p->matches);
    }
    p->n = 0;
    return hard;
}
