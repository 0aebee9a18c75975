"""dapper: per-connection TCP metrics; matches when a connection turns
troubled (once) and every report_every new connections."""
from conftest import run_filter, with_ports
from scapy.layers.inet import IP, TCP
from scapy.layers.l2 import Ether

C, S = "10.0.0.1", "10.0.0.2"          # C < S: the client's data is lo_*


def seg(src, dst, sport, dport, flags, seq, ack=0, payload=b"", window=1000, options=()):
    return Ether() / IP(src=src, dst=dst) / TCP(sport=sport, dport=dport, flags=flags, seq=seq, ack=ack,
                                                window=window, options=list(options)) / payload


def handshake(port=5000):
    return [(0.000, seg(C, S, port, 80, "S", 100, options=[("MSS", 1400), ("WScale", 2)])),
            (0.010, seg(S, C, 80, port, "SA", 900, 101, options=[("MSS", 1200), ("WScale", 3)], window=2000)),
            (0.020, seg(C, S, port, 80, "A", 101, 901, window=500))]


def test_metrics_of_a_healthy_connection():
    packets = handshake() + [
        (0.030, seg(C, S, 5000, 80, "PA", 101, 901, b"x" * 100, window=500)),
        (0.055, seg(S, C, 80, 5000, "A", 901, 201, window=1500)),          # acks it: RTT 25 ms
    ]
    result = run_filter("dapper", packets)
    assert result.verdicts == ["no match"] * 5
    [c] = result.maps["connections"]
    assert c["lo_mss"] == 1400 and c["hi_mss"] == 1200
    assert c["lo_wscale"] == 2 and c["hi_wscale"] == 3
    assert c["lo_next_seq"] == 201 and c["lo_acked"] == 201 and c["lo_flight"] == 0
    assert c["lo_peer_window"] == 1500 << 3                                 # the server's scale
    assert c["hi_peer_window"] == 500 << 2
    assert c["lo_rtt_us"] == 10000 or c["lo_rtt_us"] == 25000
    assert c["hi_rtt_us"] == 10000                                          # SYN-ACK acked by the ACK
    assert c["lo_retransmits"] == 0 and c["trouble"] == 0 and c["packets"] == 5
    assert result.maps["stats"] == [{"index": 0, "connections": 1, "troubled": 0, "untracked": 0}]


def test_retransmissions_trouble_once():
    data = [(0.1 + i * 0.1, seg(C, S, 5000, 80, "PA", 101, 901, b"y" * 50, window=500)) for i in range(5)]
    result = run_filter("dapper", handshake() + data, params={"retransmit_threshold": 3})
    # the first send is new, the 2nd..5th retransmissions: the 3rd (packet 7) crosses
    assert result.verdicts == ["no match"] * 6 + ["match", "no match"]
    [c] = result.maps["connections"]
    assert c["lo_retransmits"] == 4 and c["trouble"] == 1
    assert result.maps["stats"][0]["troubled"] == 1


def test_receive_window_limited():
    # The server advertises 100 bytes (x 2^3); the client has 900 in flight.
    packets = handshake()[:2] + [(0.02, seg(C, S, 5000, 80, "A", 101, 901, window=500)),
                                 (0.03, seg(S, C, 80, 5000, "A", 901, 101, window=100)),
                                 (0.04, seg(C, S, 5000, 80, "PA", 101, 901, b"z" * 900, window=500))]
    result = run_filter("dapper", packets)
    assert result.verdicts[-1] == "match"
    assert result.maps["connections"][0]["trouble"] == 2


def test_report_every_new_connections():
    syns = [(i * 0.01, seg(C, S, 6000 + i, 80, "S", 1)) for i in range(7)]
    result = run_filter("dapper", syns, params={"report_every": 3})
    assert result.verdicts == ["no match", "no match", "match", "no match", "no match", "match", "no match"]


def test_full_table_counts_untracked():
    template = bytes(seg(C, S, 1, 1, "S", 1))
    syns = [(i * 1e-6, with_ports(template, 1 + i % 60000, 1 + i // 60000)) for i in range(16384 + 10)]
    result = run_filter("dapper", syns, engines=("jit",))
    assert result.counts["connections"] == 16384
    assert result.maps["stats"][0]["untracked"] == 10


def test_array_table_variant_agrees_on_connections_that_do_not_collide():
    """bench/library.py's dapper-array (the table as an array indexed by a hash of the connection) gives dapper's
    verdicts and counters; each slot holds its connection's key and metrics."""
    data = [(0.1 + i * 0.1, seg(C, S, 5000, 80, "PA", 101, 901, b"y" * 50, window=500)) for i in range(5)]
    others = [(0.7 + i * 0.01, seg(C, S, 7000 + i, 80, "S", 1)) for i in range(4)]
    packets = handshake() + data + others
    params = {"retransmit_threshold": 3, "report_every": 2}
    hashed = run_filter("dapper", packets, params=params)
    array = run_filter("dapper", packets, params=params, variant="dapper-array")
    assert array.verdicts == hashed.verdicts
    assert "match" in array.verdicts and "no match" in array.verdicts
    assert array.maps["stats"] == hashed.maps["stats"] == [
        {"index": 0, "connections": 5, "troubled": 1, "untracked": 0}]
    slots = {bytes.fromhex(e["value"])[:16].hex(): bytes.fromhex(e["value"])[16:] for e in array.maps["connections"]}
    key = (bytes([10, 0, 0, 1, 10, 0, 0, 2]) + (5000).to_bytes(2, "big") + (80).to_bytes(2, "big")
           + bytes([6, 0, 0, 0])).hex()
    assert key in slots
    lo_retransmits = int.from_bytes(slots[key][16:20], "little")       # struct dir: 5th u32
    assert lo_retransmits == 4
