# Oko's own sources, compiled into Open vSwitch.  The OVS tree sees this
# folder as lib/oko and datapath/runtime as lib/oko-runtime (links made by
# datapath/Makefile); the patch series includes this file last from OVS's
# Makefile.am, so it may add to any program or library.

AM_CPPFLAGS += -I $(top_srcdir)/lib/oko-runtime/include

# The filter-program runtime (datapath/runtime): loader, verifier,
# interpreter, JIT, maps, helpers.
lib_libopenvswitch_la_SOURCES += \
	lib/oko-runtime/include/oko-asm.h \
	lib/oko-runtime/include/oko-epoch.h \
	lib/oko-runtime/include/oko-filter.h \
	lib/oko-runtime/include/oko-fold.h \
	lib/oko-runtime/include/oko-helpers.h \
	lib/oko-runtime/include/oko-inline.h \
	lib/oko-runtime/include/oko-interp.h \
	lib/oko-runtime/include/oko-jit.h \
	lib/oko-runtime/include/oko-map.h \
	lib/oko-runtime/include/oko-program.h \
	lib/oko-runtime/include/oko-stack.h \
	lib/oko-runtime/include/oko-verifier.h \
	lib/oko-runtime/src/oko-arena.c \
	lib/oko-runtime/src/oko-arena.h \
	lib/oko-runtime/src/oko-asm.c \
	lib/oko-runtime/src/oko-elf.c \
	lib/oko-runtime/src/oko-epoch.c \
	lib/oko-runtime/src/oko-filter.c \
	lib/oko-runtime/src/oko-fold.c \
	lib/oko-runtime/src/oko-helpers.c \
	lib/oko-runtime/src/oko-inline.c \
	lib/oko-runtime/src/oko-interp.c \
	lib/oko-runtime/src/oko-isa.h \
	lib/oko-runtime/src/oko-jit.c \
	lib/oko-runtime/src/oko-map.c \
	lib/oko-runtime/src/oko-map-array.c \
	lib/oko-runtime/src/oko-map-bloom.c \
	lib/oko-runtime/src/oko-map-count-min.c \
	lib/oko-runtime/src/oko-map-hash.c \
	lib/oko-runtime/src/oko-map-lpm.c \
	lib/oko-runtime/src/oko-map-private.h \
	lib/oko-runtime/src/oko-scalar.c \
	lib/oko-runtime/src/oko-scalar.h \
	lib/oko-runtime/src/oko-stack.c \
	lib/oko-runtime/src/oko-verifier.c

# Oko in Open vSwitch.
lib_libopenvswitch_la_SOURCES += \
	lib/oko/oko-version.c \
	lib/oko/oko-version.h
lib_libopenvswitch_la_SOURCES += \
	lib/oko/oko-ofp-msgs.h \
	lib/oko/oko-ofp.c \
	lib/oko/oko-ofp.h

# The classifier's filtered rules (decided after a lookup's subtable scan).
lib_libopenvswitch_la_SOURCES += \
	lib/oko/oko-classifier.c \
	lib/oko/oko-classifier.h

# Loaded program instances (run with statistics) and filter-program chains:
# used by translation (ofproto) and by the datapath's caches.
lib_libopenvswitch_la_SOURCES += \
	lib/oko/oko-chain.c \
	lib/oko/oko-chain.h \
	lib/oko/oko-dp.c \
	lib/oko/oko-dp.h \
	lib/oko/oko-fold-xlate.c \
	lib/oko/oko-fold-xlate.h \
	lib/oko/oko-fused.c \
	lib/oko/oko-fused.h \
	lib/oko/oko-instance.c \
	lib/oko/oko-instance.h

# The datapath pass with chain checks: not compiled on its own, but into
# lib/dpif-netdev.c's unit, which includes it (see the file).
EXTRA_DIST += lib/oko/oko-dpif-netdev.c lib/oko/mirrors

# ovs-ofctl's Oko commands (their arguments; the messages are oko-ofp.c's).
# Their handlers are not compiled on their own, but into
# utilities/ovs-ofctl.c's unit, which includes them (see the file).
utilities_ovs_ofctl_SOURCES += \
	lib/oko/oko-ofctl.c \
	lib/oko/oko-ofctl.h
EXTRA_DIST += lib/oko/oko-ovs-ofctl.c

# A bridge's programs and maps (OpenFlow handlers), in libofproto.
ofproto_libofproto_la_CPPFLAGS += -I $(top_srcdir)/ofproto
ofproto_libofproto_la_SOURCES += \
	lib/oko/ofproto-oko.c \
	lib/oko/ofproto-oko.h \
	lib/oko/oko-connmgr.h

# Code that needs an OVS file's private functions and types, so is compiled
# into that file's unit, which includes it (see each file): the SEND_MAPS
# action's codecs (lib/ofp-actions.c) and events (ofproto/connmgr.c).
EXTRA_DIST += lib/oko/oko-ofp-actions.c lib/oko/oko-connmgr.c

# Tests: the autotest suite (tests/testsuite.at includes it, see the patch
# series), a protocol-vector checker and the datapath's chain checks, run
# by it.
TESTSUITE_AT += lib/oko/tests/oko.at
noinst_PROGRAMS += tests/test-oko-ofp
tests_test_oko_ofp_SOURCES = lib/oko/tests/test-oko-ofp.c
tests_test_oko_ofp_LDADD = lib/libopenvswitch.la
noinst_PROGRAMS += tests/test-oko-dp
tests_test_oko_dp_SOURCES = lib/oko/tests/test-oko-dp.c
tests_test_oko_dp_LDADD = lib/libopenvswitch.la
