#!/usr/bin/env python3
"""Writes the pcap the oko-filter tool tests replay (no dependencies).

Packets: 3 x TCP 10.0.0.1 -> 10.0.0.9:80, 2 x UDP 10.0.0.2 -> 10.0.0.9:53,
1 x ARP, 1 x a 20-byte runt."""
import struct
import sys


def ipv4(proto, src, dst, payload):
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0, 64, proto, 0,
                         bytes(src), bytes(dst))
    return header + payload


def ether(ethertype, payload):
    return bytes.fromhex("020000000002" "020000000001") + struct.pack("!H", ethertype) + payload


def main(path):
    tcp = struct.pack("!HHIIBBHHH", 40000, 80, 1, 0, 5 << 4, 0x02, 65535, 0, 0)
    udp = struct.pack("!HHHH", 40000, 53, 8, 0)
    packets = [ether(0x0800, ipv4(6, [10, 0, 0, 1], [10, 0, 0, 9], tcp))] * 3
    packets += [ether(0x0800, ipv4(17, [10, 0, 0, 2], [10, 0, 0, 9], udp))] * 2
    packets += [ether(0x0806, bytes(28))]
    packets += [bytes(20)]
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, p in enumerate(packets):
            f.write(struct.pack("<IIII", 1000 + i, 0, len(p), len(p)) + p)


if __name__ == "__main__":
    main(sys.argv[1])
