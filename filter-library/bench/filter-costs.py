#!/usr/bin/env python3
"""Benchmark (not a test): what each library filter costs per packet, JIT and
interpreter, on a trace typical of its use.  Writes docs/filter-costs.md and
filter-library/bench/filter-costs.json.

  make bench WHAT=filters [ROUNDS=5] [AGAINST=dir] [AGAINST_TOOL=oko-filter]
                         [AGAINST_LABEL="what that build is"]
  (= make -C filter-library bench ...)

AGAINST: a directory of the filters' objects built from another commit
(the same file names); AGAINST_TOOL: an oko-filter built from another
commit of the runtime (datapath/runtime).  Either or both: each filter's
JIT time is also measured that way, alternating with this build's in every
round, and the table gains the ratio (this build over that one) - how a
change to the filters or to the runtime is shown not to cost more, in one
run on one machine.

Each filter runs its trace (held in memory, `oko-filter run --repeat`) in
ROUNDS rounds, the JIT and the interpreter alternating within a round; the
figures are medians.  The time includes the runtime's call into the program
(oko_filter_run) and the helpers' real clock, as in the switch."""
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.dirname(HERE)
REPO = os.path.dirname(LIB)
sys.path.insert(0, os.path.join(LIB, "tests", "packets"))
from conftest import FILTERS, TOOL, parameter_entry, with_ports, write_pcap  # noqa: E402
from scapy.layers.dns import DNS, DNSQR  # noqa: E402
from scapy.layers.inet import IP, TCP, UDP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "5"))
AGAINST = os.environ.get("AGAINST")
AGAINST_TOOL = os.environ.get("AGAINST_TOOL")
AGAINST_LABEL = os.environ.get("AGAINST_LABEL")
PACKETS_PER_ROUND = 200000
LINUX_OPTIONS = [("MSS", 1460), ("SAckOK", b""), ("Timestamp", (1, 0)), ("NOP", None), ("WScale", 10)]


