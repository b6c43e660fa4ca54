//! What shaders read and write besides registers (tgsi.rst "Resource Access Opcodes", "Atomic
//! opcodes", "Hardware Atomic Register File"): shader buffers, images with a storage format,
//! global / shared / private memory, hardware atomic counters, the framebuffer colours FBFETCH
//! reads, and the vertices a geometry shader emits. Every access is bounds-checked: reads
//! outside a resource give 0 and writes outside it are dropped.

use std::collections::BTreeMap;

/// Largest memory a caller may ask for per space (bounds what hostile sizes can allocate).
pub const MAX_MEMORY_BYTES: usize = 64 << 20;
/// Default size of shared memory per compute block.
pub const DEFAULT_SHARED_BYTES: usize = 64 << 10;
/// Private memory per invocation.
pub const PRIVATE_BYTES: usize = 4 << 10;

/// Storage formats of images (`PIPE_FORMAT_…` names as written in `DCL IMAGE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    R32Uint,
    R32Sint,
    R32Float,
    Rgba32Uint,
    Rgba32Sint,
    Rgba32Float,
    Rgba8Unorm,
    Rgba16Float,
}

impl ImageFormat {
    pub fn from_name(name: &str) -> Option<ImageFormat> {
        let n = name.trim().trim_start_matches("PIPE_FORMAT_").to_ascii_uppercase();
        Some(match n.as_str() {
            "R32_UINT" => ImageFormat::R32Uint,
            "R32_SINT" => ImageFormat::R32Sint,
            "R32_FLOAT" => ImageFormat::R32Float,
            "R32G32B32A32_UINT" => ImageFormat::Rgba32Uint,
            "R32G32B32A32_SINT" => ImageFormat::Rgba32Sint,
            "R32G32B32A32_FLOAT" => ImageFormat::Rgba32Float,
            "R8G8B8A8_UNORM" => ImageFormat::Rgba8Unorm,
            "R16G16B16A16_FLOAT" => ImageFormat::Rgba16Float,
            _ => return None,
        })
    }
    pub fn names() -> &'static [&'static str] {
        &[
            "R32_UINT",
            "R32_SINT",
            "R32_FLOAT",
            "R32G32B32A32_UINT",
            "R32G32B32A32_SINT",
            "R32G32B32A32_FLOAT",
            "R8G8B8A8_UNORM",
            "R16G16B16A16_FLOAT",
        ]
    }
    /// The format's name without the `PIPE_FORMAT_` prefix ([`Self::names`] lists them in the
    /// enum's order).
    pub fn name(self) -> &'static str {
        Self::names().get(self as usize).copied().unwrap_or("")
    }
    /// Bytes per texel.
    pub fn bytes(self) -> usize {
        match self {
            ImageFormat::R32Uint
            | ImageFormat::R32Sint
            | ImageFormat::R32Float
            | ImageFormat::Rgba8Unorm => 4,
            ImageFormat::Rgba16Float => 8,
            _ => 16,
        }
    }
    /// The channels a texel stores: x only for the 32-bit single-channel formats, else all four
    /// (a STORE's other channels are not kept anywhere).
    pub fn channels(self) -> usize {
        match self {
            ImageFormat::R32Uint | ImageFormat::R32Sint | ImageFormat::R32Float => 1,
            _ => 4,
        }
    }
    /// The bytes of a texel that channel `c` is stored in ([`Self::encode`]); `None` for a
    /// channel the format does not store.
    pub fn channel_bytes(self, c: usize) -> Option<std::ops::Range<usize>> {
        if c >= self.channels() {
            return None;
        }
        let size = self.bytes() / self.channels();
        Some(c * size..c * size + size)
    }
    /// Whether atomics may use it (tgsi.rst: 32-bit single-channel formats only).
    pub fn atomic(self) -> bool {
        matches!(self, ImageFormat::R32Uint | ImageFormat::R32Sint | ImageFormat::R32Float)
    }
    /// Texel bytes → the four channels a LOAD returns (missing channels read 0, alpha 1).
    pub fn decode(self, b: &[u8]) -> [u32; 4] {
        let w = |i: usize| {
            b.get(i * 4..i * 4 + 4).map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        };
        match self {
            ImageFormat::R32Uint | ImageFormat::R32Sint => [w(0), 0, 0, 1],
            ImageFormat::R32Float => [w(0), 0, 0, 1f32.to_bits()],
            ImageFormat::Rgba32Uint | ImageFormat::Rgba32Sint | ImageFormat::Rgba32Float => {
                [w(0), w(1), w(2), w(3)]
            }
            ImageFormat::Rgba8Unorm => {
                [0, 1, 2, 3].map(|i| (b.get(i).copied().unwrap_or(0) as f32 / 255.0).to_bits())
            }
            ImageFormat::Rgba16Float => [0, 1, 2, 3].map(|i| {
                let h = b.get(i * 2..i * 2 + 2).map_or(0, |s| u16::from_le_bytes([s[0], s[1]]));
                crate::half::to_f32(h).to_bits()
            }),
        }
    }
    /// Channel values → texel bytes (UNORM clamps and rounds to nearest).
    pub fn encode(self, v: [u32; 4], out: &mut [u8]) {
        let mut put = |i: usize, bytes: &[u8]| {
            if let Some(d) = out.get_mut(i..i + bytes.len()) {
                d.copy_from_slice(bytes);
            }
        };
        match self {
            ImageFormat::R32Uint | ImageFormat::R32Sint | ImageFormat::R32Float => {
                put(0, &v[0].to_le_bytes())
            }
            ImageFormat::Rgba32Uint | ImageFormat::Rgba32Sint | ImageFormat::Rgba32Float => {
                for (i, x) in v.iter().enumerate() {
                    put(i * 4, &x.to_le_bytes());
                }
            }
            ImageFormat::Rgba8Unorm => {
                for (i, x) in v.iter().enumerate() {
                    let f = f32::from_bits(*x);
                    let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                    put(i, &[(f * 255.0 + 0.5) as u8]);
                }
            }
            ImageFormat::Rgba16Float => {
                for (i, x) in v.iter().enumerate() {
                    put(i * 2, &crate::half::from_f32(f32::from_bits(*x)).to_le_bytes());
                }
            }
        }
    }
}

