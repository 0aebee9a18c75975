/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * DUMP_MAPS, PROG_STATS and REPLAY_MAPS in openflowplugin's single-layer serialization mode (its default): the
 * codecs that sit between the send-experimenter-mp-request RPC objects and the wire.
 *
 * <p>In that mode the plugin serializes the RPC's request case itself and looks up a serializer keyed by the
 * case's class, which must write the experimenter id and exp_type too ({@link MultipartRequestSerializer}). The
 * reply body is decoded by the plugin's experimenter multipart body deserializer, which looks up the
 * experimenter's codecs with keys that compare the experimenter id by reference (see the {@code codec.decoder}
 * package) and so never finds Oko's; {@link ExperimenterReplyBodyDecoder} takes its place. The plugin installs
 * its own body deserializer each time it starts a switch connection provider, so the registration component
 * installs this one after the plugin's start.
 */
package org.opendaylight.oko.openflowjava.codec.singlelayer;
