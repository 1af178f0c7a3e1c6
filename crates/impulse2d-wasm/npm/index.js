// The package's entry: the wasm-bindgen classes plus an `init` that loads the
// WebAssembly module in a browser (fetched beside this file) and in node
// (read from disk). Call `await init()` once before anything else.
import initWasm, { initSync } from './impulse2d_wasm.js';

export * from './impulse2d_wasm.js';

/**
 * Loads and instantiates the WebAssembly module. Without an argument it
 * fetches `impulse2d_wasm_bg.wasm` next to this file (in node: reads it).
 * @param {RequestInfo | URL | BufferSource | WebAssembly.Module} [input]
 */
export default async function init(input) {
  const inNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
  if (input === undefined && inNode) {
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(new URL('./impulse2d_wasm_bg.wasm', import.meta.url));
    return initSync({ module: bytes });
  }
  return initWasm(input === undefined ? undefined : { module_or_path: input });
}
