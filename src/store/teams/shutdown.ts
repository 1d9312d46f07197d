/**
 * Asking a worker (or every worker of a team) to shut down, the way OMC's own
 * shutdown does it (OMC 5.5.0: shutdownTeamV2 in dist/team/runtime-v2.js):
 *   1. workers/<w>/shutdown-request.json  {"from", "requested_at"} (pretty JSON, atomic);
 *   2. a note in workers/<w>/inbox.md telling the worker where to acknowledge —
 *      the worker acts on its inbox, not on the request file;
 *   3. for the whole team, the team-level shutdown.json {"requestedAt", "teamName"}.
 * The worker answers in shutdown-ack.json {"status":"accept"|"reject","reason","updated_at"};
 * the domain shows it (and ignores an ack older than the request, as OMC does).
 * omc-top never kills panes or processes.
 */
import path from 'node:path';
import { atomicWriteSync, describeWriteError, readTextSync } from '../../io/safe-fs/index.js';
import type { TeamsDomain } from './domain.js';
import { TEAM_NAME_RE, WORKER_NAME_RE } from './omc-team-rules.js';

/** Who the request says it is from (OMC's leader writes "leader-fixed"). */
export const REQUEST_FROM = 'omc-top';

export class ReadonlyError extends Error {
  constructor() {
    super('--readonly: shutdown requests are disabled (nothing was written)');
    this.name = 'ReadonlyError';
  }
}

export interface ShutdownTarget {
  domain: TeamsDomain;
  /** TeamView.key */
  teamKey: string;
  teamName: string;
  readonly: boolean;
  now: number;
}

function locate(t: ShutdownTarget): string {
  if (t.readonly) throw new ReadonlyError();
  if (!TEAM_NAME_RE.test(t.teamName))
    throw new Error(`refusing to write for team ${JSON.stringify(t.teamName)}: not a valid OMC team name`);
  const loc = t.domain.locationOf(t.teamKey);
  if (!loc) throw new Error(`team ${t.teamName} is gone from disk`);
  return loc.root;
}

function inboxNote(ackAbs: string, iso: string): string {
  return [
    `## Shutdown request (${REQUEST_FROM}, ${iso})`,
    '',
    'You are asked to stop. Finish or hand back your current task, then record your answer in',
    ackAbs,
    'as JSON: {"status":"accept","reason":"<why>","updated_at":"<ISO time>"} — or "status":"reject" with a reason to keep working.',
    'After accepting, exit your session.',
    '',
  ].join('\n');
}

/**
 * Appends to inbox.md without losing a concurrent OMC write: read, then
 * re-read just before the atomic replace; if the inbox changed in between,
 * start over with the new text (OMC writes the inbox without a lock).
 */
function appendInbox(root: string, rel: string, note: string): void {
  for (let attempt = 0; attempt < 4; attempt++) {
    const before = readTextSync(root, rel);
    const current = before.ok ? before.text : '';
    if (!before.ok && before.code !== 'missing') throw new Error(`${rel}: ${before.message}`);
    const next = current === '' ? note : `${current}\n\n---\n${note}`;
    const again = readTextSync(root, rel);
    const now = again.ok ? again.text : '';
    if (now !== current) continue;
    atomicWriteSync(root, rel, next, { mkdir: 'shared' });
    return;
  }
  throw new Error(
    `${rel} kept changing while omc-top tried to add the shutdown note (OMC is writing it); the request file was written, try again for the note`,
  );
}

/**
 * A request spans several files, so a write failing half-way (full disk,
 * read-only mount) leaves some written and some not. The message says which,
 * reason first (the message line is cut to the terminal width), instead of
 * the generic "nothing was changed" that would then be untrue.
 */
export class ShutdownWriteError extends Error {
  constructor(
    readonly written: readonly string[],
    readonly failed: string,
    cause: unknown,
    teamDir: string,
  ) {
    const reason = describeWriteError(cause);
    const short = (rel: string) => (rel.startsWith(`${teamDir}/`) ? rel.slice(teamDir.length + 1) : rel);
    super(
      written.length === 0
        ? `${reason}: nothing was written`
        : `${reason}: written: ${written.map(short).join(', ')}; not written: ${short(failed)} (ask again to finish)`,
    );
    this.name = 'ShutdownWriteError';
  }
}

/** Runs the writes of one request in order, remembering what landed. */
class Writes {
  readonly done: string[] = [];
  constructor(private readonly teamDir: string) {}
  run(rel: string, write: () => void): void {
    try {
      write();
    } catch (e) {
      throw new ShutdownWriteError(this.done, rel, e, this.teamDir);
    }
    this.done.push(rel);
  }
}

/**
 * A worker's request and inbox note. A level missing on the way is made as OMC's own writers of these files
 * (writeShutdownRequest, writeWorkerInbox: a plain recursive mkdir) make it, 0777 less the umask ('shared').
 */
function writeWorker(root: string, t: ShutdownTarget, worker: string, writes: Writes): void {
  if (!WORKER_NAME_RE.test(worker))
    throw new Error(`refusing to write for worker ${JSON.stringify(worker)}: not a valid OMC worker name`);
  const dir = `state/team/${t.teamName}/workers/${worker}`;
  const iso = new Date(t.now).toISOString();
  writes.run(`${dir}/shutdown-request.json`, () =>
    atomicWriteSync(
      root,
      `${dir}/shutdown-request.json`,
      JSON.stringify({ from: REQUEST_FROM, requested_at: iso }, null, 2),
      { mkdir: 'shared' },
    ),
  );
  writes.run(`${dir}/inbox.md`, () =>
    appendInbox(root, `${dir}/inbox.md`, inboxNote(path.join(root, dir, 'shutdown-ack.json'), iso)),
  );
}

/** Writes one worker's request and inbox note. Returns the files written (relative to the location's .omc). */
export function requestWorkerShutdown(t: ShutdownTarget, worker: string): string[] {
  const root = locate(t);
  const writes = new Writes(`state/team/${t.teamName}`);
  writeWorker(root, t, worker, writes);
  return writes.done;
}

/** Every runtime worker of the team, then the team-level shutdown.json. */
export function requestTeamShutdown(t: ShutdownTarget, workers: readonly string[]): string[] {
  const root = locate(t);
  const writes = new Writes(`state/team/${t.teamName}`);
  for (const w of workers) writeWorker(root, t, w, writes);
  const rel = `state/team/${t.teamName}/shutdown.json`;
  writes.run(rel, () =>
    atomicWriteSync(
      root,
      rel,
      JSON.stringify({ requestedAt: new Date(t.now).toISOString(), teamName: t.teamName }, null, 2),
      { mkdir: 'shared' },
    ),
  );
  return writes.done;
}