/// One bound image: `width × height × depth` texels (height = layers for 1D arrays, depth =
/// layers for 2D arrays and cubes), level 0 only, tightly packed, x fastest.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageBuffer {
    pub format: ImageFormat,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub data: Vec<u8>,
}

impl ImageBuffer {
    /// A zeroed image; sizes are clamped so that the data stays under [`MAX_MEMORY_BYTES`].
    pub fn new(
        format: ImageFormat,
        width: u32,
        height: u32,
        depth: u32,
    ) -> Result<ImageBuffer, String> {
        let n = [height, depth]
            .iter()
            .fold(width.max(1) as u64, |a, &v| a.saturating_mul(v.max(1) as u64))
            .saturating_mul(format.bytes() as u64);
        if n > MAX_MEMORY_BYTES as u64 {
            return Err(format!(
                "image of {width}x{height}x{depth} is larger than {} bytes",
                MAX_MEMORY_BYTES
            ));
        }
        Ok(ImageBuffer {
            format,
            width: width.max(1),
            height: height.max(1),
            depth: depth.max(1),
            data: vec![0; n as usize],
        })
    }
    /// Byte offset of texel (x, y, z), or None outside the image.
    pub fn offset(&self, x: i64, y: i64, z: i64) -> Option<usize> {
        let inside = |v: i64, n: u32| v >= 0 && v < n as i64;
        if !(inside(x, self.width) && inside(y, self.height) && inside(z, self.depth)) {
            return None;
        }
        let i = (z as u64 * self.height as u64 + y as u64) * self.width as u64 + x as u64;
        Some(i as usize * self.format.bytes())
    }
    pub fn load(&self, x: i64, y: i64, z: i64) -> [u32; 4] {
        match self.offset(x, y, z).and_then(|o| self.data.get(o..o + self.format.bytes())) {
            Some(b) => self.format.decode(b),
            None => [0; 4],
        }
    }
    /// Stores the texel at (x, y, z); returns its byte offset, or `None` when it is outside.
    pub fn store(&mut self, x: i64, y: i64, z: i64, v: [u32; 4]) -> Option<usize> {
        let n = self.format.bytes();
        let o = self.offset(x, y, z)?;
        let d = self.data.get_mut(o..o + n)?;
        self.format.encode(v, d);
        Some(o)
    }
}

