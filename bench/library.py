#!/usr/bin/env python3
"""Experiment 5 of bench/evaluate: library filters in the realistic
pipeline, each against a reference in the same run, alternating.

  bench/library.py [--rounds N] [--seconds S] [--json OUT]

  p0f-syn-flood vs baseline: the realistic trace with a 3:1 SYN flood
      (datapath/bench/traces.py synflood); the program sits on the 500 ACL
      rules, with slot 0 set to the flood tool's signature, so it drops the
      flood; the reference runs filter-library's baseline in its place.
  stateful-firewall vs OVS conntrack: TCP conversations with handshakes,
      both directions on one port (traces.py handshakes).  Reference:
      vanilla OVS with the same policy in conntrack (ct() actions: inside
      10.0.0.0/8 may open connections, established ones pass, the rest is
      refused).  Measured: the patched switch with the stateful-firewall
      filter (inside = 10.0.0.0/8) on one rule.  Both drop what they pass
      after classification, as the other experiments do.
  dapper, array vs hash table: the same TCP conversations through one rule
      running dapper; reference: dapper as in the library (its connection
      table a hash map), measured: its array variant (filter-library
      make variants: the table an array indexed by a hash of the
      connection).

Parameters are encoded from filter-library/catalog.json as the controller
encodes them (the packet tests' conftest)."""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import REPO, throughput  # noqa: E402

BENCH = os.path.join(REPO, "datapath", "bench")
FILTERS = os.path.join(REPO, "filter-library", "build")
WORK = os.path.join(REPO, "datapath", "build", "bench")
sys.path.insert(0, os.path.join(REPO, "filter-library", "tests", "packets"))
sys.path.insert(0, BENCH)
from conftest import FILTERS as CATALOG, parameter_entry  # noqa: E402
from traces import FLOOD_SIGNATURE  # noqa: E402

FIREWALL_TARGET = 1.2
CONNTRACK_RULES = """\
table=0,priority=10,tcp,ct_state=-trk,actions=ct(table=1,zone=1)
table=0,priority=0,actions=drop
table=1,priority=20,tcp,ct_state=+trk+new,nw_src=10.0.0.0/8,actions=ct(commit,zone=1)
table=1,priority=20,tcp,ct_state=+trk+est,actions=drop
table=1,priority=0,actions=drop
"""
ONE_RULE = """\
table=0,priority=10,tcp,filter_prog=1,actions=drop
table=0,priority=0,actions=drop
"""


def map_entry(filter_name, params):
    """--prog-map's IDX:KEY=VALUE for the filter's parameter map (key 0)."""
    name, value = parameter_entry(filter_name, params)
    index = next(m["index"] for m in CATALOG[filter_name]["maps"] if m["name"] == name)
    return f"{index}:00000000={value.hex()}"


def trace(kind):
    path = os.path.join(WORK, f"{kind}.pcap")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(BENCH, "traces.py"), kind, path], check=True)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    os.makedirs(WORK, exist_ok=True)
    runs = []

    signature = json.loads(subprocess.check_output(
        [os.path.join(REPO, "filter-library", "tools", "p0f-signature"), FLOOD_SIGNATURE]))
    result = throughput(["--trace", "realistic", "--pcap", trace("synflood"),
                         "--prog", os.path.join(FILTERS, "p0f-syn-flood.o"),
                         "--prog-map", map_entry("p0f-syn-flood", signature),
                         "--against", "program:" + os.path.join(FILTERS, "baseline.o")], args.rounds, args.seconds)
    result.update(label="p0f-syn-flood vs baseline", traffic="realistic + 3:1 SYN flood",
                  reference_name="baseline program", patched_name="p0f-syn-flood", target=None)
    runs.append(result)

    rules = os.path.join(WORK, "one-rule.flows")
    reference_rules = os.path.join(WORK, "conntrack.flows")
    open(rules, "w").write(ONE_RULE)
    open(reference_rules, "w").write(CONNTRACK_RULES)
    result = throughput(["--pcap", trace("handshakes"), "--prog", os.path.join(FILTERS, "stateful-firewall.o"),
                         "--prog-map", map_entry("stateful-firewall", {"inside": "10.0.0.0", "inside_prefix_len": 8}),
                         "--rules", rules, "--reference-rules", reference_rules], args.rounds, args.seconds)
    result.update(label="stateful-firewall vs OVS conntrack", traffic="TCP conversations with handshakes",
                  reference_name="vanilla, ct() rules", patched_name="stateful-firewall", target=FIREWALL_TARGET)
    runs.append(result)

    subprocess.run(["make", "-C", os.path.join(REPO, "filter-library"), "--no-print-directory", "variants"],
                   check=True)
    result = throughput(["--pcap", trace("handshakes"), "--prog", os.path.join(FILTERS, "variants", "dapper-array.o"),
                         "--against", "program:" + os.path.join(FILTERS, "dapper.o"), "--rules", rules],
                        args.rounds, args.seconds)
    result.update(label="dapper: array vs hash table", traffic="TCP conversations with handshakes",
                  reference_name="dapper (hash map)", patched_name="dapper-array", target=None)
    runs.append(result)

    if args.json:
        with open(args.json, "w") as f:
            json.dump(runs, f, indent=1)


if __name__ == "__main__":
    main()
