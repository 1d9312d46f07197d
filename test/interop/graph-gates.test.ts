/**
 * OMC 5.5.0's human gates, end to end against OMC's own code: a graph run with two gates made by OMC's
 * runtime (runGraph + the remote approval gate `--approval-mode remote` uses), listed by the store, one gate
 * approved through OMC's own CLI (`omc graph approvals decide`), the other denied with the decision file
 * omc-top writes itself; the run (OMC's runner) acts on both and OMC's own parser accepts both files.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decideGate, findOmcCli } from '../../src/store/graph/decide.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import type { OmcStore } from '../../src/store/store.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { listPending, OMC_CLI, parseDecision, startTwoGateRun, twoGateDescriptor } from '../helpers/omc-graph.mjs';
import { waitFor } from '../helpers/fixtures.js';
import { cleanupGraphProjects, graphProject, graphStoreOn } from '../helpers/graph-project.js';

afterEach(cleanupGraphProjects);

const project = () => graphProject('omc-top-graph-');
const runOf = (s: OmcStore, id: string) => s.graph.getSnapshot().runs.find((r) => r.runId === id);

describe.skipIf(process.platform !== 'linux')('OMC 5.5.0 graph gates', () => {
  it('lists both gates as OMC waits on them, approves one with OMC CLI, denies the other with a file; OMC acts on both', async () => {
    const { root, runsRoot } = project();
    const run = startTwoGateRun({ runsRoot, runId: 'two-gates' });
    await waitFor(() => fs.existsSync(run.pendingPath('gate-deploy-act0')), { timeoutMs: 20_000 });
    const store = graphStoreOn(root);

    // Listed: prompt, node, run, age, the owner (this process) alive, what is known of the timeout.
    let r = runOf(store, 'two-gates');
    expect(r).toMatchObject({ state: 'waiting for a gate', revisionId: 'rev-1', epoch: 1 });
    expect(r?.owner).toMatchObject({ pid: process.pid, alive: 'alive' });
    expect(r?.timeout.known).toBe(false);
    expect(r?.nodes.map((n) => [n.id, n.state])).toEqual([
      ['build', 'completed'],
      ['gate-deploy', 'ready'],
      ['stage', 'not reached'],
      ['gate-release', 'not reached'],
      ['verify', 'not reached'],
    ]);
    expect(r?.lastTransitions.map((t) => [t.nodeId, t.outcome])).toEqual([['build', 'succeeded']]);
    expect(store.graph.getSnapshot().gates).toEqual([
      expect.objectContaining({
        runId: 'two-gates',
        activationId: 'gate-deploy-act0',
        nodeId: 'gate-deploy',
        title: 'Deploy gate',
        prompt: 'Deploy the build to staging?',
        decided: null,
      }),
    ]);
    expect(store.graph.getSnapshot().gates[0]?.createdMs).toBeGreaterThan(Date.now() - 60_000);

    // Approve through OMC's own CLI (found from the install, as a plugin root would give it).
    const cli = findOmcCli(detectOmcInstall({ env: { CLAUDE_PLUGIN_ROOT: OMC55 }, projectDir: null }));
    expect(cli).toBe(OMC_CLI);
    const approved = await decideGate({
      root,
      runId: 'two-gates',
      activationId: 'gate-deploy-act0',
      decision: 'approved',
      omcCli: cli,
    });
    expect(approved).toMatchObject({ ok: true, via: 'omc-cli' });
    await waitFor(() => fs.existsSync(run.pendingPath('gate-release-act0')), { timeoutMs: 30_000 });

    // The second gate: denied with omc-top's own file (no CLI); a second decision for it is refused.
    store.graph.scan();
    expect(store.graph.getSnapshot().gates.map((g) => g.activationId)).toEqual(['gate-release-act0']);
    const denied = await decideGate({
      root,
      runId: 'two-gates',
      activationId: 'gate-release-act0',
      decision: 'denied',
      omcCli: null,
    });
    expect(denied).toMatchObject({ ok: true, via: 'file' });
    const again = await decideGate({
      root,
      runId: 'two-gates',
      activationId: 'gate-release-act0',
      decision: 'approved',
      omcCli: null,
    });
    expect(again.ok).toBe(false);
    const result = await run.done;
    expect(result).toMatchObject({ terminal: 'failed', exit_code: 1 });

    // OMC's own parser accepts both decision files, and its journal records both outcomes.
    const decisions = path.join(runsRoot, 'two-gates', 'approvals', 'decisions');
    expect(parseDecision(fs.readFileSync(path.join(decisions, 'gate-deploy-act0.json'), 'utf8'))).toMatchObject({
      decision: 'approved',
      decided_by: 'omc-top',
    });
    expect(parseDecision(fs.readFileSync(path.join(decisions, 'gate-release-act0.json'), 'utf8'))).toMatchObject({
      decision: 'denied',
      decided_by: 'omc-top',
    });
    expect(listPending(runsRoot)).toEqual([]);
    store.graph.scan();
    r = runOf(store, 'two-gates');
    expect(r?.lastTransitions.map((t) => [t.nodeId, t.outcome])).toEqual([
      ['build', 'succeeded'],
      ['gate-deploy', 'approved'],
      ['stage', 'succeeded'],
      ['gate-release', 'denied'],
    ]);
    expect(r).toMatchObject({ state: 'failed', owner: null, gates: [] });
    expect(r?.byState).toEqual({ ready: 0, running: 0, completed: 3, failed: 1 });
    // No gate is pending any more: deciding one is refused, and nothing is written.
    const late = await decideGate({
      root,
      runId: 'two-gates',
      activationId: 'gate-deploy-act0',
      decision: 'denied',
      omcCli: null,
    });
    expect(late).toMatchObject({ ok: false, message: expect.stringMatching(/no longer pending/) });
  }, 120_000);

  it('a real `omc graph run`: its timeout policy from the command line; SIGKILLed, the owner is gone and the run stopped', async () => {
    const { dir, root, runsRoot } = project();
    const desc = path.join(dir, 'two.json');
    fs.writeFileSync(desc, JSON.stringify(twoGateDescriptor('cli-run')));
    // OMC's CLI, offline: a loopback-only network namespace where available, notifications off.
    const args = [
      OMC_CLI,
      'graph',
      'run',
      desc,
      '--approval-mode',
      'remote',
      '--approval-timeout',
      '600',
      '--approval-timeout-policy',
      'approve',
    ];
    const netns = spawnSync('unshare', ['--net', 'true']).status === 0;
    const child = netns
      ? spawn('unshare', ['--net', '--', process.execPath, ...args], {
          cwd: dir,
          env: { ...process.env, OMC_NOTIFY: '0' },
          stdio: 'ignore',
        })
      : spawn(process.execPath, args, { cwd: dir, env: { ...process.env, OMC_NOTIFY: '0' }, stdio: 'ignore' });
    try {
      await waitFor(
        () => fs.existsSync(path.join(runsRoot, 'cli-run', 'approvals', 'pending', 'gate-deploy-act0.json')),
        { timeoutMs: 60_000 },
      );
      const store = graphStoreOn(root);
      let r = runOf(store, 'cli-run');
      expect(r?.owner).toMatchObject({ pid: child.pid, alive: 'alive' });
      expect(r?.timeout).toMatchObject({ known: true, seconds: 600, policy: 'approved' });
      expect(r?.timeout.text).toBe('approved by OMC after 600 s without a decision');
      child.kill('SIGKILL');
      await new Promise((res) => child.on('close', res));
      store.graph.scan();
      r = runOf(store, 'cli-run');
      expect(r).toMatchObject({ state: 'stopped', owner: { pid: child.pid, alive: 'dead' } });
      expect(r?.gates.map((g) => g.activationId)).toEqual(['gate-deploy-act0']);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
