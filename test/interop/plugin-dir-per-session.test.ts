/**
 * One session's `claude --plugin-dir <OMC>` is that session's OMC, not the project's: a session beside it whose own
 * Claude runs without the flag runs the plugin the project's settings enable, and is judged by that release (what its
 * real Stop hook does), both ways round. Checked with the built bundle's `--json`, as a user runs it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { installPlugin, pluginWorld, writeRetiredUltrawork, type PluginWorld } from '../helpers/omc-plugin.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { scaled } from '../helpers/time-scale.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';

const S1 = '1d1d1d1d-1111-4111-8111-111111111111';
const S2 = '2e2e2e2e-2222-4222-8222-222222222222';

let p: TempProject | null = null;
let base: string | null = null;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  p?.cleanup();
  if (base) fs.rmSync(base, { recursive: true, force: true });
  p = base = null;
});

/** A live stand-in for Claude Code of `sid` in the project (`claude [flags]` on its command line), registered. */
async function claude(w: PluginWorld, sid: string, flags: string[]): Promise<number> {
  const c = spawn('/bin/sh', ['-c', 'sleep 120; :', 'claude', ...flags], { stdio: 'ignore' });
  children.push(c);
  const pid = c.pid as number;
  const want = flags.length > 0 ? flags[0] : 'claude';
  const deadline = Date.now() + scaled(10_000);
  while (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(want as string)) {
    if (Date.now() > deadline) throw new Error('the stand-in never showed its command line');
    await new Promise((r) => setTimeout(r, 10));
  }
  const procStart = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? null;
  writeOmcJson(path.join(w.config, 'sessions', `${pid}.json`), {
    pid,
    sessionId: sid,
    cwd: (p as TempProject).dir,
    startedAt: Date.now(),
    procStart,
    kind: 'interactive',
    status: 'busy',
    updatedAt: Date.now(),
  });
  return pid;
}

interface Row {
  id: string;
  verdict: { decision: string; mode: string | null };
  omc: { version: string | null; source: string; sourceTag: string };
}

function json(w: PluginWorld): { omc_version: { version: string; source: string }; sessions: Row[] } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...w.env };
  delete env.XDG_STATE_HOME;
  env.XDG_STATE_HOME = path.join(base as string, 'xdg');
  return JSON.parse(
    execFileSync(process.execPath, [BUNDLE, '--json', '--cwd', (p as TempProject).dir], { env, encoding: 'utf8' }),
  );
}

const hook = (w: PluginWorld, v: HookVersion, sid: string) =>
  hookDecision(spawnStopHook(v, { cwd: (p as TempProject).dir, sessionId: sid, home: w.home, now: Date.now() }));

/** A project whose user settings enable `enabled`; S1's Claude loads `pluginDir` too; both run a 4.4.4 ultrawork. */
async function scene(enabled: string, pluginDir: string): Promise<{ w: PluginWorld; pid1: number }> {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-pdps-'));
  p = makeProject({ prefix: 'omc-top-pdps-proj-' });
  const w = pluginWorld(base);
  installPlugin(w.config, enabled);
  writeRetiredUltrawork(p.root, S1);
  writeRetiredUltrawork(p.root, S2);
  const pid1 = await claude(w, S1, ['--plugin-dir', pluginDir]);
  await claude(w, S2, []);
  return { w, pid1 };
}

describe("a session's own --plugin-dir judges that session only", () => {
  it('the 5.5.0 plugin enabled, S1 runs --plugin-dir 4.4.4: S2 (plain claude) is judged by 5.5.0, as its hook lets it stop', async () => {
    const { w, pid1 } = await scene(OMC55, OMC444);
    const r = json(w);
    const s1 = r.sessions.find((s) => s.id === S1);
    const s2 = r.sessions.find((s) => s.id === S2);
    expect(s1?.omc).toMatchObject({ version: '4.4.4', sourceTag: '--plugin-dir' });
    expect(s1?.omc.source).toContain(`claude pid ${pid1}`);
    expect(s1?.verdict).toMatchObject({ decision: 'block', mode: 'ultrawork' });
    expect(s2?.omc).toMatchObject({ version: '5.5.0', sourceTag: 'plugin' });
    expect(s2?.verdict.decision).toBe('stop');
    expect(r.omc_version.version).toBe('5.5.0');
    expect(r.omc_version.source).toMatch(/^plugin /);
    // What each session's own hooks do.
    expect(hook(w, '5.5.0', S2).decision).toBe('stop');
    expect(hook(w, '4.4.4', S1)).toMatchObject({ decision: 'block', mode: 'ultrawork' });
  });

  it("the reverse: the 4.4.4 plugin enabled, S1 runs --plugin-dir 5.5.0: S2's 4.x ultrawork is enforced, not retired", async () => {
    const { w } = await scene(OMC444, OMC55);
    const r = json(w);
    const s1 = r.sessions.find((s) => s.id === S1);
    const s2 = r.sessions.find((s) => s.id === S2);
    expect(s1?.omc).toMatchObject({ version: '5.5.0', sourceTag: '--plugin-dir' });
    expect(s1?.verdict.decision).toBe('stop');
    expect(s2?.omc).toMatchObject({ version: '4.4.4', sourceTag: 'plugin' });
    expect(s2?.verdict).toMatchObject({ decision: 'block', mode: 'ultrawork' });
    expect(hook(w, '4.4.4', S2)).toMatchObject({ decision: 'block', mode: 'ultrawork' });
  });
});
