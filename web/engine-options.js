// @ts-check
// The engine's render options (crate/src/wasm/render.rs) from a frame request, for every worker
// that renders: the playground's band workers and the widget's. One place decides the shape, so
// a band, a trace and a probe of one frame name the same prepared job in the engine.

/**
 * A frame request: shaders' settings, built-in uniforms, and the band it is part of.
 * Constants come as `consts` strings (`B:I=X,Y,Z,W`, the CLI's syntax) or as the page's
 * `constants` objects.
 * `vsConstants` / `fsConstants` / `gsConstants` are one stage's own (set after the shared ones); `vertices` is
 * the text of a vertices file, drawn instead of `mesh`.
 * @typedef {{buffer: number, index: number, values: number[]}} ConstantValue
 * @typedef {{width: number, height: number, mesh?: string, vertices?: string, consts?: string[],
 *   constants?: ConstantValue[], vsConstants?: ConstantValue[], fsConstants?: ConstantValue[], gsConstants?: ConstantValue[],
 *   textures?: {unit: number, description: string}[],
 *   builtins?: {time?: number, timeDelta?: number, frame?: number, mouse?: number[], mouseDown?: boolean},
 *   rows?: number[], bands?: number, budget?: number, timeLimit?: number,
 *   gs?: string | null, target?: number | 'depth', engine?: 'auto' | 'interpreter' | 'compiled'}} FrameRequest
 */

/**
 * Constants in the engine's `B:I=X,Y,Z,W` syntax (a value that is not finite becomes 0).
 * @param {ConstantValue[] | undefined} list
 */
const constStrings = (list) => list?.map((c) => `${c.buffer}:${c.index}=${c.values.map((v) => String(Number.isFinite(v) ? v : 0)).join(',')}`);

/**
 * The options object for `renderPage`, `tracePixel` and the other render calls. Options the
 * request lacks are left out (the engine gives them their defaults; an `undefined` would not
 * parse and is reported as R009).
 * @param {FrameRequest} req
 */
export function engineOptions(req) {
  const b = req.builtins ?? {};
  const all = {
    width: req.width,
    height: req.height,
    mesh: req.vertices === undefined ? req.mesh : undefined,
    vertices: req.vertices,
    gs: req.gs ?? undefined,
    target: req.target,
    consts: req.consts ?? constStrings(req.constants),
    vsConsts: req.vsConstants?.length ? constStrings(req.vsConstants) : undefined,
    fsConsts: req.fsConstants?.length ? constStrings(req.fsConstants) : undefined,
    gsConsts: req.gsConstants?.length ? constStrings(req.gsConstants) : undefined,
    textures: req.textures,
    time: b.time,
    timeDelta: b.timeDelta,
    frame: b.frame,
    mouse: b.mouse,
    mouseDown: b.mouseDown,
    rowStart: req.rows?.[0],
    rowEnd: req.rows?.[1],
    budget: req.budget,
    bands: req.bands,
    // Seconds after which a band stops itself (render-pool.js FRAME_TIME_LIMIT_S).
    timeLimit: req.timeLimit,
    // Which engine may run the fragment shader (crate/src/wasm/jit.rs).
    engine: req.engine,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}
