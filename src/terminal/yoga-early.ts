/**
 * Yoga (Ink's layout engine) compiled from the bytes the bin has already read, not decoded by its loader.
 *
 * Why: Yoga is a wasm module carried in the app bundle as base64 text. Its Emscripten loader decodes it one
 * byte at a time in JavaScript (3–4 ms), then compiles it asynchronously, and the bundle's module evaluation
 * waits at Yoga's top-level `await` for all of it: 12–16 ms of every start before the first frame (scratch-build
 * marks, 2026-12-03). An asynchronous compile does not overlap anything here: V8 finishes it in tasks on the
 * main thread, which stays busy until that `await`. So the bin, which reads the bundle's bytes anyway
 * (io/code-cache.ts), takes the wasm from them with Node's native base64 decoder and compiles it at once
 * (2–3 ms), and Yoga's loader is handed the compiled module (a bundle-time edit of yoga-layout,
 * scripts/lazy-segmenter/): 5 ms from Yoga's `await` to its instance, against 16.
 *
 * The bytes are the bundle's own, so the module is exactly the one its loader would have compiled. Without one
 * (tests, the bundle imported directly, a compile that failed) Yoga loads as it always did.
 */

/** Where the bin leaves the module for the app bundle (two bundles: only a global is shared). */
const KEY = Symbol.for('omc-top.yoga-wasm');
const slot = globalThis as { [KEY]?: WebAssembly.Module };

/** The wasm bytes of the one data: URL module in `bundle` (null: none, or more than one). */
export function wasmInBundle(bundle: Buffer): Buffer<ArrayBuffer> | null {
  // How the wasm appears in the bundle: a data: URL of a module (base64 of "\0asm") in one string literal.
  // Kept in here: the app bundle, which imports this file too, must carry the text only once, in Yoga's loader.
  const prefix = '"data:application/octet-stream;base64,';
  const at = bundle.indexOf(`${prefix}AGFzbQ`, 0, 'latin1');
  if (at === -1 || bundle.indexOf(`${prefix}AGFzbQ`, at + 1, 'latin1') !== -1) return null;
  const start = at + prefix.length;
  const end = bundle.indexOf('"', start, 'latin1');
  if (end === -1) return null;
  return Buffer.from(bundle.toString('latin1', start, end), 'base64');
}

/** Called by the bin with the app bundle's bytes, before it compiles the bundle: compiles Yoga's wasm. */
export function precompileYoga(bundle: Buffer): void {
  const bytes = wasmInBundle(bundle);
  if (!bytes) return;
  try {
    slot[KEY] = new WebAssembly.Module(bytes);
  } catch {
    // Not an error here: Yoga's own loader compiles the same bytes again and says what is wrong with them.
  }
}

/** What Emscripten's loader calls instead of compiling: the imports it made, and where the instance goes. */
type InstantiateWasm = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => object;

/**
 * The options for Yoga's loader (its Emscripten `Module` argument): the module the bin compiled, instantiated
 * with the loader's own imports; none when there is no such module (the loader then does its own work).
 * Taken once: the global holds nothing after the start.
 */
export function yogaLoadOptions(): { instantiateWasm?: InstantiateWasm } {
  const compiled = slot[KEY];
  delete slot[KEY];
  if (!compiled) return {};
  return {
    instantiateWasm(imports, done) {
      // Instantiating a compiled module is cheap; Emscripten allows the instance to arrive synchronously.
      done(new WebAssembly.Instance(compiled, imports));
      return {};
    },
  };
}
