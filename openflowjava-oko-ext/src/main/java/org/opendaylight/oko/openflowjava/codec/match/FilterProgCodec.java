/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.match;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID_UINT32;
import static org.opendaylight.oko.openflowjava.OkoConstants.OXM_FIELD_FILTER_PROG;
import static org.opendaylight.oko.openflowjava.OkoConstants.OXM_FILTER_PROG_LENGTH;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.openflowjava.protocol.api.extensibility.HeaderDeserializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.HeaderSerializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFSerializer;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.FilterProg;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.OkoFilterProgMatchEntry;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.OkoFilterProgMatchEntryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.oko.filter.prog.match.entry.FilterProgValuesBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.augments.rev150225.experimenter.id.match.entry.ExperimenterIdCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.augments.rev150225.experimenter.id.match.entry.ExperimenterIdCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.augments.rev150225.experimenter.id.match.entry.experimenter.id._case.ExperimenterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.ExperimenterId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.oxm.rev150225.ExperimenterClass;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.oxm.rev150225.match.entries.grouping.MatchEntry;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.oxm.rev150225.match.entries.grouping.MatchEntryBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * The filter_prog experimenter OXM (docs/protocol.md section 6.1): class 0xFFFF, field 1, no mask, length 8,
 * experimenter id, program id.
 */
public final class FilterProgCodec implements OFSerializer<MatchEntry>, OFDeserializer<MatchEntry>,
        HeaderSerializer<MatchEntry>, HeaderDeserializer<MatchEntry> {
    /** OFPXMC_EXPERIMENTER. */
    public static final int OXM_CLASS = 0xFFFF;
    /** The four header bytes: class 0xFFFF, field 1 without mask, length 8. */
    public static final int OXM_HEADER = OXM_CLASS << 16 | OXM_FIELD_FILTER_PROG << 9 | OXM_FILTER_PROG_LENGTH;

    @Override
    public void serialize(final MatchEntry input, final ByteBuf outBuffer) {
        if (Boolean.TRUE.equals(input.getHasMask())) {
            throw new IllegalArgumentException("filter_prog has no mask");
        }
        serializeHeader(input, outBuffer);
        outBuffer.writeInt(programId(input).getValue().intValue());
    }

    @Override
    public void serializeHeader(final MatchEntry input, final ByteBuf outBuffer) {
        outBuffer.writeInt(OXM_HEADER);
        outBuffer.writeInt((int) EXPERIMENTER_ID);
    }

    @Override
    public MatchEntry deserialize(final ByteBuf message) {
        final WireReader in = new WireReader(message, "filter_prog OXM");
        readHeader(in);
        final long progId = in.u32("prog_id");
        if (progId == 0) {
            throw in.error("prog_id 0 is reserved");
        }
        return matchEntry(new ProgramId(Uint32.valueOf(progId)));
    }

    @Override
    public MatchEntry deserializeHeader(final ByteBuf message) {
        final WireReader in = new WireReader(message, "filter_prog OXM header");
        readHeader(in);
        return new MatchEntryBuilder()
            .setOxmClass(ExperimenterClass.VALUE)
            .setOxmMatchField(FilterProg.VALUE)
            .setHasMask(false)
            .build();
    }

    private static void readHeader(final WireReader in) {
        final int oxmClass = in.u16("oxm_class");
        final int fieldAndMask = in.u8("oxm_field");
        final int length = in.u8("oxm_length");
        if (oxmClass != OXM_CLASS || fieldAndMask >>> 1 != OXM_FIELD_FILTER_PROG) {
            throw in.error(String.format("not filter_prog: class 0x%04x field %d", oxmClass, fieldAndMask >>> 1));
        }
        if ((fieldAndMask & 1) != 0) {
            throw in.error("hasmask set: filter_prog has no mask");
        }
        if (length != OXM_FILTER_PROG_LENGTH) {
            throw in.error("oxm_length " + length + ", must be " + OXM_FILTER_PROG_LENGTH);
        }
        final long experimenter = in.u32("experimenter");
        if (experimenter != EXPERIMENTER_ID) {
            throw in.error(String.format("experimenter 0x%08x is not Oko's", experimenter));
        }
    }

    /** The MatchEntry openflowjava carries for {@code filter_prog=progId}. */
    public static MatchEntry matchEntry(final ProgramId progId) {
        return new MatchEntryBuilder()
            .setOxmClass(ExperimenterClass.VALUE)
            .setOxmMatchField(FilterProg.VALUE)
            .setHasMask(false)
            .setMatchEntryValue(new ExperimenterIdCaseBuilder()
                .setExperimenter(new ExperimenterBuilder()
                    .setExperimenter(new ExperimenterId(EXPERIMENTER_ID_UINT32))
                    .build())
                .addAugmentation(new OkoFilterProgMatchEntryBuilder()
                    .setFilterProgValues(new FilterProgValuesBuilder().setProgId(progId).build())
                    .build())
                .build())
            .build();
    }

    /** The program id of a filter_prog MatchEntry. */
    public static ProgramId programId(final MatchEntry entry) {
        if (entry.getMatchEntryValue() instanceof ExperimenterIdCase expCase) {
            final OkoFilterProgMatchEntry aug = expCase.augmentation(OkoFilterProgMatchEntry.class);
            if (aug != null && aug.getFilterProgValues() != null) {
                return aug.getFilterProgValues().requireProgId();
            }
        }
        throw new IllegalArgumentException("not a filter_prog match entry: " + entry);
    }
}
