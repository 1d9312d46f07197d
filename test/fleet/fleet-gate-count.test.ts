/**
 * `--all` and an OMC 5.5.0 graph run waiting on a human gate (OMC's own runtime, test/helpers/omc-graph.mjs): the
 * project's own monitor counts the gate (`status --tmux` there says `needs you: 1`), so the fleet's title and header
 * count it too, one number for one fact, though no session row carries it (its group's header names it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStatusCommand } from '../../src/commands/status.js';
import { fleetTitle, type FleetSnapshot } from '../../src/fleet/model.js';
import { decideGate } from '../../src/store/graph/decide.js';
import { startTwoGateRun } from '../helpers/omc-graph.mjs';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();

/** The tmux line of the project's own monitor, read from the tree (no monitor runs). */
function statusTmux(dir: string, env: NodeJS.ProcessEnv): string {
  let out = '';
  runStatusCommand(['--tmux', '--fresh'], { out: (s) => void (out += s), err: () => {}, cwd: dir, env });
  return out;
}

const GATE_NOTE = /^needs you: OMC gate waiting \(graph-runs\/gate-fleet\//;

describe.skipIf(process.platform !== 'linux')('omc-top --all: an OMC gate waiting on a decision', () => {
  it("counts in the fleet's title as the project's monitor counts it, and leaves it when decided", async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    m.project('beta', 1);
    const run = startTwoGateRun({ runsRoot: path.join(alpha.root, 'graph-runs'), runId: 'gate-fleet' });
    await waitFor(() => fs.existsSync(run.pendingPath('gate-deploy-act0')), { what: "OMC's first gate" });
    const fleet = rig.fleet(m);
    fleet.start();
    const alphaOf = (s: FleetSnapshot) => s.groups.find((g) => g.label === 'alpha');
    const snap = await waitFor(
      () => {
        const s = fleet.build();
        return s.groups.some((g) => g.label === 'beta') && alphaOf(s)?.notes.some((n) => GATE_NOTE.test(n)) && s;
      },
      { what: "alpha's header naming the gate" },
    );
    // No session row needs you: the gate is the one thing, and the project's monitor counts it.
    expect(alphaOf(snap)?.rows.every((r) => r.needs === null)).toBe(true);
    expect(statusTmux(alpha.dir, m.env)).toMatch(/· needs you: 1\n$/);
    expect(fleetTitle(snap)).toBe('omc-top --all · needs you: 1');

    // Decided (here, the serve page or OMC's own CLI): the gate leaves the count; OMC's next gate is a new one.
    const first = await decideGate({
      root: alpha.root,
      runId: 'gate-fleet',
      activationId: 'gate-deploy-act0',
      decision: 'approved',
      omcCli: null,
    });
    expect(first.ok).toBe(true);
    await waitFor(() => fs.existsSync(run.pendingPath('gate-release-act0')), { what: "OMC's second gate" });
    await decideGate({
      root: alpha.root,
      runId: 'gate-fleet',
      activationId: 'gate-release-act0',
      decision: 'denied',
      omcCli: null,
    });
    await run.done;
    await waitFor(() => fleetTitle(fleet.build()) === 'omc-top --all', { what: 'the count back to none' });
    expect(alphaOf(fleet.build())?.notes.some((n) => GATE_NOTE.test(n))).toBe(false);
    expect(statusTmux(alpha.dir, m.env)).toMatch(/· needs you: 0\n$/);
  }, 120_000);
});
