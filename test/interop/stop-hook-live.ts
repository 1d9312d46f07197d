/**
 * One Stop of a real OMC hook (5.5.0, 4.4.4, and 4.15.10 when OMC_TOP_OMC_415 names its checkout), run as Claude Code
 * runs it (the persistent-mode script through run.cjs, the Stop payload on stdin, the environment a plugin hook gets
 * plus `env`, the clock frozen), next to omc-top's `--json` report of the same tree (the store read once). The
 * tests of what omc-top says a session's next Stop does compare the two.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { REPO } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { hookEnv, omcRoot, STOP_SCRIPT, stopDecision, type OmcVersion } from './omc-runs/omc.js';

/** The versions whose hook is here: 4.15.10 only with a checkout of its source (OMC_TOP_OMC_415). */
export const LIVE_VERSIONS: OmcVersion[] = [
  '5.5.0',
  '4.4.4',
  ...(process.env.OMC_TOP_OMC_415 ? ['4.15.10' as const] : []),
];

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