/// A primitive a geometry shader emitted: its stream and vertices, each vertex being every
/// OUT register (raw bits, `[register][channel]`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EmittedPrimitive {
    pub stream: u32,
    pub vertices: Vec<Vec<[u32; 4]>>,
}

/// What EMIT / ENDPRIM collect, per invocation (quad * 4 + lane).
#[derive(Clone, Debug, Default)]
pub struct EmitSink {
    /// GS_MAX_OUTPUT_VERTICES: further EMITs of an invocation are dropped.
    pub max_vertices: u32,
    pub invocations: Vec<InvocationEmits>,
}

#[derive(Clone, Debug, Default)]
pub struct InvocationEmits {
    pub done: Vec<EmittedPrimitive>,
    /// The primitive being built in each of the four streams.
    pub open: [Vec<Vec<[u32; 4]>>; 4],
    pub emitted: u32,
}

impl InvocationEmits {
    /// Closes the open primitive of `stream` (ENDPRIM; END closes all of them).
    pub fn end_primitive(&mut self, stream: usize) {
        if let Some(v) = self.open.get_mut(stream & 3) {
            if !v.is_empty() {
                self.done.push(EmittedPrimitive {
                    stream: (stream & 3) as u32,
                    vertices: std::mem::take(v),
                });
            }
        }
    }
}

/// Which memory space a MEMORY register names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Private,
}

/// Everything memory instructions touch during a run. Start from `Resources::new()`, bind what
/// the shader declares, run, then read the buffers back.
#[derive(Clone, Debug, Default)]
pub struct Resources {
    /// `BUFFER[n]`: raw bytes.
    pub buffers: BTreeMap<u32, Vec<u8>>,
    pub images: BTreeMap<u32, ImageBuffer>,
    /// `HWATOMIC[b][i]`: counter i is the 32-bit word i of atomic buffer b.
    pub atomic_buffers: BTreeMap<u32, Vec<u8>>,
    /// MEMORY GLOBAL: one byte-addressed space.
    pub global: Vec<u8>,
    /// MEMORY SHARED: one space per compute block (the dispatch clears it between blocks).
    pub shared: Vec<u8>,
    /// MEMORY PRIVATE: one space per invocation (quad * 4 + lane), grown on first use.
    pub private: Vec<Vec<u8>>,
    /// FBFETCH: per OUT register, per quad, the framebuffer colour of each lane.
    pub framebuffer: BTreeMap<u32, Vec<[[f32; 4]; 4]>>,
    /// Filled by EMIT / ENDPRIM when present (the geometry API sets it up).
    pub emits: Option<EmitSink>,
    /// When present, every store and atomic marks here the bytes it wrote of the resources
    /// all blocks of a dispatch share (a dispatch on several threads merges its copies by it,
    /// `exec/parallel.rs`).
    pub written: Option<Box<Written>>,
}

/// A set of byte positions `0..len`, one bit each: the bytes of one resource a run wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByteSet {
    bits: Vec<u64>,
    len: usize,
}

