/**
 * Class 7 of the second hardening round: the watcher never dies silently.
 * `.omc` removed and re-created within microseconds (a restore, a branch
 * switch: here a rename of a prepared copy over it) is "present" before and
 * after, so a presence check sees nothing and every watch is left on the dead
 * inode — the screen froze for minutes while the footer said `live`. The root
 * is known by its identity; each replacement restarts the watches, says so,
 * and the next change reaches the screen. Six replacements in a row, each
 * followed by a change that must be shown.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, writeOmcJson } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'c0ffee00-0000-4000-8000-0000000000aa';
const ralph = (iteration: number) => liveRalph({ sessionId: SID, iteration, max: 50 });
const stateFile = (root: string) => path.join(root, 'state', 'sessions', SID, 'ralph-state.json');

describe('the root replaced in one rename under the running monitor', () => {
  it(
    '6 replacements: each restarts every watch, and the change after it reaches the screen',
    { timeout: scaled(240_000) },
    async ({ project: p, pty }) => {
      writeOmcJson(stateFile(p.root), ralph(1));
      const h = pty({ cwd: p.dir, cols: 100, rows: 30 });
      await h.waitForText('ralph 1/50');
      await h.waitForText(/ live\s*$/m);
      for (let round = 2; round <= 7; round++) {
        // A prepared copy of the tree, renamed over the root: never absent, a different inode.
        const copy = `${p.root}.restore`;
        fs.cpSync(p.root, copy, { recursive: true });
        writeOmcJson(stateFile(copy), ralph(round * 10));
        const aside = `${p.root}.old`;
        fs.renameSync(p.root, aside);
        fs.renameSync(copy, p.root);
        fs.rmSync(aside, { recursive: true, force: true });
        await h.waitForText(`ralph ${round * 10}/50`, 20_000);
        await h.waitForText(/ live\s*$/m, 20_000);
        // The watches are on the new tree: a plain change now shows up by itself.
        writeOmcJson(stateFile(p.root), ralph(round * 10 + 1));
        await h.waitForText(`ralph ${round * 10 + 1}/50`, 20_000);
      }
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    },
  );
});
