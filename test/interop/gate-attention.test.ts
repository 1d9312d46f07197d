/**
 * An OMC 5.5.0 graph run blocked on a human gate needs you: OMC's own runtime (test/helpers/omc-graph.mjs) makes the
 * gate, and every surface reading the attention model counts it (the monitor's view and `--json`, `status --tmux`),
 * a notification and a push go out once, `a` (the acknowledgements file) takes it out of the count, the inbox lists
 * it once (under To answer), and a decision ends it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runStatusCommand } from '../../src/commands/status.js';
import { diffFacts, EMPTY_FACTS, factsOf } from '../../src/feeds/attention/engine.js';
import { AckFile } from '../../src/feeds/attention/acks.js';
import { attentionInput } from '../../src/feeds/attention/monitor.js';
import { attentionOf } from '../../src/feeds/attention/view.js';
import { answerInputOf, withAnswers } from '../../src/feeds/answers/items.js';
import { Notifier } from '../../src/feeds/notify/notifier.js';
import type { PushMessage } from '../../src/feeds/notify/push/channel.js';
import { ownStateDir } from '../../src/io/state-dir.js';
import { decideGate } from '../../src/store/graph/decide.js';
import { inboxRows } from '../../src/ui/inbox-layout.js';
import { startTwoGateRun } from '../helpers/omc-graph.mjs';
import { waitFor } from '../helpers/fixtures.js';
import { cleanupGraphProjects, graphProject, graphStoreOn } from '../helpers/graph-project.js';

afterEach(cleanupGraphProjects);

function project() {
  const g = graphProject('omc-top-gate-need-');
  fs.mkdirSync(g.root);
  // A scratch state directory: acknowledgements and no monitor's status cache from this machine.
  const env = { ...process.env, XDG_STATE_HOME: path.join(g.dir, 'xdg-state') };
  return { ...g, env };
}

function statusTmux(dir: string, env: NodeJS.ProcessEnv): string {
  let out = '';
  runStatusCommand(['--tmux', '--fresh'], { out: (s) => void (out += s), err: () => {}, cwd: dir, env });
  return out;
}

describe.skipIf(process.platform !== 'linux')('an OMC gate needs you', () => {
  it('is counted on every surface, pushed once, acknowledged, listed once, and leaves when decided', async () => {
    const { dir, root, runsRoot, env } = project();
    const run = startTwoGateRun({ runsRoot, runId: 'gate-need' });
    await waitFor(() => fs.existsSync(run.pendingPath('gate-deploy-act0')), { timeoutMs: 20_000 });
    const store = graphStoreOn(root);
    const acks = new AckFile(ownStateDir(env), root);

    // The model: one item, the gate's, counted.
    const view = attentionOf(attentionInput(store), (id) => acks.has(id));
    expect(view.count).toBe(1);
    expect(view.open).toEqual([
      expect.objectContaining({
        kind: 'gate',
        reason: 'OMC gate waiting',
        id: `gate:gate-need/gate-deploy-act0@${process.pid}:1`,
        waitingOn: 'Deploy the build to staging? (run gate-need, Deploy gate)',
      }),
    ]);
    // The tmux line reads the tree itself (no monitor runs) and says the same count.
    expect(statusTmux(dir, env)).toBe('no loops · needs you: 1\n');

    // The gate appearing raises it once: a notification and one push, naming what is asked.
    const pushed: PushMessage[] = [];
    const n = new Notifier({
      channels: ['bell'],
      project: 'p',
      write: () => {},
      env: {},
      config: { notify: { debounceMs: 0 } },
      push: (m) => pushed.push(m),
    });
    const raised = diffFacts(EMPTY_FACTS, factsOf(attentionInput(store)));
    expect(raised.filter((t) => t.needs !== null).map((t) => [t.kind, t.needs])).toEqual([
      ['gate', 'OMC gate waiting'],
    ]);
    n.handle(raised);
    n.flush();
    n.handle(diffFacts(factsOf(attentionInput(store)), factsOf(attentionInput(store))));
    n.flush();
    n.dispose();
    expect(n.sent).toEqual([expect.stringContaining('OMC gate waiting: Deploy the build to staging?')]);
    expect(pushed).toHaveLength(1);

    // The inbox lists it once, under To answer, carrying the counted item.
    const rows = inboxRows(view, withAnswers([], answerInputOf(store)));
    expect(rows.filter((r) => r.kind === 'heading').map((r) => (r as { text: string }).text)).toEqual([
      'To answer (1, listed first)',
      'Needs you: nothing besides the 1 to answer above',
      'Problems with files: none',
    ]);
    expect(rows.find((r) => r.kind === 'problem')).toMatchObject({ need: { item: { kind: 'gate' }, acked: false } });

    // Acknowledged (as `a` in the inbox writes it): every surface leaves it out of the count.
    await acks.ack([view.open[0]!.id], Date.now());
    expect(attentionOf(attentionInput(store), (id) => acks.has(id)).count).toBe(0);
    expect(statusTmux(dir, env)).toBe('no loops · needs you: 0\n');
    fs.rmSync(path.join(env.XDG_STATE_HOME, 'omc-top'), { recursive: true, force: true });
    expect(statusTmux(dir, env)).toBe('no loops · needs you: 1\n');

    // Decided: the item ends (no human hand is needed), though OMC's next gate then waits (a new item).
    const decided = await decideGate({
      root,
      runId: 'gate-need',
      activationId: 'gate-deploy-act0',
      decision: 'approved',
      omcCli: null,
    });
    expect(decided.ok).toBe(true);
    store.graph.scan();
    expect(attentionOf(attentionInput(store)).open.map((i) => i.id)).not.toContain(view.open[0]!.id);
    await waitFor(() => fs.existsSync(run.pendingPath('gate-release-act0')), { timeoutMs: 30_000 });
    store.graph.scan();
    expect(attentionOf(attentionInput(store)).open.map((i) => i.id)).toEqual([
      `gate:gate-need/gate-release-act0@${process.pid}:1`,
    ]);
    await decideGate({ root, runId: 'gate-need', activationId: 'gate-release-act0', decision: 'denied', omcCli: null });
    await run.done;
    store.graph.scan();
    expect(attentionOf(attentionInput(store)).count).toBe(0);
    expect(statusTmux(dir, env)).toBe('no loops · needs you: 0\n');
  }, 120_000);
});
