/**
 * `--all` and a plain `claude` (no OMC loop, so no session row) waiting on a permission prompt the hook handed over:
 * the project's monitor counts it (the attention model's `permission` kind), so the fleet must too, with one row for
 * that Claude, and its title must say so. The hook's logic runs in process, as Claude Code would run it.
 */
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runPermissionHook, type HookDeps } from '../../src/commands/hook-permission.js';
import { fleetNeeding, fleetTitle } from '../../src/fleet/model.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { answerPermission } from '../../src/store/permissions/answer.js';
import { stateDir } from '../../src/store/permissions/protocol.js';
import { OmcStore } from '../../src/store/store.js';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();
const PLAIN = '77777777-8888-4999-8aaa-bbbbbbbbbbbb';

describe('omc-top --all: a plain Claude waiting on a permission prompt', () => {
  it('is one row that needs you, counted in the title as the monitor counts it', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    m.register(PLAIN, alpha.dir);
    // The project's own monitor beside the fleet, as a user runs them: it is what the hook hands the prompt to.
    const monitor = new OmcStore({
      root: alpha.root,
      watch: 'none',
      projectDir: alpha.dir,
      claude: { live: false, env: m.env },
      answers: { stateDir: stateDir(m.env), listen: true, live: true },
    });
    monitor.start();
    onTestFinished(() => monitor.close());
    const fleet = rig.fleet(m);
    fleet.start();
    await waitFor(() => fleet.build().groups.some((g) => g.label === 'alpha'), { what: 'alpha open' });

    const deps: HookDeps = {
      env: m.env,
      now: Date.now,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      print: () => {},
      startIdentity: processStartIdentity,
      stopped: () => false,
      pollMs: 20,
    };
    const payload = JSON.stringify({
      session_id: PLAIN,
      transcript_path: path.join(alpha.dir, 't.jsonl'),
      cwd: alpha.dir,
      prompt_id: 'p-1',
      permission_mode: 'default',
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'touch plain.txt', description: 'a command' },
      permission_suggestions: [],
    });
    const hook = runPermissionHook(payload, deps);

    const row = await waitFor(
      () =>
        fleet
          .build()
          .groups.find((g) => g.label === 'alpha')
          ?.rows.find((r) => r.session === PLAIN),
      { what: "the waiting Claude's row" },
    );
    expect(row).toMatchObject({
      process: 'waiting',
      needs: 'waiting for you: permission prompt: Bash touch plain.txt',
    });
    const snap = fleet.build();
    const rows = snap.groups.find((g) => g.label === 'alpha')!.rows;
    expect(rows.filter((r) => r.session === PLAIN)).toHaveLength(1);
    // It sorts first, and the fleet's count is the project's monitor's.
    expect(rows[0]?.session).toBe(PLAIN);
    expect(fleetNeeding(snap)).toBe(1);
    expect(fleetTitle(snap)).toBe('omc-top --all · needs you: 1');

    // Answered (in Claude's terminal, another omc-top): the row and the count go.
    const store = fleet.root(row.rootId)!.store;
    const [req] = store.permissions.getSnapshot().requests;
    answerPermission(stateDir(m.env), req!, 'deny', { claudeEnv: m.env });
    expect((await hook).outcome).toBe('deny');
    await waitFor(() => fleetNeeding(fleet.build()) === 0, { what: 'the row gone' });
    expect(
      fleet
        .build()
        .groups.find((g) => g.label === 'alpha')
        ?.rows.some((r) => r.session === PLAIN),
    ).toBe(false);
  });
});
