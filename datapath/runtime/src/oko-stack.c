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
/* Per-thread program stacks with guard pages (see oko-stack.h). */

#include "oko-stack.h"

#include <pthread.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

__thread void *oko_stack_thread_top __attribute__((tls_model("initial-exec")));

/* The furthest an instruction reaches from r10 without computing a
 * pointer: the 16-bit offset's magnitude plus the widest access (above r10
 * the page's OKO_STACK_ABOVE_TOP bytes come first, so this is enough). */
#define REACH_FROM_R10 (32768 + 8)

static pthread_key_t region_key;
static pthread_once_t region_key_once = PTHREAD_ONCE_INIT;
static bool region_key_created;

struct geometry {
    size_t page;                /* the stack page's size (the system's) */
    size_t guard;               /* each guard's size, whole pages */
};

static struct geometry
geometry(void)
{
    long sys_page = sysconf(_SC_PAGESIZE);
    size_t page = sys_page > 0 ? (size_t) sys_page : 4096;
    return (struct geometry) {
        .page = page,
        .guard = (REACH_FROM_R10 + page - 1) / page * page,
    };
}

/* Thread exit: the region goes with its thread. */
static void
unmap_region(void *start)
{
    struct geometry g = geometry();
    munmap(start, g.guard + g.page + g.guard);
    oko_stack_thread_top = NULL;
}

static void
create_key(void)
{
    region_key_created = !pthread_key_create(&region_key, unmap_region);
}

void *
oko_stack_create(void)
{
    if (oko_stack_thread_top) {
        return oko_stack_thread_top;
    }
    pthread_once(&region_key_once, create_key);
    if (!region_key_created) {
        /* out of keys: the region could not be freed */
        return NULL;
    }

    /* Reserve the whole region inaccessible, then open the page between
     * the guards, so the guards are never accessible, not even briefly. */
    struct geometry g = geometry();
    size_t size = g.guard + g.page + g.guard;
    uint8_t *start = mmap(NULL, size, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (start == MAP_FAILED) {
        return NULL;
    }
    uint8_t *page = start + g.guard;
    if (mprotect(page, g.page, PROT_READ | PROT_WRITE)
        || pthread_setspecific(region_key, start)) {
        munmap(start, size);
        return NULL;
    }
    oko_stack_thread_top = page + g.page - OKO_STACK_ABOVE_TOP;
    return oko_stack_thread_top;
}

int
oko_stack_region(uintptr_t *start, size_t *size, uintptr_t *page,
                 size_t *page_size)
{
    if (!oko_stack_thread_top) {
        return 0;
    }
    struct geometry g = geometry();
    *page = (uintptr_t) oko_stack_thread_top + OKO_STACK_ABOVE_TOP - g.page;
    *page_size = g.page;
    *start = *page - g.guard;
    *size = g.guard + g.page + g.guard;
    return 1;
}
