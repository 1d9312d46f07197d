/**
 * A session's cancel word as each surface says it: a project with one ralph loop (session S) the real OMC 5.5.0
 * Stop hook enforces, optionally with a live stand-in for its Claude process, and readers for every surface of
 * another process: `--json` (`status_text`, `cancel_in_flight`, `cancel_settled`), `watch --json --rows` (the row
 * read back as the fleet reads a host's), the serve page, and a monitor's row. Shared by the in-flight and the
 * settled words' tests (test/attention/cancel-*-words.test.tsx).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OmcStore } from '../../src/store/store.js';
import { ownStateDir } from '../../src/io/state-dir.js';
import { ROW_SCHEMA, cleanRow, rowStatusText } from '../../src/feeds/row.js';
import { singleSource } from '../../src/commands/serve/source.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { BUNDLE } from './attention-surfaces.js';
import { writeRegistry } from './claude-files.js';
import { liveRalph, makeProject, ralphStateFile, waitFor, writeOmcJson } from './fixtures.js';
import { mountStore, type MountedApp } from './mount-app.js';
import { hookDecision, spawnStopHook } from './stop-hook.js';

export const S = 'cccccccc-2222-4333-8444-555555555555';

export interface Scene {
  dir: string;
  root: string;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  home: string;
  /** The Claude config directory (its registry: `sessions/<pid>.json`). */
  cfg: string;
  /** The live stand-in registered as S's Claude (attached scenes), else null. */
  claudePid: number | null;
}

/**
 * A project with a ralph loop of S; with `attached`, a live process registered as S's Claude, busy for an hour.
 * `cleanups` gets what to undo, last first.
 */
export function cancelScene(attached: boolean, cleanups: Array<() => unknown>): Scene {
  const p = makeProject();
  cleanups.push(() => p.cleanup());
  const cfg = path.join(p.dir, 'claude-config');
  const env = { CLAUDE_CONFIG_DIR: cfg, XDG_STATE_HOME: path.join(p.dir, 'xdg-state') };
  const home = path.join(p.dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  // A loop running for ten minutes: the cancels the tests date back a few minutes come after its start (a loop
  // started after a cancel is a new run, never the cancel not taking).
  writeOmcJson(
    ralphStateFile(p.root, S),
    liveRalph({ sessionId: S, projectPath: p.dir, prompt: 'ralph fix tests', startedAt: Date.now() - 10 * 60_000 }),
  );
  let claudePid: number | null = null;
  if (attached) {
    const c: ChildProcess = spawn('sleep', ['600'], { stdio: 'ignore' });
    cleanups.push(() => c.kill('SIGKILL'));
    claudePid = c.pid as number;
    writeRegistry(cfg, claudePid, S, { status: 'busy', cwd: p.dir, statusUpdatedAt: Date.now() - 3_600_000 });
  }
  return { dir: p.dir, root: p.root, env, stateDir: ownStateDir(env), home, cfg, claudePid };
}

/** S's Claude (the stand-in) as Claude Code registers it now: `status` since this moment. */
export function claudeNow(s: Scene, status: 'idle' | 'busy' | 'waiting'): void {
  if (s.claudePid === null) throw new Error('no Claude in this scene');
  writeRegistry(s.cfg, s.claudePid, S, {
    status,
    cwd: s.dir,
    statusUpdatedAt: Date.now(),
    ...(status === 'waiting' ? { waitingFor: 'permission prompt' } : {}),
  });
}

/** What the real OMC 5.5.0 Stop hook does at S's next Stop. */
export const realHook = (s: Scene) =>
  hookDecision(spawnStopHook('5.5.0', { cwd: s.dir, sessionId: S, home: s.home, now: Date.now() }));

/** A live store over the scene (this process): a monitor's, or the serve page's. */
export function sceneStore(s: Scene, cleanups: Array<() => unknown>): OmcStore {
  const st = new OmcStore({
    root: s.root,
    projectDir: s.dir,
    stateDir: s.stateDir,
    claude: { env: s.env },
    omc: makeOmcInstall('5.5.0', 'test'),
  });
  st.start({ progressive: true });
  cleanups.push(() => st.close());
  return st;
}

export async function mountScene(st: OmcStore, cleanups: Array<() => unknown>): Promise<MountedApp> {
  const app = mountStore(st, { columns: 120, rows: 30 });
  cleanups.push(() => app.unmountOnly());
  await app.ready;
  return app;
}

/** A count ("47s", "3m") said as "N": the surfaces are read a moment apart. */
export const word = (text: string) => text.replace(/\d+[sm]\b/, 'N');

/** The built bundle's output for `args` on the scene. */
export const runBundle = (s: Scene, args: string[]) =>
  execFileSync(process.execPath, [BUNDLE, ...args, '--root', s.root], {
    env: { ...process.env, ...s.env },
    encoding: 'utf8',
  });

/** S's last row of a `watch --json --rows` stream, once it is ready (every row sent). */
export async function watchRow(s: Scene): Promise<{ row: unknown } | undefined> {
  const child = spawn(process.execPath, [BUNDLE, 'watch', '--json', '--snapshot', '--rows', '--root', s.root], {
    env: { ...process.env, ...s.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const lines = () =>
      out
        .split('\n')
        .filter((l) => l.endsWith('}'))
        .map((l) => JSON.parse(l) as { type: string; session?: string; row?: unknown });
    await waitFor(() => lines().some((l) => l.type === 'ready') || null, {
      timeoutMs: 20_000,
      what: `watch --json --rows ready (${err})`,
    });
    return lines()
      .filter((l) => l.type === 'row' && l.session === S)
      .map((l) => ({ row: l.row }))
      .at(-1);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** S's row in a monitor's list (its screen lines): its status cell (the words before the session id). */
export function rowStatus(lines: readonly string[]): string {
  const line = lines.find((l) => l.includes(S.slice(0, 8)));
  return (/^[▸ ] (.+?)\s+cccccccc/.exec(line ?? '')?.[1] ?? `(no row: ${line})`).trim();
}

export interface OtherSurfaces {
  json: string;
  /** `--json`'s `cancel_in_flight.text`, or "(none)". */
  jsonFlight: string;
  /** `--json`'s `cancel_settled.text`, or "(none)". */
  jsonSettled: string;
  fleet: string;
  page: string;
}

/** What every surface of another process says of S at this moment: `--json`, `watch --json --rows`, the serve page. */
export async function otherSurfaces(s: Scene, page: OmcStore): Promise<OtherSurfaces> {
  const json = JSON.parse(runBundle(s, ['--json'])) as {
    sessions: Array<{
      id: string;
      status_text: string;
      cancel_in_flight: { text: string } | null;
      cancel_settled?: { text: string } | null;
    }>;
  };
  const js = json.sessions.find((x) => x.id === S);
  // `watch --json --rows`: S's row as sent, read back as the fleet reads a host's rows.
  const wire = await watchRow(s);
  const parsed = ROW_SCHEMA.safeParse(wire?.row);
  const fleet = parsed.success
    ? rowStatusText(cleanRow(parsed.data), Date.now())
    : `(bad row: ${String(parsed.error)})`;
  // The serve page shows each row's statusText.
  const shown = singleSource(page, 'proj', s.env)
    .picture(Date.now())
    .roots[0]?.rows.find((r) => r.session === S)?.statusText;
  return {
    json: word(js?.status_text ?? '(none)'),
    jsonFlight: word(js?.cancel_in_flight?.text ?? '(none)'),
    jsonSettled: word(js?.cancel_settled?.text ?? '(none)'),
    fleet: word(fleet),
    page: word(shown ?? '(none)'),
  };
}
