/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.Layout;
import org.opendaylight.oko.northbound.DatastoreReads;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OkoSupport;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.install.Outcome;
import org.opendaylight.oko.northbound.install.ProgramInstaller;
import org.opendaylight.oko.northbound.maps.MapContentsMapper;
import org.opendaylight.oko.northbound.program.InvalidProgramException;
import org.opendaylight.oko.northbound.program.ProgramImage;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.program.ResolvedProgram;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntries;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntriesInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntriesOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntriesOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMaps;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibrary;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibraryInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibraryOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibraryOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgram;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgram;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgramInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgramOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgramOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntries;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntriesInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntriesOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntriesOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.dump.maps.output.MapBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.FilterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.filter.ParameterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.Configured;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.Inline;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.Rpc;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.ErrorTag;
import org.opendaylight.yangtools.yang.common.ErrorType;
import org.opendaylight.yangtools.yang.common.RpcResult;
import org.opendaylight.yangtools.yang.common.RpcResultBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * The oko module's RPCs. Bad input fails the RPC with error-tag invalid-value and a message naming the field; a
 * switch that refuses fails it with operation-failed and the switch's text; an unknown or disconnected switch fails
 * it with data-missing.
 */
public final class OkoRpcs {
    private final DataBroker broker;
    private final ProgramResolver resolver;
    private final ProgramInstaller installer;
    private final LoadedPrograms loaded;
    private final SwitchClient client;
    private final OkoSupport support;
    private final Predicate<String> mastered;
    private final String member;
    private final long timeoutMillis;

    /**
     * RPCs on this controller, cluster member {@code member}: they act on switches it masters ({@code mastered});
     * for another switch they name the member that masters it.
     */
    public OkoRpcs(final DataBroker broker, final ProgramResolver resolver, final ProgramInstaller installer,
            final LoadedPrograms loaded, final SwitchClient client, final OkoSupport support,
            final Predicate<String> mastered, final String member, final long timeoutMillis) {
        this.broker = requireNonNull(broker);
        this.mastered = requireNonNull(mastered);
        this.member = requireNonNull(member);
        this.support = requireNonNull(support);
        this.resolver = requireNonNull(resolver);
        this.installer = requireNonNull(installer);
        this.loaded = requireNonNull(loaded);
        this.client = requireNonNull(client);
        this.timeoutMillis = timeoutMillis;
    }

    /** Every RPC of the module, for RpcProviderService.registerRpcImplementations. */
    public List<Rpc<?, ?>> implementations() {
        return List.of((LoadProgram) this::loadProgram, (UnloadProgram) this::unloadProgram,
            (UpdateMapEntries) this::updateMapEntries, (DeleteMapEntries) this::deleteMapEntries,
            (DumpMaps) this::dumpMaps, (ListLibrary) this::listLibrary);
    }

    /** An RPC's refusal: error tag and message. */
    private static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;

        private final ErrorTag tag;

        Refusal(final ErrorTag tag, final String message) {
            super(message);
            this.tag = tag;
        }

