// The engine API of the `tgsi-shader` package, without the element: `import { render, validate,
// version } from 'tgsi-shader/engine'`. Every call runs in the page's shared engine (one wasm
// module, a small worker pool), the same one the <tgsi-shader> elements use.

/** One finding about a shader: where it is and what is wrong. */
export interface Diagnostic {
  severity: 'error' | 'warning' | 'note';
  /** A stable code such as `P001` (parse), `V110` (validation) or `X005` (execution). */
  code: string;
  message: string;
  /** 1-based line and column in the shader text (absent for findings about the whole render). */
  line?: number;
  column?: number;
  /** Which text the finding is about, for render results. */
  source?: 'fragment' | 'vertex' | 'render';
}

export interface RenderOptions {
  /** Pixels, 1..1024 each (default 256). */
  width?: number;
  height?: number;
  /** A built-in mesh: `fullscreen` (default), `quad`, `cube`, `sphere`. */
  mesh?: string;
  /** Constants in the CLI's `--const` syntax: `B:I=X,Y,Z,W` (decimal floats or 0x + 8 hex digits). */
  consts?: string[];
  /** Textures per sampler unit, as the engine's JSON texture descriptions (docs/textures.md). */
  textures?: { unit: number; description: string }[];
  /** Seconds, for the built-in time uniform. */
  time?: number;
  /** The frame's instruction budget (the engine caps it). */
  budget?: number;
}

export interface RenderResult {
  ok: boolean;
  width: number;
  height: number;
  /** RGBA8, top row first. */
  pixels: Uint8Array;
  diagnostics: Diagnostic[];
  /** Milliseconds the engine took. */
  ms: number;
  /** Set when the frame was not drawn at all (watchdog, engine failure). */
  error?: string;
}

/** Renders one frame in a worker. */
export function render(fs: string, vs?: string | null, options?: RenderOptions): Promise<RenderResult>;

/** Parses and validates a shader text; an empty list means it is correct. */
export function validate(text: string): Promise<Diagnostic[]>;

/** The engine's version string, e.g. `tgsi-playground 0.1.0`. */
export function version(): Promise<string>;

/** A frame that takes longer than this many milliseconds is stopped. */
export const WATCHDOG_MS: number;
