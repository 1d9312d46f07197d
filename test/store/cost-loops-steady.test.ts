// The Cost pane's OMC rows are made once per session view while nothing but the view decides them (no Claude
// process or transcript, the plan not rate-limited): a change costs the rows it touched. These cases hold that the
// kept row is never the wrong one: a rate limit that starts puts its note on the row at once (and the kept row
// comes back when it ends), and a session that changes gets its new row.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { projectLoops, type LoopInputs } from '../../src/store/cost/loops.js';
import type { QuotaSnapshot } from '../../src/store/cost/quota-domain.js';
import { sessionIndex } from '../../src/store/sessions/view-index.js';
import { makeProject, writeLiveRalph, type TempProject } from '../helpers/fixtures.js';

const SID = 'cccccccc-1111-4222-8333-000000000003';
const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const projects: TempProject[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});

const notLimited = { version: 1, daemon: null, cache: null } as unknown as QuotaSnapshot;
/** OMC's wait daemon, alive, says the plan is limited for another hour. */
const limited = {
  version: 2,
  cache: null,
  daemon: { alive: true, pid: 1, state: { limited: true, nextResetMs: NOW + 3_600_000, blockedPanes: [] } },
} as unknown as QuotaSnapshot;

function loops(store: OmcStore, quota: QuotaSnapshot) {
  const snapshot = store.sessions.getSnapshot();
  const inputs: LoopInputs = {
    sessions: snapshot.sessions,
    snapshot,
    claude: store.claude.getSnapshot(),
    jobs: [],
    quota,
    prices: undefined,
    projectDir: store.projectDir,
    now: NOW,
  };
  return projectLoops(inputs).filter((l) => l.kind === 'omc');
}

describe('Cost pane: OMC rows kept per session view', () => {
  it('follow a rate limit that starts and ends, and a change of the session', () => {
    const p = makeProject({ prefix: 'omc-top-cost-steady-' });
    projects.push(p);
    const ralph = (iteration: number) =>
      writeLiveRalph(p, {
        sessionId: SID,
        iteration,
        max: 10,
        startedAt: NOW - 20 * 60_000,
        checkedAt: new Date(NOW).toISOString(),
        projectPath: p.dir,
        prompt: 'ralph: make the tests pass',
      });
    const file = ralph(3);
    const cfg = path.join(p.dir, 'no-claude');
    fs.mkdirSync(cfg);
    const store = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      clock: () => NOW,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
    });
    store.start();
    try {
      const [first] = loops(store, notLimited);
      expect(first?.state).toBe('enforced');
      expect(first?.label).toContain('3/10');
      expect(first?.rateLimit).toBeNull();

      const [held] = loops(store, limited);
      expect(held?.rateLimit).toMatchObject({ untilMs: NOW + 3_600_000, by: 'wait daemon' });

      const [after] = loops(store, notLimited);
      expect(after?.rateLimit).toBeNull();
      expect(after).toBe(first);

      ralph(4);
      store.sessions.refresh([{ type: 'change', rel: path.relative(p.root, file) }], 'trailing');
      const [changed] = loops(store, notLimited);
      expect(changed).not.toBe(first);
      expect(changed?.label).toContain('4/10');
      // The sessions' index follows the change too.
      expect(sessionIndex(store.sessions.getSnapshot()).byKey.get(SID)?.modes[0]?.iteration).toBe(4);
    } finally {
      void store.close();
    }
  });
});