def sources(n, template):
    out = []
    for i in range(n):
        data = bytearray(template)
        data[26:30] = bytes([10, 1, i // 256, i % 256])
        out.append(bytes(data))
    return out


def udp_mix():
    return sources(256, bytes(Ether() / IP(src="10.1.0.0", dst="10.2.0.1") / UDP(sport=1000, dport=2000)))


def tcp_conversations():
    """250 connections: handshake, 4 data segments each way, close."""
    packets = []
    for c in range(250):
        cli, srv = f"10.1.{c // 256}.{c % 256}", "10.2.0.1"
        sport = 10000 + c
        seq, ack = 1000, 5000
        packets += [Ether() / IP(src=cli, dst=srv) / TCP(sport=sport, dport=80, flags="S", seq=seq,
                                                          options=[("MSS", 1460), ("WScale", 7)]),
                    Ether() / IP(src=srv, dst=cli) / TCP(sport=80, dport=sport, flags="SA", seq=ack, ack=seq + 1),
                    Ether() / IP(src=cli, dst=srv) / TCP(sport=sport, dport=80, flags="A", seq=seq + 1, ack=ack + 1)]
        for k in range(4):
            packets += [Ether() / IP(src=cli, dst=srv) / TCP(sport=sport, dport=80, flags="PA", seq=seq + 1 + 100 * k,
                                                              ack=ack + 1) / (b"q" * 100),
                        Ether() / IP(src=srv, dst=cli) / TCP(sport=80, dport=sport, flags="PA", seq=ack + 1 + 500 * k,
                                                              ack=seq + 101 + 100 * k) / (b"r" * 500)]
        packets += [Ether() / IP(src=cli, dst=srv) / TCP(sport=sport, dport=80, flags="FA", seq=seq + 401, ack=ack + 2001),
                    Ether() / IP(src=srv, dst=cli) / TCP(sport=80, dport=sport, flags="FA", seq=ack + 2001, ack=seq + 402)]
    return [bytes(p) for p in packets]


def syn_flood():
    """The paper's realistic SYN flood: 3 flood SYNs (Linux fingerprint) per legitimate SYN."""
    flood = bytes(Ether() / IP(src="10.9.0.1", dst="10.2.0.1", flags="DF", id=7) /
                  TCP(sport=1, dport=80, flags="S", seq=1, window=29200, options=LINUX_OPTIONS))
    legit = bytes(Ether() / IP(src="10.8.0.1", dst="10.2.0.1", ttl=128, flags="DF", id=9) /
                  TCP(sport=1, dport=80, flags="S", seq=1, window=65535,
                      options=[("MSS", 1460), ("NOP", None), ("WScale", 8), ("NOP", None), ("NOP", None),
                               ("SAckOK", b"")]))
    out = []
    for i in range(250):
        out += [with_ports(flood, 1000 + 3 * i + k, 80) for k in range(3)] + [with_ports(legit, 2000 + i, 80)]
    return out


def dns_queries():
    return [bytes(Ether() / IP(src="10.1.0.1", dst="10.0.0.53") / UDP(sport=3000 + i, dport=53) /
                  DNS(qd=DNSQR(qname=f"host{i % 100}.example.com."))) for i in range(1000)]


def blocklist_entries():
    return [("10000000" + f"0a{i:02x}0000", "00" * 8) for i in range(100)]    # 100 /16s in 10.0.0.0/8


LINUX_SIGNATURE = {"version": 4, "ittl": 64, "olen": 0, "mss": 0, "wscale": 10, "window_kind": 2, "window": 20,
                   "options": "02040801030000000000000000000000", "n_options": 5, "quirks": 3}
CASES = {
    "baseline": ("UDP from 256 sources", udp_mix, {}, {}),
    "blocklist": ("UDP from 256 sources, 100 prefixes listed", udp_mix, {}, {"blocked": blocklist_entries()}),
    "conntrack-established": ("250 TCP connections (13 packets each)", tcp_conversations, {}, {}),
    "dapper": ("250 TCP connections (13 packets each)", tcp_conversations, {}, {}),
    "dns-rate-limit": ("DNS queries for 100 names", dns_queries, {}, {}),
    "heavy-hitter": ("UDP from 256 sources", udp_mix, {}, {}),
    "p0f-syn-flood": ("SYN flood 3:1 (Linux signature)", syn_flood, LINUX_SIGNATURE, {}),
    "p0f-linux-syn": ("SYN flood 3:1", syn_flood, {}, {}),
    "port-scan": ("UDP from 256 sources", udp_mix, {}, {}),
    "rate-limiter": ("UDP from 256 sources", udp_mix, {}, {}),
    "stateful-firewall": ("250 TCP connections (13 packets each)", tcp_conversations, {}, {}),
    "syn-sampler": ("SYN flood 3:1", syn_flood, {}, {}),
}


def measure(name, trace, params, entries, interpret, build=os.path.join(LIB, "build"), tool=TOOL):
    args = [tool, "run", os.path.join(build, name + ".o"), trace, "--quiet"]
    if FILTERS[name]["parameters"]:
        mapname, value = parameter_entry(name, params)
        args += ["--map", f"{mapname}:00000000={value.hex()}"]
    for mapname, rows in entries.items():
        for key, value in rows:
            args += ["--map", f"{mapname}:{key}={value}"]
    n = int(subprocess.run(args, capture_output=True, text=True, check=True).stdout.split()[0])
    args += ["--repeat", str(max(1, PACKETS_PER_ROUND // n))] + (["--interpret"] if interpret else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return float(re.search(r"([\d.]+) ns per packet", out)[1])


def main():
    if set(CASES) != set(FILTERS):
        sys.exit(f"bench cases {sorted(CASES)} != catalog {sorted(FILTERS)}")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (what, make, params, entries) in sorted(CASES.items()):
            trace = os.path.join(tmp, name + ".pcap")
            packets = make()
            write_pcap(trace, [(i * 1e-6, p) for i, p in enumerate(packets)])
            jit, interp, other = [], [], []
            against = (AGAINST_TOOL or AGAINST) and (not AGAINST or os.path.exists(os.path.join(AGAINST, name + ".o")))
            for _ in range(ROUNDS):
                jit.append(measure(name, trace, params, entries, False))
                interp.append(measure(name, trace, params, entries, True))
                if against:
                    other.append(measure(name, trace, params, entries, False, AGAINST or os.path.join(LIB, "build"),
                                         AGAINST_TOOL or TOOL))
            verify = subprocess.run([TOOL, "verify", os.path.join(LIB, "build", name + ".o")],
                                    capture_output=True, text=True, check=True).stdout
            results[name] = {"trace": what, "packets": len(packets),
                             "instructions": int(re.search(r"accepted: (\d+) instructions", verify)[1]),
                             "jit_ns": statistics.median(jit), "interpreter_ns": statistics.median(interp),
                             "jit_spread": [min(jit), max(jit)], "interpreter_spread": [min(interp), max(interp)]}
            if other:
                results[name]["against_jit_ns"] = statistics.median(other)
            print(f"{name}: {results[name]}", flush=True)
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}"
    with open(os.path.join(HERE, "filter-costs.json"), "w") as out:
        json.dump({"date": datetime.date.today().isoformat(), "rounds": ROUNDS, "machine": machine,
                   "results": results}, out, indent=2)
        out.write("\n")
    lines = ["# What each library filter costs per packet", "",
             "Generated by `make bench WHAT=filters` (`filter-library/bench/filter-costs.py`; raw figures in",
             "`filter-library/bench/filter-costs.json`): each filter runs a trace typical of its use, held in memory",
             f"(`oko-filter run --repeat`), {ROUNDS} rounds with the JIT and the interpreter alternating; medians, with the",
             "range over the rounds. The time includes the call into the program and the helpers (real clock), as in",
             "the switch, but not the switch around it: see [performance.md](performance.md) for the datapath.",
             "", f"Measured {datetime.date.today().isoformat()} on {machine}.", "",
             "| filter | instructions | trace | JIT ns/packet | interpreter ns/packet | interpreter / JIT |",
             "|---|---:|---|---:|---:|---:|"]
    for name, r in sorted(results.items()):
        lines.append(f"| {name} | {r['instructions']} | {r['trace']} | {r['jit_ns']:.1f} "
                     f"({r['jit_spread'][0]:.1f}-{r['jit_spread'][1]:.1f}) | {r['interpreter_ns']:.1f} "
                     f"({r['interpreter_spread'][0]:.1f}-{r['interpreter_spread'][1]:.1f}) | "
                     f"{r['interpreter_ns'] / r['jit_ns']:.1f} |")
    compared = {name: r for name, r in sorted(results.items()) if "against_jit_ns" in r}
    if compared:
        that = " and ".join(([f"the objects in `{AGAINST}`"] if AGAINST else [])
                            + ([f"the runtime of `{AGAINST_TOOL}`"] if AGAINST_TOOL else []))
        label = f": {AGAINST_LABEL}" if AGAINST_LABEL else ""
        lines += ["", f"Against {that}{label} (JIT, the same trace, alternating in every round; "
                  f"{ROUNDS} rounds):", "",
                  "| filter | this build ns/packet | that build ns/packet | this / that |", "|---|---:|---:|---:|"]
        lines += [f"| {name} | {r['jit_ns']:.1f} | {r['against_jit_ns']:.1f} | {r['jit_ns'] / r['against_jit_ns']:.3f} |"
                  for name, r in compared.items()]
    with open(os.path.join(REPO, "docs", "filter-costs.md"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
