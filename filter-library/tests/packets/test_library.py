"""Every filter on malformed and unusual frames, and the older filters'
verdicts on crafted traffic (the C tests cover them in depth too)."""
import pytest
from conftest import FILTERS, run_filter, with_ports
from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import ARP, Dot1Q, Ether


def syn(src="10.1.0.1", dport=80):
    return Ether() / IP(src=src, dst="10.2.0.1", flags="DF", id=1) / TCP(sport=1234, dport=dport, flags="S", seq=1)


@pytest.mark.parametrize("name", sorted(FILTERS))
def test_every_truncation_and_odd_frame_is_answered_the_same_by_both_engines(name):
    frames = [bytes(syn())[:n] for n in range(len(bytes(syn())) + 1)]
    frames += [Ether() / ARP(), Ether() / IP() / ICMP(), Ether() / IPv6() / TCP(flags="S"),
               Ether() / Dot1Q(vlan=1) / Dot1Q(vlan=2) / IP() / TCP(), Ether() / IP(frag=5) / UDP(),
               Ether() / IP(ihl=3) / TCP(), Ether() / IP() / TCP(dataofs=15), b"\xff" * 1514]
    result = run_filter(name, frames)
    short = result.verdicts[:34]                    # cut inside Ethernet + IPv4: nothing to judge
    assert short == (["match"] * 34 if name == "baseline" else ["no match"] * 34)
    # ARP, ICMP, an IPv6 SYN, two VLAN tags, a fragment, a bad IHL, a TCP header longer than the packet,
    # garbage: with default parameters and empty maps no filter has a reason to match any of them, but baseline
    # (matches all) and syn-sampler (samples SYNs, 100 a second by default: the IPv6 SYN and the SYN whose header
    # says it is longer than the packet are SYNs: a flood of malformed SYNs is counted and sampled too).
    odd = result.verdicts[-8:]
    matching = {"baseline": set(range(8)), "syn-sampler": {2, 6}}.get(name, set())
    assert odd == ["match" if i in matching else "no match" for i in range(8)], list(enumerate(odd))


def test_blocklist_prefixes_and_update():
    entry = lambda prefix_len, addr: ((prefix_len).to_bytes(4, "little") + bytes(map(int, addr.split(".")))).hex()
    packets = [syn("10.1.2.3"), syn("10.2.0.1"), syn("192.168.5.5"), Ether() / Dot1Q(vlan=9) / syn("10.1.2.3")[IP]]
    result = run_filter("blocklist", packets, entries={"blocked": [(entry(16, "10.1.0.0"), "00" * 8),
                                                                   (entry(32, "192.168.5.5"), "00" * 8)]})
    assert result.verdicts[:3] == ["match", "no match", "match"]
    counts = {(r["prefix_len"], r["source"]): r["packets"] for r in result.maps["blocked"]}
    assert counts[(16, "10.1.0.0")] >= 1 and counts[(32, "192.168.5.5")] == 1


def test_rate_limiter_bucket():
    packets = [(i * 0.1, syn("10.9.9.9")) for i in range(6)] + [(5.0, syn("10.9.9.9"))]
    result = run_filter("rate-limiter", packets, params={"rate": 5, "burst": 2})
    assert result.verdicts == ["no match", "no match", "no match", "match", "no match", "match", "no match"]


def test_heavy_hitter_threshold():
    packets = [syn("10.3.3.3")] * 5 + [syn("10.4.4.4")]
    result = run_filter("heavy-hitter", packets, params={"threshold": 3})
    assert result.verdicts == ["no match"] * 3 + ["match", "match", "no match"]


def test_port_scan_distinct_ports():
    template = bytes(syn("10.5.5.5"))
    packets = [with_ports(template, 1234, port) for port in range(1, 8)] + [with_ports(template, 1234, 1)]
    result = run_filter("port-scan", packets, params={"threshold": 5})
    assert result.verdicts == ["no match"] * 5 + ["match", "match", "match"]


def source_frames(template, n, first=0):
    """Copies of an Ethernet/IPv4 frame from n different sources 10.x.y.z."""
    out = []
    for i in range(first, first + n):
        data = bytearray(template)
        data[26:30] = bytes([10, (i >> 16) & 0xff, (i >> 8) & 0xff, i & 0xff])
        out.append(bytes(data))
    return out


def test_rate_limiter_full_table_forgets_the_least_recent_source():
    # Source 0 spends its burst, then 65,536 other sources fill the LRU table: source 0 is evicted and
    # comes back with a full bucket instead of being over the limit.
    template = bytes(syn("10.0.0.0"))
    first = source_frames(template, 1)[0]
    packets = [(0.0, first)] * 3 + [(0.001 + i * 1e-9, f) for i, f in enumerate(source_frames(template, 65536, 1))]
    packets += [(0.002, first)]
    result = run_filter("rate-limiter", packets, params={"rate": 1, "burst": 2}, engines=("jit",))
    assert result.verdicts[:3] == ["no match", "no match", "match"]
    assert result.verdicts[-1] == "no match"
    assert result.counts["buckets"] == 65536


