/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.ListenableFuture;
import java.util.stream.Collectors;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.Layout;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibrary;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibraryInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibraryOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibraryOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.Filter;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.FilterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.filter.MapBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.filter.ParameterBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.RpcResult;
import org.opendaylight.yangtools.yang.common.RpcResultBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * list-library: the filter library's catalog, each filter with its version, description, parameters (map, type,
 * default, unit) and maps (type, sizes, layouts). Needs no switch.
 */
final class ListLibraryImpl implements ListLibrary {
    private final FilterCatalog catalog;

    ListLibraryImpl(final FilterCatalog catalog) {
        this.catalog = requireNonNull(catalog);
    }

    @Override
    public ListenableFuture<RpcResult<ListLibraryOutput>> invoke(final ListLibraryInput input) {
        return RpcResultBuilder.success(new ListLibraryOutputBuilder()
            .setFilter(BindingMap.ordered(catalog.filters().stream().map(ListLibraryImpl::filter).toList()))
            .build()).buildFuture();
    }

    private static Filter filter(final FilterCatalog.Filter filter) {
        return new FilterBuilder()
            .setName(new LibraryFilterName(filter.name()))
            .setVersion(filter.version())
            .setDescription(filter.description())
            .setParameter(BindingMap.ordered(filter.parameters().stream().map(p -> new ParameterBuilder()
                .setName(p.name()).setMap(new MapName(p.map())).setType(p.type()).setDefault(p.defaultValue())
                .setUnit(p.unit()).build()).toList()))
            .setMap(BindingMap.ordered(filter.maps().stream().map(m -> new MapBuilder()
                .setMapIndex(new MapIndex(Uint8.valueOf(m.index())))
                .setMapName(new MapName(m.name()))
                .setMapType(mapType(m.type()))
                .setKeySize(Uint16.valueOf(m.keySize()))
                .setValueSize(Uint16.valueOf(m.valueSize()))
                .setMaxEntries(Uint32.valueOf(m.maxEntries()))
                .setKeyLayout(layout(m.key()))
                .setValueLayout(layout(m.value()))
                .build()).toList()))
            .build();
    }

    private static MapType mapType(final String catalogType) {
        return MapType.forName(catalogType.replace('_', '-'));
    }

    private static String layout(final Layout layout) {
        return layout.fields().stream().map(f -> f.name() + ":" + f.type()).collect(Collectors.joining(" "));
    }
}
