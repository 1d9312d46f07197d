/**
 * Where a hostile case runs: a sandbox directory holding the project (whose
 * `.omc` is a copy of the base fixture) and a sibling directory `outside/`
 * that symlinks in the corpus point at. The base fixture is the real-OMC tree
 * (written by OMC's own code) plus the files of every kind omc-top reads that
 * the real tree lacks; it is built once per test worker and copied per case.
 *
 * fingerprint() records every entry of a directory (type, mode, size, inode,
 * mtime, content hash of small files, symlink target), so a test can prove
 * that reading a hostile tree wrote nothing, inside the root or beside it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OmcStore } from '../../src/store/store.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT, SESSION, writeOmcJson } from './fixtures.js';

/** The clock every hostile case runs at: when the fixture's readers ran, so statuses are fixed. */
export const NOW = READERS_CAPTURED_AT;
export const TEAM = 'fix-ts-errors';
/** Text planted in files outside the root: it must never appear on screen or in --json. */
export const OUTSIDE_SECRET = 'OUTSIDE-SECRET-7f3a';

export interface HealthyRow {
  id: string;
  status: string;
  modes: string;
}

export interface BaseFixture {
  /** A `.omc` directory to copy. */
  tree: string;
  /** Every session row the base fixture shows, at NOW. */
  healthy: readonly HealthyRow[];
  /** Problem lines the base fixture already has (path: message), so cases can tell theirs apart. */
  baseProblems: ReadonlySet<string>;
}

let base: BaseFixture | null = null;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Files of every kind omc-top reads that the real tree has no example of,
 * written in OMC's shapes (as its hooks and team runtime write them), so that a case
 * can damage an existing file of each kind.
 */
function addMissingKinds(root: string): void {
  const sess = (sid: string, f: string) => path.join(root, 'state', 'sessions', sid, f);
  writeOmcJson(sess(SESSION.ralph, 'session-started.json'), {
    session_id: SESSION.ralph,
    started_at: iso(NOW - 3_600_000),
    cwd: '/home/dev/shop',
    pid: 4242,
  });
  writeOmcJson(sess(SESSION.ralph, 'skill-active-state.json'), {
    active: true,
    active_skills: { ralph: { skill_name: 'ralph', started_at: iso(NOW - 3_600_000) } },
    _meta: { written_at: iso(NOW - 3_600_000), mode: 'skill-active', sessionId: SESSION.ralph },
  });
  writeOmcJson(path.join(root, 'sessions', `${SESSION.finished}.json`), {
    session_id: SESSION.finished,
    ended_at: iso(NOW - 7_200_000),
    reason: 'prompt_input_exit',
    agents_spawned: 2,
    agents_completed: 2,
    modes_used: ['ralph'],
  });
  const team = path.join(root, 'state', 'team', TEAM);
  const cfg = JSON.parse(fs.readFileSync(path.join(team, 'config.json'), 'utf8'));
  writeOmcJson(path.join(team, 'manifest.json'), {
    schema_version: 2,
    name: TEAM,
    task: cfg.task ?? 'fix',
    worker_count: cfg.worker_count,
    workers: cfg.workers,
    created_at: cfg.created_at,
  });
  writeOmcJson(path.join(team, 'workers', 'worker-1', 'shutdown-ack.json'), {
    status: 'reject',
    reason: 'still working',
    updated_at: iso(NOW - 60_000),
  });
  writeOmcJson(path.join(root, 'state', 'team-bridge', 'bridge-team', 'worker-a.heartbeat.json'), {
    workerName: 'worker-a',
    teamName: 'bridge-team',
    provider: 'codex',
    pid: 999_999,
    lastPollAt: iso(NOW - 5_000),
    status: 'polling',
    consecutiveErrors: 0,
  });
}

