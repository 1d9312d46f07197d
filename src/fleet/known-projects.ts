/**
 * The project directories omc-top has watched, kept in its own state directory (`known-projects.json`), so a fleet
 * started later finds them too. The fleet's discovery starts from Claude Code's registry, and a Claude that exits
 * cleanly (`/exit`, Ctrl-C, a closed terminal: SIGTERM or SIGHUP) removes its entry: without this file a fleet
 * started after that finds nothing of the project, while one started before still shows its orphaned loop.
 *
 * Bounded both ways: entries older than KNOWN_MAX_AGE_MS are dropped, and at most KNOWN_MAX entries are kept (the
 * newest), the fleet's own root limit, so the file stays a few kilobytes and a fleet never opens more for it.
 * Written through the contained write path under omc-top's lock on the file (two fleets opening roots at once are
 * merged, not lost), at most once a day per directory and process.
 */
import path from 'node:path';
import { withFileLock } from '../io/file-lock.js';
import { atomicWriteSync, ensureOwnDir, readTextSync } from '../io/safe-fs/index.js';

export const KNOWN_PROJECTS_FILE = 'known-projects.json';
/**
 * How far back a project is remembered (and a dead Claude's registry entry counts, discover.ts): a loop left
 * orphaned over a holiday still needs the user (OMC 5.5 gives an active loop no time limit: the Stop hook resumes it
 * whenever a Claude resumes the session), while a project untouched for a month is no longer one the user is at.
 */
export const KNOWN_MAX_AGE_MS = 30 * 24 * 3600_000;
/** At most this many are kept: the fleet opens no more roots than this anyway (discover.ts MAX_ROOTS). */
export const KNOWN_MAX = 64;
/** A directory already recorded this recently is not written again (a fleet opens each root once per run). */
const REFRESH_MS = 24 * 3600_000;
const FILE_MAX_BYTES = 256 * 1024;
const FILE_VERSION = 1;

export interface KnownProject {
  /** The directory the root was resolved from (a Claude's cwd, or where a monitor started). */
  cwd: string;
  /** When omc-top last watched it (ms since the epoch). */
  at: number;
}

export type KnownRead = { ok: true; projects: KnownProject[] } | { ok: false; problem: string };

/**
 * A directory worth remembering: absolute plain text. A path held by its bytes (`/proc/self/fd/N/…`: not UTF-8) names
 * another thing in the next process, and one with a replacement or control character names no directory at all.
 */
function rememberable(cwd: string): boolean {
  return (
    path.isAbsolute(cwd) &&
    cwd.length <= 4096 &&
    !cwd.startsWith('/proc/self/fd/') &&
    !/[\u0000-\u001f\u007f\ufffd]/.test(cwd)
  );
}

/** The file's projects, newest first; bad entries are skipped (the others still hold), a bad file is a problem. */
export function parseKnown(text: string): KnownRead {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `is not JSON (${(e as Error).message.slice(0, 120)})` };
  }
  const o = v as { version?: unknown; projects?: unknown } | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { ok: false, problem: 'is not a JSON object' };
  if (o.version !== FILE_VERSION) return { ok: false, problem: `has version ${JSON.stringify(o.version)}, not 1` };
  if (!o.projects || typeof o.projects !== 'object' || Array.isArray(o.projects))
    return { ok: false, problem: '"projects" is not an object of directory → time' };
  const projects: KnownProject[] = [];
  for (const [cwd, at] of Object.entries(o.projects as Record<string, unknown>))
    if (rememberable(cwd) && typeof at === 'number' && Number.isFinite(at) && at > 0) projects.push({ cwd, at });
  return { ok: true, projects: projects.sort((a, b) => b.at - a.at) };
}

function serialize(projects: readonly KnownProject[], now: number): string {
  const kept = projects
    .filter((p) => p.at >= now - KNOWN_MAX_AGE_MS)
    .sort((a, b) => b.at - a.at)
    .slice(0, KNOWN_MAX);
  return JSON.stringify({ version: FILE_VERSION, projects: Object.fromEntries(kept.map((p) => [p.cwd, p.at])) });
}

/** The remembered projects of the last KNOWN_MAX_AGE_MS, newest first; no file: none. */
export function readKnownProjects(stateDir: string, now: number): KnownRead {
  const r = readTextSync(stateDir, KNOWN_PROJECTS_FILE, FILE_MAX_BYTES, { rootLabel: "omc-top's state directory" });
  if (!r.ok) return r.code === 'missing' ? { ok: true, projects: [] } : { ok: false, problem: r.message };
  const p = parseKnown(r.text);
  return p.ok ? { ok: true, projects: p.projects.filter((x) => x.at >= now - KNOWN_MAX_AGE_MS) } : p;
}

/**
 * Remembers that omc-top watched the root resolved from `cwd`: merged with what another omc-top wrote meanwhile
 * (a damaged file is replaced). Skipped when the file already says so within the day. `replaces`: the directory
 * `cwd` was called before (the project renamed while watched): it names nothing any more, so it is dropped rather
 * than kept beside the new one. Rejects when the state directory cannot be written; the caller decides whether that
 * matters (it never changes what is on screen now).
 */
export async function rememberProject(
  stateDir: string,
  cwd: string,
  now: number,
  opts: { replaces?: string } = {},
): Promise<void> {
  if (!rememberable(cwd)) return;
  const gone = opts.replaces !== undefined && opts.replaces !== cwd ? opts.replaces : null;
  const already = readKnownProjects(stateDir, now);
  if (
    already.ok &&
    already.projects.some((p) => p.cwd === cwd && p.at >= now - REFRESH_MS) &&
    !already.projects.some((p) => p.cwd === gone)
  )
    return;
  ensureOwnDir(stateDir);
  await withFileLock(stateDir, KNOWN_PROJECTS_FILE, () => {
    const onDisk = readKnownProjects(stateDir, now);
    const merged = (onDisk.ok ? onDisk.projects : []).filter((p) => p.cwd !== cwd && p.cwd !== gone);
    merged.push({ cwd, at: now });
    atomicWriteSync(stateDir, KNOWN_PROJECTS_FILE, serialize(merged, now));
  });
}
