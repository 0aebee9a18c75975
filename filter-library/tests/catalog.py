#!/usr/bin/env python3
"""Checks catalog.json against the filters and their compiled objects, and
docs/filters.md against the catalog.

  tests/catalog.py [--write-docs]     (from filter-library/; OUT=build dir)

- every filters/*.c has one catalog entry, and every entry a source;
- each entry's maps are exactly the object's (index, name, type, key, value,
  entries), as the runtime's loader reads them (oko-filter verify);
- each layout adds up to the map's key/value size on the wire
  (docs/protocol.md 5.1: sketches travel as u32 cell index -> cell);
- each parameter names a map and a field of its value layout;
- docs/filters.md is what the catalog generates (--write-docs rewrites it)."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.dirname(HERE)
REPO = os.path.dirname(LIB)
OUT = os.environ.get("OUT", os.path.join(LIB, "build"))
TOOL = os.path.join(REPO, "datapath", "runtime", "build", "oko-filter")
DOCS = os.path.join(REPO, "docs", "filters.md")
INSTRUCTIONS = {}                   # filter -> instruction count, from the verifier
FIXED = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "be16": 2, "be32": 4, "be64": 8, "ipv4": 4, "mac": 6}


def field_size(t):
    if t in FIXED:
        return FIXED[t]
    m = re.fullmatch(r"hex(\d+)", t)
    if not m:
        raise ValueError(f"unknown layout type {t!r}")
    return int(m.group(1))


def wire_sizes(m):
    if m["type"] == "bloom":
        return 4, 8
    if m["type"] == "count_min":
        return 4, 4
    return m["key_size"], m["value_size"]


def object_maps(name):
    out = subprocess.run([TOOL, "verify", os.path.join(OUT, name + ".o")],
                         capture_output=True, text=True)
    if out.returncode:
        raise AssertionError(f"{name}: {out.stdout.strip()} {out.stderr.strip()}")
    INSTRUCTIONS[name] = int(re.search(r"accepted: (\d+) instructions", out.stdout)[1])
    maps = []
    for line in out.stdout.splitlines()[1:]:
        m = re.match(r"  map (\d+) '(\w+)': (\w+), key (\d+) bytes, value (\d+) bytes, (\d+) entries", line)
        if m:
            maps.append({"index": int(m[1]), "name": m[2], "type": m[3], "key_size": int(m[4]),
                         "value_size": int(m[5]), "max_entries": int(m[6])})
    return maps


def generate_docs(catalog):
    lines = ["# Filter library",
             "",
             "Generated from `filter-library/catalog.json` by `filter-library/tests/catalog.py --write-docs`;",
             "`make test` fails when this page and the catalog disagree. Sources: `filter-library/filters/`.",
             "What each filter costs per packet (JIT and interpreter): [filter-costs.md](filter-costs.md).",
             "Writing one: [writing-filters.md](writing-filters.md).",
             "Layout types: " + catalog["layout_types"] + ".",
             ""]
    for f in catalog["filters"]:
        lines += [f"## {f['name']} ({f['version']})", "", f["description"], ""]
        if f["name"] in INSTRUCTIONS:
            lines += [f"{INSTRUCTIONS[f['name']]} BPF instructions (`oko-filter verify`).", ""]
        if f["parameters"]:
            lines += ["| parameter | map | type | default | unit |", "|---|---|---|---|---|"]
            for p in f["parameters"]:
                lines.append(f"| {p['name']} | {p['map']} | {p['type']} | {p['default']} | {p.get('unit', '')} |")
            lines.append("")
        if f["maps"]:
            lines += ["| map | index | type | key | value | entries |", "|---|---:|---|---|---|---:|"]
            for m in f["maps"]:
                key = ", ".join(f"{x['name']}:{x['type']}" for x in m["key"])
                value = ", ".join(f"{x['name']}:{x['type']}" for x in m["value"])
                lines.append(f"| {m['name']} | {m['index']} | {m['type']} | {key} | {value} | {m['max_entries']} |")
            lines.append("")
    return "\n".join(lines)


def main():
    catalog = json.load(open(os.path.join(LIB, "catalog.json")))
    errors = []
    sources = sorted(f[:-2] for f in os.listdir(os.path.join(LIB, "filters")) if f.endswith(".c"))
    names = [f["name"] for f in catalog["filters"]]
    if sorted(names) != sources:
        errors.append(f"catalog names {sorted(names)} != sources {sources}")
    if not os.access(TOOL, os.X_OK):
        errors.append(f"{TOOL} is missing: build the runtime first (make -C datapath/runtime)")
    for f in catalog["filters"]:
        name = f["name"]
        try:
            have = object_maps(name) if not errors else []
        except AssertionError as e:
            errors.append(str(e))
            continue
        want = [{k: m[k] for k in ("index", "name", "type", "key_size", "value_size", "max_entries")}
                for m in f["maps"]]
        if have != want and not errors:
            errors.append(f"{name}: object maps {have} != catalog {want}")
        for m in f["maps"]:
            key_size, value_size = wire_sizes(m)
            for part, size in (("key", key_size), ("value", value_size)):
                total = sum(field_size(x["type"]) for x in m[part])
                if total != size:
                    errors.append(f"{name}: map {m['name']} {part} layout is {total} bytes, the map's is {size}")
        for p in f["parameters"]:
            maps = {m["name"]: m for m in f["maps"]}
            if p["map"] not in maps or p["name"] not in [x["name"] for x in maps[p["map"]]["value"]]:
                errors.append(f"{name}: parameter {p['name']} is not a field of map {p['map']}")
    docs = generate_docs(catalog) + "\n"
    if "--write-docs" in sys.argv:
        open(DOCS, "w").write(docs)
    elif not os.path.exists(DOCS) or open(DOCS).read() != docs:
        errors.append("docs/filters.md differs from the catalog: run filter-library/tests/catalog.py --write-docs")
    for e in errors:
        print("FAIL", e)
    print(f"catalog: {len(names)} filters, {sum(len(f['maps']) for f in catalog['filters'])} maps, "
          f"{len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
