/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * Message decoders that route Oko's experimenter messages, experimenter multipart replies and experimenter errors
 * to the Oko codecs and leave everything else to openflowjava's own factories.
 *
 * <p>Why they exist: openflowjava 0.20 looks up experimenter deserializers with keys whose {@code equals} compares
 * the experimenter id ({@code Uint32}) by reference. Ids read from the wire are fresh objects (only 0..255 are
 * cached), so the lookup for Oko's id 0x4F4B4F00 never finds the registered codec and the message is dropped. These
 * decoders recognise Oko's id by value and call the codec directly.
 */
package org.opendaylight.oko.openflowjava.codec.decoder;
