/**
 * Spend rolled up (issue 26): per mode, per day, per project and per run, from the transcripts a
 * store reads; the rows of each rollup add up to the project, and the same figures reach --json and
 * the fleet's rows (whose sum is the project's line).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { costRollup, NO_LOOP } from '../../../src/store/cost/rollup.js';
import { rowOf } from '../../../src/feeds/row.js';
import { addClaudeToReport } from '../../../src/store/claude/report.js';
import { addCostToReport } from '../../../src/feeds/cost-report.js';
import { groupLine, groupSpend, rowCost } from '../../../src/panes/fleet/layout.js';
import type { FleetGroup, FleetRow } from '../../../src/fleet/model.js';
import { OmcStore } from '../../../src/store/store.js';
import { makeProject, type TempProject, writeLiveRalph, writeOmcJson } from '../../helpers/fixtures.js';
import { assistant, prompt } from '../claude/lines.js';
import { forgetConfiguredPrices } from '../../../src/store/claude/price-config.js';

const A = 'aaaaaaaa-1111-4222-8333-000000000001';
const B = 'bbbbbbbb-1111-4222-8333-000000000002';
let p: TempProject;
let cfg: string;
let store: OmcStore | null = null;
const NOW = Date.parse('2026-12-02T12:00:00Z');

beforeEach(() => {
  p = makeProject();
  cfg = path.join(p.dir, 'claude-config');
  process.env.XDG_CONFIG_HOME = path.join(p.dir, 'no-config');
  forgetConfiguredPrices();
  // A: ralph started at 10:15 on day 1 and still active.
  writeLiveRalph(p, {
    sessionId: A,
    iteration: 3,
    max: 10,
    startedAt: '2026-12-01T10:15:00.000Z',
    checkedAt: NOW,
    projectPath: p.dir,
    prompt: 'ralph: x',
  });
  writeOmcJson(path.join(p.root, 'state', 'sessions', B, 'ultrawork-state.json'), {
    active: false,
    started_at: '2026-12-02T08:00:00.000Z',
    last_checked_at: '2026-12-02T08:30:00.000Z',
    session_id: B,
    project_path: p.dir,
    original_prompt: 'ulw: y',
  });
});
afterEach(async () => {
  await store?.close();
  store = null;
  delete process.env.XDG_CONFIG_HOME;
  p.cleanup();
});

function transcript(sid: string, lines: string[]) {
  const f = path.join(cfg, transcriptRel(p.dir, sid));
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, lines.join('\n') + '\n');
}
const withModel = (lines: string[], model: string) => lines.map((l) => l.replace('claude-opus-5-5', model));

describe('cost rollups', () => {
  it('per mode, per day and per run add up to the project; --json and the fleet rows say the same', () => {
    transcript(A, [
      prompt(A, '2026-12-01T10:00:00Z', 'hi'),
      ...assistant(A, '2026-12-01T10:00:10Z', 'a1', 1, [{ type: 'text', text: 'before ralph' }]),
      ...assistant(A, '2026-12-01T10:30:10Z', 'a2', 2, [{ type: 'text', text: 'ralph' }]),
      ...assistant(A, '2026-12-02T09:00:10Z', 'a3', 3, [{ type: 'text', text: 'ralph, day 2' }]),
    ]);
    transcript(B, [
      ...assistant(B, '2026-12-02T08:10:10Z', 'b1', 1, [{ type: 'text', text: 'ulw' }]),
      ...withModel(assistant(B, '2026-12-02T08:20:10Z', 'b2', 2, [{ type: 'text', text: 'mock' }]), 'claude-mock'),
      ...assistant(B, '2026-12-02T09:10:10Z', 'b3', 3, [{ type: 'text', text: 'after ulw' }]),
    ]);
    store = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      clock: () => NOW,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
    });
    store.start();
    const sessions = store.sessions.getSnapshot().sessions;
    const r = costRollup(sessions, store.runs.runs(), store.claude.getSnapshot(), {}, NOW);
    // usage(i) tokens: 100+i in, 10+i out, 1000i cache read, 5 cache write.
    const tok = (i: number) => 100 + i + 10 + i + 1000 * i + 5;
    expect(r.project.tokens).toBe(tok(1) + tok(2) + tok(3) + tok(1) + tok(2) + tok(3));
    expect(r.project.estimate.unpriced).toEqual([{ model: 'claude-mock', tokens: tok(2) }]);
    const modes = Object.fromEntries(r.byMode.map((m) => [m.mode, m.tokens]));
    expect(modes).toEqual({ ralph: tok(2) + tok(3), ultrawork: tok(1) + tok(2), [NO_LOOP]: tok(1) + tok(3) });
    const days = Object.fromEntries(r.byDay.map((d) => [d.day, d.tokens]));
    expect(days).toEqual({ '2026-12-01': tok(1) + tok(2), '2026-12-02': tok(3) + tok(1) + tok(2) + tok(3) });
    const sum = (xs: { estimate: { usd: number } }[]) => xs.reduce((n, x) => n + x.estimate.usd, 0);
    expect(sum(r.byMode)).toBeCloseTo(r.project.estimate.usd, 12);
    expect(sum(r.byDay)).toBeCloseTo(r.project.estimate.usd, 12);

    // --json: the same project, modes and days.
    const doc: Record<string, any> = { sessions: sessions.map((s) => ({ id: s.id })), runs: [] };
    addClaudeToReport(doc, sessions, store.claude.getSnapshot(), NOW);
    addCostToReport(doc, store, {}, NOW);
    expect(doc.cost.project).toMatchObject({ sessions: 2, tokens: r.project.tokens });
    expect(doc.cost.project.usd_est).toBeCloseTo(r.project.estimate.usd, 9);
    expect(doc.cost.project.unpriced_models).toEqual([{ model: 'claude-mock', tokens: tok(2) }]);
    expect(doc.cost.by_mode.map((m: any) => m.mode).sort()).toEqual([NO_LOOP, 'ralph', 'ultrawork'].sort());

    // The fleet: each row carries its session's spend; the project line is their sum.
    const claude = store.claude.getSnapshot().bySession;
    const rows = sessions.map((s) => ({ ...rowOf(s, claude.get(s.id), NOW) }) as FleetRow);
    const g = groupSpend({ rows } as FleetGroup);
    expect(g?.usd).toBeCloseTo(r.project.estimate.usd, 12);
    expect(g?.unpriced).toBe(true);
    expect(g?.today).toBeCloseTo(r.byDay.find((d) => d.day === '2026-12-02')!.estimate.usd, 12);
  });

  it('a transcript that cannot be read (a FIFO): not priced on the fleet row and its project line, never $0', () => {
    transcript(A, [...assistant(A, '2026-12-02T09:00:10Z', 'a1', 1, [{ type: 'text', text: 'ralph' }])]);
    const fifo = path.join(cfg, transcriptRel(p.dir, B));
    fs.mkdirSync(path.dirname(fifo), { recursive: true });
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    store = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      clock: () => NOW,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
    });
    store.start();
    const sessions = store.sessions.getSnapshot().sessions;
    const claude = store.claude.getSnapshot().bySession;
    const r = costRollup(sessions, store.runs.runs(), store.claude.getSnapshot(), {}, NOW);
    expect(r.project).toMatchObject({ sessions: 1, notPriced: 1 });
    const rows = sessions.map((s) => ({ ...rowOf(s, claude.get(s.id), NOW) }) as FleetRow);
    const b = rows.find((x) => x.session === B)!;
    expect(b.costUnknown).toMatch(/not a regular file/);
    expect(rowCost(b)).toBe('—');
    const g = { rows, label: 'proj', host: null, notes: [] } as unknown as FleetGroup;
    expect(groupSpend(g)?.notPriced).toBe(1);
    expect(groupLine(g, 200, false)).toMatch(/\$\d[\d.]* est\. \+ 1 not priced · today/);
    // Only sessions that cannot be read: the line says so, with no figure.
    const only = { rows: [b], label: 'proj', host: null, notes: [] } as unknown as FleetGroup;
    expect(groupLine(only, 200, false)).toContain('(1 session · spend 1 not priced)');
  });
});
