/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.convertor;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;
import org.opendaylight.oko.openflowjava.OkoConstants;
import org.opendaylight.openflowplugin.extension.api.ConverterMessageToOFJava;
import org.opendaylight.openflowplugin.extension.api.ExtensionConvertorData;
import org.opendaylight.openflowplugin.extension.api.exception.ConversionException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.ExperimenterId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.experimenter.core.ExperimenterDataOfChoice;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * One controller-to-switch Oko message: the case written into send-experimenter becomes the openflowjava body case
 * of the same fields, sent with Oko's experimenter id and the message's exp_type.
 *
 * @param <I> the send-experimenter case
 */
public final class MessageConvertor<I extends ExperimenterMessageOfChoice>
        implements ConverterMessageToOFJava<I, ExperimenterDataOfChoice, ExtensionConvertorData> {
    /** One shared instance: openflowjava matches the serializer key's experimenter id by reference. */
    private static final ExperimenterId EXPERIMENTER = new ExperimenterId(OkoConstants.EXPERIMENTER_ID_UINT32);

    private final Class<I> salCase;
    private final Uint32 expType;
    private final Function<I, ExperimenterDataOfChoice> toBody;

    public MessageConvertor(final Class<I> salCase, final int expType,
            final Function<I, ExperimenterDataOfChoice> toBody) {
        this.salCase = requireNonNull(salCase);
        this.expType = Uint32.valueOf(expType);
        this.toBody = requireNonNull(toBody);
    }

    public Class<I> salCase() {
        return salCase;
    }

    @Override
    public ExperimenterDataOfChoice convert(final I input, final ExtensionConvertorData data)
            throws ConversionException {
        try {
            return toBody.apply(input);
        } catch (IllegalArgumentException e) {
            throw new ConversionException("cannot send " + salCase.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The message's container, which RESTCONF lets a client leave out.
     *
     * @throws IllegalArgumentException if it is missing
     */
    static <T> T present(final T container, final String name) {
        if (container == null) {
            throw new IllegalArgumentException(name + " is missing");
        }
        return container;
    }

    @Override
    public ExperimenterId getExperimenterId() {
        return EXPERIMENTER;
    }

    @Override
    public Uint32 getType() {
        return expType;
    }
}
