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

#ifndef OKO_VERSION_H
#define OKO_VERSION_H 1

/* Version of the Oko extension compiled into this Open vSwitch. */
#define OKO_VERSION "0.1.0"

/* Version of the Oko OpenFlow protocol (docs/protocol.md) spoken. */
#define OKO_PROTOCOL_VERSION 1

const char *oko_version(void);
void oko_print_version(void);

#endif /* oko-version.h */
