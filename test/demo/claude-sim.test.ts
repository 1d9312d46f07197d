/**
 * The demo's Claude simulator gives a newcomer every process cell: a gone CLI
 * (orphaned loop), live ones that turn busy and wait for a permission prompt,
 * a session without any registry entry (unknown), and tokens from transcripts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
// @ts-expect-error plain ESM without types
import { makeContext } from '../../demo/lib.mjs';
// @ts-expect-error plain ESM without types
import { start as startSessions } from '../../demo/sim/sessions.mjs';
// @ts-expect-error plain ESM without types
import { demoConfigDir, start as startClaude } from '../../demo/sim/claude.mjs';
import { attentionFor } from '../../src/store/claude/attention.js';
import { OmcStore } from '../../src/store/store.js';
import { waitFor } from '../agent/harness.js';
import { waitFor as pollUntil } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const stops: Array<() => void> = [];
afterEach(() => {
  stops.splice(0).forEach((s) => s());
});

describe('demo/sim/claude.mjs', () => {
  it(
    'writes registry entries and transcripts that show gone, live and unknown processes',
    { timeout: scaled(60_000) },
    async ({ emptyProject: p }) => {
      const ctx = makeContext(p.root, p.dir);
      stops.push(startSessions(ctx), startClaude(ctx));
      const cfg = demoConfigDir(p.dir) as string;
      const read = () => {
        const store = new OmcStore({
          root: p.root,
          watch: 'none',
          projectDir: p.dir,
          claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg } },
        });
        const claude = store.claude;
        store.start();
        const out = { sessions: store.sessions.getSnapshot().sessions, snap: claude.getSnapshot() };
        void store.close();
        return out;
      };
      const seen = await waitFor(
        'gone, live and tokens',
        () => {
          const { sessions, snap } = read();
          const procs = [...snap.bySession.values()].map((v) => v.process?.status);
          const tokens = [...snap.bySession.values()].some((v) => (v.transcript?.facts.tokens.input ?? 0) > 0);
          const orphan = sessions.some((s) =>
            attentionFor(s, snap.bySession.get(s.id)?.process ?? null, null).some((a) => a.kind === 'orphaned-loop'),
          );
          return procs.includes('gone') &&
            procs.some((x) => x === 'busy' || x === 'waiting' || x === 'idle') &&
            tokens &&
            orphan
            ? { sessions, snap }
            : null;
        },
        30_000,
      );
      // At least one OMC session has no registry entry at all: shown as unknown, never guessed.
      expect(seen.sessions.some((s) => !seen.snap.bySession.get(s.id)?.process)).toBe(true);
      expect(path.isAbsolute(cfg)).toBe(true);
    },
  );

  it(
    'ends each stand-in CLI once its session is over, so a long demo keeps a bounded number of processes',
    { timeout: scaled(120_000) },
    async ({ emptyProject: p }) => {
      const ctx = makeContext(p.root, p.dir);
      // Twenty times faster: a new session every ~1 s instead of ~20 s, every loop and tick alike.
      const jitter = ctx.jitter as (ms: number) => number;
      ctx.jitter = (ms: number) => jitter(ms) / 20;
      stops.push(startSessions(ctx), startClaude(ctx));
      const transcripts = path.join(demoConfigDir(p.dir) as string, 'projects', p.dir.replace(/[^a-zA-Z0-9]/g, '-'));
      // Sessions that got a stand-in CLI (each writes its transcript when it is adopted).
      const adopted = () => fs.readdirSync(transcripts).filter((f) => f.endsWith('.jsonl')).length;
      let most = 0;
      await pollUntil(
        () => {
          most = Math.max(most, standIns());
          return adopted() >= 25;
        },
        { timeoutMs: 90_000, what: '25 sessions with a CLI' },
      );
      // Without the exits every one of the 25 would still be running.
      expect(most).toBeLessThanOrEqual(10);
    },
  );
});

/** The simulator's stand-in CLIs alive now: this process's children running the idle script. */
function standIns(): number {
  let n = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || Number(ppid) !== process.pid) continue;
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('setInterval')) n += 1;
    } catch {
      // gone while we looked
    }
  }
  return n;
}
