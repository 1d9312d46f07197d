/**
 * No lost update at any point of start-up, in a real terminal: a big tree (a slow start), and a writer that
 * keeps rewriting live sessions, OMC's way, at random moments from before omc-top is spawned until after its
 * footer says `live`. Every session's last value ends on screen. Nothing here depends on timing: the writer
 * is a workload, every wait is on a condition with a generous bound.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, type TempProject, writeLiveRalph } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';
import { writeFinishedSessions } from '../helpers/sessions-gen.js';
import { scaled } from '../helpers/time-scale.js';

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
let stopWriter: (() => void) | null = null;
afterEach(() => {
  stopWriter?.();
  h?.dispose();
  p?.cleanup();
  h = null;
  p = null;
  stopWriter = null;
});

// Scattered over the name space, so the sliced read meets them early, midway and late.
const LIVE = ['0badc0de', '1a2b3c4d', '5e6f7a8b', '9c0d1e2f', 'c3d4e5f6', 'f7e8d9c0'].map(
  (h8) => `${h8}-0000-4000-8000-000000000000`,
);

describe('start-up in a real terminal', () => {
  it(
    'changes written throughout a slow start (before the first frame, while reading, after live) all end on screen',
    { timeout: scaled(180_000) },
    async () => {
      p = makeProject();
      const root = p.root;
      const started = Date.now();
      writeFinishedSessions(root, 2_500, started - 3_600_000);
      const iteration = new Map(LIVE.map((sid) => [sid, 1]));
      const write = (sid: string) =>
        writeLiveRalph(
          { root },
          {
            sessionId: sid,
            iteration: iteration.get(sid),
            max: 1000,
            startedAt: started - 60_000,
            prompt: 'kept busy through start-up',
          },
        );
      for (const sid of LIVE) write(sid);

      // The writer: one rewrite every 0–30 ms, until it has gone on for a while after `live`.
      let writes = 0;
      let writesAfterLive = -1;
      let timer: NodeJS.Timeout | null = null;
      let stopped = false;
      const stopped$ = new Promise<void>((resolve) => {
        stopWriter = () => {
          stopped = true;
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
      const tick = () => {
        if (stopped) return;
        const sid = LIVE[Math.floor(Math.random() * LIVE.length)] as string;
        iteration.set(sid, (iteration.get(sid) ?? 1) + 1);
        write(sid);
        writes += 1;
        if (writesAfterLive === -1 && h && / live\s*$/m.test(h.text())) writesAfterLive = 0;
        if (writesAfterLive >= 0 && ++writesAfterLive >= 20) {
          stopWriter?.();
          return;
        }
        timer = setTimeout(tick, Math.random() * 30);
      };
      tick(); // before the spawn: the first frame is already behind
      h = new TerminalHarness({ cwd: p.dir, cols: 120, rows: 30 });
      await h.waitForText(/ live\s*$/m, 60_000);
      await Promise.race([
        stopped$,
        new Promise((_, reject) => setTimeout(() => reject(new Error('writer never stopped')), 60_000)),
      ]);
      expect(writes).toBeGreaterThan(20);
      // It was a progressive start: the screen said how far the read had got.
      expect(h.output).toMatch(/reading [\d,]+\/[\d,]+/);
      for (const sid of LIVE) {
        await h.waitForText(new RegExp(`${sid.slice(0, 8)}[^\\n]* ralph ${iteration.get(sid)}/1000 `), 30_000);
      }
    },
  );

  it(
    'with --poll the progressive start still reads everything and then follows changes',
    { timeout: scaled(120_000) },
    async () => {
      p = makeProject();
      const root = p.root;
      writeFinishedSessions(root, 300);
      const sid = LIVE[0] as string;
      const write = (iteration: number) =>
        writeLiveRalph({ root }, { sessionId: sid, iteration, max: 1000, startedAt: Date.now() - 60_000 });
      write(1);
      h = new TerminalHarness({ cwd: p.dir, cols: 120, rows: 30, args: ['--poll'] });
      await h.waitForText(/ polling\s*$/m, 60_000);
      await h.waitForText(/301 sess/, 30_000);
      write(2);
      await h.waitForText(new RegExp(`${sid.slice(0, 8)}[^\\n]* ralph 2/1000 `), 30_000);
    },
  );
});
