/**
 * A Claude started `CLAUDE_CONFIG_DIR=~/.claude-work claude` (one config directory per account), with OMC 4.4.4
 * enabled as a plugin there, and omc-top started from a shell without the variable: the OMC that judges is the one
 * of the Claude's directory (its hooks run it), its registry entry joins the session, and a second directory in use
 * is said with the command that reads it. The stand-in is a real process named `claude` with that environment.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRootAndOmc } from '../../../src/store/omc-root.js';
import { OmcStore, type OmcStoreOptions } from '../../../src/store/store.js';
import { projectClaudeConfig } from '../../../src/store/claude/project-config.js';
import { writeRegistry } from '../../helpers/claude-files.js';
import { waitFor } from '../../helpers/fixtures.js';
import { installPlugin, OMC_PLUGIN_KEY } from '../../helpers/omc-plugin.js';
import { OMC444 } from '../../helpers/omc-packages.mjs';
import { BIN } from '../../helpers/pty.js';
import { makeLive } from '../../helpers/sessions-gen.js';

const SID = 'aaaaaaaa-1111-4222-8333-444444444444';
const SID2 = 'bbbbbbbb-1111-4222-8333-444444444444';
const children: ChildProcess[] = [];
const bases: string[] = [];
let store: OmcStore | null = null;

afterEach(async () => {
  await store?.close();
  store = null;
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const b of bases.splice(0)) fs.rmSync(b, { recursive: true, force: true });
});

interface World {
  base: string;
  project: string;
  work: string;
  /** omc-top's environment: no CLAUDE_CONFIG_DIR, no global npm OMC. */
  env: Record<string, string>;
}

function world(): World {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-ccdir-'));
  bases.push(base);
  const home = path.join(base, 'home');
  const work = path.join(home, '.claude-work');
  fs.mkdirSync(path.join(home, '.claude', 'sessions'), { recursive: true });
  fs.mkdirSync(path.join(work, 'sessions'), { recursive: true });
  installPlugin(work, OMC444);
  fs.writeFileSync(path.join(work, 'settings.json'), JSON.stringify({ enabledPlugins: { [OMC_PLUGIN_KEY]: true } }));
  const project = path.join(base, 'proj');
  fs.mkdirSync(path.join(project, '.omc', 'state', 'sessions'), { recursive: true });
  makeLive(path.join(project, '.omc'), SID);
  const env = {
    HOME: home,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    NPM_CONFIG_PREFIX: path.join(base, 'npm-prefix'),
  };
  return { base, project, work, env };
}

/** A process named `claude` (its comm, as Claude Code's own) working in `cwd`, started with `extra` in its env. */
async function claudeStandIn(w: World, cwd: string, extra: Record<string, string>): Promise<number> {
  const bin = path.join(w.base, 'bin', 'claude');
  if (!fs.existsSync(bin)) {
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.symlinkSync(process.execPath, bin);
  }
  const c = spawn(bin, ['-e', 'setInterval(() => {}, 1 << 30)'], { cwd, env: { ...w.env, ...extra }, stdio: 'ignore' });
  children.push(c);
  const pid = c.pid as number;
  await waitFor(() => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'claude', { what: 'the stand-in runs' });
  return pid;
}

/**
 * A Claude working elsewhere (no CLAUDE_CONFIG_DIR of its own) whose entry in omc-top's own registry claims the first
 * session: what the monitor reads until it switches directory. Returns its pid.
 */
async function claudeInOwnRegistry(w: World): Promise<number> {
  const away = await claudeStandIn(w, w.base, {});
  writeRegistry(path.join(w.base, 'home', '.claude'), away, SID, { status: 'busy', cwd: w.project });
  return away;
}

/**
 * A read-only monitor's store (not started) on what resolveRootAndOmc `found` for `w`, with this Claude side. Its
 * timer's OMC look comes once an hour and reads the files only: what finds a Claude is its session's arrival.
 */