impl ByteSet {
    /// The empty set over a resource of `len` bytes.
    pub fn new(len: usize) -> ByteSet {
        ByteSet { bits: vec![0; len.div_ceil(64)], len }
    }
    /// The bytes a set over `len` bytes takes.
    pub fn bytes_for(len: usize) -> u64 {
        len.div_ceil(64) as u64 * 8
    }
    /// Adds the positions of `range` (the part inside `0..len`).
    pub fn insert(&mut self, range: std::ops::Range<usize>) {
        for i in range.start..range.end.min(self.len) {
            if let Some(w) = self.bits.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
    }
    pub fn contains(&self, i: usize) -> bool {
        i < self.len && self.bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0)
    }
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|w| *w == 0)
    }
    /// Adds the positions of `other` (a set over the same bytes).
    pub fn union(&mut self, other: &ByteSet) {
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            *a |= b;
        }
    }
    /// Copies the bytes of the set from `from` to `into` (positions past either end are left).
    pub fn copy(&self, from: &[u8], into: &mut [u8]) {
        for (k, &w) in self.bits.iter().enumerate() {
            let base = k * 64;
            if w == u64::MAX {
                let end = (base + 64).min(from.len()).min(into.len());
                if let (Some(s), Some(d)) = (from.get(base..end), into.get_mut(base..end)) {
                    d.copy_from_slice(s);
                }
                continue;
            }
            let mut rest = w;
            while rest != 0 {
                let i = base + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if let (Some(s), Some(d)) = (from.get(i), into.get_mut(i)) {
                    *d = *s;
                }
            }
        }
    }
}

/// The bytes a run wrote of the resources every block of a dispatch shares: buffers, images,
/// counters and global memory (shared and private memory belong to one block).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub buffers: BTreeMap<u32, ByteSet>,
    pub images: BTreeMap<u32, ByteSet>,
    pub atomic_buffers: BTreeMap<u32, ByteSet>,
    pub global: ByteSet,
}

impl Written {
    /// Empty sets over every buffer, image, counter buffer and the global memory of `res`.
    pub fn covering(res: &Resources) -> Written {
        let sets = |m: &BTreeMap<u32, Vec<u8>>| -> BTreeMap<u32, ByteSet> {
            m.iter().map(|(n, b)| (*n, ByteSet::new(b.len()))).collect()
        };
        Written {
            buffers: sets(&res.buffers),
            images: res.images.iter().map(|(n, i)| (*n, ByteSet::new(i.data.len()))).collect(),
            atomic_buffers: sets(&res.atomic_buffers),
            global: ByteSet::new(res.global.len()),
        }
    }
    /// The bytes [`Self::covering`] takes for `res`.
    pub fn bytes_for(res: &Resources) -> u64 {
        let sum = |m: &BTreeMap<u32, Vec<u8>>| -> u64 {
            m.values().map(|b| ByteSet::bytes_for(b.len())).sum()
        };
        sum(&res.buffers)
            + res.images.values().map(|i| ByteSet::bytes_for(i.data.len())).sum::<u64>()
            + sum(&res.atomic_buffers)
            + ByteSet::bytes_for(res.global.len())
    }
    /// Adds the bytes `other` logged (over the same resources).
    pub fn union(&mut self, other: &Written) {
        fn each(sets: &mut BTreeMap<u32, ByteSet>, other: &BTreeMap<u32, ByteSet>) {
            for (n, set) in other {
                if let Some(mine) = sets.get_mut(n) {
                    mine.union(set);
                }
            }
        }
        each(&mut self.buffers, &other.buffers);
        each(&mut self.images, &other.images);
        each(&mut self.atomic_buffers, &other.atomic_buffers);
        self.global.union(&other.global);
    }
    /// Copies every byte in these sets from `from` into `into`: the later run's writes over
    /// the earlier's.
    pub fn copy(&self, from: &Resources, into: &mut Resources) {
        fn each(
            sets: &BTreeMap<u32, ByteSet>,
            from: &BTreeMap<u32, Vec<u8>>,
            into: &mut BTreeMap<u32, Vec<u8>>,
        ) {
            for (n, set) in sets {
                if let (Some(s), Some(d)) = (from.get(n), into.get_mut(n)) {
                    set.copy(s, d);
                }
            }
        }
        each(&self.buffers, &from.buffers, &mut into.buffers);
        each(&self.atomic_buffers, &from.atomic_buffers, &mut into.atomic_buffers);
        for (n, set) in &self.images {
            if let (Some(s), Some(d)) = (from.images.get(n), into.images.get_mut(n)) {
                set.copy(&s.data, &mut d.data);
            }
        }
        self.global.copy(&from.global, &mut into.global);
    }
}

