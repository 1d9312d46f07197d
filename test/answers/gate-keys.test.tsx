/**
 * Deciding OMC 5.5.0's human gates from the `!` list, in the real App: a graph run made by OMC's own runtime
 * (test/helpers/omc-graph.mjs) waits on two gates in turn; the list shows each with its prompt, node and run and
 * the run's progress; y approves (asked first), n denies; OMC's runner acts on both and its own parser accepts
 * both decision files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { mountStore } from '../helpers/mount-app.js';
import { makeProject, waitFor, type TempProject } from '../helpers/fixtures.js';
import { listPending, parseDecision, startTwoGateRun } from '../helpers/omc-graph.mjs';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(process.platform !== 'linux')('the ! list: OMC graph gates', () => {
  it('y approves one gate, n denies the next; the run goes on past the first and fails at the second', async () => {
    const p: TempProject = makeProject();
    cleanups.push(() => p.cleanup());
    const runsRoot = path.join(p.root, 'graph-runs');
    const run = startTwoGateRun({ runsRoot, runId: 'two-gates' });
    await waitFor(() => fs.existsSync(run.pendingPath('gate-deploy-act0')), { timeoutMs: 20_000 });
    const store = new OmcStore({ root: p.root, watch: 'poll', projectDir: p.dir, claude: { live: false, env: {} } });
    store.start();
    const a = mountStore(store, { columns: 150, rows: 36 });
    cleanups.push(() => a.unmount());
    const footer = () =>
      a
        .lines()
        .filter((l) => l.includes('s:Sessions'))
        .at(-1) ?? '';
    await a.ready;

    await a.step('!');
    await a.waitForText('To answer (1, listed first)');
    await a.waitForText(/» OMC gate: Deploy the build to staging\? — run two-gates, Deploy gate — y approve · n deny/);
    // The selected gate's detail: the run's progress.
    await a.waitForText(/run two-gates · revision rev-1 · waiting for a gate/);
    expect(a.text()).toMatch(/waiting since \d\d:\d\d:\d\d UTC/);
    expect(a.text()).toMatch(/nodes: build completed → gate-deploy ready → stage not reached/);
    expect(footer()).toMatch(/y allow \/ approve/);
    expect(footer()).not.toMatch(/A always/);
    // A gate is decided, not cancelled: c is not offered, and pressed it says so (it said "select an item that needs you").
    expect(footer()).not.toMatch(/c cancel/);
    await a.step('c');
    await a.waitForText('a line to answer is decided, not cancelled');
    await a.step('y');
    await a.waitForText('Approve OMC gate gate-deploy of run two-gates?');
    await a.step('y');
    await a.waitForText(/✓ OMC took the decision: gate gate-deploy of run two-gates approved/, 'OMC acting on it');

    await waitFor(() => fs.existsSync(run.pendingPath('gate-release-act0')), { timeoutMs: 30_000 });
    // Back in the list once the dialog closes: the next gate is there.
    await a.waitForText(/» OMC gate: .* — run two-gates, Release gate — y approve · n deny/);
    await a.step('n');
    await a.waitForText('Deny OMC gate gate-release of run two-gates?');
    await a.step('y');
    expect(await run.done).toMatchObject({ terminal: 'failed', exit_code: 1 });
    await a.waitForText(/✓ OMC took the decision: gate gate-release of run two-gates denied/);

    const decisions = path.join(runsRoot, 'two-gates', 'approvals', 'decisions');
    expect(parseDecision(fs.readFileSync(path.join(decisions, 'gate-deploy-act0.json'), 'utf8'))).toMatchObject({
      decision: 'approved',
    });
    expect(parseDecision(fs.readFileSync(path.join(decisions, 'gate-release-act0.json'), 'utf8'))).toMatchObject({
      decision: 'denied',
    });
    expect(listPending(runsRoot)).toEqual([]);
  }, 120_000);
});

describe('the ! list: a gate of a run nobody runs now', () => {
  it('the dialog and the message say the decision waits for a resume; a decided gate is refused at once, no dialog', async () => {
    const p: TempProject = makeProject();
    cleanups.push(() => p.cleanup());
    // A run left behind (no owner.lock): its gate still pending, as the tester's tree had it.
    const dir = path.join(p.root, 'graph-runs', 'run1');
    fs.mkdirSync(path.join(dir, 'approvals', 'pending'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'approvals', 'decisions'), { recursive: true });
    const now = new Date().toISOString();
    fs.writeFileSync(
      path.join(dir, 'approvals', 'pending', 'deploy:1.json'),
      JSON.stringify({
        run_id: 'run1',
        node_id: 'deploy',
        activation_id: 'deploy:1',
        prompt_text: 'Deploy to prod?',
        created_at: now,
      }),
    );
    fs.writeFileSync(
      path.join(dir, 'projection.json'),
      JSON.stringify({
        schema_version: 1,
        run_id: 'run1',
        revision_id: 'rev1',
        epoch: 0,
        saved_at_seq: 1,
        projection: {
          activations: { 'deploy:1': { activation_id: 'deploy:1', node_id: 'deploy', status: 'running' } },
        },
      }),
    );
    fs.writeFileSync(
      path.join(dir, 'journal.jsonl'),
      `${JSON.stringify({ seq: 0, epoch: 0, transition: { activation_id: 'build:1', node_id: 'build', outcome: 'completed' } })}\n`,
    );
    const store = new OmcStore({ root: p.root, watch: 'poll', projectDir: p.dir, claude: { live: false, env: {} } });
    store.start();
    const a = mountStore(store, { columns: 150, rows: 36 });
    cleanups.push(() => a.unmount());
    await a.ready;
    await a.step('!');
    await a.waitForText(/» OMC gate: Deploy to prod\? — run run1/);
    await a.step('y');
    await a.waitForText('Approve OMC gate deploy of run run1?');
    await a.waitForText(
      /Nobody runs this run now \(no live owner\): the decision waits on disk until the run is resumed/,
    );
    expect(a.text()).not.toMatch(/The run goes on past the gate\./);
    await a.step('y');
    await a.waitForText(
      /approved gate deploy:1 of run run1 \(decision file written; nobody runs this run now: OMC reads it when the run is\s+resumed\)/,
    );
    await a.waitForText(/decided: approved/);
    // Decided: n says so at once, with no Deny dialog, and the file keeps the approval.
    await a.step('n');
    await a.waitForText(/already decided: approved; the decision waits for OMC to read it/);
    expect(a.text()).not.toMatch(/Deny OMC gate/);
    expect(
      JSON.parse(fs.readFileSync(path.join(dir, 'approvals', 'decisions', 'deploy:1.json'), 'utf8')),
    ).toMatchObject({
      decision: 'approved',
    });
  });
});
