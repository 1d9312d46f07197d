/**
 * `--poll` is the user's choice, not a fault: the monitor in a real terminal says it as a quiet fact (the footer's
 * `polling`), with no problem line, and still shows what OMC writes. What is wrong meanwhile stays a problem: `.omc`
 * gone under a polling monitor is the warning line and the footer's `POLLING`, as a fallback to polling is
 * (test/faults/watch-exhausted.e2e.test.ts: the limit reached, named on a problem line).
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, type TempProject, writeLiveRalph } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
afterEach(async () => {
  await h?.close();
  p?.cleanup();
  h = p = null;
});

const SID = '0badc0de-0000-4000-8000-000000000000';

describe('--poll in a real terminal', () => {
  it(
    'says polling as a fact: the footer in lower case, no problem line, changes still shown',
    { timeout: scaled(90_000) },
    async () => {
      p = makeProject();
      const root = p.root;
      writeLiveRalph({ root }, { sessionId: SID, iteration: 1, max: 100 });
      const t = (h = new TerminalHarness({ cwd: p.dir, cols: 120, rows: 30, args: ['--poll'] }));
      await t.waitForText(/ polling\s*$/m, 30_000);
      await t.waitForText(new RegExp(`${SID.slice(0, 8)}[^\\n]* ralph 1/100 `), 30_000);
      // No warning for what the user asked: not the mode's words as a problem line, not the alarm's POLLING.
      expect(t.text()).not.toContain('(--poll)');
      expect(t.text()).not.toContain('⚠');
      expect(t.text()).not.toContain('POLLING');
      writeLiveRalph({ root }, { sessionId: SID, iteration: 2, max: 100 });
      await t.waitForText(new RegExp(`${SID.slice(0, 8)}[^\\n]* ralph 2/100 `), 30_000);
    },
  );

  it(
    '.omc gone under a polling monitor is still a problem: the warning line and POLLING',
    { timeout: scaled(90_000) },
    async () => {
      p = makeProject();
      const root = p.root;
      writeLiveRalph({ root }, { sessionId: SID, iteration: 1, max: 100 });
      const t = (h = new TerminalHarness({ cwd: p.dir, cols: 120, rows: 30, args: ['--poll'] }));
      await t.waitForText(/ polling\s*$/m, 30_000);
      fs.rmSync(root, { recursive: true, force: true });
      await t.waitForText('is gone (moved away or removed); polling every 1 s for it to come back', 30_000);
      await t.waitForText(/POLLING\s*$/m, 30_000);
    },
  );
});
