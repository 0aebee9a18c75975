# Oko for OpenDaylight: entry point.
#
#   make up       bootstrap the toolchain, build everything, start the system
#   make down     stop everything `make up` started
#   make test     every test of every part (what CI runs)
#   make bench    the paper's evaluation: benchmarks, not tests (long; see
#                 docs/performance.md; EXPERIMENTS=1,2 ROUNDS=N SECONDS=S)
#
# Pieces alone: make bootstrap | build | build-java | build-datapath |
#               test-protocol | test-java | test-datapath | test-filters | test-it
SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c

# Maven with the toolchain .ci/bootstrap set up (JDK 21, javac, Maven 3.9).
MVN = . ./.toolchain/env.sh && $$OKO_MVN $$OKO_MVN_FLAGS
VENV = .toolchain/venv

bootstrap:
	.ci/bootstrap

build: bootstrap build-java build-datapath

build-java:
	$(MVN) clean install -DskipTests -Dsft.skip=true -Dcheckstyle.skip -Dspotbugs.skip=true -Dmaven.javadoc.skip=true

build-datapath:
	$(MAKE) -C datapath --no-print-directory all >datapath/build.log 2>&1 \
	    || { tail -40 datapath/build.log; echo "datapath build failed (full log: datapath/build.log)"; exit 1; }
	@echo "datapath: built (log: datapath/build.log)"

up: build
	it/system/up

down:
	it/system/down

test: bootstrap test-protocol test-java test-datapath test-filters test-it

# The protocol's byte vectors are exactly what docs/protocol/vectors/gen_vectors.py spells out.
test-protocol:
	python3 docs/protocol/vectors/gen_vectors.py --check

# Unit tests, checkstyle, spotbugs and the single-feature test of odl-oko.
test-java:
	$(MVN) clean install

test-datapath: build-datapath
	$(MAKE) -C datapath --no-print-directory check

test-filters:
	$(MAKE) -C filter-library --no-print-directory check

# End to end: starts the system, checks it, stops it.  Needs test-java's
# (or build-java's) Karaf distribution and the datapath build.
test-it: build-datapath
	$(VENV)/bin/python -m pytest -v --durations=25 it/tests

# Benchmarks (not tests): the paper's evaluation, written into
# docs/performance.md and docs/performance/.
EXPERIMENTS ?= 1,2,3,4,5,6
ROUNDS ?= 5
SECONDS ?= 5
bench: build
	$(MAKE) -C filter-library --no-print-directory
	$(VENV)/bin/python bench/evaluate --experiments $(EXPERIMENTS) --rounds $(ROUNDS) --seconds $(SECONDS)

.PHONY: bench bootstrap build build-java build-datapath up down test test-protocol test-java test-datapath test-filters test-it
