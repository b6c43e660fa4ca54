// The <tgsi-shader> element. Importing the module registers it:
//   <script type="module" src="…/tgsi-shader/tgsi-shader.js"></script>

import type { Diagnostic } from './engine.js';

export type { Diagnostic } from './engine.js';

export interface CompileEventDetail { diagnostics: Diagnostic[] }
export interface RenderEventDetail { ms: number; frame: number; time: number }
export interface ErrorEventDetail { message: string; diagnostics: Diagnostic[] }

export interface FrameResult { ok: boolean; ms: number; diagnostics: Diagnostic[]; error?: string }

export declare class TgsiShader extends HTMLElement {
  /** The fragment shader's TGSI text (inline `<script type="text/x-tgsi">`, `src`, or set here). */
  source: string;
  /** The vertex shader's TGSI text ('' = the built-in pass-through). */
  vsSource: string;
  /** Frames drawn so far. */
  readonly frames: number;
  /** Seconds on the widget's clock. */
  time: number;
  /** Starts the clock (animated shaders). */
  play(): void;
  /** Stops the clock. */
  pause(): void;
  /** Draws the frame at `t` seconds (default: the current time) now, in view or not. */
  renderFrame(t?: number): Promise<FrameResult>;
  /** The current frame as a PNG. */
  toBlob(): Promise<Blob>;
  /** Shows what the shader did for one pixel (needs the `inspect` attribute). */
  inspectPixel(x: number, y: number): Promise<unknown>;
}

/** The largest width or height a widget draws. */
export declare const MAX_SIZE: number;

declare global {
  interface HTMLElementTagNameMap { 'tgsi-shader': TgsiShader }
  interface HTMLElementEventMap {
    compile: CustomEvent<CompileEventDetail>;
    render: CustomEvent<RenderEventDetail>;
  }
}
