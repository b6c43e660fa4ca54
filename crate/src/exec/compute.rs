//! Compute dispatch (tgsi.rst "Compute ISA", "Inter-thread synchronization opcodes"): a grid of
//! blocks, each block run as ONE batch so that all its invocations execute every instruction
//! together — BARRIER then holds by construction (every invocation of the block reaches it
//! before any goes on) and MEMBAR has nothing to wait for. Shared memory is cleared per block.

use super::io::{Batch, Constants, TextureHooks};
use super::machine::{ExecError, Machine, RunStats};
use super::memory::{Resources, DEFAULT_SHARED_BYTES};
use super::program::Program;
use super::trace::Trace;
use crate::diag::Diagnostic;
use crate::ir::{PropertyName, PropertyValue, SemanticName, Span};

/// Most invocations per block (GL's minimum maximum, 1024).
pub const MAX_BLOCK_INVOCATIONS: u64 = 1024;
/// Most invocations per dispatch, so that a run stays bounded in time.
pub const MAX_DISPATCH_INVOCATIONS: u64 = 1 << 22;

/// The block size the shader fixes with CS_FIXED_BLOCK_WIDTH/HEIGHT/DEPTH, if it does.
pub fn fixed_block_size(program: &Program) -> Option<[u32; 3]> {
    let get = |n: PropertyName| {
        program.properties.iter().rev().find(|p| p.name == n).and_then(|p| match p.value {
            PropertyValue::Uint(v) => Some(v),
            _ => None,
        })
    };
    let w = get(PropertyName::CsFixedBlockWidth)?;
    Some([
        w,
        get(PropertyName::CsFixedBlockHeight).unwrap_or(1),
        get(PropertyName::CsFixedBlockDepth).unwrap_or(1),
    ])
}

fn size_error(msg: String) -> ExecError {
    ExecError {
        diagnostic: Diagnostic::error("X009", msg, Span::default()),
        instruction: 0,
        span: Span::default(),
    }
}

/// The default budget of a dispatch (`limits::default_frame_budget`): its invocations over the
/// whole grid, four to a quad, rounded up. Without a block size (a dispatch that will not run)
/// a block counts one invocation.
pub fn default_budget(program: &Program, grid: [u32; 3], block: Option<[u32; 3]>) -> u64 {
    let block = block.or_else(|| fixed_block_size(program)).unwrap_or([1, 1, 1]);
    let invocations =
        grid.iter().chain(block.iter()).fold(1u64, |a, &v| a.saturating_mul(u64::from(v)));
    crate::limits::default_frame_budget(invocations.div_ceil(4))
}

/// Runs a compute shader over `grid` blocks of `block` invocations (None: the shader's
/// CS_FIXED_BLOCK_* properties). THREAD_ID, BLOCK_ID, BLOCK_SIZE and GRID_SIZE system values
/// are filled per invocation. Resources are read and written in place.
pub fn dispatch(
    machine: &mut Machine,
    program: &Program,
    consts: &Constants,
    hooks: &mut dyn TextureHooks,
    resources: &mut Resources,
    grid: [u32; 3],
    block: Option<[u32; 3]>,
) -> Result<RunStats, ExecError> {
    run_blocks(machine, program, consts, hooks, resources, grid, block, None, &mut None)
}

/// [`dispatch`], tracing quad `quad` (invocations `4 * quad ..`) of block `block_id`: the
/// same run with that block's batch in trace mode (`tgsi diff` shows the invocation that wrote
/// a differing word). The trace is `None` when that block or quad is not in the dispatch.
#[allow(clippy::too_many_arguments)]
pub fn dispatch_traced(
    machine: &mut Machine,
    program: &Program,
    consts: &Constants,
    hooks: &mut dyn TextureHooks,
    resources: &mut Resources,
    grid: [u32; 3],
    block: Option<[u32; 3]>,
    block_id: [u32; 3],
    quad: usize,
) -> (Result<RunStats, ExecError>, Option<Trace>) {
    let mut trace = None;
    let watched = Some((block_id, quad));
    let r =
        run_blocks(machine, program, consts, hooks, resources, grid, block, watched, &mut trace);
    (r, trace)
}

/// A dispatch's sizes, checked ([`Grid::check`]): the grid, the block size, and the blocks and
/// quads per block they make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Blocks in the grid (at most [`MAX_DISPATCH_INVOCATIONS`]).
    pub blocks: u64,
    /// Invocations per block (1 to [`MAX_BLOCK_INVOCATIONS`]).
    pub invocations: usize,
}

