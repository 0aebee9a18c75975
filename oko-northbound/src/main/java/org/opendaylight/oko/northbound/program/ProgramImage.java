/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.program;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * What the controller knows of a filter program from its ELF object without running the switch's verifier: its
 * instruction count and its maps (index, name, type, sizes) in the order the switch numbers them (docs/
 * filter-programs.md: map index = offset of the declaration in the oko/maps section / 20). The switch's loader
 * and verifier remain the judges of whether the program is safe; this reader refuses only what the switch would
 * refuse for its structure, so that an operator hears of a broken upload before any switch does.
 */
public final class ProgramImage {
    /** One map declaration. */
    public record MapDeclaration(int index, String name, int type, long keySize, long valueSize, long maxEntries) {
    }

    static final String FILTER_SECTION = "oko/filter";
    static final String MAPS_SECTION = "oko/maps";
    static final int MAP_DEF_SIZE = 20;
    static final int MAX_MAPS = 64;
    static final int INSTRUCTION_SIZE = 8;

    private static final int EI_NIDENT = 16;
    private static final int ELFCLASS64 = 2;
    private static final int ELFDATA2LSB = 1;
    private static final int ET_REL = 1;
    private static final int EM_BPF = 247;
    private static final int ELF_HEADER_SIZE = 64;
    private static final int SECTION_HEADER_SIZE = 64;
    private static final int SYMBOL_SIZE = 24;
    private static final int SHT_SYMTAB = 2;
    private static final int SHT_PROGBITS = 1;
    private static final int STT_SECTION = 3;

    private final int size;
    private final String sha256;
    private final long instructions;
    private final List<MapDeclaration> maps;

    private ProgramImage(final int size, final String sha256, final long instructions,
            final List<MapDeclaration> maps) {
        this.size = size;
        this.sha256 = sha256;
        this.instructions = instructions;
        this.maps = List.copyOf(maps);
    }

    /**
     * Reads an ELF object.
     *
     * @throws InvalidProgramException saying what is wrong with it
     */
    public static ProgramImage read(final byte[] elf) {
        return new Reader(elf).read();
    }

    public int size() {
        return size;
    }

    /** SHA-256 of the object, lower-case hexadecimal. */
    public String sha256() {
        return sha256;
    }

    public long instructions() {
        return instructions;
    }

    public List<MapDeclaration> maps() {
        return maps;
    }

    public Optional<MapDeclaration> map(final String name) {
        return maps.stream().filter(map -> map.name().equals(name)).findFirst();
    }

    private record Section(int index, String name, int type, long offset, long size, int link) {
    }

    private static final class Reader {
        private final byte[] bytes;
        private final ByteBuffer buf;

        Reader(final byte[] bytes) {
            this.bytes = bytes;
            buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }

        ProgramImage read() {
            if (bytes.length < ELF_HEADER_SIZE || bytes[0] != 0x7F || bytes[1] != 'E' || bytes[2] != 'L'
                    || bytes[3] != 'F') {
                throw new InvalidProgramException("not an ELF object");
            }
            if (bytes[4] != ELFCLASS64 || bytes[5] != ELFDATA2LSB) {
                throw new InvalidProgramException("not a 64-bit little-endian ELF object");
            }
            if (u16(EI_NIDENT) != ET_REL || u16(EI_NIDENT + 2) != EM_BPF) {
                throw new InvalidProgramException("not a BPF relocatable object (compile with clang -target bpf -c)");
            }
            final List<Section> sections = sections();
            final Section filter = find(sections, FILTER_SECTION).orElseThrow(() -> new InvalidProgramException(
                "no " + FILTER_SECTION + " section: mark the filter function with OKO_FILTER"));
            if (filter.size() == 0 || filter.size() % INSTRUCTION_SIZE != 0) {
                throw new InvalidProgramException("section " + FILTER_SECTION + " of " + filter.size()
                    + " bytes is not a whole number of instructions");
            }
            final List<MapDeclaration> maps = find(sections, MAPS_SECTION)
                .map(section -> maps(section, sections)).orElse(List.of());
            return new ProgramImage(bytes.length, digest(bytes), filter.size() / INSTRUCTION_SIZE, maps);
        }

