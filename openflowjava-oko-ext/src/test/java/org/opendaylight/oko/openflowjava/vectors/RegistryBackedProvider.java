/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.vectors;

import com.google.common.util.concurrent.ListenableFuture;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.opendaylight.oko.openflowjava.OkoConstants;
import org.opendaylight.openflowjava.protocol.api.connection.ConnectionConfiguration;
import org.opendaylight.openflowjava.protocol.api.connection.SwitchConnectionHandler;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFGeneralDeserializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFGeneralSerializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFSerializer;
import org.opendaylight.openflowjava.protocol.api.keys.ActionSerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterActionDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterIdDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterIdMeterSubTypeSerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterIdSerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterInstructionDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterSerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.InstructionSerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.MatchEntryDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.MatchEntrySerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.MessageCodeKey;
import org.opendaylight.openflowjava.protocol.api.keys.MessageTypeKey;
import org.opendaylight.openflowjava.protocol.api.keys.TypeToClassKey;
import org.opendaylight.openflowjava.protocol.impl.deserialization.DeserializationFactory;
import org.opendaylight.openflowjava.protocol.impl.deserialization.DeserializerRegistryImpl;
import org.opendaylight.openflowjava.protocol.impl.serialization.SerializationFactory;
import org.opendaylight.openflowjava.protocol.impl.serialization.SerializerRegistryImpl;
import org.opendaylight.openflowjava.protocol.spi.connection.SwitchConnectionProvider;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.oxm.rev150225.MatchField;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.oxm.rev150225.OxmClassBase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ErrorMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.experimenter.core.ExperimenterDataOfChoice;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.meter.band.header.meter.band.MeterBandExperimenterCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.queue.property.header.QueueProperty;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.table.features.properties.grouping.TableFeatureProperties;
import org.opendaylight.yangtools.binding.DataObject;

/**
 * A {@link SwitchConnectionProvider} that is only its codec registries: openflowjava's real
 * {@link SerializerRegistryImpl} and {@link DeserializerRegistryImpl}, wired the way SwitchConnectionProviderImpl
 * wires them, without sockets. Tests register the Oko codecs through the production registrar and then run
 * openflowjava's real serialization and deserialization factories.
 */
public final class RegistryBackedProvider implements SwitchConnectionProvider {
    private final SerializerRegistryImpl serializers = new SerializerRegistryImpl();
    private final DeserializerRegistryImpl deserializers = new DeserializerRegistryImpl();
    private final DeserializationFactory deserialization;
    private final SerializationFactory serialization;

    public RegistryBackedProvider() {
        serializers.init();
        deserializers.init();
        deserialization = new DeserializationFactory(deserializers);
        serialization = new SerializationFactory(serializers);
    }

    public DeserializationFactory deserialization() {
        return deserialization;
    }

    public SerializationFactory serialization() {
        return serialization;
    }

    public SerializerRegistryImpl serializers() {
        return serializers;
    }

    public DeserializerRegistryImpl deserializers() {
        return deserializers;
    }

    @Override
    public ConnectionConfiguration getConfiguration() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ListenableFuture<Void> startup(final SwitchConnectionHandler connectionHandler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ListenableFuture<Void> shutdown() {
        throw new UnsupportedOperationException();
    }

    @Override
    public <K> void registerSerializer(final MessageTypeKey<K> key, final OFGeneralSerializer serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public boolean unregisterSerializer(final ExperimenterSerializerKey key) {
        return serializers.unregisterSerializer((MessageTypeKey<?>) key);
    }

    @Override
    public void registerActionSerializer(final ActionSerializerKey<?> key, final OFGeneralSerializer serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public void registerInstructionSerializer(final InstructionSerializerKey<?> key,
            final OFGeneralSerializer serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public <C extends OxmClassBase, F extends MatchField> void registerMatchEntrySerializer(
            final MatchEntrySerializerKey<C, F> key, final OFGeneralSerializer serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public void registerExperimenterMessageSerializer(
            final ExperimenterIdSerializerKey<? extends ExperimenterDataOfChoice> key,
            final OFSerializer<? extends ExperimenterDataOfChoice> serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public void registerMultipartRequestSerializer(
            final ExperimenterIdSerializerKey<? extends ExperimenterDataOfChoice> key,
            final OFSerializer<? extends ExperimenterDataOfChoice> serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public void registerMultipartRequestTFSerializer(final ExperimenterIdSerializerKey<TableFeatureProperties> key,
            final OFGeneralSerializer serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public void registerMeterBandSerializer(final ExperimenterIdSerializerKey<MeterBandExperimenterCase> key,
            final OFSerializer<MeterBandExperimenterCase> serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public void registerMeterBandSerializer(
            final ExperimenterIdMeterSubTypeSerializerKey<MeterBandExperimenterCase> key,
            final OFSerializer<MeterBandExperimenterCase> serializer) {
        serializers.registerSerializer(key, serializer);
    }

    @Override
    public void registerDeserializer(final MessageCodeKey key, final OFGeneralDeserializer deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public boolean unregisterDeserializer(final ExperimenterDeserializerKey key) {
        return deserializers.unregisterDeserializer((MessageCodeKey) key);
    }

    @Override
    public void registerActionDeserializer(final ExperimenterActionDeserializerKey key,
            final OFGeneralDeserializer deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerInstructionDeserializer(final ExperimenterInstructionDeserializerKey key,
            final OFGeneralDeserializer deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerMatchEntryDeserializer(final MatchEntryDeserializerKey key,
            final OFGeneralDeserializer deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerErrorDeserializer(final ExperimenterIdDeserializerKey key,
            final OFDeserializer<ErrorMessage> deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerExperimenterMessageDeserializer(final ExperimenterIdDeserializerKey key,
            final OFDeserializer<? extends ExperimenterDataOfChoice> deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerMultipartReplyMessageDeserializer(final ExperimenterIdDeserializerKey key,
            final OFDeserializer<? extends ExperimenterDataOfChoice> deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerMultipartReplyTFDeserializer(final ExperimenterIdDeserializerKey key,
            final OFGeneralDeserializer deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerMeterBandDeserializer(final ExperimenterIdDeserializerKey key,
            final OFDeserializer<MeterBandExperimenterCase> deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerQueuePropertyDeserializer(final ExperimenterIdDeserializerKey key,
            final OFDeserializer<QueueProperty> deserializer) {
        deserializers.registerDeserializer(key, deserializer);
    }

    @Override
    public void registerDeserializerMapping(final TypeToClassKey key, final Class<?> clazz) {
        deserialization.registerMapping(key, clazz);
    }

    @Override
    public boolean unregisterDeserializerMapping(final TypeToClassKey key) {
        return deserialization.unregisterMapping(key);
    }

    /** Decodes one whole message as a switch connection would (after the version byte); every byte is read. */
    public DataObject decode(final byte[] bytes) {
        final ByteBuf in = Unpooled.wrappedBuffer(bytes);
        in.skipBytes(1);   // OFVersionDetector
        final DataObject decoded = deserialization().deserialize(in, OkoConstants.OF13);
        if (in.readableBytes() != 0) {
            throw new AssertionError("decoder left " + in.readableBytes() + " bytes unread");
        }
        return decoded;
    }
}
