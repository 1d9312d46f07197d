/**
 * Fixture helpers. The real-OMC fixture tree (test/fixtures/real-omc, written
 * by OMC's own code) is copied into a fresh git project per test, so tests can
 * mutate it freely.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scaled } from './time-scale.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURE = path.join(REPO, 'test', 'fixtures', 'real-omc');
export const FIXTURE_TREE = path.join(FIXTURE, 'tree');
/** When the fixture's readers ran; freeze the clock here to compare with them. */
export const READERS_CAPTURED_AT = Date.parse('2026-11-30T18:15:30.152Z');
/** A Claude config dir that never exists: stores built by tests read no developer's own ~/.claude. */
export const NO_CLAUDE_DIR = path.join(REPO, 'test', 'fixtures', 'no-claude-config-dir');

export const SESSION = {
  ralph: '88727f43-cac5-4a42-a0b2-95e28cf65511',
  autopilot: '953053bb-e2a1-4b0b-9ab7-d53d937c5aec',
  ultraqa: '57678e4f-73ba-4683-bcf7-714f641e6261',
  team: 'ee515cfb-7647-4b9d-a111-0c48a47992a1',
  ultrawork: '709b66d1-6130-4a10-a5c4-7e979d40400f',
  hookRalph: 'befb1f7b-e9bc-4db9-97a3-f31e7239cd2c',
  finished: '8e17b2c5-1a11-4fd1-be56-e21d78b3fea4',
  stale: '55bd5e29-5a61-47d0-a1d2-e1d0b6a54513',
  cancelled: 'c37fb212-9fb9-4808-85bf-1a72829e5b3b',
} as const;

export function readReader<T = any>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE, 'readers', name), 'utf8')) as T;
}

export interface TempProject {
  /** The project directory (a git repo). */
  dir: string;
  /** <dir>/.omc */
  root: string;
  cleanup(): void;
}

/** A fresh git project; with `withFixture`, its .omc is a copy of the real-OMC tree. */
export function makeProject(opts: { withFixture?: boolean; prefix?: string } = {}): TempProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), opts.prefix ?? 'omc-top-test-'));
  execFileSync('git', ['init', '-q', dir]);
  const root = path.join(dir, '.omc');
  if (opts.withFixture) fs.cpSync(FIXTURE_TREE, root, { recursive: true });
  else fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
  return { dir, root, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Writes JSON the way OMC does: pretty, 2-space, no trailing newline, temp + rename. */
export function writeOmcJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.tmp.${process.pid}.${Math.random().toString(16).slice(2)}`,
  );
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * A live ralph loop as OMC's ralph skill and Stop hook keep it: active, owned by its session (top-level
 * `session_id`, which the Stop hook needs to enforce it) and fresh. `project_path` and `prompt` are written only
 * when given. Times are ISO text or epoch ms; both default to now.
 */
export interface LiveRalph {
  sessionId: string;
  /** `iteration`; 1 when not given. */
  iteration?: number | undefined;
  /** `max_iterations`; 10 when not given. */
  max?: number;
  startedAt?: string | number;
  checkedAt?: string | number;
  projectPath?: string;
  prompt?: string;
}

const isoTime = (t: string | number | undefined): string =>
  typeof t === 'string' ? t : new Date(t ?? Date.now()).toISOString();

/** The ralph-state.json value of a live loop (for a test that writes it its own way). */
export function liveRalph(r: LiveRalph): Record<string, unknown> {
  return {
    active: true,
    iteration: r.iteration ?? 1,
    max_iterations: r.max ?? 10,
    started_at: isoTime(r.startedAt),
    last_checked_at: isoTime(r.checkedAt),
    session_id: r.sessionId,
    ...(r.projectPath !== undefined && { project_path: r.projectPath }),
    ...(r.prompt !== undefined && { prompt: r.prompt }),
  };
}

/** Where a session's ralph state lives under an `.omc` root. */
export function ralphStateFile(root: string, sessionId: string): string {
  return path.join(root, 'state', 'sessions', sessionId, 'ralph-state.json');
}

/** Writes a live ralph loop into `project`'s `.omc` the way OMC does (writeOmcJson); returns the file. */
export function writeLiveRalph(project: { root: string }, r: LiveRalph): string {
  const file = ralphStateFile(project.root, r.sessionId);
  writeOmcJson(file, liveRalph(r));
  return file;
}

/**
 * A fresh ultrawork of `sessionId`, 7 reinforcements in: OMC 4.15's Stop hook enforces it (until 50), OMC 5.5
 * retired ultrawork. The tree where one rule book against another shows on every surface.
 */
export function writeFreshUltrawork(project: { root: string; dir: string }, sessionId: string): void {
  const now = new Date().toISOString();
  writeOmcJson(path.join(project.root, 'state', 'sessions', sessionId, 'ultrawork-state.json'), {
    active: true,
    started_at: now,
    last_checked_at: now,
    session_id: sessionId,
    project_path: project.dir,
    reinforcement_count: 7,
  });
}

/**
 * Polls `fn` until it returns a truthy value (no fixed sleeps standing in for a condition). The ceiling
 * is a quiet machine's, scaled to this one (test/helpers/time-scale.ts).
 */
export async function waitFor<T>(
  fn: () => T | undefined | null | false,
  opts: { timeoutMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + scaled(opts.timeoutMs ?? 5_000);
  let last: unknown;
  for (;;) {
    try {
      const v = fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${opts.what ?? 'condition'}${last ? `: ${(last as Error).message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}
