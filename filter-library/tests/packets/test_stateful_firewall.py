"""stateful-firewall: connections opened from inside pass both ways;
unsolicited packets from outside do not match."""
from conftest import run_filter, with_ports
from scapy.layers.inet import IP, TCP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether

CLIENT, SERVER = "192.168.1.10", "203.0.113.5"
INSIDE = {"inside": "192.168.1.0", "inside_prefix_len": 24}


def tcp(src, dst, sport, dport, flags, payload=b""):
    return Ether() / IP(src=src, dst=dst) / TCP(sport=sport, dport=dport, flags=flags) / payload


def out(flags, payload=b"", sport=50000):
    return tcp(CLIENT, SERVER, sport, 443, flags, payload)


def back(flags, payload=b"", dport=50000):
    return tcp(SERVER, CLIENT, 443, dport, flags, payload)


def test_handshake_data_and_close():
    packets = [out("S"), back("SA"), out("A"), out("PA", b"GET"), back("PA", b"200"), back("FA"), out("FA"), back("A")]
    result = run_filter("stateful-firewall", packets, params=INSIDE)
    assert result.verdicts == ["no match"] + ["match"] * 7
    [conn] = result.maps["connections"]
    assert (conn["addr_lo"], conn["addr_hi"], conn["port_lo"], conn["port_hi"]) == (CLIENT, SERVER, 50000, 443)
    assert conn["state"] == 4 and conn["fins"] == 3 and conn["packets"] == 7     # CLOSING, both FINs


def test_unsolicited_packets_from_outside_do_not_match():
    packets = [back("SA"), back("PA", b"x"), back("A"), tcp(SERVER, CLIENT, 443, 50000, "S")]
    result = run_filter("stateful-firewall", packets, params=INSIDE)
    assert result.verdicts == ["no match"] * 4
    assert result.maps["connections"] == []          # an outside SYN opens nothing


def test_handshake_out_of_order_does_not_open():
    # Data from the server before its SYN-ACK, an ACK from the wrong side.
    packets = [out("S"), back("PA", b"early"), back("A"), back("SA"), back("A"), out("A")]
    assert run_filter("stateful-firewall", packets, params=INSIDE).verdicts == \
        ["no match", "no match", "no match", "match", "no match", "match"]


def test_rst_forgets_the_connection():
    packets = [out("S"), back("SA"), out("A"), back("R"), back("PA", b"late")]
    result = run_filter("stateful-firewall", packets, params=INSIDE)
    assert result.verdicts == ["no match", "match", "match", "match", "no match"]
    assert result.maps["connections"] == []


def test_timeouts_use_the_parameters():
    params = dict(INSIDE, syn_timeout=5, established_timeout=60)
    packets = [(0, out("S")), (10, back("SA")),                        # SYN_SENT timed out after 5 s
               (20, out("S", sport=50001)), (21, back("SA", dport=50001)), (22, out("A", sport=50001)),
               (70, back("A", dport=50001)),                           # 48 s idle < 60: still open
               (140, back("A", dport=50001))]                          # 70 s idle: gone
    assert run_filter("stateful-firewall", packets, params=params).verdicts == \
        ["no match", "no match", "no match", "match", "match", "match", "no match"]


def test_any_source_opens_by_default_and_vlan_is_skipped():
    packets = [back("S", dport=50002), Ether() / Dot1Q(vlan=3) / out("SA", sport=50002)[IP]]
    assert run_filter("stateful-firewall", packets).verdicts == ["no match", "match"]


def test_ipv6_fragments_and_truncation_never_match():
    v6 = Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") / TCP(flags="S")
    fragment = out("A")
    fragment[IP].frag = 3
    packets = [out("S"), back("SA"), v6, fragment] + [bytes(back("A"))[:n] for n in range(0, 54)]
    result = run_filter("stateful-firewall", packets, params=INSIDE)
    assert result.verdicts == ["no match", "match"] + ["no match"] * 56


def test_full_table_evicts_the_least_recently_active():
    packets = [(0, out("S", sport=1000)), (0.001, back("SA", dport=1000))]
    template = bytes(out("S"))
    packets += [(1 + i * 1e-6, with_ports(template, 2000 + i % 60000, 1 + i // 60000)) for i in range(65536)]
    packets += [(3, back("A", dport=1000))]
    result = run_filter("stateful-firewall", packets, params=INSIDE, engines=("jit",))
    assert result.verdicts[1] == "match" and result.verdicts[-1] == "no match"   # evicted
    assert result.counts["connections"] == 65536
