/*
 * Copyright (c) 2026 Oko contributors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at:
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

#ifndef OKO_OFCTL_H
#define OKO_OFCTL_H 1

/* ovs-ofctl's Oko commands (docs/datapath.md): each function builds the
 * request of one command from its command line, argv[0] being the command
 * and argv[1] the switch, for a connection of OpenFlow 'version'.  Each
 * returns NULL and sets '*request', or returns a malloc'd error text.
 * ovs-ofctl sends the request (oko-ovs-ofctl.c, which patch 0005 includes
 * into utilities/ovs-ofctl.c): a multipart request's replies are printed,
 * any other request is confirmed with a barrier. */

#include "openflow/openflow-common.h"

struct ofpbuf;

char *oko_ofctl_load_filter_prog(int argc, char *argv[],
                                 enum ofp_version version,
                                 struct ofpbuf **request);
char *oko_ofctl_unload_filter_prog(int argc, char *argv[],
                                   enum ofp_version version,
                                   struct ofpbuf **request);
char *oko_ofctl_update_map(int argc, char *argv[], enum ofp_version version,
                           struct ofpbuf **request);
char *oko_ofctl_delete_map_entries(int argc, char *argv[],
                                   enum ofp_version version,
                                   struct ofpbuf **request);
char *oko_ofctl_dump_maps(int argc, char *argv[], enum ofp_version version,
                          struct ofpbuf **request);
char *oko_ofctl_dump_prog_stats(int argc, char *argv[],
                                enum ofp_version version,
                                struct ofpbuf **request);
char *oko_ofctl_mark_installed(int argc, char *argv[],
                               enum ofp_version version,
                               struct ofpbuf **request);
char *oko_ofctl_replay_maps(int argc, char *argv[], enum ofp_version version,
                            struct ofpbuf **request);


/* Prints the Oko commands' lines of 'ovs-ofctl --help'. */
void oko_ofctl_usage(void);

#endif /* oko-ofctl.h */
