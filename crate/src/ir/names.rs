//! The named enumerations of TGSI text (register files, semantics, texture targets, …).
//! Names and their order follow Mesa's `tgsi_strings.c` (`tgsi_file_name`, `tgsi_semantic_names`,
//! `tgsi_texture_names`, …), so the numeric value of each variant equals Mesa's enum value.

use serde::Serialize;

/// Declares a fieldless enum whose variants have a canonical TGSI spelling, with lookup by name
/// (case-insensitive, as Mesa's parser) and iteration over all variants.
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The spelling Mesa prints.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Looks a word up, ignoring ASCII case.
            pub fn from_name(word: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(word))
            }

            /// Mesa's enum value.
            pub fn index(self) -> usize {
                self as usize
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum! {
    /// The shader stage named by the header line.
    Processor {
        Vertex = "VERT",
        Fragment = "FRAG",
        Geometry = "GEOM",
        TessCtrl = "TESS_CTRL",
        TessEval = "TESS_EVAL",
        Compute = "COMP",
    }
}

named_enum! {
    /// Register files (`enum tgsi_file_type`). `Null` exists in Mesa but cannot be written in text.
    File {
        Null = "NULL",
        Const = "CONST",
        In = "IN",
        Out = "OUT",
        Temp = "TEMP",
        Samp = "SAMP",
        Addr = "ADDR",
        Imm = "IMM",
        Sv = "SV",
        Image = "IMAGE",
        Sview = "SVIEW",
        Buffer = "BUFFER",
        Memory = "MEMORY",
        Constbuf = "CONSTBUF",
        Hwatomic = "HWATOMIC",
    }
}

named_enum! {
    /// Declaration semantics (`enum tgsi_semantic`).
    SemanticName {
        Position = "POSITION",
        Color = "COLOR",
        BColor = "BCOLOR",
        Fog = "FOG",
        Psize = "PSIZE",
        Generic = "GENERIC",
        Normal = "NORMAL",
        Face = "FACE",
        EdgeFlag = "EDGEFLAG",
        PrimId = "PRIM_ID",
        InstanceId = "INSTANCEID",
        VertexId = "VERTEXID",
        Stencil = "STENCIL",
        ClipDist = "CLIPDIST",
        ClipVertex = "CLIPVERTEX",
        GridSize = "GRID_SIZE",
        BlockId = "BLOCK_ID",
        BlockSize = "BLOCK_SIZE",
        ThreadId = "THREAD_ID",
        TexCoord = "TEXCOORD",
        PCoord = "PCOORD",
        ViewportIndex = "VIEWPORT_INDEX",
        Layer = "LAYER",
        SampleId = "SAMPLEID",
        SamplePos = "SAMPLEPOS",
        SampleMask = "SAMPLEMASK",
        InvocationId = "INVOCATIONID",
        VertexIdNoBase = "VERTEXID_NOBASE",
        BaseVertex = "BASEVERTEX",
        Patch = "PATCH",
        TessCoord = "TESSCOORD",
        TessOuter = "TESSOUTER",
        TessInner = "TESSINNER",
        VerticesIn = "VERTICESIN",
        HelperInvocation = "HELPER_INVOCATION",
        BaseInstance = "BASEINSTANCE",
        DrawId = "DRAWID",
        WorkDim = "WORK_DIM",
        SubgroupSize = "SUBGROUP_SIZE",
        SubgroupInvocation = "SUBGROUP_INVOCATION",
        SubgroupEqMask = "SUBGROUP_EQ_MASK",
        SubgroupGeMask = "SUBGROUP_GE_MASK",
        SubgroupGtMask = "SUBGROUP_GT_MASK",
        SubgroupLeMask = "SUBGROUP_LE_MASK",
        SubgroupLtMask = "SUBGROUP_LT_MASK",
        CsUserDataAmd = "CS_USER_DATA_AMD",
        ViewportMask = "VIEWPORT_MASK",
    }
}

named_enum! {
    /// Texture targets (`enum tgsi_texture_type`).
    TextureTarget {
        Buffer = "BUFFER",
        Tex1D = "1D",
        Tex2D = "2D",
        Tex3D = "3D",
        Cube = "CUBE",
        Rect = "RECT",
        Shadow1D = "SHADOW1D",
        Shadow2D = "SHADOW2D",
        ShadowRect = "SHADOWRECT",
        Array1D = "1D_ARRAY",
        Array2D = "2D_ARRAY",
        Shadow1DArray = "SHADOW1D_ARRAY",
        Shadow2DArray = "SHADOW2D_ARRAY",
        ShadowCube = "SHADOWCUBE",
        Msaa2D = "2D_MSAA",
        Msaa2DArray = "2D_ARRAY_MSAA",
        CubeArray = "CUBEARRAY",
        ShadowCubeArray = "SHADOWCUBEARRAY",
        Unknown = "UNKNOWN",
    }
}

impl TextureTarget {
    /// Number of coordinate components the target reads (`tgsi_util_get_texture_coord_dim`).
    pub fn coord_dim(self) -> usize {
        use TextureTarget::*;
        match self {
            Buffer | Tex1D | Shadow1D => 1,
            Tex2D | Rect | Array1D | Shadow2D | ShadowRect | Shadow1DArray | Msaa2D => 2,
            Tex3D | Cube | Array2D | ShadowCube | Shadow2DArray | Msaa2DArray => 3,
            CubeArray | ShadowCubeArray => 4,
            Unknown => 4,
        }
    }
    /// True for the SHADOW* targets (depth comparison).
    pub fn is_shadow(self) -> bool {
        use TextureTarget::*;
        matches!(
            self,
            Shadow1D
                | Shadow2D
                | ShadowRect
                | Shadow1DArray
                | Shadow2DArray
                | ShadowCube
                | ShadowCubeArray
        )
    }
}

named_enum! {
    /// SVIEW return types (`enum tgsi_return_type`).
    ReturnType {
        Unorm = "UNORM",
        Snorm = "SNORM",
        Sint = "SINT",
        Uint = "UINT",
        Float = "FLOAT",
    }
}

named_enum! {
    /// Interpolation modes of fragment inputs.
    Interp {
        Constant = "CONSTANT",
        Linear = "LINEAR",
        Perspective = "PERSPECTIVE",
        Color = "COLOR",
    }
}

named_enum! {
    /// Interpolation location of fragment inputs.
    Location {
        Center = "CENTER",
        Centroid = "CENTROID",
        Sample = "SAMPLE",
    }
}

named_enum! {
    /// Kinds of MEMORY declarations.
    MemoryKind {
        Global = "GLOBAL",
        Shared = "SHARED",
        Private = "PRIVATE",
        Input = "INPUT",
    }
}

named_enum! {
    /// Immediate data types. The 64-bit ones hold two values in the four 32-bit slots.
    ImmType {
        Flt32 = "FLT32",
        Uint32 = "UINT32",
        Int32 = "INT32",
        Flt64 = "FLT64",
        Uint64 = "UINT64",
        Int64 = "INT64",
    }
}

named_enum! {
    /// PROPERTY names, in Mesa's order.
    PropertyName {
        GsInputPrimitive = "GS_INPUT_PRIMITIVE",
        GsOutputPrimitive = "GS_OUTPUT_PRIMITIVE",
        GsMaxOutputVertices = "GS_MAX_OUTPUT_VERTICES",
        FsCoordOrigin = "FS_COORD_ORIGIN",
        FsCoordPixelCenter = "FS_COORD_PIXEL_CENTER",
        FsColor0WritesAllCbufs = "FS_COLOR0_WRITES_ALL_CBUFS",
        FsDepthLayout = "FS_DEPTH_LAYOUT",
        VsProhibitUcps = "VS_PROHIBIT_UCPS",
        GsInvocations = "GS_INVOCATIONS",
        VsWindowSpacePosition = "VS_WINDOW_SPACE_POSITION",
        TcsVerticesOut = "TCS_VERTICES_OUT",
        TesPrimMode = "TES_PRIM_MODE",
        TesSpacing = "TES_SPACING",
        TesVertexOrderCw = "TES_VERTEX_ORDER_CW",
        TesPointMode = "TES_POINT_MODE",
        NumClipdistEnabled = "NUM_CLIPDIST_ENABLED",
        NumCulldistEnabled = "NUM_CULLDIST_ENABLED",
        FsEarlyDepthStencil = "FS_EARLY_DEPTH_STENCIL",
        FsPostDepthCoverage = "FS_POST_DEPTH_COVERAGE",
        NextShader = "NEXT_SHADER",
        CsFixedBlockWidth = "CS_FIXED_BLOCK_WIDTH",
        CsFixedBlockHeight = "CS_FIXED_BLOCK_HEIGHT",
        CsFixedBlockDepth = "CS_FIXED_BLOCK_DEPTH",
        LegacyMathRules = "LEGACY_MATH_RULES",
        VsBlitSgprsAmd = "VS_BLIT_SGPRS_AMD",
        CsUserDataComponentsAmd = "CS_USER_DATA_COMPONENTS_AMD",
        LayerViewportRelative = "LAYER_VIEWPORT_RELATIVE",
        FsBlendEquationAdvanced = "FS_BLEND_EQUATION_ADVANCED",
        SeparableProgram = "SEPARABLE_PROGRAM",
    }
}

named_enum! {
    /// Primitive types (values of GS_INPUT_PRIMITIVE / GS_OUTPUT_PRIMITIVE).
    PrimType {
        Points = "POINTS",
        Lines = "LINES",
        LineLoop = "LINE_LOOP",
        LineStrip = "LINE_STRIP",
        Triangles = "TRIANGLES",
        TriangleStrip = "TRIANGLE_STRIP",
        TriangleFan = "TRIANGLE_FAN",
        Quads = "QUADS",
        QuadStrip = "QUAD_STRIP",
        Polygon = "POLYGON",
        LinesAdjacency = "LINES_ADJACENCY",
        LineStripAdjacency = "LINE_STRIP_ADJACENCY",
        TrianglesAdjacency = "TRIANGLES_ADJACENCY",
        TriangleStripAdjacency = "TRIANGLE_STRIP_ADJACENCY",
        Patches = "PATCHES",
    }
}

impl PrimType {
    /// Vertices per input primitive of a geometry shader (the implied size of `IN[]`).
    pub fn vertices_per_primitive(self) -> u32 {
        use PrimType::*;
        match self {
            Points => 1,
            Lines | LineLoop | LineStrip => 2,
            Triangles | TriangleStrip | TriangleFan => 3,
            LinesAdjacency | LineStripAdjacency => 4,
            TrianglesAdjacency | TriangleStripAdjacency => 6,
            Quads | QuadStrip | Polygon => 4,
            Patches => 32,
        }
    }
}

named_enum! {
    /// Values of FS_COORD_ORIGIN.
    CoordOrigin {
        UpperLeft = "UPPER_LEFT",
        LowerLeft = "LOWER_LEFT",
    }
}

named_enum! {
    /// Values of FS_COORD_PIXEL_CENTER.
    PixelCenter {
        HalfInteger = "HALF_INTEGER",
        Integer = "INTEGER",
    }
}

named_enum! {
    /// Processor names accepted by NEXT_SHADER (a superset of the header names).
    ShaderName {
        Vert = "VERT",
        TessCtrl = "TESS_CTRL",
        TessEval = "TESS_EVAL",
        Geom = "GEOM",
        Frag = "FRAG",
        Comp = "COMP",
        Task = "TASK",
        Mesh = "MESH",
    }
}

named_enum! {
    /// Memory qualifiers of LOAD/STORE/ATOM*, in bit order (`TGSI_MEMORY_*`).
    MemoryQualifier {
        Coherent = "COHERENT",
        Restrict = "RESTRICT",
        Volatile = "VOLATILE",
        StreamCachePolicy = "STREAM_CACHE_POLICY",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_ignores_case_and_keeps_mesa_numbering() {
        assert_eq!(File::from_name("temp"), Some(File::Temp));
        assert_eq!(File::Hwatomic.index(), 14);
        assert_eq!(SemanticName::from_name("Generic"), Some(SemanticName::Generic));
        assert_eq!(SemanticName::ViewportMask.index(), 46);
        assert_eq!(TextureTarget::ShadowCubeArray.index(), 17);
        assert_eq!(PropertyName::SeparableProgram.index(), 28);
        assert_eq!(TextureTarget::from_name("cubearray"), Some(TextureTarget::CubeArray));
        assert_eq!(File::from_name("TEMPX"), None);
    }
}
