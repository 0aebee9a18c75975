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

/* ELF loader for filter programs.  The object comes from the network (a
 * controller's LOAD_PROG), so every offset, size and index read from it is
 * checked against the buffer before use; the loader never trusts the ELF
 * and never reads outside it.  libelf is not used: the handful of
 * structures needed are read directly, which keeps this file fuzzable on
 * its own. */

#include "oko-program.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-helpers.h"

#define FILTER_SECTION "oko/filter"
#define MAPS_SECTION "oko/maps"
#define LDDW_OPCODE 0x18            /* BPF_LD | BPF_IMM | BPF_DW */

#ifndef EM_BPF
#define EM_BPF 247
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32 10
#endif
#define CALL_OPCODE 0x85            /* BPF_JMP | BPF_CALL */
#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif

/* Layout of struct oko_map_def in filter-library/include/oko/filter.h. */
#define MAP_DEF_SIZE (5 * sizeof(uint32_t))

struct elf_view {
    const uint8_t *data;
    size_t size;
    const Elf64_Ehdr *ehdr;
    const Elf64_Shdr *shdrs;
    const char *shstrtab;
    size_t shstrtab_size;
    char *error;
};

static int
fail(struct elf_view *v, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vsnprintf(v->error, OKO_ERROR_MAX, format, args);
    va_end(args);
    return EINVAL;
}

/* True if [offset, offset + length) lies inside the object. */
static int
in_bounds(const struct elf_view *v, uint64_t offset, uint64_t length)
{
    return offset <= v->size && length <= v->size - offset;
}

/* The NUL-terminated string at 'offset' of a string table, or NULL. */
static const char *
string_at(const char *table, size_t table_size, uint64_t offset)
{
    if (offset >= table_size
        || !memchr(table + offset, '\0', table_size - offset)) {
        return NULL;
    }
    return table + offset;
}

static const char *
section_name(const struct elf_view *v, const Elf64_Shdr *sh)
{
    return string_at(v->shstrtab, v->shstrtab_size, sh->sh_name);
}

static int
parse_headers(struct elf_view *v)
{
    if (v->size < sizeof(Elf64_Ehdr)) {
        return fail(v, "object of %zu bytes is too short for an ELF header",
                    v->size);
    }
    /* aligned: see above */
    v->ehdr = (const Elf64_Ehdr *) (const void *) v->data;
    const Elf64_Ehdr *eh = v->ehdr;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG)) {
        return fail(v, "not an ELF object (bad magic)");
    }
    if (eh->e_ident[EI_CLASS] != ELFCLASS64
        || eh->e_ident[EI_DATA] != ELFDATA2LSB) {
        return fail(v, "not a little-endian ELF64 object (compile with clang "
                       "-target bpf)");
    }
    if (eh->e_machine != EM_BPF) {
        return fail(v, "ELF machine %u is not BPF (%u)", eh->e_machine,
                    EM_BPF);
    }
    if (eh->e_type != ET_REL) {
        return fail(v,
                    "ELF type %u is not a relocatable object (compile with "
                    "-c)",
                    eh->e_type);
    }
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || !eh->e_shnum
        || !in_bounds(v, eh->e_shoff,
                      (uint64_t) eh->e_shnum * sizeof(Elf64_Shdr))
        || eh->e_shoff % _Alignof(Elf64_Shdr)) {
        return fail(v, "section header table out of the object");
    }
    v->shdrs = (const Elf64_Shdr *) (const void *) (v->data + eh->e_shoff);

    for (size_t i = 0; i < eh->e_shnum; i++) {
        const Elf64_Shdr *sh = &v->shdrs[i];
        if (sh->sh_type != SHT_NOBITS && sh->sh_type != SHT_NULL
            && !in_bounds(v, sh->sh_offset, sh->sh_size)) {
            return fail(v, "section %zu lies outside the object", i);
        }
    }
    if (eh->e_shstrndx >= eh->e_shnum
        || v->shdrs[eh->e_shstrndx].sh_type != SHT_STRTAB) {
        return fail(v, "no section name table");
    }
    const Elf64_Shdr *strsh = &v->shdrs[eh->e_shstrndx];
    v->shstrtab = (const char *) v->data + strsh->sh_offset;
    v->shstrtab_size = strsh->sh_size;
    return 0;
}

