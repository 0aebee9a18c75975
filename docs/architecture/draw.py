#!/usr/bin/env python3
"""Draws docs/architecture/path.png: from a RESTCONF POST to a packet verdict in
the PMD thread, and the way back (SEND_MAPS).  Run by hand after a change
(needs matplotlib, installed in .toolchain/venv by .ci/bootstrap):

  .toolchain/venv/bin/python docs/architecture/draw.py"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CONTROLLER, SWITCH, PMD, OPERATOR = "#dbe9f6", "#e3f1df", "#fbe5d6", "#eeeeee"

BOXES = {
    # name: (x, y, w, h, colour, title, lines)
    "operator": (0.3, 8.75, 4.0, 0.95, OPERATOR, "Operator / application",
                 ["curl, scripts: RESTCONF over HTTP", "RESTCONF SSE subscriber"]),
    "restconf": (0.3, 6.9, 4.0, 1.2, CONTROLLER, "RESTCONF (lighty/ODL)",
                 ["PUT /oko:programs, /oko:switches", "flows with filter-prog match, RPCs"]),
    "datastore": (5.7, 6.9, 4.2, 1.2, CONTROLLER, "MD-SAL datastore",
                  ["config: programs, switch programs, flows", "operational: status, info, received-map"]),
    "northbound": (11.1, 6.9, 4.6, 1.2, CONTROLLER, "oko-northbound",
                   ["commit cohort: ELF checked before storing", "SwitchSync: LOAD_PROG, UPDATE_MAP, before FRM"]),
    "plugin": (11.1, 4.8, 4.6, 1.3, CONTROLLER, "openflowplugin + openflowjava-oko-ext",
               ["FRM: FLOW_MOD with filter_prog OXM", "codecs: LOAD_PROG, UPDATE_MAP, DUMP_MAPS,", "SEND_MAPS"]),
    "main": (11.1, 2.5, 4.6, 1.6, SWITCH, "ovs-vswitchd main thread",
             ["ofproto-oko: ELF loader, verifier,", "x86-64 JIT, maps; rules with filter_prog",
              "in the classifier; SEND_MAPS events"]),
    "upcall": (5.7, 2.5, 4.2, 1.6, SWITCH, "handler threads (upcall)",
               ["xlate: classifier_lookup_filtered()", "runs programs once per packet,", "chain -> megaflow"]),
    "pmd": (0.3, 2.5, 4.0, 1.6, PMD, "PMD thread (per packet)",
            ["EMC / SMC / dpcls hit:", "re-run the flow's chain (JIT code),", "take it only if every result agrees"]),
    "verdict": (0.3, 0.3, 4.0, 1.2, PMD, "verdict -> actions",
                ["drop / output / send_maps", "no allocation, no lock"]),
    "ports": (5.7, 0.3, 4.2, 1.2, SWITCH, "DPDK / dummy ports",
              ["packets in", "(net_pcap, af_packet, veth)"]),
}

ARROWS = [
    ("operator", "restconf", "1 POST program, flow"),
    ("restconf", "datastore", "2 commit"),
    ("datastore", "northbound", "3 listeners"),
    ("northbound", "plugin", "4 send-experimenter"),
    ("datastore", "plugin", "4' flows (FRM)"),
    ("plugin", "main", "5 OpenFlow 1.3 / TCP"),
    ("ports", "pmd", "6 packet"),
    ("pmd", "upcall", "7 miss"),
    ("main", "upcall", "rules, programs"),
    ("upcall", "pmd", "8 megaflow + chain"),
    ("pmd", "verdict", "9 verdict"),
]
BACK = [("main", "plugin", "SEND_MAPS msg"), ("plugin", "datastore", "received-map"),
        ("restconf", "operator", "notification")]


PAIRS = {(a, b) for a, b, _ in ARROWS + BACK}


def centre(name):
    x, y, w, h = BOXES[name][:4]
    return x + w / 2, y + h / 2


def edge_point(name, towards):
    x, y, w, h = BOXES[name][:4]
    cx, cy = centre(name)
    tx, ty = towards
    dx, dy = tx - cx, ty - cy
    scale = min((w / 2) / abs(dx) if dx else 1e9, (h / 2) / abs(dy) if dy else 1e9)
    return cx + dx * scale, cy + dy * scale


def arrow(ax, a, b, label, colour, side):
    """An arrow from box a to box b, shifted sideways by 'side' (so that the
    two directions between the same boxes do not overlap); the label sits on
    the shifted side."""
    ca, cb = centre(a), centre(b)
    dx, dy = cb[0] - ca[0], cb[1] - ca[1]
    norm = (dx * dx + dy * dy) ** 0.5
    px, py = -dy / norm * side, dx / norm * side
    start = edge_point(a, cb)
    end = edge_point(b, ca)
    start, end = (start[0] + px, start[1] + py), (end[0] + px, end[1] + py)
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=14, color=colour, lw=1.6))
    mx, my = (start[0] + end[0]) / 2 + px * 5, (start[1] + end[1]) / 2 + py * 2
    ax.text(mx, my, label, fontsize=7.5, color=colour, ha="center", va="center",
            bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.9))


def main():
    fig, ax = plt.subplots(figsize=(15, 9.6))
    ax.set_xlim(0, 16)
    ax.set_ylim(0, 10.4)
    ax.axis("off")
    for name, (x, y, w, h, colour, title, lines) in BOXES.items():
        ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.05", fc=colour, ec="#555555", lw=1))
        ax.text(x + w / 2, y + h - 0.22, title, ha="center", va="top", fontsize=10, weight="bold")
        for i, line in enumerate(lines):
            ax.text(x + w / 2, y + h - 0.55 - 0.27 * i, line, ha="center", va="top", fontsize=8)
    for a, b, label in ARROWS:
        arrow(ax, a, b, label, "#1f4e79", 0.15 if (b, a) in PAIRS else 0.0)
    for a, b, label in BACK:
        arrow(ax, a, b, label, "#a0522d", 0.15)
    ax.text(0.3, 10.3, "Oko for OpenDaylight: from a RESTCONF POST to a packet verdict (blue), and back (brown)",
            fontsize=12, weight="bold", va="top")
    for i, (colour, what) in enumerate([(CONTROLLER, "controller (Karaf)"), (SWITCH, "ovs-vswitchd, control"),
                                         (PMD, "ovs-vswitchd, per packet")]):
        ax.add_patch(FancyBboxPatch((10.6 + i * 1.9, 9.35), 0.25, 0.2, boxstyle="round,pad=0.02", fc=colour,
                                    ec="#555555"))
        ax.text(10.9 + i * 1.9, 9.45, what, fontsize=7, va="center")
    fig.savefig(os.path.join(HERE, "path.png"), dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    main()
