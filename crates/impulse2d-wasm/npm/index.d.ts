export * from './impulse2d_wasm.js';
import type { InitOutput } from './impulse2d_wasm.js';

/**
 * Loads and instantiates the WebAssembly module. Without an argument it
 * fetches `impulse2d_wasm_bg.wasm` next to the package's entry (in node: reads
 * it from disk). Call once before using any class.
 */
export default function init(
  input?: RequestInfo | URL | BufferSource | WebAssembly.Module,
): Promise<InitOutput>;
