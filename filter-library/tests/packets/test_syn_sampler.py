"""syn-sampler: SYNs sampled at a bounded rate, every SYN counted per destination."""
import ipaddress

from conftest import run_filter
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.inet6 import IPv6, IPv6ExtHdrHopByHop
from scapy.layers.l2 import Dot1Q, Ether

START = 1.0         # the pcap clock's first instant (oko_time_ns() is never 0 on a switch)


def syn(dst="10.0.2.1", sport=40000, flags="S"):
    return Ether() / IP(src="10.0.1.7", dst=dst) / TCP(sport=sport, dport=80, flags=flags)


def mapped(address):
    """The map's key of an address: IPv6 as it is, IPv4 as ::ffff:a.b.c.d."""
    ip = ipaddress.ip_address(address)
    return (ip.packed if ip.version == 6 else b"\0" * 10 + b"\xff\xff" + ip.packed).hex()


def counts(result):
    return {row["destination"]: (row["syns"], row["sampled"]) for row in result.maps["destinations"]}


def test_samples_at_most_the_rate_and_counts_every_syn():
    # 100 SYNs per second for 2 seconds against a cap of 10 per second with a burst of 5.
    packets = [(START + i * 0.01, syn(sport=40000 + i)) for i in range(200)]
    result = run_filter("syn-sampler", packets, params={"rate": 10, "burst": 5})
    sampled = [t for (t, _), v in zip(packets, result.verdicts) if v == "match"]
    assert sampled[:5] == [t for t, _ in packets[:5]]                 # the burst first
    # Then one each 100 ms: 5 + 10 per second refilled over the 1.99 s that follow.
    assert 5 + 19 <= len(sampled) <= 5 + 20
    assert all(b - a >= 0.1 - 1e-9 for a, b in zip(sampled[5:], sampled[6:]))
    assert counts(result) == {mapped("10.0.2.1"): (200, len(sampled))}


def test_only_syns_match_per_destination_counts():
    packets = [syn("10.0.2.1"), syn("10.0.2.2"), syn("10.0.2.1", flags="SA"), syn("10.0.2.1", flags="A"),
               syn("10.0.2.1", flags="SE"), Ether() / IP(dst="10.0.2.1") / UDP(dport=80)]
    result = run_filter("syn-sampler", [(START + i * 0.001, p) for i, p in enumerate(packets)])
    assert result.verdicts == ["match", "match", "no match", "no match", "match", "no match"]
    assert counts(result) == {mapped("10.0.2.1"): (2, 2), mapped("10.0.2.2"): (1, 1)}


def test_ipv6_vlan_fragments_and_short_frames():
    v6 = Ether() / IPv6(src="2001:db8::7", dst="2001:db8::1") / TCP(dport=443, flags="S")
    v6_ext = Ether() / IPv6(dst="2001:db8::1") / IPv6ExtHdrHopByHop() / TCP(flags="S")
    vlan = Ether() / Dot1Q(vlan=7) / syn()[IP]
    fragment = Ether() / IP(dst="10.0.2.1", frag=4, proto=6) / bytes(TCP(flags="S"))
    short = bytes(syn())[:14 + 20 + 12]                               # TCP header cut before its flags
    packets = [v6, v6_ext, vlan, fragment, short]
    result = run_filter("syn-sampler", [(START + i * 0.001, p) for i, p in enumerate(packets)])
    assert result.verdicts == ["match", "no match", "match", "no match", "no match"]
    assert counts(result) == {mapped("2001:db8::1"): (1, 1), mapped("10.0.2.1"): (1, 1)}


def test_an_empty_bucket_refills():
    packets = [(START, syn()), (START + 0.001, syn()), (START + 0.002, syn()), (START + 1.5, syn())]
    result = run_filter("syn-sampler", packets, params={"rate": 1, "burst": 1})
    assert result.verdicts == ["match", "no match", "no match", "match"]
    assert counts(result) == {mapped("10.0.2.1"): (4, 2)}