static const Elf64_Shdr *
find_section(const struct elf_view *v, const char *name, size_t *index)
{
    for (size_t i = 0; i < v->ehdr->e_shnum; i++) {
        const char *n = section_name(v, &v->shdrs[i]);
        if (n && !strcmp(n, name)) {
            *index = i;
            return &v->shdrs[i];
        }
    }
    return NULL;
}

/* Reads the map declarations: each symbol of the maps section names the
 * oko_map_def at its offset; map index = offset / MAP_DEF_SIZE. */
static int
load_maps(struct elf_view *v, const Elf64_Shdr *maps, size_t maps_index,
          const Elf64_Sym *syms, size_t n_syms, const char *strtab,
          size_t strtab_size, struct oko_program *prog)
{
    if (maps->sh_size % MAP_DEF_SIZE) {
        return fail(v,
                    "section %s: size %lu is not a multiple of the %zu-byte "
                    "map declaration",
                    MAPS_SECTION, (unsigned long) maps->sh_size, MAP_DEF_SIZE);
    }
    size_t n = maps->sh_size / MAP_DEF_SIZE;
    if (n > OKO_MAX_MAPS) {
        return fail(v, "%zu maps declared; at most %d", n, OKO_MAX_MAPS);
    }
    prog->n_maps = n;
    for (size_t i = 0; i < n; i++) {
        uint32_t def[5];
        memcpy(def, v->data + maps->sh_offset + i * MAP_DEF_SIZE, sizeof def);
        struct oko_map_decl *m = &prog->maps[i];
        m->type = def[0];
        m->key_size = def[1];
        m->value_size = def[2];
        m->max_entries = def[3];
        m->flags = def[4];
        m->name[0] = '\0';
    }
    for (size_t s = 0; s < n_syms; s++) {
        const Elf64_Sym *sym = &syms[s];
        if (sym->st_shndx != maps_index
            || ELF64_ST_TYPE(sym->st_info) == STT_SECTION) {
            continue;
        }
        if (sym->st_value % MAP_DEF_SIZE
            || sym->st_value / MAP_DEF_SIZE >= n) {
            return fail(v,
                        "map symbol at offset %lu of %s does not start a map "
                        "declaration",
                        (unsigned long) sym->st_value, MAPS_SECTION);
        }
        const char *name = string_at(strtab, strtab_size, sym->st_name);
        if (!name || !*name || strlen(name) >= OKO_MAP_NAME_MAX) {
            return fail(v, "map at offset %lu has no usable name",
                        (unsigned long) sym->st_value);
        }
        memcpy(prog->maps[sym->st_value / MAP_DEF_SIZE].name, name,
               strlen(name) + 1);
    }
    for (size_t i = 0; i < n; i++) {
        if (!prog->maps[i].name[0]) {
            return fail(v, "map %zu of %s has no symbol", i, MAPS_SECTION);
        }
    }
    return 0;
}

/* Where the code sections went in the program: the filter section first,
 * then (when the filter calls functions clang did not inline) .text. */
struct code_layout {
    size_t filter_index;
    size_t text_index;                  /* 0: no .text in the program */
    /* index of .text's first instruction */
    size_t text_base;
};

/* A call relocated against 'sym' (a function, or a code section plus the
 * offset in the call's immediate, as clang emits for static functions):
 * the program-local call it becomes, relative to 'pc' (program index). */
