/**
 * `DISABLE_OMC` / `OMC_SKIP_HOOKS` per session: each Claude Code process gives its hooks its own environment, so two
 * Claudes of one project, one started with `DISABLE_OMC=1`, get different Stops from OMC 5.5.0's real hook. omc-top's
 * verdict for each session must be its own Claude's, whichever of them is the project's newest; a session no Claude
 * runs is judged by the project's hooks' environment. Stand-in Claude processes (real processes, so their
 * environment is in /proc) are joined to their sessions by Claude's registry, as in hard-max.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { writeRegistry } from '../helpers/claude-files.js';
import { liveRalph, makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { hookDecision, spawnStopHook } from '../helpers/stop-hook.js';

const A = 'a1a1a1a1-1111-4222-8333-444455556666';
const B = 'b2b2b2b2-1111-4222-8333-444455556666';
const C = 'c3c3c3c3-1111-4222-8333-444455556666';
let p: TempProject | null = null;
let home: string | null = null;
let store: OmcStore | null = null;
const claudes: ChildProcess[] = [];
afterEach(async () => {
  await store?.close();
  store = null;
  for (const c of claudes.splice(0)) c.kill('SIGKILL');
  p?.cleanup();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  p = home = null;
});

/** A stand-in Claude of `sid` started with `env` in the registry of `cfg`; `startedAt` orders the project's Claudes. */
async function claudeOf(cfg: string, sid: string, cwd: string, env: Record<string, string>, startedAt: number) {
  const c = spawn('sleep', ['600'], { stdio: 'ignore', env: { ...process.env, ...env } });
  claudes.push(c);
  await new Promise<void>((resolve, reject) => {
    c.once('error', reject);
    c.once('spawn', () => resolve());
  });
  writeRegistry(cfg, c.pid as number, sid, { status: 'busy', cwd, startedAt });
  return c.pid as number;
}

/** Three ralph sessions; A's and B's Claudes started with the given environments (B the newer), none for C. */
async function world(envA: Record<string, string>, envB: Record<string, string>) {
  p = makeProject({ prefix: 'omc-top-hooksoff-two-' });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-hooksoff-home-'));
  const dir = p.dir;
  const cfg = path.join(home, '.claude');
  for (const sid of [A, B, C])
    writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json'), {
      ...liveRalph({ sessionId: sid, iteration: 2, max: 100 }),
      prompt: 'scratch',
    });
  const pidA = await claudeOf(cfg, A, dir, envA, Date.now() - 120_000);
  const pidB = await claudeOf(cfg, B, dir, envB, Date.now() - 60_000);
  const env = { HOME: home, CLAUDE_CONFIG_DIR: cfg, CLAUDE_PLUGIN_ROOT: OMC55 };
  const s = (store = new OmcStore({
    root: p.root,
    projectDir: dir,
    omc: detectOmcInstall({ env, projectDir: dir, processes: false }),
    home,
    watch: 'none',
    claude: { live: false, env },
    runs: { env },
  }));
  s.start();
  const h = home;
  return {
    pidA,
    pidB,
    /** omc-top's verdict on the session: decision and rule. */
    verdict: (sid: string) => {
      const v = s.sessions.getSnapshot().sessions.find((x) => x.id === sid)?.verdict;
      return { decision: v?.decision, rule: v?.rule, detail: v?.detail };
    },
    /** The real 5.5.0 Stop hook run as that session's Claude runs it (its environment). */
    hook: (sid: string, env: Record<string, string>) =>
      hookDecision(spawnStopHook('5.5.0', { cwd: dir, sessionId: sid, home: h, now: Date.now(), env })).decision,
  };
}

describe("DISABLE_OMC per session: each verdict is its own Claude's, against OMC 5.5.0's real Stop hook", () => {
  it('the older Claude started with DISABLE_OMC=1: its session is let stop, the newest one is held', async () => {
    const w = await world({ DISABLE_OMC: '1' }, {});
    expect(w.verdict(A)).toEqual({
      decision: 'stop',
      rule: 'hooks-disabled',
      detail: `not enforced: DISABLE_OMC=1 from Claude pid ${String(w.pidA)}'s environment; OMC's Stop hook lets every stop through`,
    });
    expect(w.hook(A, { DISABLE_OMC: '1' })).toBe('stop');
    expect(w.verdict(B).decision).toBe('block');
    expect(w.hook(B, {})).toBe('block');
    // No Claude runs C: the project's hooks' environment (its newest Claude's, B's) decides.
    expect(w.verdict(C).decision).toBe('block');
  });

  it("the newest Claude started with OMC_SKIP_HOOKS=persistent-mode: only its session is let stop, not the older one's", async () => {
    const w = await world({}, { OMC_SKIP_HOOKS: 'persistent-mode' });
    expect(w.verdict(A).decision).toBe('block');
    expect(w.hook(A, {})).toBe('block');
    expect(w.verdict(B)).toMatchObject({ decision: 'stop', rule: 'hooks-disabled' });
    expect(w.verdict(B).detail).toContain(`Claude pid ${String(w.pidB)}'s environment (skips persistent-mode)`);
    expect(w.hook(B, { OMC_SKIP_HOOKS: 'persistent-mode' })).toBe('stop');
  });
});
