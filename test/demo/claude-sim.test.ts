/**
 * The demo's Claude simulator gives a newcomer every process cell: a gone CLI
 * (orphaned loop), live ones that turn busy and wait for a permission prompt,
 * a session without any registry entry (unknown), and tokens from transcripts.
 */
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
});