impl Grid {
    /// The block size (`block`, else the shader's CS_FIXED_BLOCK_* properties) and the grid's
    /// sizes within the limits, or the `X009` diagnostic.
    pub fn check(
        program: &Program,
        grid: [u32; 3],
        block: Option<[u32; 3]>,
    ) -> Result<Grid, ExecError> {
        let Some(block) = block.or_else(|| fixed_block_size(program)) else {
            return Err(size_error(
                "no block size: give one or declare CS_FIXED_BLOCK_WIDTH/HEIGHT/DEPTH".into(),
            ));
        };
        let threads: u64 = block.iter().fold(1u64, |a, &v| a.saturating_mul(v as u64));
        if threads == 0 || threads > MAX_BLOCK_INVOCATIONS {
            return Err(size_error(format!(
                "a block of {}x{}x{} invocations is outside 1..={}",
                block[0], block[1], block[2], MAX_BLOCK_INVOCATIONS
            )));
        }
        let blocks: u64 = grid.iter().fold(1u64, |a, &v| a.saturating_mul(v as u64));
        if blocks.saturating_mul(threads) > MAX_DISPATCH_INVOCATIONS {
            return Err(size_error(format!(
                "{} invocations in one dispatch is more than {}",
                blocks.saturating_mul(threads),
                MAX_DISPATCH_INVOCATIONS
            )));
        }
        Ok(Grid { grid, block, blocks, invocations: threads as usize })
    }

    /// Quads of one block's batch.
    pub fn quads(&self) -> usize {
        self.invocations.div_ceil(4)
    }

    /// BLOCK_ID of the block run `i`-th (x fastest, then y, then z).
    pub fn block_id(&self, i: u64) -> [u32; 3] {
        let [gx, gy, _] = self.grid.map(u64::from);
        let (gx, gy) = (gx.max(1), gy.max(1));
        [(i % gx) as u32, ((i / gx) % gy) as u32, (i / (gx * gy)) as u32]
    }
}

/// The dispatch; the batch of block `watched.0` runs in trace mode for quad `watched.1`,
/// its trace left in `trace`.
#[allow(clippy::too_many_arguments)]
fn run_blocks(
    machine: &mut Machine,
    program: &Program,
    consts: &Constants,
    hooks: &mut dyn TextureHooks,
    resources: &mut Resources,
    grid: [u32; 3],
    block: Option<[u32; 3]>,
    watched: Option<([u32; 3], usize)>,
    trace: &mut Option<Trace>,
) -> Result<RunStats, ExecError> {
    let size = Grid::check(program, grid, block)?;
    run_range(machine, program, consts, hooks, resources, &size, 0..size.blocks, watched, trace)
        .map(|(total, _)| total)
}

/// Runs blocks `range` of the grid (in the order [`Grid::block_id`] numbers them), each as one
/// batch with shared and private memory cleared before it; the sums of their runs' counts and
/// the most work one block did, or the first error.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_range(
    machine: &mut Machine,
    program: &Program,
    consts: &Constants,
    hooks: &mut dyn TextureHooks,
    resources: &mut Resources,
    size: &Grid,
    range: std::ops::Range<u64>,
    watched: Option<([u32; 3], usize)>,
    trace: &mut Option<Trace>,
) -> Result<(RunStats, u64), ExecError> {
    let (grid, block, threads) = (size.grid, size.block, size.invocations);
    let quads = size.quads();
    let mut batch = Batch::new(program, quads);
    // Lanes past the block's last invocation are padding: helpers, which never write.
    for (q, cov) in batch.coverage.iter_mut().enumerate() {
        *cov = (0..4).filter(|l| q * 4 + l < threads).fold(0u8, |m, l| m | 1 << l);
    }
    let [bw, bh, _] = block.map(|v| v as usize);
    batch.system.set_with(SemanticName::ThreadId, quads, |q, l, c| {
        let i = q * 4 + l;
        [i % bw, (i / bw) % bh, i / (bw * bh), 0].get(c).map_or(0, |v| *v as u32)
    });
    batch.system.set_with(SemanticName::BlockSize, quads, |_, _, c| {
        [block[0], block[1], block[2], 0][c & 3]
    });
    batch
        .system
        .set_with(SemanticName::GridSize, quads, |_, _, c| [grid[0], grid[1], grid[2], 0][c & 3]);
    if resources.shared.is_empty() {
        resources.shared = vec![0; DEFAULT_SHARED_BYTES];
    }
    let mut total = RunStats::default();
    let mut most = 0;
    for i in range {
        let [bx, by, bz] = size.block_id(i);
        batch.system.set_with(SemanticName::BlockId, quads, |_, _, c| [bx, by, bz, 0][c & 3]);
        resources.shared.fill(0);
        resources.private.clear();
        let s = match watched.filter(|(b, q)| *b == [bx, by, bz] && *q < quads) {
            Some((_, q)) => {
                let (t, r) = machine
                    .run_traced_with_resources(program, &mut batch, consts, hooks, resources, q);
                *trace = Some(t);
                r?
            }
            None => machine.run_with_resources(program, &mut batch, consts, hooks, resources)?,
        };
        total.add(s);
        most = most.max(s.work);
    }
    Ok((total, most))
}
