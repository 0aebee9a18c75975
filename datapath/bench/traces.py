#!/usr/bin/env python3
"""Traces and rules of the paper's evaluation (Oko, SOSR'18, section 4), made
here instead of downloaded.  No dependencies beyond Python.

  traces.py synthetic OUT.pcap                 one 64-byte UDP flow
  traces.py realistic OUT.pcap [--conversations N] [--seed S]
  traces.py synflood OUT.pcap [--conversations N] [--seed S]      (N default 5,000)
  traces.py handshakes OUT.pcap [--conversations N] [--seed S]    (N default 14,000)
  traces.py pipeline OUT.flows                 the realistic pipeline's rules

realistic: a CAIDA-like trace: N (default 20,000) short L4 conversations,
interleaved in time; conversation sizes are log-normal with median 4
packets (mu = ln 4, sigma = 1.3, cut at 2,000): most are tiny, a few long
ones carry much of the traffic (heavy tail); 80 % TCP, 20 % UDP; addresses
inside the pipeline's prefixes; destination ports Zipf-distributed (s = 1.1)
over 1,000 ports, of which the ACL lists 500.  All frames are 64 bytes
(60 + the FCS the NIC adds).  Same seed, same trace.

synflood: the realistic trace with a SYN flood mixed in, 3 flood SYNs per
packet of it, at FLOOD_VICTIMS servers (addresses inside the pipeline's
prefixes, each on a port the ACL lists) from random spoofed sources, with
one tool's TCP fingerprint (FLOOD_SIGNATURE, in p0f's notation: TTL 64, no
options, window 512, DF set, IP id 0), which the realistic trace's own SYNs
(window 65535) do not have.  (A flood at random destinations and ports is a
scan, and a different benchmark: its SYNs fall into some 85,000 (prefix,
port) megaflows, more than the datapath's 64,000-flow limit, so both
switches spend their time evicting and re-adding flows.)

handshakes: TCP conversations as a stateful firewall or conntrack sees
them on one port, both directions: clients inside 10.0.0.0/8 open
connections to servers outside (SYN, SYN-ACK, ACK, log-normal number of
data segments of 6 bytes (median 4), alternating directions, then FIN,
FIN, ACK), with coherent sequence and acknowledgement numbers; one in ten
conversations is an unsolicited SYN from outside, which both refuse.

A trace has at most MAX_REPLAY packets: DPDK's net_pcap keeps a trace it
replays forever in the port's mbufs, and OVS's pool holds 262,144.

pipeline: table 0 is an L3 table of 170 prefixes on the destination
(101 /8 and 69 /16, longest first), each going to table 1; table 1 is an
ACL of 500 rules on the transport destination port (TCP, and UDP for every
fifth); what they match is dropped after classification, as the rest."""
import argparse
import heapq
import math
import random
import struct

FRAME_LEN = 60
SLASH8 = [n for n in range(1, 224) if n not in (10, 127)][:101]           # 101 /8 prefixes
SLASH16 = [(10, n) for n in range(69)]                                    # 69 /16s inside 10/8
PORTS = list(range(1024, 2024))                                           # 1,000 destination ports
ACL_PORTS = PORTS[::2]                                                    # 500 listed
MEDIAN_PACKETS, SIGMA, MAX_PACKETS = 4, 1.3, 2000
MAX_REPLAY = 200000
DEFAULT_CONVERSATIONS = {"realistic": 20000, "synflood": 5000, "handshakes": 14000}


def checksum(data):
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xffff)
    return ~(s + (s >> 16)) & 0xffff


FLOOD_SIGNATURE = "4:64:0:*:512,*::df:0"
FLOOD_WINDOW = 512
FLOOD_VICTIMS = 4
INSIDE = (10 << 24, 8)                                                    # 10.0.0.0/8
DATA_BYTES = 6                                                            # fills a 60-byte frame
TCP_FIN, TCP_SYN, TCP_PSH, TCP_ACK = 0x01, 0x02, 0x08, 0x10