def test_conntrack_established_full_table_and_ip_options():
    opts = Ether() / IP(src="10.0.0.1", dst="10.0.0.2", options=b"\x01\x01\x01\x00") / TCP(sport=5, dport=6, flags="S")
    back = Ether() / IP(src="10.0.0.2", dst="10.0.0.1") / TCP(sport=6, dport=5, flags="SA")
    assert run_filter("conntrack-established", [opts, back]).verdicts == ["no match", "match"]
    template = bytes(syn("10.0.0.0"))
    packets = [(0.0, bytes(Ether() / IP(src="10.0.0.1", dst="10.0.0.2") / TCP(sport=5, dport=6, flags="S")))]
    packets += [(0.001 + i * 1e-9, f) for i, f in enumerate(source_frames(template, 65536, 1))]
    packets += [(0.002, bytes(back))]
    result = run_filter("conntrack-established", packets, engines=("jit",))
    assert result.verdicts[-1] == "no match"                    # the first connection was evicted
    assert result.counts["connections"] == 65536


def test_stateful_firewall_and_dapper_read_tcp_after_ip_options():
    with_options = lambda src, dst, sp, dp, flags: Ether() / IP(src=src, dst=dst, options=b"\x01" * 8) / \
        TCP(sport=sp, dport=dp, flags=flags, seq=1, ack=1)
    packets = [with_options("10.0.0.1", "10.0.0.2", 7, 8, "S"), with_options("10.0.0.2", "10.0.0.1", 8, 7, "SA")]
    assert run_filter("stateful-firewall", packets).verdicts == ["no match", "match"]
    result = run_filter("dapper", packets)
    (conn,) = result.maps["connections"]
    assert (conn["port_lo"], conn["port_hi"]) == (7, 8) and conn["packets"] == 2


def test_port_scan_full_source_table_forgets_the_least_recent_scanner():
    template = bytes(syn("10.0.0.0"))
    scanner = source_frames(template, 1)[0]
    packets = [(0.0, with_ports(scanner, 1234, port)) for port in range(1, 5)]            # 4 ports, threshold 4
    packets += [(0.001 + i * 1e-9, f) for i, f in enumerate(source_frames(template, 65536, 1))]
    packets += [(0.002, with_ports(scanner, 1234, 5))]                                   # a 5th port
    result = run_filter("port-scan", packets, params={"threshold": 4}, engines=("jit",))
    assert result.verdicts[:4] == ["no match"] * 4
    assert result.verdicts[-1] == "no match"        # evicted: counting starts again instead of matching
    assert result.counts["sources"] == 65536


def test_dns_rate_limit_full_name_table_forgets_the_least_recent_name():
    from scapy.layers.dns import DNS, DNSQR
    query = lambda name: bytes(Ether() / IP(src="10.0.0.9", dst="10.0.0.53") / UDP(sport=3333, dport=53) /
                               DNS(qd=DNSQR(qname=name)))
    victim = query("victim.example.")
    template = query("n000000.example.")
    at = template.index(b"n000000")
    names = [template[:at] + b"n%06d" % i + template[at + 7:] for i in range(65536)]
    packets = [(0.0, victim)] * 3 + [(0.001 + i * 1e-9, f) for i, f in enumerate(names)] + [(0.002, victim)]
    result = run_filter("dns-rate-limit", packets, params={"rate": 1, "burst": 2}, engines=("jit",))
    assert result.verdicts[:3] == ["no match", "no match", "match"]
    assert result.verdicts[-1] == "no match"        # evicted: a fresh bucket
    assert result.counts["names"] == 65536


def test_ipv4_filters_skip_a_vlan_tag_and_judge_fragments_by_what_they_carry():
    """oko/net.h's walk, the same in every filter: one VLAN tag is skipped; a filter that reads addresses only
    takes every IPv4 packet whose fixed header is there (a later fragment, a header length below 20: a blocked
    source must not pass by sending those); one that reads TCP or UDP takes no later fragment (its first bytes
    are payload, not ports)."""
    tagged = lambda frame: Ether() / Dot1Q(vlan=7) / frame[IP]
    entry = (16).to_bytes(4, "little").hex() + "0a010000"
    blocked = [tagged(syn("10.1.2.3")), Ether() / IP(src="10.1.2.3", frag=5) / UDP(),
               Ether() / IP(src="10.1.2.3", ihl=3) / TCP()]
    result = run_filter("blocklist", blocked, entries={"blocked": [(entry, "00" * 8)]})
    assert result.verdicts == ["match"] * 3
    result = run_filter("heavy-hitter", [tagged(syn("10.3.3.3"))] * 3, params={"threshold": 2})
    assert result.verdicts == ["no match", "no match", "match"]
    later = Ether() / IP(src="10.9.9.9", frag=5) / UDP()
    result = run_filter("rate-limiter", [(0.0, later), (0.0, tagged(syn("10.9.9.9")))], params={"rate": 1, "burst": 1})
    assert result.verdicts == ["no match", "match"]
    opened = [tagged(syn("10.1.0.1")), tagged(Ether() / IP(src="10.2.0.1", dst="10.1.0.1") /
                                              TCP(sport=80, dport=1234, flags="A"))]
    assert run_filter("conntrack-established", opened).verdicts == ["no match", "match"]
    fragment_ack = Ether() / IP(src="10.2.0.1", dst="10.1.0.1", frag=5) / TCP(sport=80, dport=1234, flags="A")
    assert run_filter("conntrack-established", opened + [fragment_ack]).verdicts[-1] == "no match"
    template = bytes(Ether() / IP(src="10.5.5.5", frag=5) / UDP(sport=1234, dport=1))
    fragments = [with_ports(template, 1234, port) for port in range(1, 8)]
    assert run_filter("port-scan", fragments, params={"threshold": 2}).verdicts == ["no match"] * 7
    assert run_filter("port-scan", [tagged(Ether() / IP(src="10.5.5.5") / UDP(sport=1, dport=p)) for p in range(4)],
                      params={"threshold": 2}).verdicts == ["no match"] * 2 + ["match"] * 2
