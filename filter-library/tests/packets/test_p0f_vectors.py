"""The p0f vectors (tests/p0f/vectors.json) that oko-northbound's Java
fingerprinting is tested against hold for the filter and the tool: the
filter configured with each frame's signature matches that frame, the
tool gives the recorded parameters, and the file is what its generator
writes."""
import json
import os
import subprocess
import sys

from conftest import LIB, run_filter

VECTORS_DIR = os.path.join(LIB, "tests", "p0f")
VECTORS = json.load(open(os.path.join(VECTORS_DIR, "vectors.json")))["vectors"]
TOOL = os.path.join(LIB, "tools", "p0f-signature")


def tool(signature):
    out = subprocess.run([TOOL, signature], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_filter_matches_each_frame_with_its_signature():
    for v in (v for v in VECTORS if v["signature"]):
        result = run_filter("p0f-syn-flood", [bytes.fromhex(v["frame"])], params=tool(v["signature"]))
        assert result.verdicts == ["match"], v["name"]


def test_frames_without_a_fingerprint_never_match():
    anything = tool("*:*:0:*:*,*:::0")
    for v in (v for v in VECTORS if not v["signature"]):
        result = run_filter("p0f-syn-flood", [bytes.fromhex(v["frame"])], params=anything)
        assert result.verdicts == ["no match"], v["name"]


def test_a_signature_matches_no_other_frame_of_the_file():
    """The signatures are narrow: each matches its own frames only (the two
    Linux hosts and the VLAN one share theirs)."""
    frames = [bytes.fromhex(v["frame"]) for v in VECTORS]
    for v in (v for v in VECTORS if v["signature"]):
        result = run_filter("p0f-syn-flood", frames, params=tool(v["signature"]))
        expected = ["match" if w["signature"] == v["signature"] else "no match" for w in VECTORS]
        assert result.verdicts == expected, v["name"]


def test_the_tool_gives_the_recorded_parameters():
    for v in (v for v in VECTORS if v["signature"]):
        assert tool(v["signature"]) == v["parameters"], v["name"]


def test_the_file_is_what_its_generator_writes():
    out = subprocess.run([sys.executable, os.path.join(VECTORS_DIR, "make_vectors.py")], capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout) == json.load(open(os.path.join(VECTORS_DIR, "vectors.json")))
