# Building against the Debian 13 sysroot (datapath/sysroot/fetch): included
# by datapath/Makefile and datapath/runtime/Makefile.
#
# This machine's gcc compiles with the sysroot's headers and links with its
# libraries; each binary names the sysroot's dynamic loader (PT_INTERP) and
# library directory (DT_RPATH, not DT_RUNPATH: an RPATH also covers the
# libraries' own dependencies, so no library of the machine's C library
# generation is mixed into a process).  The machine's kernel runs them.
SYSROOT_HERE := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
SYSROOT      ?= $(shell $(SYSROOT_HERE)/fetch --path)
SYSROOT_LIB  := $(SYSROOT)/usr/lib/x86_64-linux-gnu
SYSROOT_CC   := gcc --sysroot=$(SYSROOT)
SYSROOT_LDFLAGS := -L$(SYSROOT_LIB) -Wl,-rpath-link,$(SYSROOT_LIB) \
    -Wl,--dynamic-linker=$(SYSROOT_LIB)/ld-linux-x86-64.so.2 \
    -Wl,--disable-new-dtags,-rpath,$(SYSROOT_LIB)
SYSROOT_PKG_CONFIG := env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
    PKG_CONFIG_LIBDIR=$(SYSROOT_LIB)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig pkg-config
# DPDK's drivers the project uses, linked into the programs by name: Debian's
# EAL loads its plugin directory (RTE_EAL_PMD_PATH) from the path it was
# built for, /usr/lib/..., which on this machine is not the sysroot's.  An
# operator's NIC driver is added with dpdk-extra="-d <driver .so>"
# (docs/datapath.md).
# One -Wl option (as OVS's DPDK_vswitchd_LDFLAGS): libtool would move bare
# -l options away from the --no-as-needed around them.
SYSROOT_DPDK_DRIVERS := -Wl,--no-as-needed,-lrte_bus_vdev,-lrte_mempool_ring,-lrte_net_pcap,$\
-lrte_net_ring,-lrte_net_null,-lrte_net_tap,-lrte_net_vhost,-lrte_net_af_packet,--as-needed

$(SYSROOT)/.oko-sysroot:
	$(SYSROOT_HERE)/fetch >/dev/null
