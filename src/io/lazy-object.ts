/**
 * An object built on its first use: every property read, `in`, key listing or prototype question goes to the
 * object `build` returns, built once.
 *
 * Why: a module's schemas (zod) were built as the app bundle loaded, 10–15 ms of CPU before the first frame
 * for files the first frame does not read (graph runs, project memory, the permission bridge, the config's
 * push channels). Built on first use, each costs the same once, when its file is first read.
 */
export function lazyObject<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_t, key) => Reflect.get(real(), key),
    set: (_t, key, value) => Reflect.set(real(), key, value),
    has: (_t, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    // The stand-in has no own properties: each is reported configurable, as a proxy must for a key its target lacks.
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
    defineProperty: (_t, key, d) => Reflect.defineProperty(real(), key, d),
    deleteProperty: (_t, key) => Reflect.deleteProperty(real(), key),
  });
}