        private List<Section> sections() {
            final long shoff = u64(0x28);
            final int shentsize = u16(0x3A);
            final int shnum = u16(0x3C);
            final int shstrndx = u16(0x3E);
            if (shentsize != SECTION_HEADER_SIZE || shnum == 0 || shstrndx >= shnum) {
                throw new InvalidProgramException("malformed section header table");
            }
            within(shoff, (long) shnum * SECTION_HEADER_SIZE, "section header table");
            final List<long[]> raw = new ArrayList<>(shnum);
            for (int i = 0; i < shnum; i++) {
                final int at = (int) (shoff + (long) i * SECTION_HEADER_SIZE);
                raw.add(new long[] { u32(at), u32(at + 4), u64(at + 24), u64(at + 32), u32(at + 40) });
            }
            final long[] names = raw.get(shstrndx);
            within(names[2], names[3], "section name table");
            final List<Section> sections = new ArrayList<>(shnum);
            for (int i = 0; i < shnum; i++) {
                final long[] s = raw.get(i);
                sections.add(new Section(i, string(names[2], names[3], s[0], "section name"), (int) s[1], s[2], s[3],
                    (int) s[4]));
            }
            return sections;
        }

        private List<MapDeclaration> maps(final Section section, final List<Section> sections) {
            if (section.type() != SHT_PROGBITS) {
                throw new InvalidProgramException("section " + MAPS_SECTION + " is not PROGBITS data");
            }
            within(section.offset(), section.size(), "section " + MAPS_SECTION);
            if (section.size() % MAP_DEF_SIZE != 0) {
                throw new InvalidProgramException("section " + MAPS_SECTION + " of " + section.size()
                    + " bytes is not a whole number of " + MAP_DEF_SIZE + "-byte map declarations");
            }
            final int count = (int) (section.size() / MAP_DEF_SIZE);
            if (count > MAX_MAPS) {
                throw new InvalidProgramException(count + " maps: at most " + MAX_MAPS);
            }
            final Section symtab = sections.stream().filter(s -> s.type() == SHT_SYMTAB).findFirst()
                .orElseThrow(() -> new InvalidProgramException("section " + MAPS_SECTION
                    + " without a symbol table"));
            within(symtab.offset(), symtab.size(), "symbol table");
            if (symtab.link() < 0 || symtab.link() >= sections.size()) {
                throw new InvalidProgramException("symbol table names no string table");
            }
            final Section strtab = sections.get(symtab.link());
            within(strtab.offset(), strtab.size(), "string table");

            final String[] names = new String[count];
            for (long at = symtab.offset(); at + SYMBOL_SIZE <= symtab.offset() + symtab.size(); at += SYMBOL_SIZE) {
                final int info = bytes[(int) at + 4] & 0xFF;
                final int shndx = u16((int) at + 6);
                if (shndx != section.index() || (info & 0xF) == STT_SECTION) {
                    continue;
                }
                final long value = u64((int) at + 8);
                if (value % MAP_DEF_SIZE != 0 || value / MAP_DEF_SIZE >= count) {
                    throw new InvalidProgramException("map symbol at offset " + value + " of " + MAPS_SECTION
                        + " does not start a map declaration");
                }
                names[(int) (value / MAP_DEF_SIZE)] = string(strtab.offset(), strtab.size(), u32((int) at),
                    "symbol name");
            }
            final List<MapDeclaration> maps = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                if (names[i] == null) {
                    throw new InvalidProgramException("map " + i + " of " + MAPS_SECTION + " has no symbol");
                }
                final int at = (int) (section.offset() + (long) i * MAP_DEF_SIZE);
                maps.add(new MapDeclaration(i, names[i], (int) u32(at), u32(at + 4), u32(at + 8), u32(at + 12)));
            }
            return maps;
        }

        private static Optional<Section> find(final List<Section> sections, final String name) {
            return sections.stream().filter(s -> s.name().equals(name)).findFirst();
        }

        private void within(final long offset, final long length, final String what) {
            if (offset < 0 || length < 0 || offset > bytes.length || length > bytes.length - offset) {
                throw new InvalidProgramException(what + " lies outside the object (offset " + offset + ", "
                    + length + " bytes, object " + bytes.length + " bytes)");
            }
        }

        private String string(final long tableOffset, final long tableSize, final long index, final String what) {
            if (index >= tableSize) {
                throw new InvalidProgramException(what + " outside its string table");
            }
            final int start = (int) (tableOffset + index);
            final int limit = (int) (tableOffset + tableSize);
            int end = start;
            while (end < limit && bytes[end] != 0) {
                end++;
            }
            if (end == limit) {
                throw new InvalidProgramException(what + " is not terminated");
            }
            return new String(Arrays.copyOfRange(bytes, start, end), java.nio.charset.StandardCharsets.US_ASCII);
        }

        private int u16(final int at) {
            return Short.toUnsignedInt(buf.getShort(at));
        }

        private long u32(final int at) {
            return Integer.toUnsignedLong(buf.getInt(at));
        }

        private long u64(final int at) {
            final long value = buf.getLong(at);
            return value < 0 ? Long.MAX_VALUE : value;
        }
    }

    private static String digest(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
