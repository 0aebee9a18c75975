#!/usr/bin/env python3
"""Writes a pcap of 64-byte Ethernet/IPv4/UDP packets, one per flow, to
10.0.x.y:5000 (flow i gets destination 10.0.0.0 + i).  No dependencies.

  make-udp-pcap.py OUT.pcap N_FLOWS"""
import struct
import sys

FRAME_LEN = 60          # 64 on the wire with the FCS the NIC adds


def checksum(data):
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xffff)
    return ~(s + (s >> 16)) & 0xffff


def packet(i):
    payload = bytes(FRAME_LEN - 14 - 20 - 8)
    udp = struct.pack("!HHHH", 4000 + i % 1000, 5000, 8 + len(payload), 0) + payload
    dst = (10 << 24) + i
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes([10, 1, 0, 1]), dst.to_bytes(4, "big"))
    ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
    return bytes.fromhex("020000000002" "020000000001") + b"\x08\x00" + ip + udp


def main(path, n_flows):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i in range(n_flows):
            p = packet(i)
            f.write(struct.pack("<IIII", 0, i, len(p), len(p)) + p)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
