# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""The README's first command, as a user runs it: `make up` starts everything, the example it prints works,
`make down` leaves nothing running."""
import re
import subprocess

from conftest import REPO, STARTED_BY_TESTS


def make(target, timeout):
    return subprocess.run(["make", "-C", str(REPO), target], capture_output=True, text=True, timeout=timeout)


def ours():
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout.splitlines()
    return [line for line in ps if any(p in line for p in STARTED_BY_TESTS) and str(REPO) in line]


def test_make_up_the_readme_example_and_make_down():
    readme = (REPO / "README.md").read_text()
    example = re.search(r"`make up` ends by printing.*?```sh\n(.*?)```", readme, re.S)[1].strip()
    try:
        up = make("up", 1800)
        assert up.returncode == 0, up.stdout[-3000:] + up.stderr[-3000:]
        assert "Oko is up" in up.stdout and example.split("'")[1] in up.stdout, up.stdout[-2000:]
        out = subprocess.run(["bash", "-c", example], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and '"id":"openflow:1"' in out.stdout.replace(" ", ""), out.stdout + out.stderr
    finally:
        down = make("down", 600)
    assert down.returncode == 0, down.stdout + down.stderr
    assert ours() == [], ours()
