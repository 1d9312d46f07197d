/**
 * Claude Code's session registry: one `sessions/<pid>.json` per running CLI
 * (written at start, rewritten on every status change, removed on a clean exit;
 * a SIGKILL leaves it behind). Parsed defensively: any field may be missing or
 * of the wrong type, and every string is sanitised before anything shows it.
 */
import { listDirSync, readJsonSync } from '../../io/safe-fs/index.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import { isValidSessionId } from '../sessions/omc-rules.js';
import { CLAUDE_DIR_READ } from './config-dir.js';

/** A registry file is a few hundred bytes; anything near this is not one. */
export const REGISTRY_FILE_MAX_BYTES = 64 * 1024;
/** More entries than this in one registry directory are not read (the rest get one problem line). */
export const REGISTRY_MAX_ENTRIES = 4096;

export interface RegistryEntry {
  /** Relative to the config dir, e.g. "sessions/21578.json". */
  rel: string;
  pid: number;
  sessionId: string;
  cwd: string | null;
  startedAt: number | null;
  /** Field 22 of /proc/<pid>/stat as the CLI recorded it; null when absent. */
  procStart: string | null;
  pidDomain: string | null;
  version: string | null;
  kind: string | null;
  entrypoint: string | null;
  /** "busy" | "idle" | "waiting" as written; null when the file has no status yet. */
  status: string | null;
  waitingFor: string | null;
  statusUpdatedAt: number | null;
  updatedAt: number | null;
  name: string | null;
  /** "session:@window.%pane" when the CLI runs under tmux. */
  tmux: string | null;
  /** The session's inbox socket (Claude Code ≥ 2.1.224): notes from other processes go in here. */
  messagingSocketPath: string | null;
  mtimeMs: number;
}

/**
 * The last sign of life a registry entry holds: the latest time the CLI wrote into it (it rewrites the entry on every
 * status change); the file's modification time only when it holds none (a copy or a restore moves that). A SIGKILLed
 * CLI leaves the entry behind, so every omc-top process reads the same moment: "gone" is dated by it, not by when
 * each process first looked.
 */
export function lastSignOfLife(e: RegistryEntry): number {
  let at: number | null = null;
  for (const t of [e.statusUpdatedAt, e.updatedAt, e.startedAt]) if (t !== null && (at === null || t > at)) at = t;
  return at ?? e.mtimeMs;
}

/**
 * An entry that could not be used. `cwd`: the directory the file names when that much of it is readable (a JSON
 * object with an absolute `cwd`), so the project that Claude works in can say it; absent when nothing ties it to one.
 */
export type RegistryParse = { ok: true; entry: RegistryEntry } | { ok: false; message: string; cwd?: string };

/** The directory a registry file names, kept exact; undefined when it names none it could be trusted for. */
const cwdOf = (v: unknown): string | undefined =>
  typeof v === 'string' && v.startsWith('/') && v.length <= 4096 && cleanLine(v) === v ? v : undefined;

const text = (v: unknown, max = 200): string | null =>
  typeof v === 'string' && v.trim() !== '' ? truncate(cleanLine(v), max) : null;
const epoch = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 253_402_300_799_999 ? v : null;

