// The <tgsi-lanes> element: one opcode's live lane table. Importing the module registers it:
//   <script type="module" src="…/tgsi-shader/tgsi-lanes.js"></script>
//   <tgsi-lanes op="UDIV"></tgsi-lanes>

export interface LanesReadyDetail { op: string }
export interface LanesErrorDetail { message: string }

export declare class TgsiLanes extends HTMLElement {
  /** Builds the live table now (it is otherwise built when the element comes near the viewport). */
  build(): Promise<void>;
  /** The table, once built. */
  readonly table: HTMLTableElement | null;
}

declare global {
  interface HTMLElementTagNameMap { 'tgsi-lanes': TgsiLanes }
}
