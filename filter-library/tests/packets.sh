#!/bin/sh
# Every library filter on crafted packets (scapy, pcaps made at test time),
# through the runtime's pcap runner in both engines: verdicts and maps.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$(dirname "$here")")
python=$repo/.toolchain/venv/bin/python
[ -x "$python" ] || { echo "FAIL packets: $python missing (run .ci/bootstrap)"; exit 1; }
exec "$python" -m pytest -q -p no:cacheprovider "$here/packets"
