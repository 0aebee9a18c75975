"""p0f-syn-flood: SYNs matching a signature match; others do not."""
import json
import os
import subprocess

from conftest import LIB, run_filter
from scapy.layers.inet import IP, TCP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether

LINUX = "4:64:0:*:mss*20,10:mss,sok,ts,nop,ws:df,id+:0"
LINUX_OPTIONS = [("MSS", 1460), ("SAckOK", b""), ("Timestamp", (12345, 0)), ("NOP", None), ("WScale", 10)]


def signature(text):
    out = subprocess.run([os.path.join(LIB, "tools", "p0f-signature"), text], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def syn(ttl=64, window=1460 * 20, options=LINUX_OPTIONS, flags="S", df=True, ip_options=None, src="10.0.0.1"):
    ip = IP(src=src, dst="10.0.0.2", ttl=ttl, flags="DF" if df else 0, id=4321)
    if ip_options:
        ip.options = ip_options
    return Ether() / ip / TCP(sport=40000, dport=80, flags=flags, seq=1, window=window, options=options)


def counters(result):
    return {row["index"]: row["packets"] for row in result.maps["counters"]}


def test_signature_matches_only_its_fingerprint():
    packets = [
        syn(),                                    # Linux: match
        syn(ttl=50),                              # 14 hops away: match
        syn(ttl=128),                             # TTL above the initial 64: no
        syn(ttl=29),                              # more than 35 hops: no
        syn(window=1460 * 10),                    # window not mss*20: no
        syn(options=LINUX_OPTIONS[:4]),           # no window scale: no
        syn(df=False),                            # quirks differ (no df, id+ missing): no
        syn(flags="SA"),                          # SYN-ACK: never
        syn(flags="A"),                           # not a SYN: never
    ]
    result = run_filter("p0f-syn-flood", packets, params=signature(LINUX))
    assert result.verdicts == ["match", "match"] + ["no match"] * 7
    assert counters(result) == {0: 2, 1: 0, 2: 0, 3: 0, 4: 7}     # index 4: SYNs seen


def test_unset_slots_match_nothing():
    result = run_filter("p0f-syn-flood", [syn(), syn(ttl=128)])
    assert result.verdicts == ["no match", "no match"]


def test_other_slots_set_by_update_map_and_counted_apart():
    windows = signature("4:128:0:*:65535,8:mss,nop,ws,nop,nop,sok:df,id+:0")
    layout = next(m for m in __import__("conftest").FILTERS["p0f-syn-flood"]["maps"] if m["name"] == "signatures")
    from conftest import encode
    slot2 = encode(layout["value"], windows)
    win_syn = syn(ttl=120, window=65535, options=[("MSS", 1460), ("NOP", None), ("WScale", 8), ("NOP", None),
                                                  ("NOP", None), ("SAckOK", b"")])
    result = run_filter("p0f-syn-flood", [syn(), win_syn, win_syn], params=signature(LINUX),
                        entries={"signatures": [("02000000", slot2.hex())]})
    assert result.verdicts == ["match", "match", "match"]
    assert counters(result)[0] == 1 and counters(result)[2] == 2


def test_ipv6_vlan_ip_options_and_fragments():
    sig6 = signature("6:64:0:*:mss*20,10:mss,sok,ts,nop,ws::0")
    v6 = Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2", hlim=60) / TCP(
        flags="S", seq=7, window=1440 * 20, options=[("MSS", 1440), ("SAckOK", b""), ("Timestamp", (5, 0)), ("NOP", None),
                                              ("WScale", 10)])
    assert run_filter("p0f-syn-flood", [v6, syn()], params=sig6).verdicts == ["match", "no match"]
    vlan = Ether() / Dot1Q(vlan=7) / syn()[IP]
    with_options = syn(ip_options=b"\x01\x01\x01\x00")        # 4 bytes of IP options: olen 4
    fragment = syn()
    fragment[IP].frag = 10
    result = run_filter("p0f-syn-flood", [vlan, with_options, fragment], params=signature(LINUX))
    assert result.verdicts == ["match", "no match", "no match"]
    olen4 = dict(signature(LINUX), olen=4)
    assert run_filter("p0f-syn-flood", [with_options], params=olen4).verdicts == ["match"]


def test_malformed_options_are_the_bad_quirk():
    cut = bytes(syn())
    # The MSS option claims 40 bytes, past the header: the "bad" quirk.
    i = cut.index(bytes([2, 4, 0x05, 0xb4]))
    broken = cut[:i] + bytes([2, 40]) + cut[i + 2:]
    result = run_filter("p0f-syn-flood", [broken], params=signature(LINUX))
    assert result.verdicts == ["no match"]
    # The layout ends at the broken option: no MSS, no window scale read.
    bad = dict(signature(LINUX), quirks=3 | 1 << 15, n_options=1, options="02" + "00" * 15, window_kind=0,
               wscale=255)
    assert run_filter("p0f-syn-flood", [broken], params=bad).verdicts == ["match"]