static int
link_local_call(struct elf_view *v, const struct code_layout *code,
                const Elf64_Sym *sym, const char *name, size_t pc,
                struct oko_program *prog)
{
    struct oko_insn *insn = &prog->insns[pc];
    if (sym->st_shndx != code->filter_index
        && (!code->text_index || sym->st_shndx != code->text_index)) {
        return fail(v,
                    "insn %zu: call to '%s', which is neither an Oko helper "
                    "nor a function "
                    "in %s or .text",
                    pc, name, FILTER_SECTION);
    }
    long base
        = sym->st_shndx == code->filter_index ? 0 : (long) code->text_base;
    long offset = ELF64_ST_TYPE(sym->st_info) == STT_SECTION
                      ? (long) insn->imm + 1
                      : (long) (sym->st_value / sizeof(struct oko_insn))
                            + insn->imm + 1;
    long target = base + offset;
    if (target < 0 || target >= (long) prog->n_insns) {
        return fail(v, "insn %zu: call to '%s' outside the program", pc, name);
    }
    insn->src = 1;                      /* RFC 9669 "call local" */
    insn->imm = target - (long) pc - 1;
    return 0;
}

/* Resolves each relocation of a code section whose first instruction is
 * instruction 'base' of the program: an lddw that loads the address of a
 * map becomes "lddw rX, map index" (src = OKO_PSEUDO_MAP_INDEX), a call of
 * an extern helper a helper call, a call of a function a local call. */
static int
apply_relocations(struct elf_view *v, const Elf64_Shdr *rel, size_t base,
                  size_t n_section, const struct code_layout *code,
                  const Elf64_Sym *syms, size_t n_syms, const char *strtab,
                  size_t strtab_size, size_t maps_index, int have_maps,
                  struct oko_program *prog)
{
    if (rel->sh_entsize != sizeof(Elf64_Rel)
        || rel->sh_size % sizeof(Elf64_Rel)) {
        return fail(v, "malformed relocation section for %s", FILTER_SECTION);
    }
    size_t n = rel->sh_size / sizeof(Elf64_Rel);
    for (size_t i = 0; i < n; i++) {
        Elf64_Rel r;
        memcpy(&r, v->data + rel->sh_offset + i * sizeof r, sizeof r);
        size_t sym_index = ELF64_R_SYM(r.r_info);
        if (r.r_offset % sizeof(struct oko_insn)
            || r.r_offset / sizeof(struct oko_insn) >= n_section) {
            return fail(v,
                        "relocation %zu at offset %lu is not on an "
                        "instruction",
                        i, (unsigned long) r.r_offset);
        }
        size_t pc = base + r.r_offset / sizeof(struct oko_insn);
        if (sym_index >= n_syms) {
            return fail(v, "relocation %zu names symbol %zu of %zu", i,
                        sym_index, n_syms);
        }
        const Elf64_Sym *sym = &syms[sym_index];
        const char *name = string_at(strtab, strtab_size, sym->st_name);
        if (!name) {
            name = "?";
        }
        if (ELF64_R_TYPE(r.r_info) == R_BPF_64_32
            && prog->insns[pc].opcode == CALL_OPCODE) {
            if (sym->st_shndx != SHN_UNDEF) {
                int err = link_local_call(v, code, sym, name, pc, prog);
                if (err) {
                    return err;
                }
                continue;
            }
            /* A call of a helper declared extern: resolve it by name. */
            int32_t id = oko_helper_by_name(name);
            if (!id) {
                return fail(v,
                            "insn %zu: call to '%s', which is not an Oko "
                            "helper",
                            pc, name);
            }
            prog->insns[pc].src = 0;
            prog->insns[pc].imm = id;
            continue;
        }
        if (ELF64_R_TYPE(r.r_info) != R_BPF_64_64) {
            return fail(v,
                        "insn %zu: relocation type %lu to '%s' is not "
                        "supported "
                        "(calls to other functions and global data are not "
                        "allowed)",
                        pc, (unsigned long) ELF64_R_TYPE(r.r_info), name);
        }
        if (!have_maps || sym->st_shndx != maps_index) {
            return fail(v,
                        "insn %zu: reference to '%s', which is not a map in "
                        "section %s "
                        "(global and static data are not allowed)",
                        pc, name, MAPS_SECTION);
        }
        if (sym->st_value % MAP_DEF_SIZE
            || sym->st_value / MAP_DEF_SIZE >= prog->n_maps) {
            return fail(v, "insn %zu: '%s' is not a map declaration", pc,
                        name);
        }
        struct oko_insn *insn = &prog->insns[pc];
        if (insn->opcode != LDDW_OPCODE || pc + 1 >= prog->n_insns) {
            return fail(v,
                        "insn %zu: relocation for map '%s' on opcode 0x%02x, "
                        "not lddw",
                        pc, name, insn->opcode);
        }
        insn->src = OKO_PSEUDO_MAP_INDEX;
        insn->imm = sym->st_value / MAP_DEF_SIZE;
        /* upper half of the 64-bit address */
        prog->insns[pc + 1].imm = 0;
    }
    return 0;
}

