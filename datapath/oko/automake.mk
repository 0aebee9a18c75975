# Oko's own sources, compiled into libopenvswitch.  The OVS tree sees this
# folder as lib/oko (a link made by datapath/Makefile); the patch series
# includes this file from OVS's Makefile.am.
lib_libopenvswitch_la_SOURCES += \
	lib/oko/oko-version.c \
	lib/oko/oko-version.h
