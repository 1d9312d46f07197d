/**
 * omc-top's cancel writes the run ledger's end line, so OMC 5.6's SessionStart
 * reconciliation (restated from upstream in test/helpers/omc56.ts) sees a
 * cancel, not a run that never ended.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel, type CancelRequest } from '../../src/store/cancel/plan.js';
import { RunsDomain } from '../../src/store/runs/domain.js';
import { SESSION, type TempProject } from '../helpers/fixtures.js';
import * as omc56 from '../helpers/omc56.js';

const ledger = (p: TempProject) => path.join(p.root, 'state', 'runs', 'ledger.jsonl');

async function cancel(p: TempProject, req: CancelRequest) {
  const r = planCancel(p.root, req, Date.now());
  if (!r.ok) throw new Error(r.message);
  const out = await executeCancel(p.root, r.plan, { now: Date.now });
  if (out.kind !== 'done') throw new Error(`expected done, got ${out.kind}`);
  return out;
}

describe("cancel writes the ledger's end line", () => {
  it('a ralph run cancelled from omc-top reads as cancelled to OMC 5.6, not as a crash', async ({ project: p }) => {
    const S = SESSION.ralph;
    const startedAt = JSON.parse(fs.readFileSync(path.join(p.root, 'state', 'sessions', S, 'ralph-state.json'), 'utf8'))
      .started_at as string;
    omc56.start(p.root, 'ralph', S, startedAt);
    expect(omc56.reconcile(p.root, Date.now()).neverEnded).toEqual([`ralph:${S}`]);

    const done = await cancel(p, { sessionId: S, mode: null, pauseOnly: false });
    expect(done.ok).toBe(true);

    const lines = fs.readFileSync(ledger(p), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      run: 'ralph',
      sessionId: S,
      event: 'end',
      outcome: 'cancelled',
      closeoutWritten: false,
      source: 'omc-top',
    });
    const seen = omc56.reconcile(p.root, Date.now());
    expect(seen.neverEnded).toEqual([]);
    // No closeout was written in the fixture: OMC will say so next session, and so does the history.
    expect(seen.findings.map((f) => f.run)).toEqual(['ralph']);
    const d = new RunsDomain({ root: p.root });
    d.scan();
    expect(d.runs()[0]).toMatchObject({
      mode: 'ralph',
      outcome: 'cancelled',
      endedBy: 'omc-top',
      closeoutWritten: false,
    });
  });

  it('closeoutWritten follows OMC’s notepad rule', async ({ project: p }) => {
    const S = SESSION.ralph;
    omc56.start(p.root, 'ralph', S, new Date().toISOString());
    fs.mkdirSync(path.join(p.root, 'notepads', 'ralph'), { recursive: true });
    fs.writeFileSync(path.join(p.root, 'notepads', 'ralph', 'issues.md'), '- closeout\n');
    await cancel(p, { sessionId: S, mode: null, pauseOnly: false });
    const last = JSON.parse(fs.readFileSync(ledger(p), 'utf8').trimEnd().split('\n').pop()!);
    expect(last.closeoutWritten).toBe(true);
    expect(omc56.reconcile(p.root, Date.now()).findings).toEqual([]);
  });

  it('no ledger directory (OMC before 5.6): nothing is created', async ({ project: p }) => {
    await cancel(p, { sessionId: SESSION.ralph, mode: null, pauseOnly: false });
    expect(fs.existsSync(path.join(p.root, 'state', 'runs'))).toBe(false);
  });

  it('a ledger symlinked out of the root is not written; the cancel still takes', async ({ project: p }) => {
    const outside = path.join(p.dir, 'outside.jsonl');
    fs.writeFileSync(outside, '');
    fs.mkdirSync(path.join(p.root, 'state', 'runs'), { recursive: true });
    fs.symlinkSync(outside, ledger(p));
    const done = await cancel(p, { sessionId: SESSION.ralph, mode: null, pauseOnly: false });
    expect(done.ok).toBe(true);
    expect(fs.readFileSync(outside, 'utf8')).toBe('');
  });
});
