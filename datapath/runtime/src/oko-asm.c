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
/* Assembler and disassembler for the syntax described in oko-asm.h. */

#include "oko-asm.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-isa.h"

struct name_code {
    const char *name;
    int code;
};

static const struct name_code alu_ops[] = {
    { "add", 0x00 }, { "sub", 0x10 }, { "mul", 0x20 }, { "div", 0x30 },
    { "or", 0x40 }, { "and", 0x50 }, { "lsh", 0x60 }, { "rsh", 0x70 },
    { "neg", 0x80 }, { "mod", 0x90 }, { "xor", 0xa0 }, { "mov", 0xb0 },
    { "arsh", 0xc0 },
    { "sdiv", 0x130 }, { "smod", 0x190 },           /* 0x100: off = 1 */
    { NULL, 0 },
};

static const struct name_code jmp_ops[] = {
    { "ja", 0x00 },   { "jeq", 0x10 }, { "jgt", 0x20 },  { "jge", 0x30 },
    { "jset", 0x40 }, { "jne", 0x50 }, { "jsgt", 0x60 }, { "jsge", 0x70 },
    { "jlt", 0xa0 },  { "jle", 0xb0 }, { "jslt", 0xc0 }, { "jsle", 0xd0 },
    { NULL, 0 },
};

static const struct name_code sizes[] = {
    { "b", SIZE_B },   { "h", SIZE_H }, { "w", SIZE_W },
    { "dw", SIZE_DW }, { NULL, 0 },
};

static const struct name_code atomic_ops[] = {
    { "add", ATOMIC_ADD },
    { "or", ATOMIC_OR },
    { "and", ATOMIC_AND },
    { "xor", ATOMIC_XOR },
    { "xchg", ATOMIC_XCHG },
    { "cmpxchg", ATOMIC_CMPXCHG },
    { NULL, 0 },
};

static const char *const map_types[] = {
    NULL, "hash", "array", "lru_hash", "bloom", "count_min", "lpm",
};

static int
lookup(const struct name_code *table, const char *name, size_t len)
{
    for (; table->name; table++) {
        if (strlen(table->name) == len && !strncmp(table->name, name, len)) {
            return table->code;
        }
    }
    return -1;
}

/* ---- Assembler ---- */

#define MAX_LABELS 1024
#define MAX_LINE 256

struct assembler {
    struct oko_program *prog;
    char *error;
    int line;
    struct { char name[64]; size_t pc; } labels[MAX_LABELS];
    size_t n_labels;
    size_t pc;
    bool emit;                          /* second pass */
};

