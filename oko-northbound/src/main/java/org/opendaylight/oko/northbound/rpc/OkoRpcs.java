/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import java.util.List;
import java.util.function.Predicate;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OkoSupport;
import org.opendaylight.oko.northbound.install.ProgramInstaller;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.yangtools.binding.Rpc;

/**
 * The oko module's RPCs, one class each. Bad input fails an RPC with error-tag invalid-value and a message naming
 * the field; a switch that refuses fails it with operation-failed and the switch's text; an unknown or disconnected
 * switch fails it with data-missing, a switch mastered by another member with resource-denied naming that member,
 * a switch without Oko with operation-not-supported.
 */
public final class OkoRpcs {
    private OkoRpcs() {
    }

    /**
     * Every RPC of the module on cluster member {@code member}, for RpcProviderService.registerRpcImplementations:
     * they act on the switches this member masters ({@code mastered}); for another switch they name its master.
     */
    public static List<Rpc<?, ?>> implementations(final DataBroker broker, final ProgramResolver resolver,
            final ProgramInstaller installer, final LoadedPrograms loaded, final SwitchClient client,
            final OkoSupport support, final Predicate<String> mastered, final String member,
            final long timeoutMillis) {
        final RpcTargets targets = new RpcTargets(broker, loaded, support, mastered, member, timeoutMillis);
        return List.of(new LoadProgramImpl(targets, resolver, installer), new UnloadProgramImpl(targets, installer),
            new UpdateMapEntriesImpl(targets, client), new DeleteMapEntriesImpl(targets, client),
            new DumpMapsImpl(targets, client), new ListLibraryImpl(resolver.catalog()));
    }
}