/* True if a relocation of the filter section names a symbol of section
 * 'target': code in another section is reached only that way (clang
 * relocates every call across sections). */
static bool
filter_reaches(const struct elf_view *v, size_t filter_index, size_t target,
               const Elf64_Sym *syms, size_t n_syms)
{
    for (size_t i = 0; i < v->ehdr->e_shnum; i++) {
        const Elf64_Shdr *sh = &v->shdrs[i];
        if (sh->sh_type != SHT_REL || sh->sh_info != filter_index
            || sh->sh_entsize != sizeof(Elf64_Rel)) {
            continue;                   /* a malformed one is refused later */
        }
        for (size_t k = 0; k < sh->sh_size / sizeof(Elf64_Rel); k++) {
            Elf64_Rel r;
            memcpy(&r, v->data + sh->sh_offset + k * sizeof r, sizeof r);
            size_t sym = ELF64_R_SYM(r.r_info);
            if (sym < n_syms && syms[sym].st_shndx == target) {
                return true;
            }
        }
    }
    return false;
}

int
oko_program_load_elf(const void *elf, size_t size, struct oko_program *prog,
                     char error[OKO_ERROR_MAX])
{
    memset(prog, 0, sizeof *prog);
    error[0] = '\0';

    /* The structures are read in place, which needs an 8-byte aligned
     * buffer; an OpenFlow message body need not be one. */
    if ((uintptr_t) elf % _Alignof(Elf64_Shdr)) {
        void *copy = malloc(size ? size : 1);
        if (!copy) {
            snprintf(error, OKO_ERROR_MAX, "out of memory");
            return ENOMEM;
        }
        memcpy(copy, elf, size);
        int err = oko_program_load_elf(copy, size, prog, error);
        free(copy);
        return err;
    }

    struct elf_view v = { .data = elf, .size = size, .error = error };
    int err = parse_headers(&v);
    if (err) {
        return err;
    }

    size_t filter_index;
    const Elf64_Shdr *filter = find_section(&v, FILTER_SECTION, &filter_index);
    if (!filter || filter->sh_type != SHT_PROGBITS) {
        return fail(&v,
                    "no section \"%s\": declare the entry point with "
                    "OKO_FILTER",
                    FILTER_SECTION);
    }
    if (!filter->sh_size || filter->sh_size % sizeof(struct oko_insn)) {
        return fail(&v,
                    "section %s: size %lu is not a whole number of "
                    "instructions",
                    FILTER_SECTION, (unsigned long) filter->sh_size);
    }
    if (filter->sh_size / sizeof(struct oko_insn) > OKO_MAX_INSNS) {
        return fail(&v, "program of %lu instructions; at most %d",
                    (unsigned long) (filter->sh_size
                                     / sizeof(struct oko_insn)),
                    OKO_MAX_INSNS);
    }

    /* Symbols (needed for maps and relocations). */
    const Elf64_Sym *syms = NULL;
    size_t n_syms = 0;
    const char *strtab = NULL;
    size_t strtab_size = 0;
    for (size_t i = 0; i < v.ehdr->e_shnum; i++) {
        const Elf64_Shdr *sh = &v.shdrs[i];
        if (sh->sh_type == SHT_SYMTAB) {
            if (sh->sh_entsize != sizeof(Elf64_Sym)
                || sh->sh_size % sizeof(Elf64_Sym)
                || sh->sh_offset % _Alignof(Elf64_Sym)
                || sh->sh_link >= v.ehdr->e_shnum
                || v.shdrs[sh->sh_link].sh_type != SHT_STRTAB) {
                return fail(&v, "malformed symbol table");
            }
            syms = (const Elf64_Sym *) (const void *) (v.data + sh->sh_offset);
            n_syms = sh->sh_size / sizeof(Elf64_Sym);
            strtab = (const char *) v.data + v.shdrs[sh->sh_link].sh_offset;
            strtab_size = v.shdrs[sh->sh_link].sh_size;
            break;
        }
    }

    /* Functions clang did not inline are in .text: it goes after the filter
     * section if the filter reaches it; otherwise it is dead code, and not
     * loaded whatever it holds. */
    struct code_layout code = { .filter_index = filter_index };
    size_t n_filter = filter->sh_size / sizeof(struct oko_insn), n_text = 0;
    size_t text_index;
    const Elf64_Shdr *text = find_section(&v, ".text", &text_index);
    if (text && text->sh_type == SHT_PROGBITS && text->sh_size
        && filter_reaches(&v, filter_index, text_index, syms, n_syms)) {
        if (text->sh_size % sizeof(struct oko_insn)) {
            return fail(&v,
                        "section .text: size %lu is not a whole number of "
                        "instructions",
                        (unsigned long) text->sh_size);
        }
        n_text = text->sh_size / sizeof(struct oko_insn);
        if (n_filter + n_text > OKO_MAX_INSNS) {
            return fail(&v,
                        "program of %zu instructions (%zu in %s, %zu in its "
                        "functions in "
                        ".text); at most %d",
                        n_filter + n_text, n_filter, FILTER_SECTION, n_text,
                        OKO_MAX_INSNS);
        }
        code.text_index = text_index;
        code.text_base = n_filter;
    }
    prog->n_insns = n_filter + n_text;
    prog->insns = malloc(prog->n_insns * sizeof *prog->insns);
    if (!prog->insns) {
        prog->n_insns = 0;
        fail(&v, "out of memory");
        return ENOMEM;
    }
    memcpy(prog->insns, v.data + filter->sh_offset, filter->sh_size);
    if (n_text) {
        memcpy(prog->insns + n_filter, v.data + text->sh_offset,
               text->sh_size);
    }

    size_t maps_index = 0;
    const Elf64_Shdr *maps = find_section(&v, MAPS_SECTION, &maps_index);
    if (maps && maps->sh_type != SHT_PROGBITS) {
        /* Only PROGBITS sections were checked to lie inside the object. */
        err = fail(&v, "section %s is not PROGBITS data (type %u)",
                   MAPS_SECTION, (unsigned) maps->sh_type);
        goto error;
    }
    if (maps) {
        if (!syms) {
            err = fail(&v, "section %s without a symbol table", MAPS_SECTION);
            goto error;
        }
        err = load_maps(&v, maps, maps_index, syms, n_syms, strtab,
                        strtab_size, prog);
        if (err) {
            goto error;
        }
    }

    for (size_t i = 0; i < v.ehdr->e_shnum; i++) {
        const Elf64_Shdr *sh = &v.shdrs[i];
        if (sh->sh_type == SHT_RELA) {
            err = fail(&v, "RELA relocations are not produced by clang "
                           "-target bpf");
            goto error;
        }
        if (sh->sh_type != SHT_REL
            || (sh->sh_info != filter_index
                && (!n_text || sh->sh_info != text_index))) {
            continue;
        }
        if (!syms) {
            err = fail(&v, "relocations without a symbol table");
            goto error;
        }
        bool in_filter = sh->sh_info == filter_index;
        err = apply_relocations(&v, sh, in_filter ? 0 : n_filter,
                                in_filter ? n_filter : n_text, &code, syms,
                                n_syms, strtab, strtab_size, maps_index,
                                maps != NULL, prog);
        if (err) {
            goto error;
        }
    }
    return 0;

error:
    oko_program_destroy(prog);
    return err;
}

void
oko_program_destroy(struct oko_program *prog)
{
    free(prog->insns);
    free(prog->origin);
    memset(prog, 0, sizeof *prog);
}
