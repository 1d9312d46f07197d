/**
 * The run history from OMC 5.6's ledger (written by this project's restatement
 * of upstream's writer, test/helpers/omc56.ts) and from ended-session
 * summaries written by OMC 5.5.0's own SessionEnd functions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { filterChoices, filterRuns, type RunLine } from '../../src/store/runs/history.js';
import { RunsDomain } from '../../src/store/runs/domain.js';
import { writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import * as omc56 from '../helpers/omc56.js';
import { importOmc, OMC55 } from '../helpers/omc-packages.mjs';
import { scaled } from '../helpers/time-scale.js';

const sessionEnd: {
  recordSessionMetrics(dir: string, input: { session_id: string; reason: string }): Record<string, unknown>;
  exportSessionSummary(dir: string, metrics: Record<string, unknown>): void;
} = await importOmc(OMC55, 'dist/hooks/session-end/index.js');

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';
const D = 'dddddddd-0000-4000-8000-000000000004';
const E = 'eeeeeeee-0000-4000-8000-000000000005';
const T0 = Date.parse('2026-11-30T10:00:00.000Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();

function domain(p: TempProject): RunsDomain {
  const d = new RunsDomain({ root: p.root });
  d.scan();
  return d;
}

const pick = (r: RunLine) => ({ mode: r.mode, sessionId: r.sessionId, outcome: r.outcome });

describe('run history', () => {
  it('a scan that finds nothing new keeps the same history and tells no view (a poll tick repaints nothing)', ({
    emptyProject: p,
  }) => {
    omc56.start(p.root, 'ralph', A, at(0));
    const d = new RunsDomain({ root: p.root });
    d.scan();
    const first = d.runs();
    let told = 0;
    d.subscribe(() => told++);
    d.scan();
    d.scan();
    expect(d.runs()).toBe(first);
    expect(told).toBe(0);
    omc56.observeClear(p.root, 'ralph', A, { active: true, started_at: at(0), current_phase: 'complete' }, at(5));
    d.scan();
    expect(told).toBe(1);
    expect(d.runs()[0]!.outcome).toBe('completed');
  });

  it('one line per run: completed, cancelled, crashed (a start with no end) and running', ({ emptyProject: p }) => {
    const root = p.root;
    omc56.start(root, 'ralph', A, at(0));
    fs.mkdirSync(path.join(root, 'notepads', 'ralph'), { recursive: true });
    fs.writeFileSync(path.join(root, 'notepads', 'ralph', 'problems.md'), '- closeout\n');
    omc56.observeClear(root, 'ralph', A, { active: true, started_at: at(0), current_phase: 'complete' }, at(30));
    omc56.start(root, 'autopilot', B, at(40));
    omc56.observeClear(root, 'autopilot', B, { active: true, started_at: at(40), current_phase: 'execution' }, at(50));
    omc56.start(root, 'team', C, at(60));
    omc56.start(root, 'ultragoal', D, at(70));
    writeOmcJson(path.join(root, 'state', 'sessions', D, 'ultragoal-state.json'), {
      active: true,
      session_id: D,
      iteration: 4,
    });
    const runs = domain(p).runs();
    expect(runs.map(pick)).toEqual([
      { mode: 'ultragoal', sessionId: D, outcome: 'running' },
      { mode: 'team', sessionId: C, outcome: 'crashed' },
      { mode: 'autopilot', sessionId: B, outcome: 'cancelled' },
      { mode: 'ralph', sessionId: A, outcome: 'completed' },
    ]);
    const ralph = runs.find((r) => r.mode === 'ralph')!;
    expect(ralph.durationMs).toBe(30 * 60_000);
    expect(ralph.closeoutWritten).toBe(true);
    expect(runs.find((r) => r.mode === 'autopilot')!.closeoutWritten).toBe(false);
    expect(runs.find((r) => r.mode === 'ultragoal')!.iterations).toBe(4);
    expect(filterRuns(runs, { outcome: 'crashed' }).map((r) => r.mode)).toEqual(['team']);
    expect(filterRuns(runs, { mode: 'ralph' })).toHaveLength(1);
    expect(filterChoices(runs).outcomes).toEqual(['running', 'completed', 'cancelled', 'crashed']);
    expect((domain(p).report().runs as unknown[])[3]).toMatchObject({
      mode: 'ralph',
      session: A,
      started_at: at(0),
      ended_at: at(30),
      duration_ms: 1_800_000,
      outcome: 'completed',
      closeout_written: true,
    });
  });

  it("sessions without ledger lines come from OMC's own ended-session summaries", ({ emptyProject: p }) => {
    writeOmcJson(path.join(p.root, 'state', 'ralph-state.json'), {
      active: true,
      session_id: E,
      started_at: at(-90),
    });
    const metrics = sessionEnd.recordSessionMetrics(p.dir, { session_id: E, reason: 'prompt_input_exit' });
    sessionEnd.exportSessionSummary(p.dir, metrics);
    expect(fs.existsSync(path.join(p.root, 'sessions', `${E}.json`))).toBe(true);
    const runs = domain(p).runs();
    expect(runs.map((r) => ({ ...pick(r), reason: r.reason, source: r.source }))).toEqual(
      (metrics.modes_used as string[]).map((mode) => ({
        mode,
        sessionId: E,
        outcome: 'ended',
        reason: 'prompt_input_exit',
        source: 'session-summary',
      })),
    );
    expect(runs.length).toBeGreaterThan(0);
  });

  it('reads across the rotation into ledger.jsonl.1 and follows new lines incrementally', ({ emptyProject: p }) => {
    const root = p.root;
    // 1,001 lines: the 1,001st append rotates the first 1,000 into .1.
    for (let i = 0; i < 500; i++) {
      omc56.start(root, 'ralph', `s-${i}`, at(i));
      omc56.observeClear(root, 'ralph', `s-${i}`, { active: true, current_phase: 'done' }, at(i + 0.5));
    }
    omc56.start(root, 'team', 'late', at(600));
    expect(fs.existsSync(path.join(root, 'state', 'runs', 'ledger.jsonl.1'))).toBe(true);
    const d = domain(p);
    expect(d.runs()).toHaveLength(501);
    expect(d.runs()[0]).toMatchObject({ mode: 'team', outcome: 'crashed' });
    omc56.observeClear(root, 'team', 'late', { active: true, current_phase: 'x' }, at(601));
    d.refresh([{ type: 'change', rel: 'state/runs/ledger.jsonl' }], 'leading');
    expect(d.runs()[0]).toMatchObject({ mode: 'team', outcome: 'cancelled' });
    expect(d.runs()).toHaveLength(501);
    expect(d.problems().filter((x) => x.severity !== 'info')).toEqual([]);
  });

  it('a 1,000-line ledger of hostile lines: one problem line, no crash, no control byte, quick', ({
    emptyProject: p,
  }) => {
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++) {
      switch (i % 8) {
        case 0:
          lines.push(
            JSON.stringify({ ts: at(i), run: 'ralph\u001b[2J', sessionId: `x\u001b]0;pwn\u0007${i}`, event: 'start' }),
          );
          break;
        case 1:
          lines.push('{"ts": "2026-11-30T10:00:00Z", "run": "ralph", "event": "end"'); // cut off
          break;
        case 2:
          lines.push('x'.repeat(5_000));
          break;
        case 3:
          lines.push(JSON.stringify({ ts: 'yesterday', run: 'ralph', event: 'start' }));
          break;
        case 4:
          lines.push(JSON.stringify([1, 2, 3]));
          break;
        case 5:
          lines.push(JSON.stringify({ ts: at(i), run: 'team', event: 'explode' }));
          break;
        case 6:
          lines.push('\u00ff\u00fe garbage \u0000');
          break;
        default:
          lines.push(JSON.stringify({ ts: at(i), run: { nested: true }, event: 'end' }));
      }
    }
    fs.mkdirSync(path.join(p.root, 'state', 'runs'), { recursive: true });
    fs.writeFileSync(path.join(p.root, 'state', 'runs', 'ledger.jsonl'), lines.join('\n') + '\n');
    const t = performance.now();
    const d = domain(p);
    const took = performance.now() - t;
    expect(d.problems()).toHaveLength(1);
    expect(d.problems()[0]!.message).toMatch(/^875 ledger lines skipped \(line 2: not JSON; line 3: line is 5000/);
    expect(d.runs()).toHaveLength(125);
    expect(JSON.stringify(d.report())).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]|\\u001b|\\u0007/);
    // Generous for a loaded 2-core machine; a full re-parse per frame would not be caught here, but a hang would.
    expect(took).toBeLessThan(scaled(2_000));
    // Unchanged file: a second poll reads nothing and derives nothing.
    const before = d.runs();
    d.refresh([{ type: 'change', rel: 'state/runs/ledger.jsonl' }], 'trailing');
    expect(d.runs()).toBe(before);
  });

  it('a ledger that is a symlink out of the root is refused with a problem', ({ emptyProject: p }) => {
    const outside = path.join(p.dir, 'elsewhere.jsonl');
    fs.writeFileSync(outside, JSON.stringify({ ts: at(0), run: 'ralph', event: 'start' }) + '\n');
    fs.mkdirSync(path.join(p.root, 'state', 'runs'), { recursive: true });
    fs.symlinkSync(outside, path.join(p.root, 'state', 'runs', 'ledger.jsonl'));
    const d = domain(p);
    expect(d.runs()).toEqual([]);
    expect(d.problems()[0]!.message).toMatch(/symlink/);
  });
});
