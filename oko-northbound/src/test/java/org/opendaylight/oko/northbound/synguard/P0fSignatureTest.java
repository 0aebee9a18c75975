/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.northbound.synguard.P0fSignature.WindowKind;

class P0fSignatureTest {
    private static P0fFingerprint fingerprint(final int ttl, final int mss, final int window) {
        return new P0fFingerprint(4, ttl, 0, mss, window, 7, true, List.of(2, 4, 8, 1, 3), 3);
    }

    @Test
    void theTtlWindowIsTheFiltersInitialTtlDownToMaxHopsAway() {
        P0fSignature linux = P0fSignature.parse("4:64:0:*:mss*44,7:mss,sok,ts,nop,ws:df,id+:0");
        assertTrue(linux.matches(fingerprint(64, 1460, 64240)));
        assertTrue(linux.matches(fingerprint(30, 1460, 64240)));        // 34 hops
        assertFalse(linux.matches(fingerprint(29, 1460, 64240)));       // 35 hops: p0f's limit
        assertFalse(linux.matches(fingerprint(65, 1460, 64240)));       // above the initial TTL
    }

    @Test
    void aFingerprintsSignatureMatchesIt() {
        for (int ttl = 1; ttl <= 255; ttl++) {
            for (int window : new int[] {0, 512, 1460 * 44, 65535}) {
                P0fFingerprint fp = fingerprint(ttl, 1460, window);
                assertTrue(fp.signature().matches(fp), fp.signature().toText() + " ttl " + ttl);
            }
        }
        P0fFingerprint far = fingerprint(200, 1460, 64240);
        assertEquals(200, far.initialTtl());                            // 55 hops below 255: p0f's bad TTL
        assertEquals(255, fingerprint(221, 1460, 64240).initialTtl());
    }

    @Test
    void windowKinds() {
        P0fSignature multiple = P0fSignature.parse("4:64:0:*:mss*44,7:mss,sok,ts,nop,ws:df,id+:0");
        assertTrue(multiple.matches(fingerprint(64, 1400, 61600)));
        assertFalse(multiple.matches(fingerprint(64, 1400, 64240)));
        P0fSignature modulo = P0fSignature.parse("4:64:0:*:%8192,7:mss,sok,ts,nop,ws:df,id+:0");
        assertEquals(WindowKind.MODULO, modulo.windowKind());
        assertTrue(modulo.matches(fingerprint(64, 1460, 16384)));
        assertFalse(modulo.matches(fingerprint(64, 1460, 16385)));
    }

    @Test
    void whatTheFilterCannotExpressIsRefusedWithTheReason() {
        assertEquals("mtu*N windows are not supported (use mss*N or an exact window)",
            assertThrows(IllegalArgumentException.class,
                () -> P0fSignature.parse("4:64:0:*:mtu*4,7:mss:df:0")).getMessage());
        assertEquals("quirk 'opt+' is not computed by the filter", assertThrows(IllegalArgumentException.class,
            () -> P0fSignature.parse("4:64:0:*:mss*4,7:mss:df,opt+:0")).getMessage());
        assertEquals("version '5': 4, 6 or *", assertThrows(IllegalArgumentException.class,
            () -> P0fSignature.parse("5:64:0:*:mss*4,7:mss:df:0")).getMessage());
        assertEquals("expected ver:ittl:olen:mss:wsize,scale:olayout:quirks:pclass",
            assertThrows(IllegalArgumentException.class, () -> P0fSignature.parse("4:64:0")).getMessage());
        assertEquals("17 options; the filter compares at most 16", assertThrows(IllegalArgumentException.class,
            () -> P0fSignature.parse("4:64:0:*:*,*:" + "nop,".repeat(16) + "nop::0")).getMessage());
        assertEquals("ittl 'x' is not a number", assertThrows(IllegalArgumentException.class,
            () -> P0fSignature.parse("4:x:0:*:*,*:::0")).getMessage());
    }

    @Test
    void textFormsOfTheP0fDatabaseParse() {
        // "64-" (a TTL seen below its initial value), "eol+1", unknown option kinds as "?N"
        P0fSignature sig = P0fSignature.parse("*:64-:0:*:65535,6:mss,nop,ws,?30,eol+1:df:0");
        assertEquals(64, sig.ittl());
        assertEquals(List.of(2, 1, 3, 30, 0), sig.options());
        assertEquals("*:64:0:*:65535,6:mss,nop,ws,?30,eol:df:0", sig.toText());
        assertEquals(P0fSignature.VERSION_ANY, sig.version());
    }
}
