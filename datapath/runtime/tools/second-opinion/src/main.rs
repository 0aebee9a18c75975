// Copyright (c) 2026 Oko contributors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at:
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

//! oko-prevail DUMP [MIN_LEN] [-v]: PREVAIL's verdict on an Oko filter program
//! as oko-prevail-dump or fuzz-generate wrote it (dump-format.h): the
//! instructions our verifier sees, and the maps.
//!
//! The bridge: the program runs as an XDP program behind a three-instruction
//! prologue that turns PREVAIL's context into Oko's ABI (r1 = packet start,
//! r2 = data_end - data, a number PREVAIL relates to its packet size, as our
//! len is); with MIN_LEN, a fourth returns 0 for shorter packets.  Our seven
//! helpers get PREVAIL prototypes with the same argument kinds and sizes,
//! our map types the Linux map types with the same lookup semantics.
//! PREVAIL does not model what Oko forbids beyond Linux (packet writes,
//! loops, helpers per map type): the run script reads only its refusals of
//! programs ours accepts.  docs/filter-programs.md, "A second opinion".
use std::process::ExitCode;

use prevail::crab::ebpf_domain::DomainContext;
use prevail::crab::var_registry::VariableRegistry;
use prevail::elf_loader::UnmarshalError;
use prevail::fwd_analyzer;
use prevail::ir::program::Program;
use prevail::ir::unmarshal;
use prevail::linux::linux_platform::LinuxPlatform;
use prevail::linux::spec_prototypes::HelperPrototype;
use prevail::platform::EbpfPlatform;
use prevail::spec::config::{EbpfRuntimeConfig, EbpfVerifierOptions, VerbosityOptions};
use prevail::spec::ebpf_base::{EbpfArgumentType as A, EbpfReturnType as R};
use prevail::spec::type_descriptors::{
    EbpfMapDescriptor, EbpfMapType, EbpfProgramType, ProgramInfo,
};
use prevail::spec::vm_isa::EbpfInst;

const fn proto(name: &'static str, ret: R, args: [A; 5]) -> HelperPrototype {
    HelperPrototype {
        name,
        return_type: ret,
        argument_type: args,
        reallocate_packet: false,
        ctx_descriptor: None,
        unsupported: false,
        might_sleep: false,
        zero_args_mask: 0,
        allowed_map_types: 0,
    }
}

// Oko's helpers (datapath/runtime/include/oko-helpers.h), by id.
static HELPERS: [HelperPrototype; 8] = [
    proto("unused", R::Integer, [A::DontCare; 5]),
    proto("oko_map_lookup", R::PtrToMapValueOrNull,
          [A::PtrToMap, A::PtrToMapKey, A::DontCare, A::DontCare, A::DontCare]),
    proto("oko_map_update", R::Integer,
          [A::PtrToMap, A::PtrToMapKey, A::PtrToMapValue, A::Anything, A::DontCare]),
    proto("oko_map_delete", R::Integer,
          [A::PtrToMap, A::PtrToMapKey, A::DontCare, A::DontCare, A::DontCare]),
    proto("oko_map_add", R::Integer,
          [A::PtrToMap, A::PtrToMapKey, A::Anything, A::DontCare, A::DontCare]),
    proto("oko_map_query", R::Integer,
          [A::PtrToMap, A::PtrToMapKey, A::DontCare, A::DontCare, A::DontCare]),
    proto("oko_time_ns", R::Integer, [A::DontCare; 5]),
    proto("oko_hash", R::Integer,
          [A::PtrToReadableMem, A::ConstSizeOrZero, A::Anything, A::DontCare, A::DontCare]),
];

struct OkoPlatform {
    linux: LinuxPlatform,
}

impl EbpfPlatform for OkoPlatform {
    fn get_program_type(&self, section: &str, path: &str) -> EbpfProgramType {
        self.linux.get_program_type(section, path)
    }
    fn get_helper_prototype(&self, n: i32) -> &HelperPrototype {
        &HELPERS[n as usize]
    }
    fn try_get_helper_prototype(&self, n: i32) -> Option<&HelperPrototype> {
        if (1..=7).contains(&n) { Some(&HELPERS[n as usize]) } else { None }
    }
    fn is_helper_usable(&self, n: i32) -> bool {
        (1..=7).contains(&n)
    }
    fn map_record_size(&self) -> usize {
        self.linux.map_record_size()
    }
    fn parse_maps_section(&mut self, d: &mut Vec<EbpfMapDescriptor>, data: &[u8], rs: usize,
                          count: usize, o: &EbpfVerifierOptions) {
        self.linux.parse_maps_section(d, data, rs, count, o)
    }
    fn resolve_inner_map_references(&self, d: &mut Vec<EbpfMapDescriptor>)
                                    -> Result<(), UnmarshalError> {
        self.linux.resolve_inner_map_references(d)
    }
    fn get_map_descriptor(&self, fd: i32) -> Option<&EbpfMapDescriptor> {
        self.linux.get_map_descriptor(fd)
    }
    fn get_map_type(&self, t: u32) -> EbpfMapType {
        self.linux.get_map_type(t)
    }
    fn supported_conformance_groups(&self) -> u32 {
        self.linux.supported_conformance_groups()
    }
}

