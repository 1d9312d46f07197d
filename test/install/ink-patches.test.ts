// The Ink that in-process tests import is the patched Ink the bundle ships
// (one table, scripts/ink-patches/index.mjs, applied by esbuild and by vitest).
import fs from 'node:fs';
import path from 'node:path';
import React from 'react';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { APPLIED_KEY, applyInkPatch, INK_PATCHES } from '../../scripts/ink-patches/index.mjs';
import { REPO } from '../helpers/fixtures.js';

const applied = () => (globalThis as Record<symbol, Set<string> | undefined>)[Symbol.for(APPLIED_KEY)];

describe('Ink patches', () => {
  it('every patch in the table is applied to the Ink this test imports', () => {
    const app = render(React.createElement(Text, null, 'hello'));
    expect(app.lastFrame()).toBe('hello');
    app.unmount();
    expect([...(applied() ?? [])].sort()).toEqual(INK_PATCHES.map((p) => p.name).sort());
  });

  it('the incremental renderer moves up to the first row of the previous frame', async () => {
    const { default: logUpdate } = (await import(path.join(REPO, 'node_modules', 'ink', 'build', 'log-update.js'))) as {
      default: { create(stream: unknown, opts: { incremental: boolean }): (s: string) => void };
    };
    const writes: string[] = [];
    const stream = { write: (s: string) => writes.push(s), isTTY: false, rows: 24, columns: 80 };
    const log = logUpdate.create(stream, { incremental: true });
    log('a\nb\nc\n');
    log('a\nB\nc\n');
    // Three rows and the cursor on the row below them: three rows up, not two (Ink 6.8's bug).
    expect(writes.at(-1)).toContain('\u001b[3A');
  });

  it('the app bundle carries the same patches', () => {
    const bundle = fs.readFileSync(path.join(REPO, 'dist', 'omc-top-app.mjs'), 'utf8');
    for (const p of INK_PATCHES) expect(bundle).toContain(`.add(${JSON.stringify(p.name)})`);
  });

  it('a patch whose text is gone from Ink fails loudly instead of leaving Ink unpatched', () => {
    const file = path.join(REPO, 'node_modules', 'ink', 'build', 'log-update.js');
    expect(() => applyInkPatch(file, 'export default {};')).toThrow(/no longer applies/);
    expect(applyInkPatch(path.join(REPO, 'node_modules', 'ink', 'build', 'colorize.js'), 'x')).toBe('x');
  });
});
