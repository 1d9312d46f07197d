/**
 * Subagent files are read after the monitor is live (issue 26: they can be a quarter of the bytes of 200 sessions,
 * and start-up must not wait for them). Until a session's are read, every surface that shows its cost says the
 * figure is a lower bound (`+subagents…`), then the full figures arrive. The store is started as the app starts it
 * (progressive, watching); what each surface says is taken at the moment the status first reads live.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BEFORE_LIVE_BYTES, SLICE_BYTES } from '../../../src/store/claude/domain.js';
import { OmcStore } from '../../../src/store/store.js';
import {
  stillReading,
  SUBAGENTS_READING,
  SUBAGENTS_READING_WHY,
  TRANSCRIPT_READING,
  TRANSCRIPT_READING_WHY,
} from '../../../src/store/cost/spend.js';
import { rowOf } from '../../../src/feeds/row.js';
import { addCostToReport } from '../../../src/feeds/cost-report.js';
import { addClaudeToReport } from '../../../src/store/claude/report.js';
import { costLines } from '../../../src/panes/sessions/cost-lines.js';
import { costPaneLines } from '../../../src/panes/cost/lines.js';
import { historyRowText } from '../../../src/panes/history/rows.js';
import { runDetailLines } from '../../../src/panes/history/detail.js';
import { detailInputs } from '../../../src/panes/history/view.js';
import { runSpends } from '../../../src/panes/history/costs.js';
import { runKey } from '../../../src/store/cost/rollup.js';
import { rowLine } from '../../../src/panes/fleet/layout.js';
import { makeProject, type TempProject, waitFor, writeLiveRalph } from '../../helpers/fixtures.js';
import { takeAtLive } from '../../helpers/at-live.js';
import * as omc56 from '../../helpers/omc56.js';
import { sessionFiles } from './ralph-session.js';
import { assistant, bigShape, prompt } from './lines.js';

const SID = 'cc6fc808-6688-476c-8026-1eb9c6137698';
let p: TempProject;
let cfg: string;
let store: OmcStore | null = null;

beforeEach(() => {
  p = makeProject();
  cfg = path.join(p.dir, 'claude-config');
  writeLiveRalph(p, { sessionId: SID, iteration: 1, projectPath: p.dir, prompt: 'ralph: delegate' });
  // The loop's run in OMC 5.6's ledger, begun before every response below: History's row for it.
  omc56.start(p.root, 'ralph', SID, '2026-12-01T22:50:00Z');
});
afterEach(async () => {
  await store?.close();
  store = null;
  p.cleanup();
});

/** The store as the app opens it (watching, Claude live), its Claude side on the scratch config dir; not started. */
function liveStore(): OmcStore {
  store = new OmcStore({
    root: p.root,
    projectDir: p.dir,
    claude: { live: true, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
  });
  return store;
}

const parentFile = () => sessionFiles(cfg, p.dir, SID).parent;
const subDir = () => sessionFiles(cfg, p.dir, SID).subDir;

/** The parent: one response (input 101). */
function writeParent() {
  fs.mkdirSync(path.dirname(parentFile()), { recursive: true });
  const lines = [
    prompt(SID, '2026-12-01T22:51:00Z', 'ralph: delegate'),
    ...assistant(SID, '2026-12-01T22:51:01Z', 'msg_p1', 1, [{ type: 'text', text: 'Delegating.' }]),
  ];
  fs.writeFileSync(parentFile(), lines.join('\n') + '\n');
}

/**
 * Two subagents, each larger than one read slice: a response at the start, padding (lines a subagent's
 * folder skips), a response at the end. Input 101 + 102 each.
 */
function writeBigSubagents() {
  fs.mkdirSync(subDir(), { recursive: true });
  const padKb = 512;
  const pads = Math.ceil(SLICE_BYTES / (padKb * 1024)) + 1;
  for (const id of ['a0000000000000001', 'a0000000000000002']) {
    const lines = [
      ...assistant(SID, '2026-12-01T22:51:02Z', `msg_${id}_1`, 1, [{ type: 'text', text: 'first' }]),
      ...Array.from({ length: pads }, () => bigShape(padKb)),
      ...assistant(SID, '2026-12-01T22:51:09Z', `msg_${id}_2`, 2, [{ type: 'text', text: 'last' }]),
    ];
    fs.writeFileSync(path.join(subDir(), `agent-${id}.jsonl`), lines.join('\n') + '\n');
    fs.writeFileSync(path.join(subDir(), `agent-${id}.meta.json`), JSON.stringify({ agentType: 'Explore' }));
  }
}

const FULL_INPUT = 101 + 2 * (101 + 102);

const cost = (doc: Record<string, unknown>) => doc.cost as { project: object; by_mode: object[]; by_day: object[] };

/** What every cost surface says of the session now. */
function surfaces(s: OmcStore) {
  const now = Date.now();
  const view = s.sessions.getSnapshot().sessions.find((v) => v.id === SID);
  const c = s.claude.getSnapshot().bySession.get(SID);
  const runs = s.runs.runs();
  const doc: Record<string, unknown> = { sessions: [{ id: SID }], runs: runs.map((r) => ({ mode: r.mode })) };
  addClaudeToReport(doc, s.sessions.getSnapshot().sessions, s.claude.getSnapshot(), now);
  addCostToReport(doc, s, {}, now);
  const run = runs.find((r) => r.sessionId === SID);
  const claude = s.claude.getSnapshot();
  const row = view ? rowOf(view, c, now) : null;
  return {
    row,
    // The fleet view's line for that row (120 columns: its spend column shown).
    fleet: row ? rowLine({ ...row, key: SID, host: null, rootId: 'root', rootLabel: 'proj' }, now, 120, false) : null,
    input: c?.transcript?.facts.tokens.input ?? null,
    reading: c?.transcript?.subagentsReading ?? null,
    transcriptReading: c?.transcript?.transcriptReading ?? null,
    detail: view ? costLines(view, c, now, {}).map((l) => l.text) : [],
    pane: ((p) => p.slice(0, p.length).map((l) => l.text))(costPaneLines(s, {}, now, 140)),
    json: (doc.sessions as Record<string, any>[])[0]?.agent?.spend ?? null,
    // The project's rollups in --json: the project line, each mode's and each day's.
    rollups: [cost(doc).project, ...cost(doc).by_mode, ...cost(doc).by_day],
    // History: the run's row as the pane draws it, its detail, and the run in --json.
    history: run
      ? historyRowText(run, 140, false, runSpends(s).get(runKey(run)) ?? null, stillReading(claude, SID)).cells
      : null,
    runDetail: run ? runDetailLines(run, 140, detailInputs(s, run)).map((l) => l.text) : [],
    runJson: (doc.runs as Record<string, unknown>[])[runs.findIndex((r) => r.sessionId === SID)] ?? null,
  };
}

describe('subagent files after live', () => {
  it('live comes before the subagent files are read; the cost says +subagents… until the full figures arrive', async () => {
    writeParent();
    writeBigSubagents();
    const s = liveStore();
    // The status the footer turns into a bare `live`: everything but the subagent files read, the watches up. Taken
    // at the first notification of either cell after the status became so (the store starts the subagent reads just
    // before it says live, and reads their first slice at once).
    const live = await takeAtLive(s, () => surfaces(s), { alsoOnClaude: true });
    // The session's row is there, its own transcript read, its subagents not all read: a lower bound, said so.
    expect(live.row?.session).toBe(SID);
    expect(live.reading).toBe(true);
    expect(live.input).toBeGreaterThanOrEqual(101);
    expect(live.input).toBeLessThan(FULL_INPUT);
    expect(live.row?.costPartial).toBe(true);
    expect(live.fleet).toMatch(/ \$\d+\.\d+\+sub… /);
    expect(live.detail.find((t) => t.startsWith('  cost '))).toContain(SUBAGENTS_READING);
    expect(live.pane.join('\n')).toContain(`${SUBAGENTS_READING} 1 session's subagent files are still being read`);
    expect(live.pane.find((t) => t.includes(SID.slice(0, 8)))).toContain('+sub…');
    expect(live.json).toMatchObject({ subagents_reading: true });
    // History says it of the run too: the same mark on its cost, the same words in its detail and in --json.
    expect(live.history).toMatch(/^ralph\s.*\$\d+\.\d+\+sub… /);
    expect(live.runDetail.find((t) => t.startsWith("spent in the run's window:"))).toContain(
      `${SUBAGENTS_READING} (${SUBAGENTS_READING_WHY})`,
    );
    expect(live.runJson).toMatchObject({ subagents_reading: true });
    expect(live.runJson?.usd_est).toEqual(expect.any(Number));
    // The rollups in --json say it too: every row is a sum the unread files may still add to.
    expect(live.rollups.length).toBeGreaterThanOrEqual(3);
    for (const r of live.rollups) expect(r).toMatchObject({ subagents_reading: true, transcript_reading: false });

    // Then the full figures, and no mark anywhere.
    await waitFor(() => s.claude.getSnapshot().bySession.get(SID)?.transcript?.subagentsReading === false, {
      what: 'the subagent files read',
      timeoutMs: 30_000,
    });
    const done = surfaces(s);
    expect(done.input).toBe(FULL_INPUT);
    expect(done.row?.costPartial).toBe(false);
    expect(done.detail.join('\n')).not.toContain(SUBAGENTS_READING);
    expect(done.pane.join('\n')).not.toContain(SUBAGENTS_READING);
    expect(done.pane.join('\n')).not.toContain('+sub…');
    expect(done.json).toMatchObject({ subagents_reading: false });
    expect(done.history).toMatch(/^ralph\s.*\$\d+\.\d+ /);
    expect(done.history).not.toContain('+sub…');
    expect(done.runDetail.join('\n')).not.toContain(SUBAGENTS_READING);
    expect(done.runDetail.join('\n')).toContain('subagents included');
    expect(done.runJson).toMatchObject({ subagents_reading: false });
    for (const r of done.rollups) expect(r).toMatchObject({ subagents_reading: false, transcript_reading: false });
    // The full figure is more than the lower bound shown at live.
    expect(done.runJson?.usd_est as number).toBeGreaterThan(live.runJson?.usd_est as number);
  });

  it('a transcript still being read at live: its cost says +transcript… on every surface until the rest is read', async () => {
    // The parent: a response (input 101), more than is read before live of lines nothing is taken from, a response.
    fs.mkdirSync(path.dirname(parentFile()), { recursive: true });
    const padKb = 512;
    const pads = Math.ceil((BEFORE_LIVE_BYTES + 4 * SLICE_BYTES) / (padKb * 1024));
    const lines = [
      prompt(SID, '2026-12-01T22:51:00Z', 'ralph: go'),
      ...assistant(SID, '2026-12-01T22:51:01Z', 'msg_first', 1, [{ type: 'text', text: 'first' }]),
      ...Array.from({ length: pads }, () => bigShape(padKb)),
      ...assistant(SID, '2026-12-01T22:59:01Z', 'msg_last', 2, [{ type: 'text', text: 'last' }]),
    ];
    fs.writeFileSync(parentFile(), lines.join('\n') + '\n');
    const s = liveStore();
    const live = await takeAtLive(s, () => surfaces(s), { alsoOnClaude: true });
    // Before this, only unread subagent files were marked: this partial figure showed as the whole.
    expect(live.input).toBe(101);
    expect(live.transcriptReading).toBe(true);
    expect(live.row?.costPartial).toBe(true);
    expect(live.row?.costReading).toBe('transcript');
    expect(live.fleet).toMatch(/ \$\d+\.\d+\+… /);
    expect(live.detail.find((t) => t.startsWith('  cost '))).toContain(
      `${TRANSCRIPT_READING} (${TRANSCRIPT_READING_WHY})`,
    );
    expect(live.pane.join('\n')).toContain(`${TRANSCRIPT_READING} 1 session's transcript is still being read`);
    expect(live.json).toMatchObject({ transcript_reading: true, subagents_reading: false });
    expect(live.history).toMatch(/^ralph\s.*\$\d+\.\d+\+… /);
    expect(live.runDetail.find((t) => t.startsWith("spent in the run's window:"))).toContain(
      `${TRANSCRIPT_READING} (${TRANSCRIPT_READING_WHY})`,
    );
    expect(live.runJson).toMatchObject({ transcript_reading: true });
    for (const r of live.rollups) expect(r).toMatchObject({ transcript_reading: true });

    await waitFor(() => s.claude.getSnapshot().bySession.get(SID)?.transcript?.transcriptReading === false, {
      what: 'the transcript read',
      timeoutMs: 60_000,
    });
    const done = surfaces(s);
    expect(done.input).toBe(203);
    expect(done.row?.costPartial).toBe(false);
    expect(done.fleet).not.toContain('+…');
    expect(done.detail.join('\n')).not.toContain(TRANSCRIPT_READING);
    expect(done.pane.join('\n')).not.toContain(TRANSCRIPT_READING);
    expect(done.json).toMatchObject({ transcript_reading: false });
    expect(done.history).not.toContain('+…');
    expect(done.runDetail.join('\n')).not.toContain(TRANSCRIPT_READING);
    expect(done.runJson).toMatchObject({ transcript_reading: false });
    for (const r of done.rollups) expect(r).toMatchObject({ transcript_reading: false, subagents_reading: false });
  });

  it('subagent files removed while still being read: the session is no longer marked (nothing left to read)', async () => {
    writeParent();
    writeBigSubagents();
    const s = liveStore();
    let removed = false;
    // The moment to remove them: the subagent reads have begun (the status is live: the store starts them just
    // before it says so, and reads the first slice at once) and have not finished (the session is still marked).
    // Checked on every Claude and status notification, so the first one after the first slice does it.
    const removeMidRead = () => {
      const st = s.status.getSnapshot();
      if (removed || st.reading || st.watchMode === 'starting') return;
      if (s.claude.getSnapshot().bySession.get(SID)?.transcript?.subagentsReading !== true) return;
      fs.rmSync(subDir(), { recursive: true, force: true });
      removed = true;
    };
    const stops = [s.status.subscribe(removeMidRead), s.claude.subscribe(removeMidRead)];
    s.start({ progressive: true });
    await waitFor(() => removed, { what: 'live with the subagent files part read', timeoutMs: 30_000 });
    for (const stop of stops) stop();
    // The parent's transcript moves: its session is read again, and finds no subagent left to read.
    fs.appendFileSync(parentFile(), prompt(SID, '2026-12-01T22:52:00Z', 'next') + '\n');
    await waitFor(() => s.claude.getSnapshot().bySession.get(SID)?.transcript?.subagentsReading === false, {
      what: 'the mark gone',
      timeoutMs: 30_000,
    });
    expect(s.claude.getSnapshot().bySession.get(SID)?.transcript?.facts.tokens.input).toBe(101);
  });

  it('one-shot --json reads every subagent file before it prints: complete, no mark', () => {
    writeParent();
    writeBigSubagents();
    store = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
    });
    store.start();
    const x = surfaces(store);
    expect(x.input).toBe(FULL_INPUT);
    expect(x.json).toMatchObject({ subagents_reading: false });
    expect(x.detail.join('\n')).not.toContain(SUBAGENTS_READING);
    expect(x.runJson).toMatchObject({ subagents_reading: false });
    expect(x.history).not.toContain('+sub…');
  });

  it('a session without subagent files is complete at live: no mark', async () => {
    writeParent();
    const s = liveStore();
    const live = await takeAtLive(s, () => surfaces(s));
    expect(live.input).toBe(101);
    expect(live.reading).toBe(false);
    expect(live.row?.costPartial).toBe(false);
    expect(live.detail.join('\n')).not.toContain(SUBAGENTS_READING);
  });
});
