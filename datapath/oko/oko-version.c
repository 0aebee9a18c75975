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

#include <config.h>
#include "oko/oko-version.h"

#include <stdio.h>

#include "openvswitch/vlog.h"

VLOG_DEFINE_THIS_MODULE(oko);

const char *
oko_version(void)
{
    return OKO_VERSION;
}

/* Printed by --version after OVS's and DPDK's lines, so that operators (and
 * our tests) can tell an Oko build from a vanilla one. */
void
oko_print_version(void)
{
    printf("Oko %s (stateful filter programs, protocol v%d)\n",
           OKO_VERSION, OKO_PROTOCOL_VERSION);
}
