/**
 * Cancel and pause by OMC version, checked against each version's real Stop hook: OMC 4.4.4's
 * wired hook never reads cancel signals, so a pause there is refused with the reason (and the
 * full cancel still works, because files go); "verified" comes from the verdict engine on a
 * fresh read of disk. Also the session-id prefix rule.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { hookDecision, hookEnv, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { OmcStore } from '../../src/store/store.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { collectDoctorReport } from '../../src/commands/doctor-checks.js';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { statusLabel } from '../../src/panes/sessions/rows.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';

const S = '0b5e9c1e-1111-4222-8333-444455556666';
let p: TempProject | null = null;
let home: string | null = null;
let claude: ChildProcess | null = null;
afterEach(() => {
  claude?.kill('SIGKILL');
  claude = null;
  p?.cleanup();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  p = home = null;
});

function ralphProject(extra: Record<string, unknown> = {}): TempProject {
  p = makeProject({ prefix: 'omc-top-cbv-' });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cbv-home-'));
  const now = Date.now();
  writeOmcJson(path.join(p.root, 'state', 'sessions', S, 'ralph-state.json'), {
    active: true,
    iteration: 3,
    started_at: new Date(now - 60_000).toISOString(),
    last_checked_at: new Date(now - 5_000).toISOString(),
    prompt: 'scratch task',
    session_id: S,
    ...extra,
  });
  return p;
}

async function cancel(...args: string[]): Promise<{ code: number; out: string; json: any }> {
  let out = '';
  const code = await runCancelCommand(args, {
    out: (t) => void (out += t),
    err: (t) => void (out += t),
    cwd: (p as TempProject).dir,
    now: Date.now,
    env: { HOME: home as string, CLAUDE_CONFIG_DIR: path.join(home as string, '.claude') },
  });
  let json: any = null;
  try {
    json = JSON.parse(out);
  } catch {
    /* human output */
  }
  return { code, out, json };
}

/**
 * A live process standing in for `claude --plugin-dir <dir>` of session S: only its command line
 * and its registry entry (<config>/sessions/<pid>.json, as Claude Code 2.1.332 writes it) matter.
 */
