/**
 * `state/sessions` is watched with one plain fs.watch (a leaf holding leaves), not by chokidar: chokidar's walk
 * offered every entry of it to `ignored` (10,000 lstats at 10,000 sessions, the last thing start-up waited
 * for). Every event there must still arrive: a session directory created (files already inside, as a
 * `mkdir -p` makes them), removed, a stray file, and `state/sessions` itself removed and made again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, NO_CLAUDE_DIR, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { sessionId } from '../helpers/sessions-gen.js';
import { scaled } from '../helpers/time-scale.js';

const ralph = (sid: string, iteration: number) => liveRalph({ sessionId: sid, iteration, max: 100 });

describe('state/sessions as a plain watched leaf', () => {
  it.for([true, false])(
    'chokidar is never asked about session directories; every change there still shows (progressive %s)',
    { timeout: 180_000 },
    async (progressive, { emptyProject: p, newStore }) => {
      const root = p.root;
      const sessions = path.join(root, 'state', 'sessions');
      for (let i = 1; i <= 30; i++)
        writeOmcJson(path.join(sessions, sessionId(i), 'ralph-state.json'), ralph(sessionId(i), 1));
      const offered: string[] = [];
      const s = newStore({
        root,
        readonly: true,
        claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
        watchImpl: ((dir: string, o: Parameters<typeof watch>[1]) =>
          watch(dir, {
            ...o,
            ignored: (q: string, st?: fs.Stats) => {
              offered.push(q);
              return (o?.ignored as (q: string, st?: fs.Stats) => boolean)(q, st);
            },
          })) as typeof watch,
      });
      s.start({ progressive });
      await waitFor(() => s.status.getSnapshot().watchMode === 'events' && !s.status.getSnapshot().reading, {
        what: 'live',
        timeoutMs: 30_000,
      });
      const iteration = (sid: string) =>
        s.sessions
          .getSnapshot()
          .sessions.find((x) => x.id === sid)
          ?.modes.find((m) => m.mode === 'ralph')?.iteration;
      expect(iteration(sessionId(30))).toBe(1);
      expect(offered.filter((q) => q.startsWith(`${sessions}${path.sep}`))).toEqual([]);

      // A change in a session directory read at start.
      writeOmcJson(path.join(sessions, sessionId(3), 'ralph-state.json'), ralph(sessionId(3), 7));
      await waitFor(() => iteration(sessionId(3)) === 7, { what: 'the change', timeoutMs: 30_000 });
      // A session directory that arrives with its file inside (one rename), then changes.
      const fresh = sessionId(99);
      const staged = path.join(p.dir, 'staged');
      writeOmcJson(path.join(staged, 'ralph-state.json'), ralph(fresh, 2));
      fs.renameSync(staged, path.join(sessions, fresh));
      await waitFor(() => iteration(fresh) === 2, { what: 'the new session', timeoutMs: 30_000 });
      writeOmcJson(path.join(sessions, fresh, 'ralph-state.json'), ralph(fresh, 3));
      await waitFor(() => iteration(fresh) === 3, { what: 'the new session live', timeoutMs: 30_000 });
      // A session directory removed.
      fs.rmSync(path.join(sessions, sessionId(5)), { recursive: true });
      await waitFor(() => iteration(sessionId(5)) === undefined, { what: 'the session gone', timeoutMs: 30_000 });
      // A stray file where a session directory belongs: a problem line.
      fs.writeFileSync(path.join(sessions, sessionId(98)), 'x');
      await waitFor(() => s.problems.getSnapshot().some((x) => x.path === `state/sessions/${sessionId(98)}`), {
        what: 'the stray file',
        timeoutMs: 30_000,
      });

      // state/sessions removed, then made again with a session already inside it.
      fs.rmSync(sessions, { recursive: true });
      await waitFor(() => s.sessions.getSnapshot().sessions.length === 0, { what: 'all gone', timeoutMs: 30_000 });
      const again = path.join(p.dir, 'again');
      writeOmcJson(path.join(again, sessionId(1), 'ralph-state.json'), ralph(sessionId(1), 4));
      fs.renameSync(again, sessions);
      await waitFor(() => iteration(sessionId(1)) === 4, {
        what: 'the session in the new directory',
        timeoutMs: 30_000,
      });
      writeOmcJson(path.join(sessions, sessionId(1), 'ralph-state.json'), ralph(sessionId(1), 5));
      await waitFor(() => iteration(sessionId(1)) === 5, { what: 'and live', timeoutMs: 30_000 });
      const later = sessionId(77);
      writeOmcJson(path.join(sessions, later, 'ralph-state.json'), ralph(later, 6));
      await waitFor(() => iteration(later) === 6, { what: 'a session made in it later', timeoutMs: 30_000 });

      // Swapped for another directory in two renames (no moment without one, to a watcher that looks late).
      const other = path.join(p.dir, 'other');
      writeOmcJson(path.join(other, sessionId(60), 'ralph-state.json'), ralph(sessionId(60), 9));
      fs.renameSync(sessions, path.join(p.dir, 'old-sessions'));
      fs.renameSync(other, sessions);
      await waitFor(() => iteration(sessionId(60)) === 9 && iteration(sessionId(1)) === undefined, {
        what: 'the other directory read',
        timeoutMs: 30_000,
      });
      writeOmcJson(path.join(sessions, sessionId(60), 'ralph-state.json'), ralph(sessionId(60), 10));
      await waitFor(() => iteration(sessionId(60)) === 10, { what: 'the other directory live', timeoutMs: 30_000 });
      // Replaced by a file, then a directory again.
      const aside = path.join(p.dir, 'aside');
      fs.renameSync(sessions, aside);
      fs.writeFileSync(sessions, 'not a directory');
      await waitFor(() => s.problems.getSnapshot().some((x) => x.path === 'state/sessions'), {
        what: 'the file problem',
        timeoutMs: 30_000,
      });
      fs.rmSync(sessions);
      fs.renameSync(aside, sessions);
      await waitFor(() => iteration(sessionId(60)) === 10, { what: 'back', timeoutMs: 30_000 });
      writeOmcJson(path.join(sessions, sessionId(60), 'ralph-state.json'), ralph(sessionId(60), 11));
      await waitFor(() => iteration(sessionId(60)) === 11, { what: 'back and live', timeoutMs: 30_000 });
      expect(offered.filter((q) => q.startsWith(`${sessions}${path.sep}`))).toEqual([]);
    },
  );
});

describe('the watcher ready while the sliced read is under way', () => {
  it(
    'does not attach and announce the session directories the read has not reached (the read watches each itself)',
    { timeout: scaled(120_000) },
    async ({ emptyProject: p, newStore }) => {
      const root = p.root;
      const N = 200;
      for (let i = 1; i <= N; i++)
        writeOmcJson(path.join(root, 'state', 'sessions', sessionId(i), 'ralph-state.json'), ralph(sessionId(i), 1));
      const s = newStore({
        root,
        readonly: true,
        claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
      });
      // Hold the read at 50 directories until the watcher is ready (or 30 s: then the test fails, never hangs).
      const step = s.sessions.scanStep.bind(s.sessions);
      const since = Date.now();
      s.sessions.scanStep = (deadline: number) => {
        const held = (s.sessions.getSnapshot().scanning?.done ?? 0) >= 50;
        if (held && s.status.getSnapshot().watchMode !== 'events' && Date.now() - since < 30_000) return false;
        return step(held ? deadline : 0);
      };
      const announced: string[] = [];
      const refresh = s.sessions.refresh.bind(s.sessions);
      s.sessions.refresh = (events, edge) => {
        for (const e of events) if (e.type === 'addDir') announced.push(e.rel);
        refresh(events, edge);
      };
      s.start({ progressive: true });
      await waitFor(() => s.status.getSnapshot().watchMode === 'events' && !s.status.getSnapshot().reading, {
        what: 'live',
        timeoutMs: 60_000,
      });
      expect(s.sessions.getSnapshot().sessions).toHaveLength(N);
      expect(announced).toEqual([]);
      // And the directories read after `ready` are watched all the same.
      const last = sessionId(N);
      writeOmcJson(path.join(root, 'state', 'sessions', last, 'ralph-state.json'), ralph(last, 8));
      await waitFor(() => s.sessions.getSnapshot().sessions.find((x) => x.id === last)?.modes[0]?.iteration === 8, {
        what: 'a change to the last session read',
        timeoutMs: 30_000,
      });
    },
  );
});
