"""Runs library filters on crafted packets through the runtime's pcap runner
(datapath/runtime/build/oko-filter run), in the interpreter and the JIT, and
decodes the final maps with the catalog's layouts.

    result = run_filter("rate-limiter", [(t_seconds, packet), ...],
                        params={"rate": 2}, entries={"map": [(key_hex, value_hex)]})
    result.verdicts -> ["match", "no match", ...]
    result.maps["buckets"] -> [{"source": "10.0.0.1", ...}, ...]

Packets are scapy packets or bytes; times drive oko_time_ns() (--clock pcap).
Both engines must agree on every verdict and every map byte."""
import ipaddress
import json
import os
import struct
import subprocess
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.dirname(os.path.dirname(HERE))
REPO = os.path.dirname(LIB)
TOOL = os.path.join(REPO, "datapath", "runtime", "build", "oko-filter")
OBJECTS = os.environ.get("OUT", os.path.join(LIB, "build"))
if not os.path.isabs(OBJECTS):
    OBJECTS = os.path.join(LIB, OBJECTS)
CATALOG = json.load(open(os.path.join(LIB, "catalog.json")))
FILTERS = {f["name"]: f for f in CATALOG["filters"]}
FIXED = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "be16": 2, "be32": 4, "be64": 8, "ipv4": 4, "mac": 6}


def size_of(t):
    return FIXED[t] if t in FIXED else int(t[3:])


def decode(fields, data):
    out, off = {}, 0
    for f in fields:
        n = size_of(f["type"])
        raw = data[off:off + n]
        t = f["type"]
        if t == "ipv4":
            out[f["name"]] = str(ipaddress.IPv4Address(raw))
        elif t.startswith("be"):
            out[f["name"]] = int.from_bytes(raw, "big")
        elif t.startswith("u"):
            out[f["name"]] = int.from_bytes(raw, "little")
        else:
            out[f["name"]] = raw.hex()
        off += n
    return out


def encode(fields, values):
    """Bytes of a layout from {field: value}; missing fields are zero."""
    out = b""
    for f in fields:
        t, n, v = f["type"], size_of(f["type"]), values.get(f["name"], 0)
        if t == "ipv4":
            out += ipaddress.IPv4Address(v or "0.0.0.0").packed
        elif t.startswith("be"):
            out += int(v).to_bytes(n, "big")
        elif t.startswith("u"):
            out += int(v).to_bytes(n, "little")
        else:
            out += bytes.fromhex(v) if v else bytes(n)
        assert len(out) % 1 == 0
    return out


def parameter_entry(name, params):
    """The parameter map's entry as the controller writes it: catalog defaults
    ("burst defaults to rate" included) overridden by 'params'."""
    f = FILTERS[name]
    values = {}
    for p in f["parameters"]:
        v = params.get(p["name"], p["default"])
        if isinstance(v, str) and v in params:
            v = params[v]
        elif isinstance(v, str) and any(q["name"] == v for q in f["parameters"]):
            v = next(q["default"] for q in f["parameters"] if q["name"] == v)
        values[p["name"]] = v
    unknown = set(params) - {p["name"] for p in f["parameters"]}
    assert not unknown, f"{name} has no parameters {unknown}"
    maps = {p["map"] for p in f["parameters"]}
    assert len(maps) == 1
    layout = next(m for m in f["maps"] if m["name"] in maps)
    return layout["name"], encode(layout["value"], values)