/** Builds the base fixture once per worker (in os.tmpdir(); removed when the worker exits). */
export function baseFixture(): BaseFixture {
  if (base) return base;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-hostile-base-'));
  const tree = path.join(dir, '.omc');
  fs.cpSync(FIXTURE_TREE, tree, { recursive: true });
  addMissingKinds(tree);
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const store = new OmcStore({ root: tree, clock: () => NOW, watch: 'none' });
  store.start();
  const healthy = store.sessions
    .getSnapshot()
    .sessions.map((s) => ({ id: s.id, status: s.status, modes: s.modes.map((m) => m.mode).join(',') }));
  const baseProblems = new Set(store.problems.getSnapshot().map((p) => `${p.path}: ${p.message}`));
  void store.close();
  base = { tree, healthy, baseProblems };
  return base;
}

export interface Sandbox {
  /** Holds project/ and outside/. */
  dir: string;
  project: string;
  /** project/.omc */
  root: string;
  /** A sibling of the project: symlinks in the corpus point here. */
  outside: string;
  cleanup(): void;
}

/** A fresh copy of the base fixture beside an `outside/` directory with secrets in it. */
export function makeSandbox(): Sandbox {
  const b = baseFixture();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-hostile-'));
  const project = path.join(dir, 'project');
  const root = path.join(project, '.omc');
  fs.cpSync(b.tree, root, { recursive: true });
  const outside = path.join(dir, 'outside');
  fs.mkdirSync(path.join(outside, 'sessions-dir', 'aaaaaaaa-outside-session'), { recursive: true });
  const secretState = {
    active: true,
    iteration: 1,
    max_iterations: 5,
    prompt: OUTSIDE_SECRET,
    started_at: iso(NOW - 1_000),
    last_checked_at: iso(NOW - 1_000),
  };
  fs.writeFileSync(path.join(outside, 'secret-state.json'), JSON.stringify(secretState));
  fs.writeFileSync(
    path.join(outside, 'sessions-dir', 'aaaaaaaa-outside-session', 'ralph-state.json'),
    JSON.stringify(secretState),
  );
  fs.writeFileSync(
    path.join(outside, 'secret.md'),
    `---\ntitle: "${OUTSIDE_SECRET}"\ntags: []\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\nsources: []\nlinks: []\ncategory: reference\nconfidence: high\n---\n\n# ${OUTSIDE_SECRET}\n\n${OUTSIDE_SECRET}\n`,
  );
  fs.writeFileSync(path.join(outside, 'secret.txt'), `${OUTSIDE_SECRET}\n`);
  return { dir, project, root, outside, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type Fingerprint = Map<string, string>;

/** Every entry under `dir` (not following symlinks), with what would change if anything wrote to it. */
export function fingerprint(dir: string): Fingerprint {
  const out: Fingerprint = new Map();
  const walk = (abs: string, rel: string) => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(abs);
    } catch {
      return;
    }
    let sig = `${st.mode.toString(8)} ${st.size} ${st.ino} ${st.mtimeMs}`;
    if (st.isSymbolicLink()) sig += ` -> ${fs.readlinkSync(abs)}`;
    else if (st.isFile() && st.size <= 1024 * 1024 && (st.mode & 0o444) !== 0) {
      try {
        sig += ` ${createHash('sha1').update(fs.readFileSync(abs)).digest('hex')}`;
      } catch {
        /* unreadable on purpose (permission cases): the stat fields still catch a write */
      }
    }
    out.set(rel, sig);
    if (st.isDirectory()) {
      let names: string[] = [];
      try {
        names = fs.readdirSync(abs);
      } catch {
        return;
      }
      for (const n of names.sort()) walk(path.join(abs, n), rel === '' ? n : `${rel}/${n}`);
    }
  };
  walk(dir, '');
  return out;
}

/** Human-readable differences between two fingerprints (empty when nothing changed). */
export function fingerprintDiff(before: Fingerprint, after: Fingerprint): string[] {
  const out: string[] = [];
  for (const [k, v] of after) {
    if (!before.has(k)) out.push(`created ${JSON.stringify(k)}`);
    else if (before.get(k) !== v) out.push(`changed ${JSON.stringify(k)}`);
  }
  for (const k of before.keys()) if (!after.has(k)) out.push(`removed ${JSON.stringify(k)}`);
  return out;
}