static int aerr(struct assembler *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
aerr(struct assembler *a, const char *fmt, ...)
{
    int n = snprintf(a->error, OKO_ERROR_MAX, "line %d: ", a->line);
    va_list args;
    va_start(args, fmt);
    vsnprintf(a->error + n, OKO_ERROR_MAX - n, fmt, args);
    va_end(args);
    return EINVAL;
}

static char *
skip_space(char *s)
{
    while (isspace((unsigned char) *s)) {
        s++;
    }
    return s;
}

/* Splits the operands at top-level commas into 'ops' (at most 3). */
static int
split_operands(char *s, char *ops[3])
{
    int n = 0;
    s = skip_space(s);
    if (!*s) {
        return 0;
    }
    while (n < 3) {
        ops[n++] = s;
        char *comma = strchr(s, ',');
        if (!comma) {
            break;
        }
        *comma = '\0';
        s = skip_space(comma + 1);
    }
    for (int i = 0; i < n; i++) {
        char *end = ops[i] + strlen(ops[i]);
        while (end > ops[i] && isspace((unsigned char) *(end - 1))) {
            *--end = '\0';
        }
    }
    return strchr(s, ',') ? 4 : n;
}

static bool
parse_reg(const char *s, int *reg)
{
    if (*s == '%') {
        s++;
    }
    if (s[0] != 'r' || !isdigit((unsigned char) s[1])) {
        return false;
    }
    char *end;
    long r = strtol(s + 1, &end, 10);
    if (*end || r > 10) {
        return false;
    }
    *reg = r;
    return true;
}

static bool
parse_number(const char *s, int64_t *value)
{
    bool neg = *s == '-';
    if (*s == '-' || *s == '+') {
        s++;
    }
    if (!isdigit((unsigned char) *s)) {
        return false;
    }
    errno = 0;
    char *end;
    uint64_t v = strtoull(s, &end, 0);
    if (*end || errno) {
        return false;
    }
    *value = neg ? -(int64_t) v : (int64_t) v;
    return true;
}

static int
parse_imm32(struct assembler *a, const char *s, int32_t *imm)
{
    int64_t v;
    if (!parse_number(s, &v)) {
        return aerr(a, "'%s' is not a number", s);
    }
    if (v < INT32_MIN || v > UINT32_MAX) {
        return aerr(a, "%s does not fit in 32 bits", s);
    }
    *imm = (int32_t) (uint32_t) v;
    return 0;
}

/* "[%rN+off]", "[%rN-off]" or "[%rN]". */
static int
parse_mem(struct assembler *a, char *s, int *reg, int16_t *off)
{
    size_t len = strlen(s);
    if (len < 4 || s[0] != '[' || s[len - 1] != ']') {
        return aerr(a, "'%s' is not a memory operand like [%%r1+8]", s);
    }
    s[len - 1] = '\0';
    char *sign = strpbrk(s + 1, "+-");
    int64_t o = 0;
    if (sign) {
        if (!parse_number(sign, &o) || o < INT16_MIN || o > INT16_MAX) {
            return aerr(a, "bad offset '%s' (-32768 to 32767)", sign);
        }
        *sign = '\0';
    }
    char *r = skip_space(s + 1);
    char *end = r + strlen(r);
    while (end > r && isspace((unsigned char) *(end - 1))) {
        *--end = '\0';
    }
    if (!parse_reg(r, reg)) {
        return aerr(a, "'%s' is not a register", r);
    }
    *off = o;
    return 0;
}

static int
emit(struct assembler *a, uint8_t opcode, int dst, int src, int16_t off,
     int32_t imm)
{
    if (a->pc >= OKO_MAX_INSNS) {
        return aerr(a, "more than %d instructions", OKO_MAX_INSNS);
    }
    if (a->emit) {
        struct oko_insn *insn = &a->prog->insns[a->pc];
        insn->opcode = opcode;
        insn->dst = dst;
        insn->src = src;
        insn->off = off;
        insn->imm = imm;
    }
    a->pc++;
    return 0;
}

/* A jump target: a label, or "+N"/"-N" relative to the next instruction.
 * In the first pass labels may be unknown. */
static int
parse_target(struct assembler *a, const char *s, int32_t *delta)
{
    int64_t v;
    if (parse_number(s, &v)) {
        *delta = v;
        return 0;
    }
    for (size_t i = 0; i < a->n_labels; i++) {
        if (!strcmp(a->labels[i].name, s)) {
            *delta = (int64_t) a->labels[i].pc - (int64_t) a->pc - 1;
            return 0;
        }
    }
    if (!strcmp(s, "exit") && a->emit) {
        /* The suite's convention: "exit" without a label of that name is
         * the last instruction. */
        *delta = (int64_t) a->prog->n_insns - 1 - (int64_t) a->pc - 1;
        return 0;
    }
    *delta = 0;
    return a->emit ? aerr(a, "unknown label '%s'", s) : 0;
}

static int
expect_operands(struct assembler *a, const char *mnemonic, int n, int expected)
{
    if (n != expected) {
        return aerr(a, "%s takes %d operand%s, got %d", mnemonic, expected,
                    expected == 1 ? "" : "s", n > 3 ? n - 1 : n);
    }
    return 0;
}

static int
parse_map_directive(struct assembler *a, char *s)
{
    char name[OKO_MAP_NAME_MAX], type[32];
    unsigned key, value, max, flags = 0;
    int n = sscanf(s, "%63s %31s %u %u %u %u", name, type, &key, &value, &max,
                   &flags);
    if (n < 5) {
        return aerr(a,
                    ".map NAME TYPE KEY_SIZE VALUE_SIZE MAX_ENTRIES [FLAGS]");
    }
    if (a->emit) {
        return 0;
    }
    if (a->prog->n_maps >= OKO_MAX_MAPS) {
        return aerr(a, "more than %d maps", OKO_MAX_MAPS);
    }
    struct oko_map_decl *d = &a->prog->maps[a->prog->n_maps];
    d->type = 0;
    for (size_t t = 1; t < sizeof map_types / sizeof *map_types; t++) {
        if (!strcmp(type, map_types[t])) {
            d->type = t;
        }
    }
    if (!d->type && !isdigit((unsigned char) type[0])) {
        return aerr(a, "unknown map type '%s'", type);
    }
    if (!d->type) {
        /* a number: for tests of bad types */
        d->type = strtoul(type, NULL, 0);
    }
    snprintf(d->name, sizeof d->name, "%s", name);
    d->key_size = key;
    d->value_size = value;
    d->max_entries = max;
    d->flags = flags;
    a->prog->n_maps++;
    return 0;
}

static int
assemble_line(struct assembler *a, char *s)
{
    char *ops[3];
    int err;

    s = skip_space(s);
    char *hash = strchr(s, '#');
    if (hash) {
        *hash = '\0';
    }
    if (!*skip_space(s)) {
        return 0;
    }
    if (isdigit((unsigned char) *s)) {
        /* "12:  mov ..." (a disassembler listing): the index is a comment. */
        char *p = s;
        while (isdigit((unsigned char) *p)) {
            p++;
        }
        if (*p == ':') {
            s = skip_space(p + 1);
        }
    }
    if (!strncmp(s, ".map", 4) && isspace((unsigned char) s[4])) {
        return parse_map_directive(a, s + 5);
    }
    if (!strncmp(s, ".insn", 5) && isspace((unsigned char) s[5])) {
        /* A raw instruction: opcode dst src off imm. */
        long opcode, dst, src, off, imm;
        if (sscanf(s + 6, "%li %li %li %li %li", &opcode, &dst, &src, &off,
                   &imm)
                != 5
            || opcode < 0 || opcode > 255 || dst < 0 || dst > 15 || src < 0
            || src > 15 || off < INT16_MIN || off > INT16_MAX) {
            return aerr(a,
                        ".insn OPCODE DST SRC OFF IMM (DST and SRC 0 to 15)");
        }
        return emit(a, opcode, dst, src, off, (int32_t) imm);
    }

    /* Label. */
    size_t word = strcspn(s, " \t");
    char *colon = strchr(s, ':');
    if (colon && colon < s + word + 1 && !*skip_space(colon + 1)) {
        *colon = '\0';
        if (!a->emit) {
            if (a->n_labels == MAX_LABELS
                || strlen(s) >= sizeof a->labels[0].name) {
                return aerr(a, "too many labels or label too long");
            }
            for (size_t i = 0; i < a->n_labels; i++) {
                if (!strcmp(a->labels[i].name, s)) {
                    return aerr(a, "label '%s' defined twice", s);
                }
            }
            snprintf(a->labels[a->n_labels].name, sizeof a->labels[0].name,
                     "%s", s);
            a->labels[a->n_labels++].pc = a->pc;
        }
        return 0;
    }

    char mnemonic[32];
    if (word >= sizeof mnemonic) {
        return aerr(a, "unknown instruction '%.*s'", (int) word, s);
    }
    memcpy(mnemonic, s, word);
    mnemonic[word] = '\0';
    char *rest = s + word;

    if (!strcmp(mnemonic, "lock")) {
        rest = skip_space(rest);
        bool fetch
            = !strncmp(rest, "fetch", 5) && isspace((unsigned char) rest[5]);
        if (fetch) {
            rest = skip_space(rest + 5);
        }
        size_t w = strcspn(rest, " \t");
        bool is32 = w > 2 && !strncmp(rest + w - 2, "32", 2);
        int op = lookup(atomic_ops, rest, is32 ? w - 2 : w);
        if (op < 0) {
            return aerr(a, "unknown atomic operation '%.*s'", (int) w, rest);
        }
        if (fetch) {
            op |= ATOMIC_FETCH;
        }
        int n = split_operands(rest + w, ops), dst, src;
        int16_t off;
        if ((err = expect_operands(a, "lock", n, 2))
            || (err = parse_mem(a, ops[0], &dst, &off))) {
            return err;
        }
        if (!parse_reg(ops[1], &src)) {
            return aerr(a, "'%s' is not a register", ops[1]);
        }
        return emit(a, CLASS_STX | MODE_ATOMIC | (is32 ? SIZE_W : SIZE_DW),
                    dst, src, off, op);
    }

    int n = split_operands(rest, ops);
    if (!strcmp(mnemonic, "exit")) {
        return (err = expect_operands(a, mnemonic, n, 0))
                   ? err
                   : emit(a, 0x95, 0, 0, 0, 0);
    }
    if (!strcmp(mnemonic, "call")) {
        int reg;
        int32_t imm;
        if ((err = expect_operands(a, mnemonic, n, 1))) {
            return err;
        }
        if (!strncmp(ops[0], "local", 5)
            && isspace((unsigned char) ops[0][5])) {
            int32_t delta;
            return (err = parse_target(a, skip_space(ops[0] + 5), &delta))
                   ? err : emit(a, 0x85, 0, 1, 0, delta);
        }
        if (parse_reg(ops[0], &reg)) {
            return emit(a, 0x8d, reg, 0, 0, 0);
        }
        return (err = parse_imm32(a, ops[0], &imm))
                   ? err
                   : emit(a, 0x85, 0, 0, 0, imm);
    }
    if (!strcmp(mnemonic, "lddw")) {
        int dst;
        int64_t v;
        if ((err = expect_operands(a, mnemonic, n, 2))) {
            return err;
        }
        if (!parse_reg(ops[0], &dst)) {
            return aerr(a, "'%s' is not a register", ops[0]);
        }
        if (!strncmp(ops[1], "map", 3) && isspace((unsigned char) ops[1][3])) {
            const char *name = skip_space(ops[1] + 3);
            for (size_t i = 0; i < a->prog->n_maps; i++) {
                if (!strcmp(a->prog->maps[i].name, name)) {
                    emit(a, LDDW_OPCODE, dst, OKO_PSEUDO_MAP_INDEX, 0, i);
                    return emit(a, 0, 0, 0, 0, 0);
                }
            }
            return aerr(a, "unknown map '%s' (declare it with .map first)",
                        name);
        }
        if (!parse_number(ops[1], &v)) {
            return aerr(a, "'%s' is not a number", ops[1]);
        }
        emit(a, LDDW_OPCODE, dst, 0, 0, (int32_t) (uint32_t) v);
        return emit(a, 0, 0, 0, 0, (int32_t) (uint32_t) ((uint64_t) v >> 32));
    }

    size_t len = strlen(mnemonic);
    bool suffix32 = len > 2 && !strcmp(mnemonic + len - 2, "32");
    bool suffix64 = len > 2 && !strcmp(mnemonic + len - 2, "64");

    /* Byte swaps. */
    if (!strncmp(mnemonic, "le", 2) || !strncmp(mnemonic, "be", 2)
        || !strncmp(mnemonic, "bswap", 5) || !strncmp(mnemonic, "swap", 4)) {
        const char *digits = mnemonic + strcspn(mnemonic, "0123456789");
        int width = atoi(digits);
        int dst;
        if (width != 16 && width != 32 && width != 64) {
            return aerr(a, "unknown instruction '%s'", mnemonic);
        }
        if ((err = expect_operands(a, mnemonic, n, 1))) {
            return err;
        }
        if (!parse_reg(ops[0], &dst)) {
            return aerr(a, "'%s' is not a register", ops[0]);
        }
        uint8_t opcode = mnemonic[0] == 'l' ? CLASS_ALU | OP_END
                         : mnemonic[0] == 'b' && mnemonic[1] == 'e'
                             ? CLASS_ALU | OP_END | SRC_X
                             : CLASS_ALU64 | OP_END;
        return emit(a, opcode, dst, 0, 0, width);
    }

    /* Sign-extending moves: movsx<from><to>. */
    if (!strncmp(mnemonic, "movsx", 5) && (suffix32 || suffix64) && len > 7) {
        char from_digits[3] = { 0 };
        size_t n_digits = len - 2 - 5;
        memcpy(from_digits, mnemonic + 5, n_digits < 2 ? n_digits : 2);
        int from = n_digits <= 2 ? atoi(from_digits) : 0;
        int dst, src;
        if (from != 8 && from != 16 && from != 32) {
            return aerr(a, "unknown instruction '%s'", mnemonic);
        }
        if ((err = expect_operands(a, mnemonic, n, 2))) {
            return err;
        }
        if (!parse_reg(ops[0], &dst) || !parse_reg(ops[1], &src)) {
            return aerr(a, "%s takes two registers", mnemonic);
        }
        return emit(a, (suffix32 ? CLASS_ALU : CLASS_ALU64) | 0xb0 | SRC_X,
                    dst, src, from, 0);
    }

    /* ALU. */
    size_t base_len = suffix32 || suffix64 ? len - 2 : len;
    int op = lookup(alu_ops, mnemonic, base_len);
    if (op >= 0) {
        int cls = suffix32 ? CLASS_ALU : CLASS_ALU64;
        int16_t off = op & 0x100 ? 1 : 0;
        int dst, src;
        op &= 0xff;
        if (op == 0x80) {
            if ((err = expect_operands(a, mnemonic, n, 1))) {
                return err;
            }
            if (!parse_reg(ops[0], &dst)) {
                return aerr(a, "'%s' is not a register", ops[0]);
            }
            return emit(a, cls | op, dst, 0, 0, 0);
        }
        if ((err = expect_operands(a, mnemonic, n, 2))) {
            return err;
        }
        if (!parse_reg(ops[0], &dst)) {
            return aerr(a, "'%s' is not a register", ops[0]);
        }
        if (parse_reg(ops[1], &src)) {
            return emit(a, cls | op | SRC_X, dst, src, off, 0);
        }
        int32_t imm;
        return (err = parse_imm32(a, ops[1], &imm))
                   ? err
                   : emit(a, cls | op, dst, 0, off, imm);
    }

    /* Jumps. */
    op = lookup(jmp_ops, mnemonic, base_len);
    if (op >= 0 && !suffix64) {
        int cls = suffix32 ? CLASS_JMP32 : CLASS_JMP;
        int32_t delta;
        if (op == OP_JA) {
            if ((err = expect_operands(a, mnemonic, n, 1))
                || (err = parse_target(a, ops[0], &delta))) {
                return err;
            }
            if (suffix32) {
                return emit(a, cls, 0, 0, 0, delta);
            }
            if (delta < INT16_MIN || delta > INT16_MAX) {
                return aerr(a, "jump too far for ja (use ja32)");
            }
            return emit(a, cls, 0, 0, delta, 0);
        }
        int dst, src;
        if ((err = expect_operands(a, mnemonic, n, 3))) {
            return err;
        }
        if (!parse_reg(ops[0], &dst)) {
            return aerr(a, "'%s' is not a register", ops[0]);
        }
        if ((err = parse_target(a, ops[2], &delta))) {
            return err;
        }
        if (delta < INT16_MIN || delta > INT16_MAX) {
            return aerr(a, "jump too far");
        }
        if (parse_reg(ops[1], &src)) {
            return emit(a, cls | op | SRC_X, dst, src, delta, 0);
        }
        int32_t imm;
        return (err = parse_imm32(a, ops[1], &imm))
                   ? err
                   : emit(a, cls | op, dst, 0, delta, imm);
    }

    /* Loads and stores. */
    if (!strncmp(mnemonic, "ldx", 3)) {
        bool sx = mnemonic[3] == 's';
        int size = lookup(sizes, mnemonic + 3 + sx, len - 3 - sx);
        int dst, src;
        int16_t off;
        if (size < 0 || (sx && size == SIZE_DW)) {
            return aerr(a, "unknown instruction '%s'", mnemonic);
        }
        if ((err = expect_operands(a, mnemonic, n, 2))) {
            return err;
        }
        if (!parse_reg(ops[0], &dst)) {
            return aerr(a, "'%s' is not a register", ops[0]);
        }
        if ((err = parse_mem(a, ops[1], &src, &off))) {
            return err;
        }
        return emit(a, CLASS_LDX | (sx ? MODE_MEMSX : MODE_MEM) | size, dst,
                    src, off, 0);
    }
    if (!strncmp(mnemonic, "st", 2)) {
        bool x = mnemonic[2] == 'x';
        int size = lookup(sizes, mnemonic + 2 + x, len - 2 - x);
        int dst, src;
        int16_t off;
        if (size < 0) {
            return aerr(a, "unknown instruction '%s'", mnemonic);
        }
        if ((err = expect_operands(a, mnemonic, n, 2))
            || (err = parse_mem(a, ops[0], &dst, &off))) {
            return err;
        }
        if (x) {
            if (!parse_reg(ops[1], &src)) {
                return aerr(a, "'%s' is not a register", ops[1]);
            }
            return emit(a, CLASS_STX | MODE_MEM | size, dst, src, off, 0);
        }
        int32_t imm;
        return (err = parse_imm32(a, ops[1], &imm))
               ? err : emit(a, CLASS_ST | MODE_MEM | size, dst, 0, off, imm);
    }
    return aerr(a, "unknown instruction '%s'", mnemonic);
}

static int
assemble_pass(struct assembler *a, const char *text)
{
    a->pc = 0;
    a->line = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t) (nl - p) : strlen(p);
        char line[MAX_LINE];
        a->line++;
        if (len >= sizeof line) {
            return aerr(a, "line longer than %d characters", MAX_LINE - 1);
        }
        memcpy(line, p, len);
        line[len] = '\0';
        int err = assemble_line(a, line);
        if (err) {
            return err;
        }
        p += len + (nl != NULL);
    }
    return 0;
}

