/**
 * The app's code cache (io/code-cache.ts) on a small script of the same shape as the app bundle: a start
 * without a cache writes one, the next start runs from it, and a damaged, foreign or stale cache is ignored
 * and replaced, never an error; --readonly (write: false) writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';
import {
  APP_PREFIX,
  cacheFileName,
  KEEP,
  loadAppFunction,
  unwrapCache,
  wrapCache,
  type CodeCacheOptions,
} from '../../src/io/code-cache.js';

type Fn = (a: number) => Promise<{ answer: number }>;

/** Enough functions that V8's cache is worth the name; `answer` proves the compiled code is this source's. */
function writeApp(dir: string, answer: number): string {
  const helpers = Array.from({ length: 50 }, (_, i) => `function h${i}(x) { return x + ${i}; }`).join('\n');
  const body = `"use strict";\n${helpers}\nlet s = 0;\nfor (let i = 0; i < 50; i++) s = h${0}(s);\nreturn { answer: a + ${answer} + s * 0 };`;
  const file = path.join(dir, 'app.mjs');
  fs.writeFileSync(file, `${APP_PREFIX}(async function (a) {${body}\n});\n`);
  return file;
}

const sourceOf = (file: string) => fs.readFileSync(file, 'latin1').slice(APP_PREFIX.length);

let starts = 0;
/**
 * One start of `file`, from a path of its own: V8 remembers scripts it compiled in this process by source and
 * path, and would answer from memory instead of from the cache file.
 */
async function start(file: string, opts: CodeCacheOptions) {
  const copy = path.join(path.dirname(file), `start-${++starts}.mjs`);
  fs.copyFileSync(file, copy);
  const loaded = loadAppFunction<Fn>(copy, { fullAfterMs: 0, quiet: () => true, ...opts });
  if (!loaded) throw new Error('not loaded');
  return { used: loaded.cacheUsed, result: await loaded.value(1) };
}

const cacheFile = (dir: string, file: string) => path.join(dir, cacheFileName(sourceOf(file)));

describe('code cache', () => {
  it('the first start writes a cache and the next one runs from it, with the same result', async ({ tempDir }) => {
    const app = writeApp(tempDir('app-'), 41);
    const dir = path.join(tempDir('cache-'), 'omc-top');
    const first = await start(app, { dir, write: true });
    expect(first).toEqual({ used: false, result: { answer: 42 } });
    await waitFor(() => fs.existsSync(cacheFile(dir, app)), { what: 'the cache file' });
    expect(unwrapCache(fs.readFileSync(cacheFile(dir, app)))?.full).toBe(true);
    expect(await start(app, { dir, write: true })).toEqual({ used: true, result: { answer: 42 } });
  });

  it('a damaged or foreign cache file is ignored, the app runs, and a good cache replaces it', async ({ tempDir }) => {
    const app = writeApp(tempDir('app-'), 1);
    const dir = tempDir('cache-');
    const file = cacheFile(dir, app);
    await start(app, { dir, write: true });
    await waitFor(() => fs.existsSync(file), { what: 'the cache file' });
    const good = fs.readFileSync(file);

    const flipped = Buffer.from(good);
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 10) ^ 0xff, flipped.length - 10);
    fs.writeFileSync(file, flipped);
    expect(await start(app, { dir, write: true })).toEqual({ used: false, result: { answer: 2 } });
    await waitFor(() => fs.readFileSync(file).equals(good) || unwrapCache(fs.readFileSync(file)), {
      what: 'the cache rewritten',
    });

    // Intact by our checksum, but not V8's data: V8 refuses it.
    fs.writeFileSync(file, wrapCache({ data: Buffer.alloc(4096, 7), full: true }));
    expect(await start(app, { dir, write: true })).toEqual({ used: false, result: { answer: 2 } });
    fs.writeFileSync(file, 'not a cache');
    expect(await start(app, { dir, write: true })).toEqual({ used: false, result: { answer: 2 } });
  });

  it("a changed bundle does not take another bundle's cache; the newest KEEP caches stay", async ({ tempDir }) => {
    const dir = tempDir('cache-');
    const made: string[] = [];
    for (let i = 0; i <= KEEP; i++) {
      const app = writeApp(tempDir('app-'), i);
      expect(await start(app, { dir, write: true })).toEqual({ used: false, result: { answer: i + 1 } });
      const file = cacheFile(dir, app);
      await waitFor(() => fs.existsSync(file), { what: `cache ${i}` });
      // Distinct ages whatever the file system's timestamp resolution.
      fs.utimesSync(file, new Date(), new Date(Date.now() - (KEEP + 1 - i) * 60_000));
      made.push(file);
    }
    expect(made.map((f) => fs.existsSync(f))).toEqual([false, ...Array<boolean>(KEEP).fill(true)]);
  });

  it("hands the bundle's bytes to onBundle before the function is compiled, once", async ({ tempDir }) => {
    const app = writeApp(tempDir('app-'), 3);
    const seen: Buffer[] = [];
    const copy = path.join(path.dirname(app), 'with-hook.mjs');
    fs.copyFileSync(app, copy);
    const loaded = loadAppFunction<Fn>(copy, { dir: null, write: false, onBundle: (b) => seen.push(Buffer.from(b)) });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.equals(fs.readFileSync(app))).toBe(true);
    expect(await loaded?.value(1)).toEqual({ answer: 4 });
  });

  it('writes nothing when told not to (--readonly), or with no cache directory', async ({ tempDir }) => {
    const app = writeApp(tempDir('app-'), 5);
    const dir = path.join(tempDir('cache-'), 'omc-top');
    expect(await start(app, { dir, write: false })).toEqual({ used: false, result: { answer: 6 } });
    expect(await start(app, { dir: null, write: true })).toEqual({ used: false, result: { answer: 6 } });
    // The timers of both starts have had their turn.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 0));
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('the full cache waits for a quiet moment: nothing is taken while the process is busy', async ({ tempDir }) => {
    const app = writeApp(tempDir('app-'), 9);
    const dir = path.join(tempDir('cache-'), 'omc-top');
    let quiet = false;
    let asked = 0;
    const first = await start(app, { dir, write: true, quiet: () => (asked++, quiet) });
    expect(first).toEqual({ used: false, result: { answer: 10 } });
    await waitFor(() => asked >= 3, { what: 'three checks for a quiet moment' });
    expect(fs.existsSync(cacheFile(dir, app))).toBe(false);
    quiet = true;
    await waitFor(() => fs.existsSync(cacheFile(dir, app)), { what: 'the cache file' });
    expect(unwrapCache(fs.readFileSync(cacheFile(dir, app)))?.full).toBe(true);
    expect(await start(app, { dir, write: true })).toEqual({ used: true, result: { answer: 10 } });
  });

  it('names the cache the same from the bundle text or its bytes', () => {
    const text = 'export default (async function () {});\n';
    expect(cacheFileName(Buffer.from(text, 'latin1'))).toBe(cacheFileName(text));
  });

  it('a file that is not the app script is left to the module loader', ({ tempDir }) => {
    const file = path.join(tempDir('app-'), 'app.mjs');
    fs.writeFileSync(file, 'export const x = 1;\n');
    expect(loadAppFunction(file, { dir: null, write: false })).toBeNull();
  });
});
