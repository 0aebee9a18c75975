"""What bench/evaluate and the experiments it runs share: paths, and one
configuration measured by datapath/bench/throughput."""
import json
import os
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
THROUGHPUT = os.path.join(REPO, "datapath", "bench", "throughput")


def relative(path):
    """'path' (or 'program:path') relative to the repository when it is inside it: results name no machine's
    directories."""
    prefix = "program:" if path.startswith("program:") else ""
    rest = path[len(prefix):]
    return prefix + (os.path.relpath(rest, REPO) if rest.startswith(REPO) else rest)


def run(cmd, log=None):
    """Runs 'cmd', showing its output (and keeping it in 'log'); stops the benchmark if it fails."""
    print("$ " + " ".join(relative(c) for c in cmd), flush=True)
    if log:
        log.write("$ " + " ".join(cmd) + "\n")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO)
    for line in proc.stdout:
        print("  " + line, end="", flush=True)
        if log:
            log.write(line)
    if proc.wait():
        sys.exit(f"bench: {relative(cmd[0])} failed (exit {proc.returncode}); see the output above")


def layout_seed(options):
    """A configuration's first layout seed: from its options as recorded (paths relative), a multiple of 1000."""
    return (zlib.crc32(" ".join(relative(o) for o in options).encode()) % 1_000_000) * 1000


def throughput(options, rounds, seconds, log=None):
    """One configuration: its datapath/bench/throughput result, with the options that repeat it."""
    # Every switch started runs a layout of its own (relinked with the
    # round's seed): a link's luck in where hot code lands moves the rates by
    # about 1.5 %, and would otherwise be one draw kept for the whole run.
    # Each configuration draws its own layouts (seeds from its options, the
    # same every run): with the same seeds everywhere, two unlucky layouts
    # lowered the same rounds of every configuration (2026-11-28, 19:31).
    options = ["--layouts", "shuffled", "--layout-seed", str(layout_seed(options))] + options
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run([THROUGHPUT, "--rounds", str(rounds), "--seconds", str(seconds), "--json", out.name] + options, log)
        result = json.load(open(out.name))
    result["options"] = [relative(o) for o in options]
    result["reference"] = relative(result["reference"])
    return result