int
oko_asm(const char *text, struct oko_program *prog, char error[OKO_ERROR_MAX])
{
    struct assembler *a = calloc(1, sizeof *a);
    memset(prog, 0, sizeof *prog);
    error[0] = '\0';
    if (!a) {
        snprintf(error, OKO_ERROR_MAX, "out of memory");
        return ENOMEM;
    }
    a->prog = prog;
    a->error = error;
    int err = assemble_pass(a, text);
    if (!err && !a->pc) {
        err = aerr(a, "no instructions");
    }
    if (!err) {
        prog->n_insns = a->pc;
        prog->insns = calloc(a->pc, sizeof *prog->insns);
        a->emit = true;
        err = prog->insns ? assemble_pass(a, text) : ENOMEM;
    }
    free(a);
    if (err) {
        oko_program_destroy(prog);
        memset(prog, 0, sizeof *prog);
    }
    return err;
}

/* ---- Disassembler ---- */

static const char *
name_of(const struct name_code *table, int code)
{
    for (; table->name; table++) {
        if (table->code == code) {
            return table->name;
        }
    }
    return NULL;
}

int
oko_disasm_insn(const struct oko_program *prog, size_t pc, char *buf,
                size_t size)
{
    const struct oko_insn *insn = &prog->insns[pc];
    int cls = insn->opcode & 0x07;
    int op = insn->opcode & 0xf0;
    bool x = insn->opcode & SRC_X;
    const char *sz = name_of(sizes, insn->opcode & 0x18);

    switch (cls) {
    case CLASS_ALU:
    case CLASS_ALU64: {
        const char *suffix = cls == CLASS_ALU ? "32" : "";
        if (op == OP_END) {
            snprintf(buf, size, "%s%d %%r%d",
                     cls == CLASS_ALU64 ? "bswap"
                     : x                ? "be"
                                        : "le",
                     insn->imm, insn->dst);
            return 1;
        }
        if (op == 0xb0 && x && insn->off) {
            snprintf(buf, size, "movsx%d%s %%r%d, %%r%d", insn->off,
                     cls == CLASS_ALU ? "32" : "64", insn->dst, insn->src);
            return 1;
        }
        const char *name
            = name_of(alu_ops,
                      op
                          | (insn->off == 1 && (op == 0x30 || op == 0x90)
                                 ? 0x100
                                 : 0));
        if (!name) {
            break;
        }
        if (op == 0x80) {
            snprintf(buf, size, "%s%s %%r%d", name, suffix, insn->dst);
        } else if (x) {
            snprintf(buf, size, "%s%s %%r%d, %%r%d", name, suffix, insn->dst,
                     insn->src);
        } else {
            snprintf(buf, size, "%s%s %%r%d, %d", name, suffix, insn->dst,
                     insn->imm);
        }
        return 1;
    }
    case CLASS_JMP:
    case CLASS_JMP32: {
        const char *suffix = cls == CLASS_JMP32 ? "32" : "";
        if (op == OP_EXIT) {
            snprintf(buf, size, "exit");
            return 1;
        }
        if (op == OP_CALL) {
            if (x) {
                snprintf(buf, size, "call %%r%d", insn->dst);
            } else if (insn->src == 1) {
                snprintf(buf, size, "call local %+d", insn->imm);
            } else {
                snprintf(buf, size, "call %d", insn->imm);
            }
            return 1;
        }
        const char *name = name_of(jmp_ops, op);
        if (!name) {
            break;
        }
        int delta = cls == CLASS_JMP32 && op == OP_JA ? insn->imm : insn->off;
        long target = (long) pc + 1 + delta;
        if (op == OP_JA) {
            snprintf(buf, size, "%s%s %+d  # -> %ld", name, suffix, delta,
                     target);
        } else if (x) {
            snprintf(buf, size, "%s%s %%r%d, %%r%d, %+d  # -> %ld", name,
                     suffix, insn->dst, insn->src, delta, target);
        } else {
            snprintf(buf, size, "%s%s %%r%d, %d, %+d  # -> %ld", name, suffix,
                     insn->dst, insn->imm, delta, target);
        }
        return 1;
    }
    case CLASS_LD:
        if (insn->opcode != LDDW_OPCODE || pc + 1 >= prog->n_insns) {
            break;
        }
        if (insn->src == OKO_PSEUDO_MAP_INDEX && insn->imm >= 0
            && (size_t) insn->imm < prog->n_maps) {
            snprintf(buf, size, "lddw %%r%d, map %s", insn->dst,
                     prog->maps[insn->imm].name);
        } else {
            snprintf(buf, size, "lddw %%r%d, 0x%" PRIx64, insn->dst,
                     (uint64_t) (uint32_t) insn->imm
                         | (uint64_t) (uint32_t) insn[1].imm << 32);
        }
        return 2;
    case CLASS_LDX:
        snprintf(buf, size, "ldx%s%s %%r%d, [%%r%d%+d]",
                 (insn->opcode & 0xe0) == MODE_MEMSX ? "s" : "", sz, insn->dst,
                 insn->src, insn->off);
        return 1;
    case CLASS_ST:
        snprintf(buf, size, "st%s [%%r%d%+d], %d", sz, insn->dst, insn->off,
                 insn->imm);
        return 1;
    case CLASS_STX:
        if ((insn->opcode & 0xe0) == MODE_ATOMIC) {
            const char *name = name_of(atomic_ops, insn->imm & ~ATOMIC_FETCH);
            if (insn->imm == ATOMIC_XCHG || insn->imm == ATOMIC_CMPXCHG) {
                name = name_of(atomic_ops, insn->imm);
            }
            bool fetch = (insn->imm & ATOMIC_FETCH) && insn->imm != ATOMIC_XCHG
                         && insn->imm != ATOMIC_CMPXCHG;
            snprintf(buf, size, "lock %s%s%s [%%r%d%+d], %%r%d",
                     fetch ? "fetch " : "", name ? name : "?",
                     (insn->opcode & 0x18) == SIZE_W ? "32" : "", insn->dst,
                     insn->off, insn->src);
            return 1;
        }
        snprintf(buf, size, "stx%s [%%r%d%+d], %%r%d", sz, insn->dst,
                 insn->off, insn->src);
        return 1;
    }
    snprintf(buf, size, ".insn 0x%02x %d %d %d %d  # unknown", insn->opcode,
             insn->dst, insn->src, insn->off, insn->imm);
    return 1;
}
