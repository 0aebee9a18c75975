"""The example of docs/writing-filters.md does what the guide shows."""
import os
import subprocess
import sys

from conftest import LIB, TOOL

EXAMPLES = os.path.join(LIB, "examples")


def test_tcp_port_guard_as_in_the_guide(tmp_path):
    obj, trace = tmp_path / "tcp-port-guard.o", tmp_path / "trace.pcap"
    subprocess.run(["clang", "-O2", "-target", "bpf", "-I", os.path.join(LIB, "include"), "-c",
                    os.path.join(EXAMPLES, "tcp-port-guard.c"), "-o", str(obj)], check=True)
    verify = subprocess.run([TOOL, "verify", str(obj)], capture_output=True, text=True)
    assert verify.returncode == 0 and "map 0 'guarded': hash, key 2 bytes, value 8 bytes, 1024 entries" in verify.stdout
    subprocess.run([sys.executable, os.path.join(EXAMPLES, "make-trace.py"), str(trace)], check=True)
    out = subprocess.run([TOOL, "run", str(obj), str(trace), "--map", "guarded:0017=0000000000000000",
                          "--map", "guarded:0016=0000000000000000", "--layout", "guarded=port:be16/syns:u64"],
                         capture_output=True, text=True, check=True).stdout
    verdicts = [line.split(": ")[-1] for line in out.splitlines() if line.startswith("packet ")]
    assert verdicts == ["match", "no match", "match", "no match", "match"]
    assert "(port=22 -> syns=1)" in out and "(port=23 -> syns=2)" in out
