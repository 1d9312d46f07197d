/**
 * One Stop of a real OMC hook (5.5.0, 4.4.4, and 4.15.10 when OMC_TOP_OMC_415 names its checkout), run as Claude Code
 * runs it (the persistent-mode script through run.cjs, the Stop payload on stdin, the environment a plugin hook gets
 * plus `env`, the clock frozen), next to omc-top's `--json` report of the same tree (the store read once). The
 * tests of what omc-top says a session's next Stop does compare the two.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { REPO, writeOmcJson } from '../helpers/fixtures.js';
import { gitInit } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';
import { hookEnv, omcRoot, STOP_SCRIPT, stopDecision, type OmcVersion } from './omc-runs/omc.js';

/** The versions whose hook is here: 4.15.10 only with a checkout of its source (OMC_TOP_OMC_415). */
export const LIVE_VERSIONS: OmcVersion[] = [
  '5.5.0',
  '4.4.4',
  ...(process.env.OMC_TOP_OMC_415 ? ['4.15.10' as const] : []),
];

/**
 * The versions a hook-vs-omc-top test compares with: 4.15.10 always, by its real hook when OMC_TOP_OMC_415 names a
 * checkout, else by the answers that hook gave on the same cases (test/fixtures/omc-4.15.10/stop-<book>.json,
 * recorded by test/interop/omc-runs/record-415-stops.ts), so CI checks 4.15.10 too.
 */
export const HOOK_VERSIONS: OmcVersion[] = ['5.5.0', '4.4.4', '4.15.10'];

type Decision = { decision: 'block' | 'stop'; mode: string | null };

/** The recorded answers of 4.15.10's hook for one book of cases, by case name. */
function recorded415(book: string): Record<string, Decision> {
  const file = path.join(REPO, 'test', 'fixtures', 'omc-4.15.10', `stop-${book}.json`);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { cases: Record<string, Decision> }).cases;
}

/**
 * What `version`'s Stop hook decides for case `name` of `book`: its real hook, or for 4.15.10 without a checkout the
 * answer its real hook gave when recorded. With OMC_TOP_RECORD_415 (a directory; the recorder sets it), 4.15.10's
 * live answers are written there too, one file per book.
 */
export function hookStop(book: string, name: string, r: StopRun): Decision {
  if (r.version === '4.15.10' && !process.env.OMC_TOP_OMC_415) {
    const d = recorded415(book)[name];
    if (!d)
      throw new Error(
        `no recorded 4.15.10 answer for "${name}" (${book}): record with npx tsx test/interop/omc-runs/record-415-stops.ts <checkout>`,
      );
    return d;
  }
  const { decision, mode } = realStop(r);
  const into = process.env.OMC_TOP_RECORD_415;
  if (r.version === '4.15.10' && into) {
    const file = path.join(into, `${book}.json`);
    const cases = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Decision>) : {};
    if (cases[name] && (cases[name].decision !== decision || cases[name].mode !== mode))
      throw new Error(`two answers recorded for "${name}" (${book})`);
    cases[name] = { decision, mode };
    fs.writeFileSync(file, JSON.stringify(cases));
  }
  return { decision, mode };
}

export interface StopRun {
  version: OmcVersion;
  cwd: string;
  home: string;
  sessionId: string;
  now: number;
  /** More of the environment Claude gives its hooks (its settings' env, its own). */
  env?: Record<string, string>;
  /** More of the Stop payload (stop_hook_active…). */
  payload?: Record<string, unknown>;
}

