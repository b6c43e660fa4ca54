// @ts-check
// The shapes of what the engine and the render workers answer, as the page reads them (each
// wasm function documents its result in crate/src/wasm/). Types only: nothing runs here.

export {};

/**
 * A diagnostic as the page holds it: the engine's, plus the stage it came from for a frame's
 * run-time errors ("vertex", "fragment", "geometry", "compute").
 * @typedef {import('./editor.js').EngineDiagnostic & {source?: string}} PageDiagnostic
 */

/** The engine's wasm-bindgen module (built into web/pkg). @typedef {typeof import('./pkg/tgsi.js')} Engine */

/**
 * What every worker answer has: whether it ran, its diagnostics, and the failure's words when a
 * worker failed or was stopped.
 * @typedef {{ok: boolean, diagnostics?: PageDiagnostic[], error?: string, ms?: number}} Answer
 */

/**
 * `probeFrame` (wasm/inspect.rs): per pixel, top row first, how many instructions ran (`counts`)
 * and the watched register's bits after the watched instruction (`values`, 0 where it never ran).
 * @typedef {Answer & {width: number, height: number, total: number, max: number,
 *   counts: ArrayLike<number>, values: ArrayLike<number>, ran?: ArrayLike<number>}} ProbeResult
 */

/**
 * `geometryPrimitives` (wasm/stages.rs): the primitives a geometry shader emitted.
 * @typedef {Answer & {inputPrimitives: number, count: number, primitives: object[],
 *   info?: {output?: string, maxVertices?: number, invocations?: number}}} PrimitivesResult
 */

/**
 * `compute` (wasm/stages.rs): the dispatch and the resources after it; `before` is what the page
 * sent (the compute panel shows both).
 * @typedef {Answer & {grid?: number[], block?: number[] | null, instructions?: number, work?: number,
 *   before?: object}} ComputeResult
 */

/** `agalExport` as the page keeps it (outputs.js `showAgal`). @typedef {Answer & {bytes: Uint8Array, version?: number}} AgalResult */

/**
 * A texture the page draws with (textures.js): RGBA8 levels, bottom row first; a cube map's six
 * faces in `faces`.
 * @typedef {{kind: '2d' | 'cube', levels: {width: number, height: number, data: Uint8Array}[],
 *   faces?: {width: number, height: number, data: Uint8Array}[]}} Texture
 */
