/**
 * What dist/server.js hands the stdio connection after it read stdin's first message itself
 * (earlyInitialize.ts): in a global slot, since the two are in different bundles. Free of the LSP
 * library and of the server's features: the connection (transport/connection.ts) takes it.
 */

/** The global slot (`Symbol.for`) of the handover to the connection: an EarlyHandover. */
export const EARLY_HANDOVER_SLOT = 'catalog-lens.earlyInitialize';

/** What the connection over stdio takes over from dist/server.js. */
export interface EarlyHandover {
  /** Every byte read from stdin so far, in order. */
  readonly input: Buffer;
  /** The `initialize` request answered already: its id and the JSON of the response written. */
  readonly answered?: { readonly id: number | string; readonly json: string };
}

/** The handover dist/server.js left, taken once (undefined when the server was started otherwise). */
export function takeEarlyHandover(): EarlyHandover | undefined {
  const slot = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(EARLY_HANDOVER_SLOT);
  const handover = slot[key] as EarlyHandover | undefined;
  delete slot[key];
  return handover;
}