def frame(src, dst, proto, sport, dport, flags=TCP_ACK, window=65535, seq=1, ack=0, payload=b""):
    if proto == 6:
        l4 = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 0x50, flags, window, 0, 0) + payload
    else:
        l4 = struct.pack("!HHHH", sport, dport, 8, 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 0, 0x4000, 64, proto, 0,
                     src.to_bytes(4, "big"), dst.to_bytes(4, "big"))
    ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
    data = bytes.fromhex("020000000002" "020000000001") + b"\x08\x00" + ip + l4
    return data + bytes(FRAME_LEN - len(data))


def write_pcap(path, frames):
    if len(frames) > MAX_REPLAY:
        raise SystemExit(f"traces.py: {len(frames)} packets: more than net_pcap can replay "
                         f"({MAX_REPLAY}); use fewer --conversations")
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, data in enumerate(frames):
            f.write(struct.pack("<IIII", i // 1000000, i % 1000000, len(data), len(data)) + data)


def address(rng):
    """An address inside one of the pipeline's prefixes (the /16s as often as the /8s)."""
    if rng.random() < 0.5:
        return SLASH8[rng.randrange(len(SLASH8))] << 24 | rng.getrandbits(24)
    a, b = SLASH16[rng.randrange(len(SLASH16))]
    return a << 24 | b << 16 | rng.getrandbits(16)


def realistic(conversations, seed):
    rng = random.Random(seed)
    weights = [1 / (k + 1) ** 1.1 for k in range(len(PORTS))]
    ports = rng.choices(PORTS, weights, k=conversations)
    events = []                 # (time, conversation, packets left)
    flows = []
    for c in range(conversations):
        size = conversation_size(rng)
        proto = 6 if rng.random() < 0.8 else 17
        flows.append((address(rng), address(rng), proto, rng.randrange(1024, 65536), ports[c], size))
        heapq.heappush(events, (rng.random() * conversations, c, size))
    out = []
    while events:
        t, c, left = heapq.heappop(events)
        src, dst, proto, sport, dport, size = flows[c]
        flags = 0x02 if left == size and proto == 6 else 0x10
        out.append(frame(src, dst, proto, sport, dport, flags))
        if left > 1:
            heapq.heappush(events, (t + rng.expovariate(1.0), c, left - 1))
    return out, flows


def conversation_size(rng):
    return min(MAX_PACKETS, max(1, round(rng.lognormvariate(math.log(MEDIAN_PACKETS), SIGMA))))


def synflood(conversations, seed):
    legit, _ = realistic(conversations, seed)
    rng = random.Random(seed + 1)
    victims = [(address(rng), ACL_PORTS[rng.randrange(len(ACL_PORTS))]) for _ in range(FLOOD_VICTIMS)]
    out = []
    for data in legit:
        out.append(data)
        for _ in range(3):
            victim, port = victims[rng.randrange(FLOOD_VICTIMS)]
            out.append(frame(rng.getrandbits(32), victim, 6, rng.randrange(1024, 65536), port,
                             TCP_SYN, FLOOD_WINDOW))
    return out


def handshake_packets(client, server, cport, sport, data_segments, rng):
    """One conversation's frames, in order: (frame) list."""
    c_seq, s_seq = rng.getrandbits(32), rng.getrandbits(32)
    c2s = lambda **kw: frame(client, server, 6, cport, sport, **kw)  # noqa: E731
    s2c = lambda **kw: frame(server, client, 6, sport, cport, **kw)  # noqa: E731
    m = 0xffffffff
    out = [c2s(flags=TCP_SYN, seq=c_seq)]
    c_seq = (c_seq + 1) & m
    out.append(s2c(flags=TCP_SYN | TCP_ACK, seq=s_seq, ack=c_seq))
    s_seq = (s_seq + 1) & m
    out.append(c2s(flags=TCP_ACK, seq=c_seq, ack=s_seq))
    payload = bytes(DATA_BYTES)
    for i in range(data_segments):
        if i % 2 == 0:
            out.append(c2s(flags=TCP_PSH | TCP_ACK, seq=c_seq, ack=s_seq, payload=payload))
            c_seq = (c_seq + DATA_BYTES) & m
        else:
            out.append(s2c(flags=TCP_PSH | TCP_ACK, seq=s_seq, ack=c_seq, payload=payload))
            s_seq = (s_seq + DATA_BYTES) & m
    out.append(c2s(flags=TCP_FIN | TCP_ACK, seq=c_seq, ack=s_seq))
    c_seq = (c_seq + 1) & m
    out.append(s2c(flags=TCP_FIN | TCP_ACK, seq=s_seq, ack=c_seq))
    s_seq = (s_seq + 1) & m
    out.append(c2s(flags=TCP_ACK, seq=c_seq, ack=s_seq))
    return out


def handshakes(conversations, seed):
    rng = random.Random(seed)
    scripts = []
    for _ in range(conversations):
        a, b = SLASH16[rng.randrange(len(SLASH16))]
        client = a << 24 | b << 16 | rng.getrandbits(16)
        server = SLASH8[rng.randrange(1, len(SLASH8))] << 24 | rng.getrandbits(24)
        cport, sport = rng.randrange(1024, 65536), ACL_PORTS[rng.randrange(len(ACL_PORTS))]
        if rng.random() < 0.1:
            scripts.append([frame(server, client, 6, sport, cport, flags=TCP_SYN, seq=rng.getrandbits(32))])
        else:
            scripts.append(handshake_packets(client, server, cport, sport, conversation_size(rng), rng))
    events = [(rng.random() * conversations, c, 0) for c in range(conversations)]
    heapq.heapify(events)
    out = []
    while events:
        t, c, i = heapq.heappop(events)
        out.append(scripts[c][i])
        if i + 1 < len(scripts[c]):
            heapq.heappush(events, (t + rng.expovariate(1.0), c, i + 1))
    return out


def pipeline():
    rules = []
    for a, b in SLASH16:
        rules.append(f"table=0,priority=16,ip,nw_dst={a}.{b}.0.0/16,actions=goto_table:1")
    for a in SLASH8:
        rules.append(f"table=0,priority=8,ip,nw_dst={a}.0.0.0/8,actions=goto_table:1")
    for i, port in enumerate(ACL_PORTS):
        proto = "udp" if i % 5 == 4 else "tcp"
        rules.append(f"table=1,priority=100,{proto},tp_dst={port},actions=drop")
    rules.append("table=1,priority=0,actions=drop")
    rules.append("table=0,priority=0,actions=drop")
    return rules


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["synthetic", "realistic", "synflood", "handshakes", "pipeline"])
    parser.add_argument("out")
    parser.add_argument("--conversations", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.conversations is None:
        args.conversations = DEFAULT_CONVERSATIONS.get(args.kind, 0)
    if args.kind == "synthetic":
        write_pcap(args.out, [frame(SLASH8[0] << 24 | 1, SLASH8[1] << 24 | 1, 17, 4000, ACL_PORTS[0])])
    elif args.kind == "realistic":
        frames, flows = realistic(args.conversations, args.seed)
        write_pcap(args.out, frames)
        sizes = sorted(f[5] for f in flows)
        print(f"{len(frames)} packets in {len(flows)} conversations; median {sizes[len(sizes) // 2]} packets, "
              f"largest {sizes[-1]}; the largest 1% of conversations carry "
              f"{sum(sizes[-len(sizes) // 100:]) / len(frames):.0%} of the packets")
    elif args.kind == "synflood":
        frames = synflood(args.conversations, args.seed)
        write_pcap(args.out, frames)
        print(f"{len(frames)} packets, 3 flood SYNs ({FLOOD_SIGNATURE}, at {FLOOD_VICTIMS} servers) per packet"
              " of the realistic trace")
    elif args.kind == "handshakes":
        frames = handshakes(args.conversations, args.seed)
        write_pcap(args.out, frames)
        print(f"{len(frames)} packets in {args.conversations} TCP conversations")
    else:
        with open(args.out, "w") as f:
            f.write("\n".join(pipeline()) + "\n")


if __name__ == "__main__":
    main()