export function realStop(r: StopRun): { decision: 'block' | 'stop'; mode: string | null; out: string } {
  const root = omcRoot(r.version);
  const res = spawnSync(
    process.execPath,
    [path.join(root, 'scripts', 'run.cjs'), path.join(root, 'scripts', STOP_SCRIPT[r.version])],
    {
      cwd: r.cwd,
      env: {
        ...hookEnv(r.version, r.home),
        ...r.env,
        NODE_OPTIONS: `--import=${path.join(REPO, 'test', 'interop', 'hook-runner', 'freeze-clock.mjs')}`,
        OMC_TOP_FROZEN_NOW: String(r.now),
      },
      input: JSON.stringify({
        session_id: r.sessionId,
        transcript_path: path.join(r.home, '.claude', 'projects', 'x', `${r.sessionId}.jsonl`),
        cwd: r.cwd,
        permission_mode: 'default',
        hook_event_name: 'Stop',
        stop_hook_active: false,
        ...r.payload,
      }),
      encoding: 'utf8',
      timeout: scaled(60_000),
    },
  );
  if (res.error || res.status === null)
    throw new Error(`the Stop hook did not finish: ${String(res.error ?? res.signal)}`);
  return { ...stopDecision(res.stdout ?? ''), out: res.stdout ?? '' };
}

export interface JsonSession {
  id: string;
  status: string;
  verdict: { decision: string; mode: string | null; rule: string; detail: string; unless?: string[] } | null;
  modes: Array<{
    mode: string;
    status: string;
    active: boolean;
    reason: string;
    verdict: { rule: string; detail: string };
  }>;
}

/** A project of these tests: `<tmp>/repo` (its own git repository unless `git` is false) and `<tmp>/home`. */
export interface HookProject {
  cwd: string;
  home: string;
  now: number;
}

const made: string[] = [];

/** A fresh project for one case; `removeHookProjects` (each test file's afterEach) removes it. */
export function hookProject(prefix: string, opts: { git?: boolean } = {}): HookProject {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `omc-top-${prefix}-`));
  made.push(base);
  const cwd = path.join(base, 'repo');
  const home = path.join(base, 'home');
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  if (opts.git !== false) gitInit(cwd);
  return { cwd, home, now: Date.now() };
}

export function removeHookProjects(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** Session `sid`'s `<mode>-state.json`, active, started a minute before `now` and checked 5 s before, plus `fields`. */
export function writeModeState(w: HookProject, sid: string, mode: string, fields: Record<string, unknown>): void {
  writeOmcJson(path.join(w.cwd, '.omc', 'state', 'sessions', sid, `${mode}-state.json`), {
    active: true,
    session_id: sid,
    started_at: new Date(w.now - 60_000).toISOString(),
    last_checked_at: new Date(w.now - 5_000).toISOString(),
    ...fields,
  });
}

/** A store on the project, judged by `version`'s book, no live Claude; started. */
export function projectStore(w: HookProject, opts: { version?: string; watch?: 'auto' | 'none' } = {}): OmcStore {
  const store = new OmcStore({
    root: path.join(w.cwd, '.omc'),
    watch: opts.watch ?? 'auto',
    projectDir: w.cwd,
    home: w.home,
    omc: makeOmcInstall(opts.version ?? '5.5.0', 'test'),
    claude: { live: false, env: { HOME: w.home, CLAUDE_CONFIG_DIR: path.join(w.home, '.claude') } },
    runs: { env: { HOME: w.home } },
  });
  store.start();
  return store;
}

/** omc-top's `--json` for the project (`--omc-version` = `version`), read once from the files at `now`. */
export function jsonReport(r: { version: OmcVersion; cwd: string; home: string; now: number }): {
  sessions: JsonSession[];
} {
  const root = path.join(r.cwd, '.omc');
  const store = new OmcStore({
    root,
    watch: 'none',
    clock: () => r.now,
    projectDir: r.cwd,
    home: r.home,
    omc: makeOmcInstall(r.version, 'test'),
    claude: { live: false, env: { HOME: r.home, CLAUDE_CONFIG_DIR: path.join(r.home, '.claude') } },
    runs: { env: { HOME: r.home } },
  });
  store.start();
  const doc = JSON.parse(
    JSON.stringify(buildJsonReport({ root, rootRule: 'test', notices: [], sessions: store.sessions.getSnapshot() })),
  ) as { sessions: JsonSession[] };
  void store.close();
  return doc;
}