async function claudeWithPluginDir(dir: string): Promise<void> {
  const child = spawn('/bin/sh', ['-c', 'sleep 60; :', 'claude', '--plugin-dir', dir], { stdio: 'ignore' });
  claude = child;
  const pid = child.pid as number;
  // The command line is in place once /proc shows it (the fork may still be exec'ing).
  for (let i = 0; i < 500 && !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--plugin-dir'); i++)
    await new Promise((r) => setTimeout(r, 10));
  const procStart = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? null;
  writeOmcJson(path.join(home as string, '.claude', 'sessions', `${pid}.json`), {
    pid,
    sessionId: S,
    cwd: (p as TempProject).dir,
    startedAt: Date.now(),
    procStart,
    kind: 'interactive',
    status: 'idle',
    updatedAt: Date.now(),
  });
}

/** OMC 4.4.4's real keyword hook (UserPromptSubmit) on `prompt` in session S, its clock running. */
function keywordHook444(prompt: string): void {
  const res = spawnSync(process.execPath, [path.join(OMC444, 'scripts', 'keyword-detector.mjs')], {
    cwd: (p as TempProject).dir,
    env: hookEnv('4.4.4', home as string),
    input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: S, cwd: (p as TempProject).dir, prompt }),
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  if (res.error || res.status !== 0) throw new Error(`the keyword hook failed: ${String(res.error ?? res.stderr)}`);
}

/** The built bundle, with the HOME the cancels above ran with (its state directory, where the cancel is recorded). */
function runOmcTop(args: string[], env: Record<string, string>): string {
  const all: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete all.XDG_STATE_HOME;
  return execFileSync(process.execPath, [BUNDLE, ...args], { env: all, encoding: 'utf8' });
}

const hook = (v: HookVersion) =>
  hookDecision(spawnStopHook(v, { cwd: (p as TempProject).dir, sessionId: S, home: home as string, now: Date.now() }));

describe('cancel and pause by OMC version', () => {
  it('4.4.4: the real hook blocks even with an in-force signal, so --signal-only is refused (exit 1, nothing written)', async () => {
    ralphProject({ max_iterations: 100 });
    const sig = path.join((p as TempProject).root, 'state', 'sessions', S, 'cancel-signal-state.json');
    // Issue 11, observed: a signal OMC 5.5.0 would honour does nothing to 4.4.4's wired hook.
    const t = Date.now();
    writeOmcJson(sig, {
      active: true,
      requested_at: new Date(t).toISOString(),
      expires_at: new Date(t + 30_000).toISOString(),
      mode: 'ralph',
      source: 'test',
    });
    expect(hook('4.4.4')).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(hook('5.5.0')).toMatchObject({ decision: 'stop' });
    fs.rmSync(sig);

    const r = await cancel(S, '--signal-only', '--omc-version', '4.4.4', '--json');
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ ok: false, error: 'pause-unsupported' });
    expect(r.json.message).toContain('never reads cancel signals');
    expect(fs.existsSync(sig)).toBe(false);
  });

  it('4.4.4: the full cancel works (files go), verified by the verdict and by the real hook', async () => {
    ralphProject();
    const r = await cancel(S, '--omc-version', '4.4.4', '--json');
    expect([r.code, r.json.ok]).toEqual([0, true]);
    expect(r.json.omc_version).toMatchObject({ version: '4.4.4', rules: '4.4.4' });
    expect(r.json.verdict).toMatchObject({ decision: 'stop', rules: '4.4.4' });
    expect(hook('4.4.4').decision).toBe('stop');
  });

  it('5.5.0: the pause is in force by the re-read verdict, and the real hook agrees', async () => {
    ralphProject();
    const r = await cancel(S, '--signal-only', '--omc-version', '5.5.0', '--json');
    expect([r.code, r.json.ok, r.json.verdict.rule]).toEqual([0, true, 'cancel-signal']);
    expect(hook('5.5.0').decision).toBe('stop');
  });

  it('a unique prefix of the session id is enough; an ambiguous one lists the candidates', async () => {
    ralphProject();
    fs.mkdirSync(path.join((p as TempProject).root, 'state', 'sessions', '0b5e9c1e-2222-4222-8333-444455556666'));
    const amb = await cancel('0b5e9c1e', '--omc-version', '5.5.0');
    expect(amb.code).toBe(2);
    expect(amb.out).toContain('matches 2 sessions: 0b5e9c1e-1111-4222-8333-444455556666, 0b5e9c1e-2222');
    const one = await cancel('0b5e9c1e-1', '--omc-version', '5.5.0', '--json');
    expect([one.code, one.json.session]).toEqual([0, S]);
  });

  it('version unknown: --signal-only says the pause depends on the version (4.x ignores it), exit 1', async () => {
    ralphProject({ max_iterations: 100 });
    const r = await cancel(S, '--signal-only', '--json');
    expect(r.json.omc_version).toMatchObject({ version: null, assumed: true });
    expect(r.code).toBe(1);
    expect(r.json.ok).toBe(false);
    const byBook = Object.fromEntries(
      (r.json.depends_on_version as Array<{ rules: string[]; ok: boolean }>).flatMap((b) =>
        b.rules.map((x) => [x, b.ok]),
      ),
    );
    expect(byBook).toMatchObject({ '5.5.0': true, '4.4.4': false });
    expect(r.json.summary).toContain('depends on the OMC version');
    // What the message says, each real hook does.
    expect(hook('5.5.0').decision).toBe('stop');
    expect(hook('4.4.4')).toMatchObject({ decision: 'block', mode: 'ralph' });
  });

  it("the session's own Claude process names its OMC (--plugin-dir): 5.5.0 there, so the pause is in force", async () => {
    ralphProject();
    await claudeWithPluginDir(OMC55);
    const r = await cancel(S, '--signal-only', '--json');
    expect(r.json.omc_version).toMatchObject({ version: '5.5.0', assumed: false });
    expect(r.json.omc_version.source).toContain('--plugin-dir');
    expect([r.code, r.json.ok, r.json.verdict.rule]).toEqual([0, true, 'cancel-signal']);
    expect(hook('5.5.0').decision).toBe('stop');
    // doctor names the directory that process loaded OMC from (it printed "at " and nothing).
    const report = await collectDoctorReport({
      cwd: (p as TempProject).dir,
      env: { HOME: home as string, CLAUDE_CONFIG_DIR: path.join(home as string, '.claude') },
      poll: false,
      version: 'test',
      nodeVersion: process.version,
      terminal: { isTTY: true, columns: 120, rows: 40, colorDepth: 8 },
      watchTimeoutMs: scaled(60_000),
    });
    const found = report.checks.find((c) => c.id === 'omc')?.details.filter((d) => d.startsWith('found: 5.5.0'));
    expect(found).toEqual([`found: 5.5.0 at ${OMC55} (--plugin-dir ${OMC55} (claude pid ${claude?.pid}))`]);
  });

  it('--plugin-dir naming OMC 4.4.4: the pause is refused, as 4.4.4 never reads signals', async () => {
    ralphProject();
    await claudeWithPluginDir(OMC444);
    const r = await cancel(S, '--signal-only', '--json');
    expect([r.code, r.json.error]).toEqual([1, 'pause-unsupported']);
    expect(r.json.message).toContain('4.4.4');
  });

  it('4.4.4: cancel --mode ralph also ends the ultrawork its real keyword hook started with it (no link field)', async () => {
    p = makeProject({ prefix: 'omc-top-cbv-' });
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cbv-home-'));
    const dir = path.join(p.root, 'state', 'sessions', S);
    const startedAt = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).started_at as string;
    // 4.4.4's own UserPromptSubmit hook writes the pair: ralph, then the ultrawork, each with its own
    // clock reading (1–3 ms apart on a real run). A run that lands both in one millisecond proves
    // nothing here, so the prompt is submitted again (each submission rewrites both) until they differ.
    for (let i = 0; i < 20 && (i === 0 || startedAt('ralph-state.json') === startedAt('ultrawork-state.json')); i++)
      keywordHook444('ralph fix the failing tests in src/parser');
    expect(startedAt('ultrawork-state.json')).not.toBe(startedAt('ralph-state.json'));
    expect(hook('4.4.4')).toMatchObject({ decision: 'block', mode: 'ralph' });
    const r = await cancel(S, '--mode', 'ralph', '--omc-version', '4.4.4', '--json');
    expect([r.code, r.json.ok]).toEqual([0, true]);
    expect(fs.existsSync(path.join(dir, 'ultrawork-state.json'))).toBe(false);
    expect(r.json.verdict).toMatchObject({ decision: 'stop', rules: '4.4.4' });
    // The real hook: nothing left to enforce (before, it answered ULTRAWORK #1/50).
    expect(hook('4.4.4').decision).toBe('stop');
  });

  it('4.4.4: an ultrawork asked for by a later prompt stays, and the cancel does not claim the session stops', async () => {
    p = makeProject({ prefix: 'omc-top-cbv-' });
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cbv-home-'));
    const dir = path.join(p.root, 'state', 'sessions', S);
    // A "ralph" prompt rewrites the ultrawork beside it; one asked for by a later prompt is its own loop.
    keywordHook444('ralph fix the failing tests in src/parser');
    keywordHook444('ulw tidy the imports');
    const r = await cancel(S, '--mode', 'ralph', '--omc-version', '4.4.4', '--json');
    expect(fs.existsSync(path.join(dir, 'ralph-state.json'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'ultrawork-state.json'))).toBe(true);
    expect(r.json.verdict).toMatchObject({ decision: 'block', rules: '4.4.4' });
    expect(hook('4.4.4')).toMatchObject({ decision: 'block', mode: 'ultrawork' });
    // ralph, the mode asked for, did end (exit 0, its line says the hook still blocks for the ultrawork); the
    // session's word on every surface is not a loop-ended one while the hook holds the agent (here: --json, which
    // reads the cancel's record and says its in-flight word otherwise: "ended 30s").
    expect(r.code).toBe(0);
    const json = JSON.parse(
      runOmcTop(['--json', '--omc-version', '4.4.4', '--root', p.root], {
        HOME: home,
        CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      }),
    ) as { sessions: Array<{ id: string; status_text: string; cancel_in_flight: unknown }> };
    const row = json.sessions.find((x) => x.id === S);
    expect(row?.cancel_in_flight).toBeNull();
    expect(row?.status_text).not.toMatch(/^(ended|stopping|stopped|cancelled)\b/);
  });

  it('4.4.4, the same made in a monitor: its row says the ultrawork is enforced, not "ended" / "cancelled"', async () => {
    p = makeProject({ prefix: 'omc-top-cbv-' });
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cbv-home-'));
    keywordHook444('ralph fix the failing tests in src/parser');
    keywordHook444('ulw tidy the imports');
    // This monitor's cancel of ralph, made 40 s ago: its window is over, the tracker settles at once.
    const at = Date.now() - 40_000;
    const planned = planCancel(p.root, { sessionId: S, mode: 'ralph', pauseOnly: false }, at, { rules: '4.4.4' });
    if (!planned.ok) throw new Error(planned.message);
    const out = await executeCancel(p.root, planned.plan, { now: () => at });
    if (out.kind !== 'done') throw new Error(out.kind);
    const st = new OmcStore({
      root: p.root,
      projectDir: p.dir,
      watch: 'none',
      stateDir: path.join(home, 'state'),
      claude: { env: { CLAUDE_CONFIG_DIR: path.join(home, '.claude') } },
      omc: makeOmcInstall('4.4.4', 'test'),
    });
    st.start();
    try {
      const tracked = st.cancels.track(out);
      const s = st.sessions.getSnapshot().sessions.find((x) => x.id === S);
      if (!s) throw new Error('no row for S');
      expect(s.verdict).toMatchObject({ decision: 'block', mode: 'ultrawork' });
      expect(tracked.final).toBe(true);
      expect(statusLabel(s, Date.now(), tracked)).toBe('enforced');
      expect(hook('4.4.4')).toMatchObject({ decision: 'block', mode: 'ultrawork' });
    } finally {
      st.close();
    }
  });
});
