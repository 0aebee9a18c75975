#!/usr/bin/env python3
"""Writes the trace of docs/writing-filters.md: SYNs to ports 22, 80 and
23, a SYN-ACK from port 23, and a SYN to 23 behind a VLAN tag."""
import sys

from scapy.layers.inet import IP, TCP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.utils import wrpcap

syn = lambda port: IP(src="10.0.0.1", dst="10.0.0.2") / TCP(sport=40000, dport=port, flags="S")
wrpcap(sys.argv[1] if len(sys.argv) > 1 else "trace.pcap", [
    Ether() / syn(22),
    Ether() / syn(80),
    Ether() / syn(23),
    Ether() / IP(src="10.0.0.2", dst="10.0.0.1") / TCP(sport=23, dport=40000, flags="SA"),
    Ether() / Dot1Q(vlan=10) / syn(23),
])
