/**
 * A git question asked before anyone waits for it. The monitor's root resolution starts by asking git for the
 * top level of its working directory, and that run (a child process, 10–40 ms) used to start only once the app
 * bundle had compiled and loaded, with the event loop stopped until git answered. The bin asks the same question
 * as it starts (entry.ts), so git runs on the other core while the bundle compiles; the first identical question
 * (same directory, same arguments) takes that answer instead of running git again. Only that first one: a later
 * question runs git then, as it always did.
 *
 * The answer is given back in the shape execFileSync gives (its output, or an error with the same code, status,
 * signal and stderr), so io/git.ts describes a failure in the same words whichever way git was run.
 *
 * The bin and the app are separate bundles, each with its own copy of this module: the questions live on one
 * process-wide registry (a global under a Symbol.for key) that both copies see.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { SYNC_KILL } from './child-end.js';
import { statSync } from './safe-fs/list.js';

/** The question the monitor's root resolution asks first (store/omc-root.ts): `git rev-parse --show-toplevel`. */
export const TOP_LEVEL_ARGS: readonly string[] = ['rev-parse', '--show-toplevel'];
/** Asked of the top level next: where Claude's project settings are (claude/settings-sources.ts)… */
export const COMMON_DIR_ARGS: readonly string[] = ['rev-parse', '--path-format=absolute', '--git-common-dir'];
/** …and whether it is a submodule (OMC's state anchor, store/root.ts). */
export const SUPERPROJECT_ARGS: readonly string[] = ['rev-parse', '--show-superproject-working-tree'];

/** As long as a synchronous git run may take (io/git.ts). */
export const GIT_TIMEOUT_MS = 5_000;
/** execFileSync's default output limit: beyond it a run fails (ENOBUFS), so an early run gives no answer. */
const MAX_OUTPUT = 1024 * 1024;

/** The environment git runs in: never a prompt for credentials. */
export const gitEnv = (): NodeJS.ProcessEnv => ({ ...process.env, GIT_TERMINAL_PROMPT: '0' });

/** What execFileSync throws for a run that gave no answer: the fields io/git.ts reads. */
export interface GitRunError extends Error {
  code?: string;
  status?: number | null;
  signal?: NodeJS.Signals | null;
  stderr?: Buffer | string;
}

export type EarlyAnswer = { stdout: Buffer } | { error: GitRunError };

interface Question {
  settled: Promise<void>;
  answer: EarlyAnswer | null;
}

const REGISTRY = Symbol.for('omc-top.git-early');
function questions(): Map<string, Question> {
  const g = globalThis as { [REGISTRY]?: Map<string, Question> };
  return (g[REGISTRY] ??= new Map());
}

const keyOf = (dir: string, args: readonly string[]) => [dir, ...args].join('\0');

function runError(message: string, fields: Omit<GitRunError, 'name' | 'message'>): GitRunError {
  return Object.assign(new Error(message), fields);
}

function startGit(dir: string, args: readonly string[]): ChildProcessByStdio<null, Readable, Readable> | null {
  try {
    return spawn('git', [...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: gitEnv() });
  } catch {
    return null;
  }
}

/**
 * Starts `git args` in `dir` now; its answer waits for the first identical question (takeEarlyAnswer). `then` may ask
 * follow-up questions from the answer: this question counts as settled once they are too (earlyGitSettled).
 */
export function askGitEarly(
  dir: string,
  args: readonly string[],
  then?: (answer: EarlyAnswer) => readonly Promise<void>[],
): Promise<void> {
  const key = keyOf(dir, args);
  const had = questions().get(key);
  if (had) return had.settled;
  const q: Question = { settled: Promise.resolve(), answer: null };
  q.settled = new Promise<void>((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let done = false;
    const child = startGit(dir, args);
    if (child === null) {
      resolve(); // not startable here (a bad cwd string, say): the question is asked the ordinary way
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill(SYNC_KILL);
    }, GIT_TIMEOUT_MS);
    const finish = (answer: EarlyAnswer | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      q.answer = answer;
      const more = answer && then ? then(answer) : [];
      if (more.length === 0) resolve();
      else void Promise.all(more).then(() => resolve());
    };
    const collect = (into: Buffer[]) => (b: Buffer) => {
      size += b.length;
      if (size > MAX_OUTPUT) {
        child.kill(SYNC_KILL);
        finish(null); // the synchronous run says what such output means
        return;
      }
      into.push(b);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    child.once('error', (e: NodeJS.ErrnoException) =>
      finish({ error: runError(e.message, { code: e.code, status: null, signal: null, stderr: Buffer.alloc(0) }) }),
    );
    child.once('close', (status: number | null, signal: NodeJS.Signals | null) => {
      const stderr = Buffer.concat(err);
      if (timedOut)
        finish({ error: runError('git timed out', { code: 'ETIMEDOUT', status: null, signal: SYNC_KILL, stderr }) });
      else if (status === 0) finish({ stdout: Buffer.concat(out) });
      else finish({ error: runError(`git ${args.join(' ')} failed`, { status, signal, stderr }) });
    });
  });
  questions().set(key, q);
  return q.settled;
}

/**
 * The top level of `dir` asked early, and, once git has named it, the questions (`next`) the start will ask of that
 * top level (its common dir, its superproject): each a git run of 3–10 ms the main thread would otherwise wait for
 * before the first frame. They match only when the start asks them of the very same directory (a path git printed as
 * UTF-8 text), as every early answer does. Only questions the start does ask: each is a process on a 2-core machine
 * whose other core is compiling the bundle.
 *
 * A directory that holds `.git` is its work tree's top in every ordinary layout, and monitors are mostly started
 * there: its follow-ups are asked at once, beside the top level. Asked only after the top level's answer, they
 * started when the bundle had loaded (the main thread takes the answer's event only then), and the first frame
 * waited 9–14 ms for them against 2–5 ms (measured 2026-12-07). Should git name another top, they are asked of that.
 */
export function askTopLevelEarly(dir: string, next: readonly (readonly string[])[] = []): Promise<void> {
  const atOnce = next.length > 0 && statSync(dir, '.git') !== null ? next.map((args) => askGitEarly(dir, args)) : [];
  const chained = askGitEarly(dir, TOP_LEVEL_ARGS, (a) => {
    const top = 'stdout' in a ? printedDir(a.stdout) : null;
    return top === null ? [] : next.map((args) => askGitEarly(top, args));
  });
  return Promise.all([chained, ...atOnce]).then(() => undefined);
}

/** The absolute directory git printed on one line, when its bytes are exactly its UTF-8 text; else null. */
function printedDir(out: Buffer): string | null {
  let end = out.length;
  while (end > 0 && (out[end - 1] === 0x0a || out[end - 1] === 0x0d)) end--;
  const bytes = out.subarray(0, end);
  const text = bytes.toString('utf8');
  if (!text.startsWith('/') || text.includes('\n') || !Buffer.from(text, 'utf8').equals(bytes)) return null;
  return path.posix.resolve(text); // as io/git.ts takes a printed path (safe-fs/byte-paths.ts pathForBytes)
}

/** Resolves once every question asked early has its answer (at once when none was asked). */
export function earlyGitSettled(): Promise<void> {
  return Promise.all([...questions().values()].map((q) => q.settled)).then(() => undefined);
}

/** The early answer to exactly this question, once; null when none was asked or it has no answer yet. */
export function takeEarlyAnswer(dir: string, args: readonly string[]): EarlyAnswer | null {
  const key = keyOf(dir, args);
  const q = questions().get(key);
  if (q?.answer == null) return null;
  questions().delete(key);
  return q.answer;
}
