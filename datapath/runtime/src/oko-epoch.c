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
#include "oko-epoch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

_Atomic uint64_t oko_epoch_global = 1;
_Thread_local struct oko_epoch_slot *oko_epoch_self;

static struct oko_epoch_slot slots[OKO_EPOCH_MAX_THREADS];
static _Atomic int n_slots_used;        /* high-water mark of slots[] */
static pthread_key_t slot_key;
static pthread_once_t slot_key_once = PTHREAD_ONCE_INIT;

/* A thread that exits gives its slot back. */
static void
release_slot(void *slot_)
{
    struct oko_epoch_slot *slot = slot_;
    atomic_store(&slot->epoch, 0);
    slot->depth = 0;
    atomic_store(&slot->in_use, false);
}

static void
create_key(void)
{
    if (pthread_key_create(&slot_key, release_slot)) {
        abort();
    }
}

struct oko_epoch_slot *
oko_epoch_register(void)
{
    pthread_once(&slot_key_once, create_key);
    for (int i = 0; i < OKO_EPOCH_MAX_THREADS; i++) {
        bool expected = false;
        if (atomic_compare_exchange_strong(&slots[i].in_use, &expected,
                                           true)) {
            int used = atomic_load(&n_slots_used);
            while (used < i + 1
                   && !atomic_compare_exchange_weak(&n_slots_used, &used,
                                                    i + 1)) {
                continue;
            }
            slots[i].depth = 0;
            oko_epoch_self = &slots[i];
            pthread_setspecific(slot_key, &slots[i]);
            return &slots[i];
        }
    }
    fprintf(stderr, "oko: more than %d threads run filter programs\n",
            OKO_EPOCH_MAX_THREADS);
    abort();
}

uint64_t
oko_epoch_retire(void)
{
    return atomic_fetch_add(&oko_epoch_global, 1);
}

uint64_t
oko_epoch_oldest_active(void)
{
    uint64_t oldest = UINT64_MAX;
    int n = atomic_load(&n_slots_used);
    for (int i = 0; i < n; i++) {
        uint64_t e
            = atomic_load_explicit(&slots[i].epoch, memory_order_seq_cst);
        if (e && e < oldest) {
            oldest = e;
        }
    }
    return oldest;
}
