# Oko for OpenDaylight: entry point.
#
#   make up       bootstrap the toolchain, build what changed, start the system
#                 (keeps the controller's configuration and the OVS database;
#                 CLUSTER=3 for three controller members, SWITCHES=N bridges)
#   make down     stop everything `make up` started
#   make reset    stop everything and delete all state of `make up` (.run/)
#   make test     every test of every part (what CI runs)
#   make bench    benchmarks, not tests (bench/README.md): the paper's
#                 evaluation (long; EXPERIMENTS=1,2 ROUNDS=N SECONDS=S), or
#                 WHAT=filters|runtime|throughput|all
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

JAVA_SKIPS = -DskipTests -Dsft.skip=true -Dcheckstyle.skip -Dspotbugs.skip=true -Dmaven.javadoc.skip=true
build-java:
	$(MVN) clean install $(JAVA_SKIPS)
	touch $(JAVA_STAMP)

# `make up` rebuilds the Java reactor only when one of its files changed
# since the last build (even a Maven no-op costs ~50 s).  With `clean`: the
# YANG code generators do not build incrementally.
JAVA_STAMP := features/oko-karaf/target/.oko-built
JAVA_FILES := $(shell find pom.xml openflowjava-oko-ext oko-northbound features \
                  -name target -prune -o -type f -print 2>/dev/null)
$(JAVA_STAMP): $(JAVA_FILES)
	$(MVN) clean install $(JAVA_SKIPS)
	touch $@

build-datapath:
	$(MAKE) -C datapath --no-print-directory all >datapath/build.log 2>&1 \
	    || { tail -40 datapath/build.log; echo "datapath build failed (full log: datapath/build.log)"; exit 1; }
	@echo "datapath: built (log: datapath/build.log)"

# CLUSTER=3: three controller members on 127.0.0.1-3; SWITCHES=N: N bridges.
up: bootstrap $(JAVA_STAMP) build-datapath
	it/system/up $(if $(CLUSTER),--cluster $(CLUSTER)) $(if $(SWITCHES),--switches $(SWITCHES))

down:
	it/system/down

# The only target that deletes state: the controller's datastore, the OVS
# database, logs (everything under .run/).
reset:
	it/system/down
	it/system/reset

test: bootstrap test-protocol test-java test-datapath test-filters test-it

# The protocol's byte vectors are exactly what docs/protocol/vectors/gen_vectors.py spells out.
test-protocol:
	python3 docs/protocol/vectors/gen_vectors.py --check

# Unit tests, checkstyle, spotbugs and the single-feature test of odl-oko.
test-java:
	$(MVN) clean install
	touch $(JAVA_STAMP)

test-datapath: build-datapath
	$(MAKE) -C datapath --no-print-directory check

test-filters: bootstrap
	$(MAKE) -C datapath/runtime --no-print-directory build/oko-filter
	$(MAKE) -C filter-library --no-print-directory check

# End to end: starts the system, checks it, stops it.  Needs test-java's
# (or build-java's) Karaf distribution and the datapath build.
test-it: build-datapath
	$(VENV)/bin/python -m pytest -v --durations=25 it/tests

# Benchmarks (not tests), all from here; bench/README.md says what each
# measures, where its code is and where its figures go.  WHAT chooses:
#   evaluation  the paper's evaluation into docs/performance.md
#               (EXPERIMENTS=1,2 ROUNDS=N SECONDS=S)
#   filters     each library filter's cost per packet into
#               docs/filter-costs.md (ROUNDS=N AGAINST=dir AGAINST_TOOL=path AGAINST_LABEL=text)
#   runtime     the runtime's micro-benchmarks (interpreter vs JIT, maps,
#               librte_bpf; ROUNDS=N), printed
#   throughput  one comparison of the switches (ARGS="--trace realistic
#               --cache no-emc --prog filter-library/build/baseline.o")
#   instructions  the same comparison in instructions per packet, counted
#               by valgrind, not timed (ARGS="--trace T --cache C --prog
#               FILE.o --chain N")
#   durability  what the configuration store costs: acknowledged writes/s
#               with and without it, 1 and 8 clients, 1 and 3 members, and
#               the start with 1,000 switch entries and 10,000 flows (stops
#               and starts the controllers; ARGS="--members 1 --rounds 5")
#   all         evaluation, filters and runtime
WHAT ?= evaluation
EXPERIMENTS ?= 1,2,3,4,5,6,7
ROUNDS ?= 5
SECONDS ?= 5
BENCHES := evaluation filters runtime throughput instructions durability
bench:
	@case " $(BENCHES) all " in *" $(WHAT) "*) ;; \
	  *) echo "make bench: WHAT=$(WHAT)? one of: $(BENCHES) all" >&2; exit 2;; esac
	$(MAKE) --no-print-directory $(if $(filter all,$(WHAT)),bench-evaluation bench-filters bench-runtime,bench-$(WHAT))

bench-evaluation: build
	$(MAKE) -C filter-library --no-print-directory
	$(VENV)/bin/python bench/evaluate --experiments $(EXPERIMENTS) --rounds $(ROUNDS) --seconds $(SECONDS)

bench-filters: bootstrap
	$(MAKE) -C datapath/runtime --no-print-directory build/oko-filter
	$(MAKE) -C filter-library --no-print-directory bench

bench-runtime: bootstrap
	$(MAKE) -C datapath/runtime --no-print-directory bench

bench-throughput: build-datapath
	$(MAKE) -C filter-library --no-print-directory
	datapath/bench/throughput $(ARGS)

bench-instructions: build-datapath
	$(MAKE) -C filter-library --no-print-directory
	datapath/bench/instructions $(ARGS)

bench-durability: bootstrap $(JAVA_STAMP) build-datapath
	$(VENV)/bin/python it/tools/durability-bench $(ARGS)

.PHONY: bench bench-evaluation bench-filters bench-runtime bench-throughput bench-instructions bench-durability bootstrap build build-java build-datapath up down reset test test-protocol test-java test-datapath test-filters test-it
