/**
 * The bundles take Node's built-ins through shims (scripts/build.mjs, builtinShims): an import gets Node's names
 * but not the ones Node computes when read (getters), `require` gets Node's own module object. And the bundle's
 * edit of signal-exit (scripts/lazy-segmenter/index.mjs) loads `assert` only to report a bad callback.
 */
import fs from 'node:fs';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the build, without types
import { builtinShims } from '../../scripts/build.mjs';
// @ts-expect-error: as above
import { STARTUP_EDITS, applyEdits } from '../../scripts/lazy-segmenter/index.mjs';

const nodeRequire = createRequire(import.meta.url);

/** `source` bundled through the shims as the app is (import-is-undefined an error), then run: its exports. */
async function shimmed(source: string): Promise<Record<string, unknown>> {
  const out = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
    logOverride: { 'import-is-undefined': 'error' },
    plugins: [builtinShims],
  });
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', '__omcTopRequire', out.outputFiles[0]!.text)(module, module.exports, nodeRequire);
  return module.exports;
}

describe('built-in shims', () => {
  it("an import gives Node's plain names and Node's own object as the default", async () => {
    const m = await shimmed(
      "import fs, { readFileSync } from 'node:fs'; import path from 'path'; export { fs, readFileSync, path };",
    );
    expect(m.fs).toBe(fs);
    expect(m.readFileSync).toBe(fs.readFileSync);
    expect(m.path).toBe(nodeRequire('node:path'));
  });

  it('a getter imported by name, or read off a namespace, fails the build instead of being undefined', async () => {
    await expect(shimmed("import { promises } from 'node:fs'; export { promises };")).rejects.toThrow(/promises/);
    await expect(shimmed("import * as c from 'node:crypto'; export const w = c.webcrypto;")).rejects.toThrow(
      /webcrypto/,
    );
  });

  it('a getter read off the default object is read when used, as Node gives it', async () => {
    const m = await shimmed("import fs from 'node:fs'; export const p = () => fs.promises;");
    expect((m.p as () => unknown)()).toBe(fs.promises);
  });

  it("require gives Node's own module object", async () => {
    const m = await shimmed("module.exports = { events: require('events'), fs: require('node:fs') };");
    expect(m.events).toBe(EventEmitter);
    expect(m.fs).toBe(fs);
  });
});

describe("signal-exit's edit", () => {
  const file = nodeRequire.resolve('signal-exit', { paths: [nodeRequire.resolve('ink')] });
  const entry = (STARTUP_EDITS as { file: RegExp; edits: unknown[] }[]).find((e) => e.file.test(file));

  it('finds its text in the installed signal-exit, and leaves no assert loaded at the top', () => {
    expect(entry).toBeDefined();
    const edited = applyEdits(file, fs.readFileSync(file, 'utf8'), entry!.edits) as string;
    expect(edited).not.toMatch(/^\s*var assert = require\('assert'\)/m);
  });

  it('still refuses a callback that is not a function with the same AssertionError, and takes a function', () => {
    const edited = applyEdits(file, fs.readFileSync(file, 'utf8'), entry!.edits) as string;
    const module = { exports: {} as unknown };
    new Function('module', 'exports', 'require', edited)(module, module.exports, createRequire(file));
    const onExit = module.exports as (cb: unknown) => () => void;
    let thrown: unknown;
    try {
      onExit('not a function');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(nodeRequire('node:assert').AssertionError);
    expect((thrown as Error).message).toBe('a callback must be provided for exit handler');
    const remove = onExit(() => undefined);
    expect(typeof remove).toBe('function');
    remove();
  });
});
