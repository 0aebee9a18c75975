#include "engines.h"

static uint64_t
run_interpreter(const struct oko_filter *filter, const void *pkt, uint64_t len)
{
    oko_epoch_enter();
    uint64_t r0 = oko_interp_run(filter->code, pkt, len);
    oko_epoch_exit();
    return r0;
}

const struct engine engines[] = {
    { "interpreter", run_interpreter },
    { NULL, NULL },
};
