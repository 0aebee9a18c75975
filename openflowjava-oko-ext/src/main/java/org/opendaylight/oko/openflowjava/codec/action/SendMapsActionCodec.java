/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.action;

import static org.opendaylight.oko.openflowjava.OkoConstants.ACTION_SEND_MAPS_LENGTH;
import static org.opendaylight.oko.openflowjava.OkoConstants.ACTION_SUBTYPE_SEND_MAPS;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFSerializer;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.action.container.action.choice.OkoSendMapsActionCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.action.container.action.choice.OkoSendMapsActionCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.action.container.action.choice.oko.send.maps.action._case.OkoSendMapsActionBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.action.rev150203.actions.grouping.Action;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.action.rev150203.actions.grouping.ActionBuilder;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * The SEND_MAPS experimenter action (docs/protocol.md section 6.2): type 0xFFFF, len 24, experimenter id,
 * subtype 1, 6 pad bytes, map mask.
 */
public final class SendMapsActionCodec implements OFSerializer<Action>, OFDeserializer<Action> {
    private static final int OFPAT_EXPERIMENTER = 0xFFFF;
    private static final int PAD = 6;

    @Override
    public void serialize(final Action input, final ByteBuf outBuffer) {
        if (!(input.getActionChoice() instanceof OkoSendMapsActionCase sendMaps)) {
            throw new IllegalArgumentException("not a SEND_MAPS action: " + input);
        }
        final Uint64 mask = sendMaps.getOkoSendMapsAction().requireMapMask();
        outBuffer.writeShort(OFPAT_EXPERIMENTER);
        outBuffer.writeShort(ACTION_SEND_MAPS_LENGTH);
        outBuffer.writeInt((int) EXPERIMENTER_ID);
        outBuffer.writeShort(ACTION_SUBTYPE_SEND_MAPS);
        outBuffer.writeZero(PAD);
        outBuffer.writeLong(mask.longValue());
    }

    @Override
    public Action deserialize(final ByteBuf message) {
        final WireReader in = new WireReader(message, "SEND_MAPS action");
        final int type = in.u16("type");
        final int length = in.u16("len");
        final long experimenter = in.u32("experimenter");
        if (type != OFPAT_EXPERIMENTER || experimenter != EXPERIMENTER_ID) {
            throw in.error(String.format("not an Oko action: type 0x%04x experimenter 0x%08x", type, experimenter));
        }
        if (length != ACTION_SEND_MAPS_LENGTH) {
            throw in.error("len " + length + ", must be " + ACTION_SEND_MAPS_LENGTH);
        }
        final int subtype = in.u16("subtype");
        if (subtype != ACTION_SUBTYPE_SEND_MAPS) {
            throw in.error("unknown subtype " + subtype);
        }
        in.pad(PAD, "pad");
        final long mask = in.u64("map_mask");
        if (mask == 0) {
            throw in.error("map_mask 0 selects no map");
        }
        return action(Uint64.fromLongBits(mask));
    }

    /** The openflowjava Action for SEND_MAPS with {@code mapMask}. */
    public static Action action(final Uint64 mapMask) {
        return new ActionBuilder()
            .setActionChoice(new OkoSendMapsActionCaseBuilder()
                .setOkoSendMapsAction(new OkoSendMapsActionBuilder().setMapMask(mapMask).build())
                .build())
            .build();
    }
}