def write_pcap(path, packets):
    with open(path, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, 65535, 1))  # nanosecond pcap
        for t, p in packets:
            data = bytes(p)
            ns = int(round(t * 1e9))
            out.write(struct.pack("<IIII", ns // 10**9, ns % 10**9, len(data), len(data)))
            out.write(data)


def with_ports(frame, sport, dport):
    """A copy of an Ethernet/IPv4 (no options)/TCP or UDP frame with other
    ports: scapy is too slow to build the 65,536 packets of a full table."""
    data = bytearray(frame)
    data[34:38] = sport.to_bytes(2, "big") + dport.to_bytes(2, "big")
    return bytes(data)


class Result:
    def __init__(self, name, raw):
        self.raw = raw
        self.verdicts = raw["verdicts"]
        self.instructions = raw["instructions"]
        self.ns_per_packet = raw["ns_per_packet"]
        layouts = {m["name"]: m for m in FILTERS[name]["maps"]}
        self.counts = {m["name"]: m["count"] for m in raw["maps"]}
        self.maps = {}
        for m in raw["maps"]:
            layout = layouts[m["name"]]
            key_size = sum(size_of(f["type"]) for f in layout["key"])
            if any(len(key) != 2 * key_size for key, _ in m["entries"]):
                # A variant's map of another shape (filter-library/build/variants): raw.
                self.maps[m["name"]] = [{"key": k, "value": v} for k, v in m["entries"]]
                continue
            rows = []
            for key, value in m["entries"]:
                row = decode(layout["key"], bytes.fromhex(key))
                if layout["type"] not in ("bloom", "count_min"):
                    row.update(decode(layout["value"], bytes.fromhex(value)))
                else:
                    row["count"] = int.from_bytes(bytes.fromhex(value), "little")
                rows.append(row)
            self.maps[m["name"]] = rows


def run_filter(name, packets, params=None, entries=None, engines=("jit", "interpreter"), variant=None):
    """Runs 'name' on 'packets' ([(seconds, packet)] or [packet]) in each
    engine; asserts they agree and returns the Result.  'variant': run that
    build of the filter instead (build/variants/VARIANT.o, make variants)."""
    packets = [p if isinstance(p, tuple) else (i * 0.001, p) for i, p in enumerate(packets)]
    args = []
    if params is not None or FILTERS[name]["parameters"]:
        mapname, value = parameter_entry(name, params or {})
        args += ["--map", f"{mapname}:00000000={value.hex()}"]
    for mapname, rows in (entries or {}).items():
        for key, value in rows:
            args += ["--map", f"{mapname}:{key}={value}"]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace.pcap")
        write_pcap(trace, packets)
        for engine in engines:
            obj = os.path.join(OBJECTS, "variants", variant + ".o") if variant else os.path.join(OBJECTS, name + ".o")
            cmd = [TOOL, "run", obj, trace, "--json", "--clock", "pcap"] + args
            if engine == "interpreter":
                cmd.append("--interpret")
            out = subprocess.run(cmd, capture_output=True, text=True)
            assert out.returncode == 0, f"{' '.join(cmd)}: {out.stdout} {out.stderr}"
            raw = json.loads(out.stdout)
            assert raw["engine"] == engine
            results.append(raw)
    first = results[0]
    for other in results[1:]:
        assert other["verdicts"] == first["verdicts"], "engines disagree on verdicts"
        for a, b in zip(other["maps"], first["maps"]):
            # Each map hashes with a seed of its own: compare entries as sets,
            # and sketches (whose cells the seed places) by their totals.
            if a["type"] in ("bloom", "count_min"):
                total = lambda m: sum(int.from_bytes(bytes.fromhex(v), "little") for _, v in m["entries"])
                same = a["type"] == "bloom" or total(a) == total(b)
            else:
                same = a["count"] == b["count"] and sorted(a["entries"]) == sorted(b["entries"])
            assert same, f"engines disagree on map {a['name']}"
    assert "error" not in first["verdicts"], f"a program returned neither 0 nor 1: {first['verdicts']}"
    return Result(name, first)


@pytest.fixture(scope="session", autouse=True)
def built():
    if not os.access(TOOL, os.X_OK):
        pytest.fail(f"{TOOL} is missing: make -C datapath/runtime")
    missing = [n for n in FILTERS if not os.path.exists(os.path.join(OBJECTS, n + ".o"))]
    if missing:
        pytest.fail(f"filter objects missing in {OBJECTS}: {missing} (make -C filter-library)")
