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
#ifndef OKO_EPOCH_H
#define OKO_EPOCH_H 1

/* Epoch-based reclamation: how map entries removed while programs run on
 * other threads are reused only after no thread can still see them.
 *
 * A thread brackets each stretch of work that dereferences map entries
 * (one program run, one control-path map operation) with oko_epoch_enter()
 * and oko_epoch_exit().  Entering publishes the global epoch in the
 * thread's slot; a removed entry is stamped with the epoch of its removal
 * and becomes reusable once every thread inside a section entered after
 * that stamp.  Entering is an exchange, exiting a store: no lock, no
 * allocation (the slot is registered on a thread's first use). */

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define OKO_EPOCH_MAX_THREADS 256

struct oko_epoch_slot {
    _Atomic uint64_t epoch;             /* 0: outside any section */
    uint32_t depth;                     /* nesting, owner thread only */
    _Atomic bool in_use;
    char pad[64 - sizeof(uint64_t) - sizeof(uint32_t) - sizeof(bool)];
};

extern _Atomic uint64_t oko_epoch_global;
extern _Thread_local struct oko_epoch_slot *oko_epoch_self;

/* Registers the calling thread (first use only).  Aborts if more than
 * OKO_EPOCH_MAX_THREADS threads use the runtime at once. */
struct oko_epoch_slot *oko_epoch_register(void);

static inline void
oko_epoch_enter(void)
{
    struct oko_epoch_slot *slot = oko_epoch_self;
    if (__builtin_expect(!slot, 0)) {
        slot = oko_epoch_register();
    }
    if (!slot->depth++) {
        /* A sequentially consistent exchange (xchg, a full barrier on
         * x86-64) orders the slot's store before this thread's reads of
         * shared entries, and pairs with the sequentially consistent loads
         * of oko_epoch_oldest_active().  It also releases: the previous
         * section's reads happen before a reclaimer that sees this epoch. */
        atomic_exchange_explicit(&slot->epoch,
                                 atomic_load_explicit(&oko_epoch_global,
                                                      memory_order_relaxed),
                                 memory_order_seq_cst);
    }
}

static inline void
oko_epoch_exit(void)
{
    struct oko_epoch_slot *slot = oko_epoch_self;
    if (!--slot->depth) {
        atomic_store_explicit(&slot->epoch, 0, memory_order_release);
    }
}

/* Stamps something just made unreachable: it may be reused once
 * oko_epoch_oldest_active() is above the stamp. */
uint64_t oko_epoch_retire(void);

/* The oldest epoch a thread is still inside, or UINT64_MAX if none: things
 * retired with a stamp below it are unreachable by every thread. */
uint64_t oko_epoch_oldest_active(void);

#endif /* oko-epoch.h */
