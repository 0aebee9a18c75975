"""dns-rate-limit: a bucket per query name."""
from conftest import run_filter
from scapy.layers.dns import DNS, DNSQR
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether


def query(name, src="10.0.0.9", qr=0):
    return Ether() / IP(src=src, dst="10.0.0.53") / UDP(sport=3333, dport=53) / DNS(qr=qr, qd=DNSQR(qname=name))


def test_one_name_over_the_rate_others_untouched():
    flood = [(i * 0.01, query("victim.example.")) for i in range(10)]          # 100 per second
    other = [(0.005 + i * 0.01, query(f"host{i}.example.")) for i in range(10)]
    packets = sorted(flood + other, key=lambda p: p[0])
    result = run_filter("dns-rate-limit", packets, params={"rate": 10, "burst": 3})
    victim = [v for (t, p), v in zip(packets, result.verdicts) if b"victim" in bytes(p)]
    assert victim == ["no match"] * 3 + ["match"] * 7                           # burst 3, then ~1 per 100 ms
    assert all(v == "no match" for (t, p), v in zip(packets, result.verdicts) if b"victim" not in bytes(p))
    row = next(r for r in result.maps["names"] if bytes.fromhex(r["name"]).startswith(b"\x06victim"))
    assert row["queries"] == 10 and row["limited"] == 7


def test_names_compare_case_insensitively_and_refill():
    packets = [(0.0, query("Example.COM.")), (0.01, query("example.com.")), (0.02, query("EXAMPLE.com.")),
               (2.0, query("example.com."))]
    result = run_filter("dns-rate-limit", packets, params={"rate": 1, "burst": 2})
    assert result.verdicts == ["no match", "no match", "match", "no match"]
    assert len(result.maps["names"]) == 1


def test_responses_other_ports_ipv6_vlan_truncation():
    name = "a.example."
    v6 = Ether() / IPv6(src="2001:db8::9", dst="2001:db8::53") / UDP(dport=53) / DNS(qd=DNSQR(qname=name))
    vlan = Ether() / Dot1Q(vlan=5) / query(name)[IP]
    not_dns = Ether() / IP() / UDP(dport=5353) / DNS(qd=DNSQR(qname=name))
    response = query(name, qr=1)
    cut = bytes(query(name))[:54]                                   # header only, no name
    packets = [(i * 0.001, p) for i, p in enumerate([v6, vlan, query(name), not_dns, response, cut])]
    result = run_filter("dns-rate-limit", packets, params={"rate": 1, "burst": 2})
    assert result.verdicts == ["no match", "no match", "match", "no match", "no match", "no match"]
    assert result.maps["names"][0]["queries"] == 3                  # IPv6, VLAN and plain count alike