/** The file name is the pid; the content must agree with it. */
export function parseRegistryEntry(rel: string, value: unknown, mtimeMs: number): RegistryParse {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: 'is not a JSON object (expected a Claude Code session registry entry)' };
  const v = value as Record<string, unknown>;
  const namePid = Number(/(\d+)\.json$/.exec(rel)?.[1]);
  const pid = v.pid;
  const named = cwdOf(v.cwd);
  const bad = (message: string): RegistryParse =>
    named === undefined ? { ok: false, message } : { ok: false, message, cwd: named };
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0)
    return bad('"pid" is missing or not a positive integer');
  if (pid !== namePid) return bad(`"pid" ${pid} does not match the file name`);
  const sid = v.sessionId;
  if (typeof sid !== 'string' || !isValidSessionId(sid)) return bad('"sessionId" is missing or not a valid session id');
  const procStart = typeof v.procStart === 'string' && /^\d{1,20}$/.test(v.procStart) ? v.procStart : null;
  return {
    ok: true,
    entry: {
      rel,
      pid,
      sessionId: sid,
      // Paths are compared with the project dir, so keep them exact (only control bytes would differ).
      cwd: typeof v.cwd === 'string' && v.cwd.startsWith('/') && cleanLine(v.cwd) === v.cwd ? v.cwd : null,
      startedAt: epoch(v.startedAt),
      procStart,
      pidDomain: text(v.pidDomain, 300),
      version: text(v.version, 40),
      kind: text(v.kind, 40),
      entrypoint: text(v.entrypoint, 40),
      status: text(v.status, 40),
      waitingFor: text(v.waitingFor, 120),
      statusUpdatedAt: epoch(v.statusUpdatedAt),
      updatedAt: epoch(v.updatedAt),
      name: text(v.name, 120),
      tmux: typeof v.tmux === 'string' && /^[^\s:]{1,200}:@\d+\.%\d+$/.test(v.tmux) ? cleanLine(v.tmux) : null,
      // Connected to, so kept exact: an absolute path with nothing a terminal or a shell would read differently.
      messagingSocketPath:
        typeof v.messagingSocketPath === 'string' &&
        v.messagingSocketPath.startsWith('/') &&
        v.messagingSocketPath.length <= 4096 &&
        cleanLine(v.messagingSocketPath) === v.messagingSocketPath
          ? v.messagingSocketPath
          : null,
      mtimeMs,
    },
  };
}

/**
 * A registry file (or the directory, `rel` `sessions`) that could not be used. `cwd` as RegistryParse's: the one
 * project it can be tied to; a problem of the directory concerns every project (no Claude can be joined to any).
 */
export interface RegistryProblem {
  rel: string;
  message: string;
  cwd?: string;
}

/** Whether the problem is of the registry directory itself (every project's), not of one entry. */
export const isRegistryDirProblem = (p: RegistryProblem): boolean => p.rel === 'sessions';

export interface RegistryRead {
  entries: RegistryEntry[];
  problems: RegistryProblem[];
  /** The sessions/ directory does not exist (no CLI has run with this config dir, or all exited). */
  missing: boolean;
}

/** Reads every `<pid>.json` in `sessions/`; other names (the .key files) are ignored. */
export function readRegistry(configDir: string): RegistryRead {
  const list = listDirSync(configDir, 'sessions', CLAUDE_DIR_READ);
  if (!list.ok) {
    if (list.code === 'missing') return { entries: [], problems: [], missing: true };
    return { entries: [], problems: [{ rel: 'sessions', message: list.message }], missing: false };
  }
  const entries: RegistryEntry[] = [];
  const problems: RegistryProblem[] = [];
  const names = list.entries.filter((e) => /^\d{1,10}\.json$/.test(e.name)).map((e) => e.name);
  if (names.length > REGISTRY_MAX_ENTRIES)
    problems.push({
      rel: 'sessions',
      message: `${names.length} registry files; only the first ${REGISTRY_MAX_ENTRIES} are read`,
    });
  for (const name of names.sort().slice(0, REGISTRY_MAX_ENTRIES)) {
    const rel = `sessions/${name}`;
    const r = readJsonSync(configDir, rel, REGISTRY_FILE_MAX_BYTES, CLAUDE_DIR_READ);
    if (!r.ok) {
      // Gone between listing and reading: the CLI exited; not a problem.
      if (r.code !== 'missing') problems.push({ rel, message: r.message });
      continue;
    }
    const p = parseRegistryEntry(rel, r.value, r.read.mtimeMs);
    if (p.ok) entries.push(p.entry);
    else problems.push(p.cwd === undefined ? { rel, message: p.message } : { rel, message: p.message, cwd: p.cwd });
  }
  return { entries, problems, missing: false };
}
