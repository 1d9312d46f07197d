/**
 * Imported before Ink: hides `fetch` while Ink's layout engine (Yoga, a wasm
 * module embedded as a base64 data: URL) initialises, and gives it back
 * afterwards with restoreFetch().
 *
 * Why: Yoga's Emscripten loader uses `fetch` whenever one exists, even for a
 * data: URL, and on Node 20 the first call loads Node's whole HTTP client
 * (undici) just to decode those bytes: ~60 ms of a ~500 ms first frame,
 * measured with --cpu-prof. Without `fetch` the loader decodes the same bytes
 * itself, synchronously. omc-top makes no network requests; restoring the
 * property keeps the process's globals exactly as Node made them.
 */
const saved = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
if (saved?.configurable) {
  Object.defineProperty(globalThis, 'fetch', {
    configurable: true,
    enumerable: saved.enumerable ?? false,
    writable: true,
    value: undefined,
  });
}

export function restoreFetch(): void {
  if (saved?.configurable) Object.defineProperty(globalThis, 'fetch', saved);
}
