#!/bin/sh
# The catalog agrees with the filters, their objects and docs/filters.md.
exec python3 "$(dirname "$0")/catalog.py"
