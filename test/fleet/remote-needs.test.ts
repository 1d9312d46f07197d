/**
 * `--host` against a real OpenSSH server (test/fleet/sshd-harness.ts): what needs the user on that machine reads in
 * the fleet as a local project's does. An OMC 5.5.0 graph run waiting on a human gate there (OMC's own runtime,
 * test/helpers/omc-graph.mjs), which no session row carries, is named on the host's group header and counted in the
 * fleet's title as the monitor there counts it. A plain `claude` there (no OMC loop, so no session row) waiting on a
 * permission prompt the hook handed over is a row of its own, as in a local project (test/fleet/fleet-plain-claude).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { fleetTitle, type FleetSnapshot } from '../../src/fleet/model.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { decideGate } from '../../src/store/graph/decide.js';
import { runPermissionHook, type HookDeps } from '../../src/commands/hook-permission.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { answerPermission } from '../../src/store/permissions/answer.js';
import { stateDir } from '../../src/store/permissions/protocol.js';
import { OmcStore } from '../../src/store/store.js';
import { startTwoGateRun } from '../helpers/omc-graph.mjs';
import { waitFor } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { makeMachine, type Machine } from './fleet-tree.js';
import { sshSkipReason, startSshRig, type SshRig } from './sshd-harness.js';

const skip = sshSkipReason();
if (skip) console.warn(`remote-needs tests skipped: ${skip}`);

let rig: SshRig | null = null;
let m: Machine | null = null;
let fleet: LocalFleet | null = null;
let remote: RemoteFleet | null = null;
const dirs: string[] = [];
const stores: OmcStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  await remote?.stop();
  remote = null;
  await fleet?.close();
  fleet = null;
  await rig?.close();
  rig = null;
  m?.cleanup();
  m = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

beforeAll(() => {
  // The remote omc-top is the bundle global-setup built.
  expect(fs.existsSync(path.resolve('dist/omc-top.mjs'))).toBe(true);
});

/** A git project on "the remote" (same disk, other namespace) with a `.omc` and no OMC session. */
function remoteProject(name: string): { dir: string; root: string } {
  const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-needs-'));
  dirs.push(base);
  const dir = path.join(base, name);
  fs.mkdirSync(dir);
  execFileSync('git', ['init', '-q', dir]);
  const root = path.join(dir, '.omc');
  fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
  return { dir, root };
}

/** A `--host` fleet (no local roots) over the rig's sshd, started. */
async function hostFleet(spec: string): Promise<LocalFleet> {
  rig = await startSshRig([{ alias: 'boxa' }]);
  await rig.startSshd();
  m = makeMachine();
  const f = new LocalFleet({ env: m.env, home: m.home, watch: 'none', local: false });
  fleet = f;
  const r = new RemoteFleet([parseHostSpec(spec)!], () => f.changed(), { ssh: rig.ssh });
  remote = r;
  f.setExtra(() => r.groups());
  f.start();
  r.start();
  return f;
}

