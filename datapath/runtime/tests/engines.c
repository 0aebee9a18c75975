#include "engines.h"

static uint64_t
run_interpreter(const struct oko_filter *filter, const void *pkt, uint64_t len)
{
    oko_epoch_enter();
    uint64_t r0 = oko_interp_run(filter->code, pkt, len, oko_stack_top());
    oko_epoch_exit();
    return r0;
}

/* The filter's compiled code (every test filter is loaded with the JIT
 * on, the default). */
static uint64_t
run_jit(const struct oko_filter *filter, const void *pkt, uint64_t len)
{
    if (!filter->jit.fn) {
        return 0xdeadbeefdeadbeef;          /* no code: fails any comparison */
    }
    oko_epoch_enter();
    uint64_t r0 = filter->jit.fn(pkt, len, oko_stack_top());
    oko_epoch_exit();
    return r0;
}

const struct engine engines[] = {
    { "interpreter", run_interpreter },
    { "jit", run_jit },
    { NULL, NULL },
};
