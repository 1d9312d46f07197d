/**
 * Sweep 10 §7: an OMC 5.5 loop's window comes from its state file, which OMC's /cancel and omc-top's cancel
 * delete. The window omc-top saw stays (its own samples): the loop's spend stays under its mode on the Cost
 * pane's rollup and in `--json` (a fresh one-shot reads what the TUI recorded); the totals do not move; a stretch
 * omc-top did not see is never made part of a loop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { NO_LOOP } from '../../../src/store/cost/rollup.js';
import { addClaudeToReport } from '../../../src/store/claude/report.js';
import { addCostToReport } from '../../../src/feeds/cost-report.js';
import { enableIterationSamples, readRecordedWindows } from '../../../src/feeds/iteration-sampling.js';
import { OmcStore } from '../../../src/store/store.js';
import { makeProject, type TempProject, waitFor, writeLiveRalph } from '../../helpers/fixtures.js';
import { assistant, prompt } from '../claude/lines.js';
import { forgetConfiguredPrices } from '../../../src/store/claude/price-config.js';

const A = 'aaaaaaaa-1111-4222-8333-00000000000c';
const NOW = Date.parse('2026-12-02T12:00:00Z');
let p: TempProject;
let cfg: string;
let state: string;
const open: OmcStore[] = [];

beforeEach(() => {
  p = makeProject();
  cfg = path.join(p.dir, 'claude-config');
  state = path.join(p.dir, 'xdg-state');
  process.env.XDG_CONFIG_HOME = path.join(p.dir, 'no-config');
  forgetConfiguredPrices();
  const f = path.join(cfg, transcriptRel(p.dir, A));
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(
    f,
    [
      prompt(A, '2026-12-02T09:00:00Z', 'hi'),
      ...assistant(A, '2026-12-02T09:00:10Z', 'a1', 1, [{ type: 'text', text: 'before ralph' }]),
      ...assistant(A, '2026-12-02T10:30:10Z', 'a2', 2, [{ type: 'text', text: 'ralph 1' }]),
      ...assistant(A, '2026-12-02T11:30:10Z', 'a3', 3, [{ type: 'text', text: 'ralph 2' }]),
    ].join('\n') + '\n',
  );
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  delete process.env.XDG_CONFIG_HOME;
  p.cleanup();
});

const newStore = (watch: 'auto' | 'none', clock = () => NOW) => {
  const s = new OmcStore({
    root: p.root,
    watch,
    projectDir: p.dir,
    clock,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
  });
  open.push(s);
  return s;
};

/** What `--json` says per mode (tokens) and for the project. */
function jsonCost(store: OmcStore) {
  const sessions = store.sessions.getSnapshot().sessions;
  const doc: Record<string, any> = { sessions: sessions.map((s) => ({ id: s.id })), runs: [] };
  addClaudeToReport(doc, sessions, store.claude.getSnapshot(), NOW);
  addCostToReport(doc, store, {}, NOW);
  return {
    modes: Object.fromEntries(doc.cost.by_mode.map((m: any) => [m.mode, m.tokens])),
    total: doc.cost.project.tokens as number,
  };
}

/** A's OMC 5.5 ralph loop, live at iteration 2 since 10:00 (checked at NOW); returns its state file. */
const writeRalphOfA = () =>
  writeLiveRalph(p, {
    sessionId: A,
    iteration: 2,
    max: 10,
    startedAt: '2026-12-02T10:00:00.000Z',
    checkedAt: NOW,
    projectPath: p.dir,
    prompt: 'ralph: x',
  });

/** Whether the store shows a live ralph loop. */
const ralphLive = (store: OmcStore) =>
  store.sessions.getSnapshot().sessions.some((s) => s.modes.some((m) => m.mode === 'ralph' && m.active));

// usage(i) tokens: 100+i in, 10+i out, 1000i cache read, 5 cache write (test/store/claude/lines.ts).
const tok = (i: number) => 100 + i + 10 + i + 1000 * i + 5;

describe('a cancelled OMC 5.5 loop keeps its spend under its mode', () => {
  it('in the monitor that saw it and in a later one-shot --json; the total does not move', async () => {
    const file = writeRalphOfA();
    const store = newStore('auto');
    const stop = enableIterationSamples(store, { XDG_STATE_HOME: state });
    store.start();
    const ralphShown = () => ralphLive(store);
    await waitFor(ralphShown, { timeoutMs: 20_000, what: 'the live ralph' });
    const before = jsonCost(store);
    expect(before.modes).toEqual({ ralph: tok(2) + tok(3), [NO_LOOP]: tok(1) });

    fs.rmSync(file); // OMC's /cancel (or omc-top's cancel) deletes the loop's state
    await waitFor(() => !ralphShown(), { timeoutMs: 20_000, what: 'the cancel seen' });
    const after = jsonCost(store);
    expect(after.modes, 'the monitor that saw the loop').toEqual(before.modes);
    expect(after.total).toBe(before.total);
    stop();

    // A fresh one-shot --json reads what the monitor recorded.
    const oneShot = newStore('none');
    oneShot.start();
    readRecordedWindows(oneShot, { XDG_STATE_HOME: state });
    expect(jsonCost(oneShot).modes, 'a later --json').toEqual(before.modes);

    // A --readonly monitor writes no samples but reads them: the same.
    const files = fs.readdirSync(path.join(state, 'omc-top'));
    const readonly = new OmcStore({
      root: p.root,
      watch: 'none',
      readonly: true,
      projectDir: p.dir,
      clock: () => NOW,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
    });
    open.push(readonly);
    enableIterationSamples(readonly, { XDG_STATE_HOME: state })();
    readonly.start();
    expect(jsonCost(readonly).modes, 'a --readonly monitor').toEqual(before.modes);
    expect(fs.readdirSync(path.join(state, 'omc-top'))).toEqual(files);
  });

  it('a loop that went while no monitor watched: its window ends at the last iteration omc-top saw', async () => {
    const file = writeRalphOfA();
    let clock = Date.parse('2026-12-02T11:00:00Z');
    const monitor = newStore('auto', () => clock);
    const stop = enableIterationSamples(monitor, { XDG_STATE_HOME: state });
    monitor.start();
    await waitFor(() => ralphLive(monitor), { timeoutMs: 20_000, what: 'the live ralph' });
    stop(); // the monitor saw iteration 2 at 11:00 and quits with the loop live; it is cancelled later, unseen
    await monitor.close();
    clock = NOW;
    fs.rmSync(file);
    const oneShot = newStore('none');
    oneShot.start();
    readRecordedWindows(oneShot, { XDG_STATE_HOME: state });
    // 10:30 was seen inside the loop; 11:30 was not seen at all, so it is not made the loop's.
    expect(jsonCost(oneShot).modes).toEqual({ ralph: tok(2), [NO_LOOP]: tok(1) + tok(3) });
  });
});