const GATE_NOTE = /^needs you: OMC gate waiting \(graph-runs\/gate-remote\//;
const shop = (s: FleetSnapshot) => s.groups.find((g) => g.host !== null);

describe.skipIf(skip !== null)('--host: what needs you there', { timeout: scaled(120_000) }, () => {
  it("an OMC gate waiting there is on the host's header and in the title's count, as the monitor there counts it", async () => {
    const { dir, root } = remoteProject('shop');
    const run = startTwoGateRun({ runsRoot: path.join(root, 'graph-runs'), runId: 'gate-remote' });
    await waitFor(() => fs.existsSync(run.pendingPath('gate-deploy-act0')), { what: "OMC's first gate" });
    const f = await hostFleet(`boxa:${dir}`);
    const snap = await waitFor(
      () => {
        const s = f.getSnapshot();
        return shop(s)?.notes.some((n) => GATE_NOTE.test(n)) && s;
      },
      { timeoutMs: 30_000, what: `the gate on the host's header\n${JSON.stringify(shop(f.getSnapshot()))}` },
    );
    expect(shop(snap)?.rows).toEqual([]);
    expect(fleetTitle(snap)).toBe('omc-top --host · needs you: 1');

    // Decided there: the item leaves the host's attention line, and with it the header and the count.
    await decideGate({
      root,
      runId: 'gate-remote',
      activationId: 'gate-deploy-act0',
      decision: 'denied',
      omcCli: null,
    });
    await run.done;
    const after = await waitFor(
      () => {
        const s = f.getSnapshot();
        return fleetTitle(s) === 'omc-top --host' && s;
      },
      { timeoutMs: 30_000, what: 'the count back to none' },
    );
    expect(shop(after)?.notes.some((n) => GATE_NOTE.test(n))).toBe(false);
  });

  it('a plain Claude waiting there on a permission prompt is a row of its own, shown and counted as a local one', async () => {
    const PLAIN = '77777777-8888-4999-8aaa-bbbbbbbbbbbc';
    const { dir, root } = remoteProject('shop');
    const f = await hostFleet(`boxa:${dir}`);
    await waitFor(() => shop(f.getSnapshot())?.label === 'shop', { timeoutMs: 30_000, what: 'the host live' });
    // That machine's environment (the rig's authorized key gives the remote omc-top the same): its monitor listens
    // there, which is what the hook hands the prompt to.
    const env = {
      ...process.env,
      XDG_STATE_HOME: path.join(rig!.dir, 'state'),
      CLAUDE_CONFIG_DIR: rig!.remoteClaudeDir,
    };
    const monitor = new OmcStore({
      root,
      watch: 'none',
      projectDir: dir,
      claude: { live: false, env },
      answers: { stateDir: stateDir(env), listen: true, live: true },
    });
    stores.push(monitor);
    monitor.start();
    const listeners = path.join(stateDir(env), 'permissions', 'listeners');
    await waitFor(() => fs.existsSync(listeners) && fs.readdirSync(listeners).length > 0, {
      what: 'the monitor listening',
    });
    const deps: HookDeps = {
      env,
      now: Date.now,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      print: () => {},
      startIdentity: processStartIdentity,
      stopped: () => false,
      pollMs: 20,
    };
    const hook = runPermissionHook(
      JSON.stringify({
        session_id: PLAIN,
        transcript_path: path.join(dir, 't.jsonl'),
        cwd: dir,
        prompt_id: 'p-1',
        permission_mode: 'default',
        hook_event_name: 'PermissionRequest',
        tool_name: 'Bash',
        tool_input: { command: 'touch plain.txt', description: 'a command' },
        permission_suggestions: [],
      }),
      deps,
    );

    const snap = await waitFor(
      () => {
        const s = f.getSnapshot();
        return shop(s)?.rows.some((r) => r.session === PLAIN) && s;
      },
      {
        timeoutMs: 30_000,
        what: `the waiting Claude's row
${JSON.stringify(shop(f.getSnapshot()))}`,
      },
    );
    const rows = shop(snap)!.rows;
    expect(rows.filter((r) => r.session === PLAIN)).toEqual([
      expect.objectContaining({
        host: `boxa:${dir}`,
        process: 'waiting',
        needs: 'waiting for you: permission prompt: Bash touch plain.txt',
        prompt: 'Claude with no OMC loop',
        noLoop: true,
      }),
    ]);
    expect(rows[0]?.session).toBe(PLAIN);
    expect(fleetTitle(snap)).toBe('omc-top --host · needs you: 1');

    // Answered (in Claude's terminal, an omc-top there): the row and the count go.
    const [req] = monitor.permissions.getSnapshot().requests;
    answerPermission(stateDir(env), req!, 'deny', { claudeEnv: env });
    expect((await hook).outcome).toBe('deny');
    const after = await waitFor(
      () => {
        const s = f.getSnapshot();
        return !shop(s)?.rows.some((r) => r.session === PLAIN) && s;
      },
      { timeoutMs: 30_000, what: 'the row gone' },
    );
    expect(fleetTitle(after)).toBe('omc-top --host');
  });
});