// Oko map type -> Linux map type with the same lookup semantics.
fn linux_map_type(oko: u32) -> u32 {
    match oko {
        1 => 1,      // hash -> BPF_MAP_TYPE_HASH
        2 => 2,      // array -> BPF_MAP_TYPE_ARRAY
        3 => 9,      // lru_hash -> BPF_MAP_TYPE_LRU_HASH
        4 => 1,      // bloom: keyed, no value (map_add/query only) -> hash
        5 => 1,      // count_min: keyed counters (map_add/query only) -> hash
        6 => 11,     // lpm -> BPF_MAP_TYPE_LPM_TRIE
        _ => 0,
    }
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(b[off..off + 4].try_into().unwrap())
}

fn inst(opcode: u8, dst: u8, src: u8, offset: i16, imm: i32) -> EbpfInst {
    EbpfInst { opcode, dst_src: (src << 4) | dst, offset, imm }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        eprintln!("usage: oko-prevail DUMP [-v]");
        return ExitCode::from(2);
    }
    let verbose = args.iter().any(|a| a == "-v");
    // MIN_LEN (the conformance suite's fixed memory block): the prologue
    // returns 0 for shorter packets, as our verifier's min_len assumes.
    let min_len: i32 = args.get(2).filter(|a| *a != "-v").map_or(0, |a| a.parse().unwrap());
    let b = std::fs::read(&args[1]).expect("read dump");
    let n_maps = u32_at(&b, 0) as usize;
    let mut off = 4;
    let mut maps = Vec::new();
    for i in 0..n_maps {
        let (t, k, v, m) = (u32_at(&b, off), u32_at(&b, off + 4), u32_at(&b, off + 8),
                            u32_at(&b, off + 12));
        off += 20;
        maps.push(EbpfMapDescriptor {
            original_fd: i as i32,
            map_type: linux_map_type(t),
            key_size: k,
            value_size: v,
            max_entries: m,
            inner_map_fd: -1,
            name: format!("map{i}"),
            is_inner_map_template: false,
        });
    }
    let n_insns = u32_at(&b, off) as usize;
    off += 4;
    // Prologue: r2 = ctx->data_end; r1 = ctx->data; r2 -= r1 (a number: the
    // packet's size, which PREVAIL tracks, as Oko's len is).
    let mut prog = vec![
        inst(0x61, 2, 1, 4, 0),
        inst(0x61, 1, 1, 0, 0),
        inst(0x1f, 2, 1, 0, 0),
    ];
    let prologue = if min_len > 0 { 4 } else { 3 };
    if min_len > 0 {
        prog.push(inst(0xa5, 2, 0, n_insns as i16, min_len)); // jlt r2, min_len, -> tail
    }
    for i in 0..n_insns {
        let s = &b[off + 8 * i..off + 8 * i + 8];
        prog.push(EbpfInst {
            opcode: s[0],
            dst_src: s[1],
            offset: i16::from_le_bytes([s[2], s[3]]),
            imm: i32::from_le_bytes([s[4], s[5], s[6], s[7]]),
        });
    }

    if min_len > 0 {
        prog.push(inst(0xb7, 0, 0, 0, 0)); // tail: mov r0, 0
        prog.push(inst(0x95, 0, 0, 0, 0)); // exit
    }
    let opts = EbpfVerifierOptions {
        must_have_exit: true,
        mock_map_fds: true,
        runtime: EbpfRuntimeConfig {
            strict: false,
            allow_division_by_zero: true,
            setup_constraints: true,
            big_endian: false,
            check_for_termination: true,
            subprogram_stack_size: EbpfRuntimeConfig::DEFAULT_SUBPROGRAM_STACK_SIZE,
            max_call_stack_frames: EbpfRuntimeConfig::DEFAULT_MAX_CALL_STACK_FRAMES,
            // PREVAIL's bound is exclusive: packet sizes 0 to 65,535, as our len.
            max_packet_size: 0x10000,
        },
        verbosity_opts: VerbosityOptions::default(),
    };
    let mut platform = OkoPlatform { linux: LinuxPlatform::new() };
    let ptype = platform.get_program_type("xdp", "oko");
    platform.linux.map_descriptors = maps.clone();
    platform.linux.set_program_type(&ptype);
    let mut info = ProgramInfo {
        map_descriptors: maps,
        program_type: ptype,
        supported_conformance_groups: platform.supported_conformance_groups(),
        ..Default::default()
    };
    let mut notes = Vec::new();
    let seq = match unmarshal::unmarshal(&prog, &mut notes, &info, &platform, &opts) {
        Ok(s) => s,
        Err(e) => {
            println!("prevail: reject: unmarshal: {e}");
            return ExitCode::from(1);
        }
    };
    let program = match Program::from_sequence(&seq, &mut info, &platform, &opts) {
        Ok(p) => p,
        Err(e) => {
            println!("prevail: reject: cfg: {e}");
            return ExitCode::from(1);
        }
    };
    let ctx = DomainContext {
        program_info: &info,
        program: &program,
        runtime: &opts.runtime,
        options: &opts,
        platform: &platform,
    };
    let mut registry = VariableRegistry::new();
    let result = fwd_analyzer::analyze(&program, &ctx, &mut registry);
    if result.failed {
        let mut out = Vec::new();
        if let Some(err) = result.find_first_error() {
            let _ = prevail::printing::print_error(&mut out, &err);
        }
        let msg = String::from_utf8_lossy(&out).replace('\n', " ");
        println!("prevail: reject: {} (our insn = pc - {prologue})", msg.trim());
        if verbose {
            let _ = prevail::printing::print_invariants(&mut std::io::stdout(), &program, &info,
                                                        true, &result, &registry);
        }
        ExitCode::from(1)
    } else {
        println!("prevail: accept");
        ExitCode::SUCCESS
    }
}
