/* libFuzzer target: the ELF loader and the verifier must answer every
 * input, never crash, leak or hang.  Inputs starting with the ELF magic go
 * through the loader first; others are raw instructions. */
#include <stdint.h>
#include <string.h>

#include "fuzz-common.h"
#include "oko-inline.h"
#include "oko-verifier.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char error[OKO_ERROR_MAX];
    struct oko_program prog;
    struct oko_verify_options opts = { .budget = 100000 };
    int loaded = size >= 4 && !memcmp(data, "\177ELF", 4)
                 ? !oko_program_load_elf(data, size, &prog, error)
                 : fuzz_program(data, size, &prog);
    if (loaded) {
        int err = oko_program_inline_calls(&prog, error);
        if (!err) {
            err = oko_verify(&prog, &opts, NULL, error);
        }
        if (err && strncmp(error, "insn ", 5)
            && strncmp(error, "program of", 10)) {
            /* every rejection names its instruction */
            __builtin_trap();
        }
        oko_program_destroy(&prog);
    }
    return 0;
}
