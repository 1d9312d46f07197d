/**
 * A start sets up no ICU grapheme segmenter: each Intl.Segmenter costs ~5 ms of ICU break data on the main thread
 * before the first frame, and a plain ASCII tree never needs one (Ink's tokenizer splits ASCII without ICU, and
 * src/ makes its own segmenters at first use). A module that made one when it loaded cost every start those
 * milliseconds (shown-exactly.ts did, found in a first-frame profile on 2026-12-06). The real bundle, with a
 * preload that records where each segmenter is made.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';
import { writeLiveRalph } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'c0ffee00-1111-4222-8333-444455556666';

/** A preload that appends the stack of every Intl.Segmenter made to `log`. */
function segmenterSpy(dir: string): { nodeOptions: string; made: () => string[] } {
  const log = path.join(dir, 'segmenters.log');
  const preload = path.join(dir, 'spy.mjs');
  // Written by the preload as it runs: a start that did not load it would pass without looking at anything.
  const loaded = path.join(dir, 'spy-loaded');
  fs.writeFileSync(
    preload,
    `import fs from 'node:fs';
fs.writeFileSync(${JSON.stringify(loaded)}, String(process.pid));
const Real = Intl.Segmenter;
Intl.Segmenter = class extends Real {
  constructor(...args) {
    super(...args);
    fs.appendFileSync(${JSON.stringify(log)}, new Error('made').stack.split('\\n').slice(2, 4).join(' ') + '\\n');
  }
};
`,
  );
  return {
    nodeOptions: `--import ${preload}`,
    made: () => {
      expect(fs.existsSync(loaded), 'the preload ran in omc-top').toBe(true);
      return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    },
  };
}

describe('start-up makes no ICU segmenter', () => {
  it('the monitor draws a plain tree and goes live without one', async ({ emptyProject, tempDir, pty }) => {
    writeLiveRalph(emptyProject, { sessionId: SID, prompt: 'make the checkout tests pass' });
    const spy = segmenterSpy(tempDir('omc-top-icu-'));
    const t = pty({ cwd: emptyProject.dir, env: { NODE_OPTIONS: spy.nodeOptions } });
    await t.waitForText('c0ffee00', scaled(20_000));
    await t.waitForText(/ live\s*$/m, scaled(20_000));
    expect(spy.made()).toEqual([]);
  });

  it('--json reads and prints the same tree without one', ({ emptyProject, tempDir }) => {
    writeLiveRalph(emptyProject, { sessionId: SID, prompt: 'make the checkout tests pass' });
    const spy = segmenterSpy(tempDir('omc-top-icu-'));
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: spy.nodeOptions };
    delete env.CI;
    const r = spawnSync(process.execPath, [BIN, '--json'], { cwd: emptyProject.dir, env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(SID);
    expect(spy.made()).toEqual([]);
  });
});
