//! Resource limits as named profiles (V5xx). The default profile, `tgsi_exec`, holds the sizes
//! of Mesa's interpreter (`tgsi_exec.h`: 4096 temporaries, nesting 32 per construct, 4096 vec4
//! per constant buffer; Gallium's `PIPE_MAX_*`: 32 constant buffers, 80 inputs and outputs,
//! 32 samplers, 128 sampler views; 3 address registers and 8 system values in the machine).
//! Other issues add profiles to [`PROFILES`] (AGAL adds its own).
//!
//! Limits are checked on the highest register index a declaration names, so a huge range is
//! one comparison, never an allocation.

use super::control_flow::{BlockTarget, Structure};
use super::Context;
use crate::diag::Diagnostic;
use crate::ir::{DclDimension, File, Processor, Shader};
use crate::opcode::Opcode;

/// A named set of resource limits. Register limits are counts: valid indices are `0..limit`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    pub description: &'static str,
    pub max_temps: u64,
    pub max_const_buffers: u64,
    /// vec4 registers per constant buffer.
    pub max_consts: u64,
    pub max_inputs: u64,
    /// Per-vertex attributes of geometry/tessellation inputs (`IN[vertex][attr]`).
    pub max_vertex_inputs: u64,
    pub max_outputs: u64,
    pub max_samplers: u64,
    pub max_sampler_views: u64,
    pub max_addrs: u64,
    pub max_system_values: u64,
    pub max_immediates: Option<u64>,
    /// Nesting of each construct (IF, loop, SWITCH) counted separately, as tgsi_exec's stacks.
    pub max_nesting: u64,
    pub max_call_depth: u64,
    pub max_instructions: Option<u64>,
    /// Registers of TEMP, OUT, IN (per vertex × vertices for geometry shaders), SV, ADDR and IMM
    /// together: the storage one batch of the interpreter holds.
    pub max_total_registers: Option<u64>,
}

pub const DEFAULT_PROFILE: &str = "tgsi_exec";

/// Mesa's tgsi_exec limits (`tgsi_exec.h`): the default profile.
pub static TGSI_EXEC: Profile = Profile {
    name: "tgsi_exec",
    description: "Mesa's tgsi_exec interpreter (softpipe), which the playground reproduces",
    max_temps: 4096,
    max_const_buffers: 32,
    max_consts: 4096,
    max_inputs: 80,
    max_vertex_inputs: 32,
    max_outputs: 80,
    max_samplers: 32,
    max_sampler_views: 128,
    max_addrs: 3,
    max_system_values: 8,
    // tgsi_exec grows its immediate array; the playground's interpreter stores at most 4096
    // immediates and 6144 registers in all, and refusing more here keeps `check` and `run` in
    // agreement.
    max_immediates: Some(4096),
    max_nesting: 32,
    max_call_depth: 32,
    max_instructions: None,
    max_total_registers: Some(6144),
};

/// Every known profile; the first is the default.
pub static PROFILES: &[&Profile] = &[&TGSI_EXEC];

impl Profile {
    pub fn by_name(name: &str) -> Option<&'static Profile> {
        PROFILES.iter().copied().find(|p| p.name.eq_ignore_ascii_case(name))
    }
    pub fn default_profile() -> &'static Profile {
        &TGSI_EXEC
    }
}

pub(crate) fn check(cx: &Context, st: &Structure, p: &Profile, out: &mut Vec<Diagnostic>) {
    let shader = cx.shader;
    let per_vertex =
        matches!(shader.processor, Processor::Geometry | Processor::TessCtrl | Processor::TessEval);
    for d in &shader.declarations {
        let (code, limit, what) = match d.file {
            File::Temp => ("V501", p.max_temps, "temporaries"),
            File::Const => ("V502", p.max_consts, "constants per buffer"),
            File::In if per_vertex && d.dimension == DclDimension::Implied => {
                ("V503", p.max_vertex_inputs, "inputs per vertex")
            }
            File::In => ("V503", p.max_inputs, "inputs"),
            File::Out => ("V504", p.max_outputs, "outputs"),
            File::Samp => ("V505", p.max_samplers, "samplers"),
            File::Sview => ("V505", p.max_sampler_views, "sampler views"),
            File::Addr => ("V508", p.max_addrs, "address registers"),
            File::Sv => ("V509", p.max_system_values, "system values"),
            _ => continue,
        };
        if d.range.last as u64 >= limit {
            out.push(Diagnostic::error(
                code,
                format!(
                    "{}[{}] is beyond the '{}' limit of {} {} ({}[0..{}])",
                    d.file,
                    d.range.last,
                    p.name,
                    limit,
                    what,
                    d.file,
                    limit.saturating_sub(1)
                ),
                d.range.span,
            ));
        }
        if let (File::Const, DclDimension::Range(r)) = (d.file, d.dimension) {
            if r.last as u64 >= p.max_const_buffers {
                out.push(Diagnostic::error(
                    "V502",
                    format!(
                        "constant buffer {} is beyond the '{}' limit of {} buffers",
                        r.last, p.name, p.max_const_buffers
                    ),
                    if r.span.is_empty() { d.span } else { r.span },
                ));
            }
        }
    }
    if let Some(max) = p.max_immediates {
        if shader.immediates.len() as u64 > max {
            let at = shader.immediates.get(max as usize).map_or(shader.header_span, |m| m.span);
            out.push(Diagnostic::error(
                "V511",
                format!("more than {} immediates (the '{}' limit)", max, p.name),
                at,
            ));
        }
    }
    for (k, depth, what) in [
        (0, st.max_cond_depth, "IF/UIF blocks"),
        (1, st.max_loop_depth, "loops"),
        (2, st.max_switch_depth, "SWITCH blocks"),
    ] {
        if depth as u64 > p.max_nesting {
            // The first opener one level too deep.
            let at = st
                .first_at_depth
                .get(k)
                .and_then(|v| v.get(usize::try_from(p.max_nesting).unwrap_or(usize::MAX)))
                .copied()
                .unwrap_or(shader.header_span);
            out.push(Diagnostic::error(
                "V506",
                format!(
                    "{} are nested {} deep; the '{}' limit is {}",
                    what, depth, p.name, p.max_nesting
                ),
                at,
            ));
        }
    }
    if st.call_depth as u64 > p.max_call_depth {
        out.push(Diagnostic::error(
            "V510",
            format!(
                "subroutine calls nest {} deep; the '{}' limit is {}",
                st.call_depth, p.name, p.max_call_depth
            ),
            shader.header_span,
        ));
    }
    // The total only matters once every file is within its own limit (one diagnostic per cause).
    let per_file_exceeded = out.iter().any(|d| {
        matches!(d.code, "V501" | "V502" | "V503" | "V504" | "V505" | "V508" | "V509" | "V511")
    });
    if let (Some(max), false) = (p.max_total_registers, per_file_exceeded) {
        let total = storage_registers(shader);
        if total > max {
            out.push(Diagnostic::error(
                "V512",
                format!(
                    "{} registers are declared in TEMP, OUT, IN, SV, ADDR and IMM together; the '{}' limit is {}",
                    total, p.name, max
                ),
                shader.header_span,
            ));
        }
    }
    if let Some(max) = p.max_instructions {
        if shader.instructions.len() as u64 > max {
            let at = shader.instructions.get(max as usize).map_or(shader.header_span, |i| i.span);
            out.push(Diagnostic::error(
                "V507",
                format!(
                    "{} instructions; the '{}' limit is {}",
                    shader.instructions.len(),
                    p.name,
                    max
                ),
                at,
            ));
        }
    }
}

