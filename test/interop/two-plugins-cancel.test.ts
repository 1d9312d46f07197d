/**
 * `omc-top cancel` with two OMC plugins enabled at once (5.5.0 named first, 4.4.4 beside it): Claude Code runs both
 * Stop hooks and a block from either holds the agent, so the cancel is planned and verified by both books, and after
 * it each real hook must let the stop through. Where 4.4.4's hook, which never reads cancel signals, is left
 * enforcing something omc-top will not touch, the plan and the result say so, in the words a pause's refusal uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { CANCEL_EXIT } from '../../src/commands/cancel.js';
import { liveRalph, makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { twoPlugins, type TwoPlugins } from '../helpers/two-plugins.js';

const S = '4e4e4e4e-3333-4333-8333-333333333333';
const OTHER = '5f5f5f5f-3333-4333-8333-333333333333';
let p: TempProject | null = null;
let w: TwoPlugins | null = null;
afterEach(() => {
  p?.cleanup();
  if (w) fs.rmSync(w.base, { recursive: true, force: true });
  p = w = null;
});

function scene(): { p: TempProject; w: TwoPlugins; dir: string } {
  w = twoPlugins();
  p = makeProject({ prefix: 'omc-top-2pc-' });
  const dir = path.join(p.root, 'state', 'sessions', S);
  writeOmcJson(path.join(dir, 'ralph-state.json'), liveRalph({ sessionId: S, iteration: 2, max: 100 }));
  return { p, w, dir };
}

/** An OMC 4.x ultrawork in S's directory, naming S in `session_id`, plus `fields`. */
function ultrawork(dir: string, fields: Record<string, unknown>): void {
  const now = Date.now();
  writeOmcJson(path.join(dir, 'ultrawork-state.json'), {
    active: true,
    started_at: new Date(now - 60_000).toISOString(),
    last_checked_at: new Date(now - 5_000).toISOString(),
    original_prompt: 'ultrawork the parser',
    session_id: S,
    reinforcement_count: 1,
    ...fields,
  });
}

const hook = (v: HookVersion) =>
  hookDecision(
    spawnStopHook(v, { cwd: (p as TempProject).dir, sessionId: S, home: (w as TwoPlugins).home, now: Date.now() }),
  );

async function cancel(...args: string[]): Promise<{ code: number; out: string; json: any }> {
  let out = '';
  const code = await runCancelCommand([S, '--json', ...args], {
    out: (t) => void (out += t),
    err: (t) => void (out += t),
    cwd: (p as TempProject).dir,
    now: Date.now,
    env: (w as TwoPlugins).env,
  });
  return { code, out, json: JSON.parse(out) };
}

describe('cancel with two OMC plugins enabled (5.5.0 and 4.4.4)', () => {
  it("plans by both books: a 4.x file 4.4.4's hook takes for this session is ended too; both real hooks then let it stop", async () => {
    const { dir } = scene();
    // 4.4.4's hook reads session_id (S); omc-top's owner rule reads _meta first (another session).
    ultrawork(dir, { _meta: { sessionId: OTHER } });
    expect(hook('5.5.0').decision).toBe('block');
    expect(hook('4.4.4')).toMatchObject({ decision: 'block' });

    const r = await cancel();
    expect(r.json.ok).toBe(true);
    expect(r.code).toBe(CANCEL_EXIT.ok);
    expect(r.json.steps.map((s: { path: string }) => path.basename(s.path)).sort()).toEqual([
      'ralph-state.json',
      'ultrawork-state.json',
    ]);
    expect(r.json.also_enabled).toEqual([expect.objectContaining({ version: '4.4.4', rules: '4.4.4', ok: true })]);
    // What Claude Code runs after the cancel: both hooks, each letting the stop through.
    expect(hook('5.5.0').decision).toBe('stop');
    expect(hook('4.4.4').decision).toBe('stop');
  });

  it("a file 4.4.4's hook enforces that omc-top leaves: said before and after, as a pause's refusal says it", async () => {
    const { dir } = scene();
    // Named-workflow state: omc-top never rewrites it; 4.4.4's hook reinforces it and never reads the signal.
    ultrawork(dir, { workflow: 'release' });
    const r = await cancel();
    expect(hook('5.5.0').decision).toBe('stop');
    expect(hook('4.4.4')).toMatchObject({ decision: 'block', mode: 'ultrawork' });
    expect(r.code).toBe(CANCEL_EXIT.notTaken);
    expect(r.json.ok).toBe(false);
    expect(r.json.summary).toContain(
      "but OMC 4.4.4 runs this session's hooks (plugin oh-my-claudecode@omc (enabled in user settings)); its Stop hook never reads cancel signals, so it still enforces ultrawork",
    );
    expect(r.json.warnings).toContainEqual(
      expect.stringContaining("OMC 4.4's Stop hook, which runs for this session, never reads cancel signals"),
    );
    expect(r.json.also_enabled).toEqual([expect.objectContaining({ rules: '4.4.4', ok: false })]);
  });
});
