/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.filters;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The filter library's catalog (filter-library/catalog.json, packaged beside the objects): per filter its version,
 * description, parameters and the layout of every map's keys and values, so that the controller can write
 * parameters into maps and decode map contents into named fields.
 */
public final class FilterCatalog {
    private static final String RESOURCE = "/org/opendaylight/oko/filters/catalog.json";

    /** One parameter: a field of a one-entry array map's value, set by the operator. */
    public record Parameter(String name, String map, String type, String defaultValue, String unit) {
    }

    /** One map of a filter with the layout of its keys and values. */
    public record MapLayout(int index, String name, String type, int keySize, int valueSize, long maxEntries,
            Layout key, Layout value) {
    }

    /** One filter of the library. */
    public record Filter(String name, String version, String description, List<Parameter> parameters,
            List<MapLayout> maps) {
        public Optional<MapLayout> map(final String mapName) {
            return maps.stream().filter(map -> map.name().equals(mapName)).findFirst();
        }

        public Optional<Parameter> parameter(final String parameterName) {
            return parameters.stream().filter(p -> p.name().equals(parameterName)).findFirst();
        }
    }

    private final List<Filter> filters;

    /** Reads the catalog packaged in this bundle. */
    public FilterCatalog() {
        try (InputStream in = FilterCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("filter catalog missing: the bundle was built without catalog.json");
            }
            filters = parse(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the filter catalog", e);
        }
    }

    /** Every filter, in catalog order. */
    public List<Filter> filters() {
        return filters;
    }

    public Optional<Filter> filter(final String name) {
        return filters.stream().filter(filter -> filter.name().equals(name)).findFirst();
    }

    private static List<Filter> parse(final InputStreamReader reader) {
        try {
            final JsonObject root = JsonParser.parseReader(reader).getAsJsonObject();
            final List<Filter> result = new ArrayList<>();
            for (JsonElement element : required(root, "filters").getAsJsonArray()) {
                result.add(readFilter(element.getAsJsonObject()));
            }
            return List.copyOf(result);
        } catch (JsonParseException | IllegalStateException e) {
            throw new IllegalStateException("filter catalog is malformed: " + e.getMessage(), e);
        }
    }

    private static Filter readFilter(final JsonObject json) {
        final List<Parameter> parameters = new ArrayList<>();
        for (JsonElement element : required(json, "parameters").getAsJsonArray()) {
            final JsonObject p = element.getAsJsonObject();
            parameters.add(new Parameter(required(p, "name").getAsString(), required(p, "map").getAsString(),
                required(p, "type").getAsString(), required(p, "default").getAsString(),
                p.has("unit") ? required(p, "unit").getAsString() : ""));
        }
        final List<MapLayout> maps = new ArrayList<>();
        for (JsonElement element : required(json, "maps").getAsJsonArray()) {
            final JsonObject m = element.getAsJsonObject();
            maps.add(new MapLayout(required(m, "index").getAsInt(), required(m, "name").getAsString(),
                required(m, "type").getAsString(), required(m, "key_size").getAsInt(),
                required(m, "value_size").getAsInt(), required(m, "max_entries").getAsLong(),
                readLayout(m.getAsJsonArray("key")), readLayout(m.getAsJsonArray("value"))));
        }
        return new Filter(required(json, "name").getAsString(), required(json, "version").getAsString(),
            required(json, "description").getAsString(), List.copyOf(parameters), List.copyOf(maps));
    }

    private static Layout readLayout(final JsonArray fields) {
        final List<Layout.Field> result = new ArrayList<>();
        if (fields != null) {
            for (JsonElement element : fields) {
                final JsonObject f = element.getAsJsonObject();
                result.add(new Layout.Field(required(f, "name").getAsString(), required(f, "type").getAsString()));
            }
        }
        return new Layout(result);
    }

    private static JsonElement required(final JsonObject object, final String member) {
        final JsonElement element = object.get(member);
        if (element == null || element.isJsonNull()) {
            throw new IllegalStateException("missing '" + member + "' in " + object);
        }
        return element;
    }
}
