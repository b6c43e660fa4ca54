// @ts-check
// The engine's render options (crate/src/wasm/render.rs) from a frame request, for every worker
// that renders: the playground's band workers and the widget's. One place decides the shape, so
// a band, a trace and a probe of one frame name the same prepared job in the engine.

/**
 * A frame request: shaders' settings, built-in uniforms, and the band it is part of.
 * Constants come as `consts` strings (`B:I=X,Y,Z,W`, the CLI's syntax) or as the page's
 * `constants` objects.
 * @typedef {{width: number, height: number, mesh?: string, consts?: string[],
 *   constants?: {buffer: number, index: number, values: number[]}[],
 *   textures?: {unit: number, description: string}[],
 *   builtins?: {time?: number, timeDelta?: number, frame?: number, mouse?: number[], mouseDown?: boolean},
 *   rows?: number[], bands?: number, budget?: number,
 *   gs?: string | null, target?: number | 'depth'}} FrameRequest
 */

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
    mesh: req.mesh,
    gs: req.gs ?? undefined,
    target: req.target,
    consts: req.consts ?? req.constants?.map((c) => `${c.buffer}:${c.index}=${c.values.map((v) => String(Number.isFinite(v) ? v : 0)).join(',')}`),
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
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}