impl Resources {
    pub fn new() -> Resources {
        Resources::default()
    }
    /// The bytes of a byte-addressed space, for reading and writing.
    pub fn space_mut(&mut self, space: Space, invocation: usize) -> Option<&mut Vec<u8>> {
        match space {
            Space::Global => Some(&mut self.global),
            Space::Shared => Some(&mut self.shared),
            Space::Private => {
                if invocation >= 4096 {
                    return None;
                }
                if self.private.len() <= invocation {
                    self.private.resize(invocation + 1, Vec::new());
                }
                let p = self.private.get_mut(invocation)?;
                if p.is_empty() {
                    p.resize(PRIVATE_BYTES, 0);
                }
                Some(p)
            }
        }
    }
}

/// Reads the 32-bit word at byte `offset`; 0 when any of its bytes is outside `bytes`.
pub fn read_word(bytes: &[u8], offset: u64) -> u32 {
    let Ok(o) = usize::try_from(offset) else { return 0 };
    match o.checked_add(4).and_then(|e| bytes.get(o..e)) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

/// Writes the word at byte `offset`; dropped when any byte is outside `bytes`. Returns the
/// bytes written, if any.
pub fn write_word(bytes: &mut [u8], offset: u64, v: u32) -> Option<std::ops::Range<usize>> {
    let o = usize::try_from(offset).ok()?;
    let e = o.checked_add(4)?;
    bytes.get_mut(o..e)?.copy_from_slice(&v.to_le_bytes());
    Some(o..e)
}

#[cfg(test)]
mod tests {
    use super::{ByteSet, ImageFormat};

    /// Copying by a set moves exactly its bytes: a whole word of 64, single bits, the clipped
    /// tail, and the union of two sets.
    #[test]
    fn a_byte_set_copies_exactly_its_bytes() {
        let mut set = ByteSet::new(150);
        assert!(set.is_empty());
        set.insert(0..64);
        set.insert(70..71);
        set.insert(148..400);
        let mut other = ByteSet::new(150);
        other.insert(100..102);
        set.union(&other);
        let from: Vec<u8> = (0..150).map(|i| i as u8 | 0x80).collect();
        let mut into = vec![0u8; 150];
        set.copy(&from, &mut into);
        for (i, b) in into.iter().enumerate() {
            let inside = i < 64 || i == 70 || i == 100 || i == 101 || i >= 148;
            assert_eq!(set.contains(i), inside, "{i}");
            assert_eq!(*b, if inside { from[i] } else { 0 }, "{i}");
        }
        assert!(!set.contains(150));
    }

    #[test]
    fn channel_bytes_are_where_encode_writes() {
        for &n in ImageFormat::names() {
            let Some(f) = ImageFormat::from_name(n) else { continue };
            for c in 0..4 {
                let mut texel = vec![0u8; f.bytes()];
                let mut v = [0u32; 4];
                v[c] = 0x3f80_0000; // 1.0: every format stores non-zero bytes for it
                f.encode(v, &mut texel);
                let written: Vec<usize> = (0..texel.len()).filter(|i| texel[*i] != 0).collect();
                match f.channel_bytes(c) {
                    Some(r) => assert!(
                        written.iter().all(|i| r.contains(i)) && !written.is_empty(),
                        "{n} {c}"
                    ),
                    None => assert!(written.is_empty(), "{n} {c}"),
                }
            }
        }
    }

    #[test]
    fn every_format_is_found_by_its_name() {
        for &n in ImageFormat::names() {
            assert_eq!(ImageFormat::from_name(n).map(ImageFormat::name), Some(n));
        }
    }
}