        Refusal(final ErrorTag tag, final String message, final Throwable cause) {
            super(message, cause);
            this.tag = tag;
        }
    }

    ListenableFuture<RpcResult<LoadProgramOutput>> loadProgram(final LoadProgramInput input) {
        final String node;
        final long progId;
        final ResolvedProgram program;
        try {
            node = connectedNode(input.getNode());
            progId = requireProgId(input.getProgramId());
            program = resolve(input);
        } catch (Refusal e) {
            return failed(e);
        }
        return Futures.transform(installer.install(node, progId, program, LoadedPrograms.Origin.RPC,
                Boolean.TRUE.equals(input.getReplace()), Boolean.TRUE.equals(input.getKeepMaps())),
            outcome -> outcome.isInstalled()
                ? RpcResultBuilder.success(new LoadProgramOutputBuilder()
                    .setStatus(outcome.status())
                    .setMessage("")
                    .setInstructions(Uint32.valueOf(program.image().instructions()))
                    .build()).build()
                : RpcResultBuilder.<LoadProgramOutput>failed().withError(ErrorType.APPLICATION,
                    ErrorTag.OPERATION_FAILED, describe(node, progId, outcome)).build(),
            MoreExecutors.directExecutor());
    }

    private static String describe(final String node, final long progId, final Outcome outcome) {
        return switch (outcome.status()) {
            case Rejected -> node + " rejected program " + progId + ": " + outcome.message();
            default -> "program " + progId + " on " + node + ": " + outcome.message();
        };
    }

    private ResolvedProgram resolve(final LoadProgramInput input) throws Refusal {
        try {
            if (input.getWhat() instanceof Configured configured && configured.getProgram() != null) {
                final String name = configured.getProgram().getValue();
                final Program program = read(LogicalDatastoreType.CONFIGURATION, DataObjectIdentifier
                    .builder(Programs.class).child(Program.class, new ProgramKey(new ProgramName(name))).build())
                    .orElseThrow(() -> new Refusal(ErrorTag.INVALID_VALUE, "program: '" + name
                        + "' is not configured under /programs"));
                return resolver.resolve(name, program.getSource(), program);
            }
            if (input.getWhat() instanceof Inline inline && inline.getSource() != null) {
                return resolver.resolve("inline", inline.getSource(), null);
            }
        } catch (InvalidProgramException e) {
            throw new Refusal(ErrorTag.INVALID_VALUE, e.getMessage(), e);
        }
        throw new Refusal(ErrorTag.INVALID_VALUE, "one of program, elf or library-filter is required");
    }

    ListenableFuture<RpcResult<UnloadProgramOutput>> unloadProgram(final UnloadProgramInput input) {
        try {
            final String node = connectedNode(input.getNode());
            final long progId = requireProgId(input.getProgramId());
            return switchCall(installer.uninstall(node, progId, Boolean.TRUE.equals(input.getForce())),
                ignored -> new UnloadProgramOutputBuilder().build(), node);
        } catch (Refusal e) {
            return failed(e);
        }
    }

    ListenableFuture<RpcResult<UpdateMapEntriesOutput>> updateMapEntries(final UpdateMapEntriesInput input) {
        try {
            final String node = connectedNode(input.getNode());
            final long progId = requireProgId(input.getProgramId());
            final ProgramImage.MapDeclaration map = map(node, progId, input.getMap());
            final int keySize = (int) map.keySize();
            final int valueSize = ProgramResolver.updateValueSize(map);
            final List<SwitchClient.Entry> entries = new ArrayList<>();
            for (var entry : input.nonnullEntry().values()) {
                final byte[] value = entry.getValue() == null ? new byte[0] : entry.getValue();
                if (entry.getKey().length != keySize || value.length != valueSize) {
                    throw new Refusal(ErrorTag.INVALID_VALUE, "entry " + HexFormat.of().formatHex(entry.getKey())
                        + ": key " + entry.getKey().length + " and value " + value.length + " bytes, map '"
                        + map.name() + "' takes key " + keySize + " and value " + valueSize);
                }
                entries.add(new SwitchClient.Entry(entry.getKey(), value));
            }
            if (entries.isEmpty()) {
                throw new Refusal(ErrorTag.INVALID_VALUE, "entry: at least one entry is needed");
            }
            return switchCall(client.updateMap(node, progId, map.index(), keySize, valueSize, entries),
                ignored -> new UpdateMapEntriesOutputBuilder().build(), node);
        } catch (Refusal e) {
            return failed(e);
        }
    }

    ListenableFuture<RpcResult<DeleteMapEntriesOutput>> deleteMapEntries(final DeleteMapEntriesInput input) {
        try {
            final String node = connectedNode(input.getNode());
            final long progId = requireProgId(input.getProgramId());
            final ProgramImage.MapDeclaration map = map(node, progId, input.getMap());
            final boolean all = Boolean.TRUE.equals(input.getAll());
            final Collection<byte[]> keys = input.getKey() == null ? List.of() : input.getKey();
            for (byte[] key : keys) {
                if (key.length != map.keySize()) {
                    throw new Refusal(ErrorTag.INVALID_VALUE, "key " + HexFormat.of().formatHex(key) + ": "
                        + key.length + " bytes, map '" + map.name() + "' takes " + map.keySize());
                }
            }
            if (!all && keys.isEmpty()) {
                throw new Refusal(ErrorTag.INVALID_VALUE, "key: give the keys to delete, or all = true");
            }
            return switchCall(client.deleteMapEntries(node, progId, map.index(), (int) map.keySize(), all,
                List.copyOf(keys)), ignored -> new DeleteMapEntriesOutputBuilder().build(), node);
        } catch (Refusal e) {
            return failed(e);
        }
    }

    ListenableFuture<RpcResult<DumpMapsOutput>> dumpMaps(final DumpMapsInput input) {
        try {
            final String node = connectedNode(input.getNode());
            final long progId = requireProgId(input.getProgramId());
            final Optional<LoadedPrograms.Loaded> program = loaded.get(node, progId);
            long mask = 0;
            if (input.getMap() != null) {
                for (MapName name : input.getMap()) {
                    mask |= 1L << map(node, progId, name).index();
                }
            }
            return switchCall(client.dumpMaps(node, progId, mask), sections -> new DumpMapsOutputBuilder()
                .setMap(BindingMap.ordered(MapContentsMapper.join(sections).stream()
                    .map(joined -> new MapBuilder(MapContentsMapper.contents(joined, program)).build())
                    .toList()))
                .build(), node);
        } catch (Refusal e) {
            return failed(e);
        }
    }

    ListenableFuture<RpcResult<ListLibraryOutput>> listLibrary(final ListLibraryInput input) {
        final List<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.Filter> filters =
            new ArrayList<>();
        for (FilterCatalog.Filter filter : resolver.catalog().filters()) {
            filters.add(new FilterBuilder()
                .setName(new LibraryFilterName(filter.name()))
                .setVersion(filter.version())
                .setDescription(filter.description())
                .setParameter(BindingMap.ordered(filter.parameters().stream().map(p -> new ParameterBuilder()
                    .setName(p.name()).setMap(new MapName(p.map())).setType(p.type()).setDefault(p.defaultValue())
                    .setUnit(p.unit()).build()).toList()))
                .setMap(BindingMap.ordered(filter.maps().stream().map(m ->
                    new org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.filter
                        .MapBuilder()
                        .setMapIndex(new MapIndex(Uint8.valueOf(m.index())))
                        .setMapName(new MapName(m.name()))
                        .setMapType(mapType(m.type()))
                        .setKeySize(Uint16.valueOf(m.keySize()))
                        .setValueSize(Uint16.valueOf(m.valueSize()))
                        .setMaxEntries(Uint32.valueOf(m.maxEntries()))
                        .setKeyLayout(layout(m.key()))
                        .setValueLayout(layout(m.value()))
                        .build()).toList()))
                .build());
        }
        return RpcResultBuilder.success(new ListLibraryOutputBuilder().setFilter(BindingMap.ordered(filters)).build())
            .buildFuture();
    }

    private static MapType mapType(final String catalogType) {
        return MapType.forName(catalogType.replace('_', '-'));
    }

    private static String layout(final Layout layout) {
        return layout.fields().stream().map(f -> f.name() + ":" + f.type()).collect(Collectors.joining(" "));
    }

    /** The map a name refers to in the program this controller loaded under the id. */
    private ProgramImage.MapDeclaration map(final String node, final long progId, final MapName name)
            throws Refusal {
        if (name == null) {
            throw new Refusal(ErrorTag.INVALID_VALUE, "map: the map's name is required");
        }
        final LoadedPrograms.Loaded program = loaded.get(node, progId).orElseThrow(() -> new Refusal(
            ErrorTag.DATA_MISSING, "program " + progId + " on " + node + " was not loaded by this controller, so"
                + " its map names are unknown (load it with load-program or /switches)"));
        final ProgramImage image = program.program().image();
        return image.map(name.getValue()).orElseThrow(() -> new Refusal(ErrorTag.INVALID_VALUE, "map: '"
            + name.getValue() + "' is not a map of program " + progId + " (it has " + image.maps().stream()
                .map(ProgramImage.MapDeclaration::name).collect(Collectors.joining(", ")) + ")"));
    }

    private static long requireProgId(final org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types
            .rev261122.ProgramId id) throws Refusal {
        if (id == null) {
            throw new Refusal(ErrorTag.INVALID_VALUE, "program-id is required");
        }
        return id.getValue().toJava();
    }

    /** The switch's id, if it is connected (present in the operational inventory). */
    private String connectedNode(final NodeId nodeId) throws Refusal {
        if (nodeId == null) {
            throw new Refusal(ErrorTag.INVALID_VALUE, "node is required");
        }
        final String node = nodeId.getValue();
        final Optional<Node> inventory = read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier
            .builder(Nodes.class).child(Node.class, new NodeKey(nodeId)).build());
        if (inventory.isEmpty()) {
            throw new Refusal(ErrorTag.DATA_MISSING, "switch " + node + " is unknown or not connected");
        }
        if (!mastered.test(node)) {
            // In a cluster, only the switch's master talks Oko to it (and knows what it loaded there).
            final String master = read(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node))
                .map(Switch::getMaster).orElse(null);
            throw new Refusal(ErrorTag.RESOURCE_DENIED, node + " is mastered by "
                + (master != null ? master : "another cluster member") + ", not by this one (" + member
                + "): call the RPC on " + (master != null ? master : "the master") + "'s RESTCONF");
        }
        if (support.unsupported(node)) {
            // Nothing Oko is sent to a switch without Oko.
            throw new Refusal(ErrorTag.OPERATION_NOT_SUPPORTED, support.unsupportedMessage(node));
        }
        return node;
    }

    private <T extends org.opendaylight.yangtools.binding.DataObject> Optional<T> read(
            final LogicalDatastoreType store, final DataObjectIdentifier<T> path) throws Refusal {
        try (var tx = broker.newReadOnlyTransaction()) {
            return DatastoreReads.await(tx.read(store, path), timeoutMillis, "the datastore");
        } catch (IllegalStateException e) {
            throw new Refusal(ErrorTag.OPERATION_FAILED, e.getMessage(), e);
        }
    }

    private static <T, O> ListenableFuture<RpcResult<O>> switchCall(final ListenableFuture<T> call,
            final java.util.function.Function<T, O> output, final String node) {
        return FluentFuture.from(call)
            .transform(result -> RpcResultBuilder.success(output.apply(result)).build(),
                MoreExecutors.directExecutor())
            .catching(Exception.class, failure -> {
                final Throwable cause = failure instanceof ExecutionException ? failure.getCause() : failure;
                final String message = cause instanceof SwitchException ? cause.getMessage()
                    : node + ": " + cause;
                return RpcResultBuilder.<O>failed().withError(ErrorType.APPLICATION, ErrorTag.OPERATION_FAILED,
                    message).build();
            }, MoreExecutors.directExecutor());
    }

    private static <O> ListenableFuture<RpcResult<O>> failed(final Refusal refusal) {
        return RpcResultBuilder.<O>failed().withError(ErrorType.PROTOCOL, refusal.tag, refusal.getMessage())
            .buildFuture();
    }
}