/// Call-graph facts: the deepest chain of nested calls from the main program, and the first CAL
/// that closes a cycle (recursion), if any. Iterative, linear in calls plus subroutines.
pub fn call_graph(shader: &Shader, targets: &[BlockTarget]) -> (usize, Option<usize>) {
    // Subroutines as [BGNSUB, ENDSUB] ranges, sorted (node k+1); node 0 is the main program.
    let subs: Vec<(usize, usize)> =
        targets.iter().filter(|t| t.opcode == Opcode::BGNSUB).map(|t| (t.at, t.end)).collect();
    let node_of = |i: usize| -> usize {
        let p = subs.partition_point(|&(b, _)| b <= i);
        match p.checked_sub(1).and_then(|k| subs.get(k)) {
            Some(&(_, e)) if i <= e => p,
            _ => 0,
        }
    };
    let mut edges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); subs.len() + 1];
    for t in targets.iter().filter(|t| matches!(t.opcode, Opcode::CAL | Opcode::CALLNZ)) {
        let callee = subs.partition_point(|&(b, _)| b < t.partner) + 1;
        if subs.get(callee - 1).is_some_and(|&(b, _)| b == t.partner) {
            if let Some(e) = edges.get_mut(node_of(t.at)) {
                e.push((callee, t.at));
            }
        }
    }
    let _ = shader;
    // Longest path by iterative depth-first search; gray nodes on the stack reveal cycles.
    let n = edges.len();
    let mut color = vec![0u8; n];
    let mut depth = vec![0usize; n];
    let mut recursive = None;
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    color[0] = 1;
    while let Some(&mut (node, ref mut next)) = stack.last_mut() {
        let edge = edges.get(node).and_then(|e| e.get(*next)).copied();
        *next += 1;
        match edge {
            Some((callee, at)) => match color.get(callee).copied() {
                Some(0) => {
                    color[callee] = 1;
                    stack.push((callee, 0));
                }
                Some(1) => {
                    recursive.get_or_insert(at);
                }
                _ => {
                    let d = depth.get(callee).copied().unwrap_or(0);
                    if let Some(x) = depth.get_mut(node) {
                        *x = (*x).max(d);
                    }
                }
            },
            None => {
                stack.pop();
                if let Some(c) = color.get_mut(node) {
                    *c = 2;
                }
                let own = depth.get(node).copied().unwrap_or(0) + usize::from(node != 0);
                if let Some(x) = depth.get_mut(node) {
                    *x = own;
                }
                if let Some(&(parent, _)) = stack.last() {
                    if let Some(x) = depth.get_mut(parent) {
                        *x = (*x).max(own);
                    }
                }
            }
        }
    }
    (depth.first().copied().unwrap_or(0), recursive)
}

/// Registers the interpreter lays out for a shader: per file the highest declared index + 1
/// (inputs of a geometry shader once per vertex of its input primitive) plus the immediates.
fn storage_registers(shader: &Shader) -> u64 {
    let mut top = [0u64; 5];
    for d in &shader.declarations {
        let slot = match d.file {
            File::Temp => 0,
            File::Out => 1,
            File::In => 2,
            File::Sv => 3,
            File::Addr => 4,
            _ => continue,
        };
        top[slot] = top[slot].max(d.range.last as u64 + 1);
    }
    if let Some(v) = shader.geometry_input_vertices() {
        top[2] = top[2].max(1).saturating_mul(v as u64);
    }
    top.iter().sum::<u64>() + shader.immediates.len() as u64
}