function monitorOn(w: World, found: ReturnType<typeof resolveRootAndOmc>, claude: OmcStoreOptions['claude']): OmcStore {
  return new OmcStore({
    root: found.res.root,
    projectDir: found.res.projectDir,
    omc: found.omc,
    omcRedetect: found.redetect,
    omcRecheckMs: 3_600_000,
    watch: 'auto',
    readonly: true,
    stateDir: path.join(w.base, 'state'),
    claude,
  });
}

describe.skipIf(process.platform !== 'linux')('a Claude with its own CLAUDE_CONFIG_DIR, omc-top without it', () => {
  it("judges by the OMC enabled in the Claude's config directory and says which file decided", async () => {
    const w = world();
    const pid = await claudeStandIn(w, w.project, { CLAUDE_CONFIG_DIR: w.work });
    const found = resolveRootAndOmc({ cwd: w.project, env: w.env });
    expect(found.omc.version).toBe('4.4.4');
    expect(found.omc.assumed).toBe(false);
    expect(found.omc.source).toBe(`plugin ${OMC_PLUGIN_KEY} (enabled in ${path.join(w.work, 'settings.json')})`);
    expect(found.claudeEnv.CLAUDE_CONFIG_DIR).toBe(w.work);
    expect(found.res.notices).toContain(
      `Claude's config directory read: CLAUDE_CONFIG_DIR=${w.work}, as Claude pid ${pid} here runs with it`,
    );
    // The look made again on the monitor's timer (files only) keeps reading the Claude's directory.
    expect(found.redetect().version).toBe('4.4.4');
  });

  it('--json joins the session to the Claude whose registry entry is under its own config directory', async () => {
    const w = world();
    const pid = await claudeStandIn(w, w.project, { CLAUDE_CONFIG_DIR: w.work });
    writeRegistry(w.work, pid, SID, { status: 'busy', cwd: w.project });
    const r = spawnSync(process.execPath, [BIN, '--json'], { cwd: w.project, env: w.env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as {
      omc_version: { version: string | null };
      sessions: Array<{ id: string; process?: { pid: number } | null }>;
    };
    expect(doc.omc_version.version).toBe('4.4.4');
    expect(doc.sessions.find((s) => s.id === SID)?.process?.pid).toBe(pid);
  });

  it('Claudes of one project with two config directories: the one most use is read, the other said with its command', async () => {
    const w = world();
    const other = path.join(w.base, 'home', '.claude-personal');
    const a = await claudeStandIn(w, w.project, { CLAUDE_CONFIG_DIR: w.work });
    const b = await claudeStandIn(w, path.join(w.project, '.omc'), { CLAUDE_CONFIG_DIR: w.work });
    const c = await claudeStandIn(w, w.project, { CLAUDE_CONFIG_DIR: other });
    const pc = projectClaudeConfig(w.project, w.env);
    expect(pc.config.dir).toBe(w.work);
    expect(pc.chosenBy).toBe(Math.min(a, b));
    expect(pc.notes).toEqual([
      `Claude pid ${c} here runs with CLAUDE_CONFIG_DIR=${other} (this monitor reads ${w.work}, as Claude pid ${[a, b].sort((x, y) => x - y).join(', ')} here): try CLAUDE_CONFIG_DIR=${other} omc-top`,
    ]);
  });

  it('a Claude elsewhere, or with the config directory omc-top reads, changes nothing', async () => {
    const w = world();
    await claudeStandIn(w, w.base, { CLAUDE_CONFIG_DIR: w.work });
    await claudeStandIn(w, w.project, {});
    const found = resolveRootAndOmc({ cwd: w.project, env: w.env });
    expect(found.omc.version).toBe(null);
    expect(found.claudeEnv).toBe(w.env);
    expect(found.res.notices.filter((n) => n.includes('config directory'))).toEqual([]);
  });

  it('a Claude started after the monitor with its own config directory: the monitor reads that directory, its row joins, its OMC judges', async () => {
    const w = world();
    // A Claude working elsewhere whose entry in omc-top's own registry claims the first session (what the monitor
    // reads until it switches): its status must go once the other directory is read.
    const away = await claudeInOwnRegistry(w);
    const found = resolveRootAndOmc({ cwd: w.project, env: w.env });
    expect(found.omc.assumed).toBe(true);
    store = monitorOn(w, found, { env: found.claudeEnv });
    store.start();
    const claude = () => (store as OmcStore).claude.getSnapshot();
    await waitFor(() => claude().bySession.get(SID)?.process?.pid === away, { what: 'the own registry joined first' });
    const pid = await claudeStandIn(w, w.project, { CLAUDE_CONFIG_DIR: w.work });
    writeRegistry(w.work, pid, SID2, { status: 'busy', cwd: w.project });
    makeLive(path.join(w.project, '.omc'), SID2);
    await waitFor(() => claude().bySession.get(SID2)?.process?.status === 'busy', {
      what: `the new Claude's row (${[...claude().bySession.keys()].join(', ')} in ${claude().configDir})`,
    });
    expect(claude().bySession.get(SID2)?.process?.pid).toBe(pid);
    expect(claude().configDir).toBe(w.work);
    // Nothing of the directory read before is left: the first session's Claude is not in the one read now.
    expect(claude().bySession.get(SID)?.process ?? null).toBe(null);
    const problems = () => (store as OmcStore).problems.getSnapshot().map((p) => p.message);
    expect(problems()).toContain(
      `Claude's config directory read: CLAUDE_CONFIG_DIR=${w.work}, as Claude pid ${pid} here runs with it`,
    );
    await waitFor(() => store?.omc?.version === '4.4.4', { what: `OMC 4.4.4 (${store?.omc?.source})` });
    expect(store.omc?.source).toBe(`plugin ${OMC_PLUGIN_KEY} (enabled in ${path.join(w.work, 'settings.json')})`);
  });

  it("the monitor's start does not look at the processes: the look comes after the first rows, and no Claude status before it", async () => {
    const w = world();
    await claudeInOwnRegistry(w);
    const pid = await claudeStandIn(w, w.project, { CLAUDE_CONFIG_DIR: w.work });
    writeRegistry(w.work, pid, SID, { status: 'waiting', cwd: w.project, waitingFor: 'a permission prompt' });
    // The full-screen app's start: no process looked at (omc-top's own directory is the first guess).
    const found = resolveRootAndOmc({ cwd: w.project, env: w.env, claudesLater: true });
    expect(found.claudeEnv).toBe(w.env);
    let startReturned = false;
    let rowsAtLook: string[] | null = null;
    store = monitorOn(w, found, {
      env: found.claudeEnv,
      lookLater: true,
      choose: (dir, env) => {
        rowsAtLook ??= startReturned ? (store as OmcStore).sessions.getSnapshot().sessions.map((s) => s.id) : [];
        return projectClaudeConfig(dir, env);
      },
    });
    store.start({ progressive: true });
    startReturned = true;
    // What the first frame is drawn from (the first slice): the session's row, no Claude status yet, not even the
    // one omc-top's own registry says (the look would take it back), and the look not made.
    expect(store.sessions.getSnapshot().sessions.map((s) => s.id)).toContain(SID);
    expect(store.claude.getSnapshot().bySession.size).toBe(0);
    expect(rowsAtLook).toBe(null);
    const claude = () => (store as OmcStore).claude.getSnapshot();
    const seen: Array<string | null> = [];
    store.claude.subscribe(() => seen.push(claude().bySession.get(SID)?.process?.status ?? null));
    await waitFor(() => claude().bySession.get(SID)?.process?.status === 'waiting', {
      what: `the join in ${claude().configDir}`,
    });
    expect(rowsAtLook).toContain(SID);
    expect(claude().bySession.get(SID)?.process?.pid).toBe(pid);
    // The other directory's Claude was never shown.
    expect(seen).not.toContain('busy');
    await waitFor(() => store?.omc?.version === '4.4.4', { what: `OMC 4.4.4 (${store?.omc?.source})` });
  });
});
