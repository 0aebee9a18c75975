# Source this to use the OVS tools against the switch `make up` started:
#   . it/system/env.sh; ovs-vsctl show; ovs-ofctl -O OpenFlow13 dump-flows br0
# Everything lives under $OKO_RUN (default <repo>/.run).
_oko_repo=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/../.." && pwd)
export OKO_REPO=$_oko_repo
export OKO_RUN=${OKO_RUN:-$_oko_repo/.run}
export OKO_OVS_BUILD=${OKO_OVS_BUILD:-$_oko_repo/datapath/build/oko}
export OVS_RUNDIR=$OKO_RUN/ovs OVS_LOGDIR=$OKO_RUN/ovs OVS_DBDIR=$OKO_RUN/ovs OVS_SYSCONFDIR=$OKO_RUN/ovs
export OVS_PKGDATADIR=$_oko_repo/datapath/build/src-oko
export OKO_KARAF=$OKO_RUN/karaf
export OKO_BRIDGE=${OKO_BRIDGE:-br0}
export OKO_DPID=${OKO_DPID:-0000000000000001}
export OKO_RESTCONF=${OKO_RESTCONF:-http://127.0.0.1:8181/rests}
export OKO_OF_PORT=${OKO_OF_PORT:-6653}
case ":$PATH:" in
  *":$OKO_OVS_BUILD/utilities:"*) ;;
  *) PATH=$OKO_OVS_BUILD/utilities:$OKO_OVS_BUILD/vswitchd:$OKO_OVS_BUILD/ovsdb:$PATH ;;
esac
export PATH
unset _oko_repo
# Karaf's bin/client and bin/karaf need a Java 21: the toolchain's.
[ -f "$OKO_REPO/.toolchain/env.sh" ] && . "$OKO_REPO/.toolchain/env.sh"
