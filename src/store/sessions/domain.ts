/**
 * The sessions slice of .omc: every `state/sessions/<id>/` directory, the
 * session-less ("legacy") state in `state/` and the .omc root, and the
 * ended-session markers in `sessions/`. Keeps the last good parse of every
 * file, turns bad files into problem lines, and derives immutable
 * SessionsSnapshot values for the UI.
 */
import { createHash } from 'node:crypto';
import { SnapshotCell } from '../emitter.js';
import { listDirSync, parseJsonText, readTextSync, statSync } from '../fsx.js';
import { cleanDeep, cleanLine, truncate } from '../sanitize.js';
import type { Clock, Domain, Problem, WatchEvent } from '../types.js';
import {
  BOM_MESSAGE,
  KNOWN_MODES,
  MODE_ORDER,
  NON_MODE_STATE_FILES,
  RETIRED_IN_55,
  genericCancelVerdict,
  isValidSessionId,
  lastUpdateMs,
  linkedModes,
  modeProgress,
  modeStatus,
  stateOwner,
  str,
  timeMs,
} from './omc-rules.js';
import {
  EMPTY_SESSIONS,
  type CancelView,
  type ModeView,
  type SessionStatus,
  type SessionView,
  type SessionsSnapshot,
} from './model.js';

const STATE_FILE_RE = /^([a-z0-9][a-z0-9_-]*)-state\.json$/;
const ENDED_RE = /^([a-zA-Z0-9][a-zA-Z0-9_-]{0,255})\.json$/;
/** Internal key for session-less state; ":" cannot occur in a session id, so it never collides. */
const LEGACY = ':legacy';
const STRUCTURAL = new Set(['', 'state', 'state/sessions', 'sessions']);

/** A digest of what was read: enough to tell "unchanged", without keeping 4,000 file texts in memory. */
const digest = (text: string) => createHash('sha1').update(text).digest('base64');

interface FileRec {
  rel: string;
  /** sha1 of the last good text. */
  text: string;
  value: unknown;
  mtimeMs: number;
  size: number;
  ino: number;
  /** Shown to the user. */
  problem: string | null;
  /** Seen on a leading-edge read; shown only if the trailing re-read confirms it. */
  pendingProblem: string | null;
}

/** Which session a file belongs to, or null when we do not track it. */
function keyOf(rel: string): { key: string; file: string; scope: 'session' | 'state' | 'root' | 'ended' } | null {
  const parts = rel.split('/');
  if (parts.length === 4 && parts[0] === 'state' && parts[1] === 'sessions') {
    return { key: parts[2] as string, file: parts[3] as string, scope: 'session' };
  }
  if (parts.length === 2 && parts[0] === 'state') return { key: LEGACY, file: parts[1] as string, scope: 'state' };
  if (parts.length === 1) return { key: LEGACY, file: parts[0] as string, scope: 'root' };
  if (parts.length === 2 && parts[0] === 'sessions') {
    const m = ENDED_RE.exec(parts[1] as string);
    return m ? { key: m[1] as string, file: parts[1] as string, scope: 'ended' } : null;
  }
  return null;
}

/** The files we read, by scope. Everything else (HUD caches, mission board, locks, temps) is ignored. */
/** State files read per session directory (OMC has about a dozen modes); see read(). */
export const MAX_FILES_PER_SESSION = 64;

/** Known OMC mode files and session files before anything else. */
function entryRank(file: string): number {
  if (file === 'session-started.json' || file === 'cancel-signal-state.json') return -1;
  const m = STATE_FILE_RE.exec(file);
  return m ? modeSortKey(m[1] as string) : Number.MAX_SAFE_INTEGER;
}

function isTrackedFile(scope: 'session' | 'state' | 'root' | 'ended', file: string): boolean {
  if (scope === 'ended') return true;
  if (scope === 'session' && file === 'session-started.json') return true;
  const m = STATE_FILE_RE.exec(file);
  if (!m) return false;
  const name = m[1] as string;
  if (name === 'cancel-signal' || name === 'skill-active') return scope !== 'root';
  if (NON_MODE_STATE_FILES.has(name)) return false;
  return true;
}

function modeSortKey(mode: string): number {
  const i = (MODE_ORDER as readonly string[]).indexOf(mode);
  return i === -1 ? MODE_ORDER.length : i;
}

const STATUS_RANK: Record<SessionStatus, number> = {
  cancelling: 0,
  pending: 1,
  active: 2,
  stale: 3,
  finished: 4,
  tombstoned: 4,
  idle: 5,
};

export interface SessionsDomainOptions {
  root: string;
  clock?: Clock;
}

export class SessionsDomain implements Domain {
  readonly name = 'sessions';
  readonly cell = new SnapshotCell<SessionsSnapshot>(EMPTY_SESSIONS);
  private readonly root: string;
  private readonly clock: Clock;
  private files = new Map<string, FileRec>();
  /** The files of each session key, so a change re-derives one session without scanning every file. */
  private byKey = new Map<string, Set<string>>();
  /** Structural problems (bad directory names, files where dirs belong) keyed by path. */
  private structural = new Map<string, Problem>();
  private views = new Map<string, SessionView>();
  private dirty = new Set<string>();
  private version = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(opts: SessionsDomainOptions) {
    this.root = opts.root;
    this.clock = opts.clock ?? Date.now;
  }

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;
  problems = () => this.cell.getSnapshot().problems;

  isLeafDir(rel: string): boolean {
    const parts = rel.split('/');
    return (
      parts.length === 3 && parts[0] === 'state' && parts[1] === 'sessions' && isValidSessionId(parts[2] as string)
    );
  }

  wants(rel: string, isDir: boolean | undefined): boolean {
    // The skeleton: events about these (even "it became a file") mean rescan.
    if (STRUCTURAL.has(rel)) return true;
    const parts = rel.split('/');
    if (parts.length === 3 && parts[0] === 'state' && parts[1] === 'sessions') {
      // Only real session directories get a watch; but any entry appearing or
      // vanishing here (a stray file, a hostile name) is re-checked.
      return isDir === true ? isValidSessionId(parts[2] as string) : true;
    }
    const k = keyOf(rel);
    if (!k || isDir === true) return false;
    if (k.scope === 'session' && !isValidSessionId(k.key)) return false;
    return isTrackedFile(k.scope, k.file);
  }

  scan(): void {
    const it = this.scanIter();
    while (!it.next().done) {
      /* run to completion */
    }
  }

  /**
   * The first scan in slices: read session directories until `deadline`
   * (performance.now()), publish what is known so far, and return false while
   * there is more. 2,000 sessions are 4,000 files; the first frame shows the
   * first few hundred and says "scanning n/N" instead of waiting for all.
   */
  scanStep(deadline: number): boolean {
    this.stepper ??= this.scanIter(true);
    let r = this.stepper.next();
    while (!r.done && performance.now() < deadline) r = this.stepper.next();
    if (r.done) {
      this.stepper = null;
      return true;
    }
    this.publish();
    return false;
  }

  private stepper: Generator<void, void> | null = null;
  private progress: { done: number; total: number } | null = null;

  /** @param reportProgress only the sliced first scan shows "reading n/N". */
  private *scanIter(reportProgress = false): Generator<void, void> {
    const seen = new Set<string>();
    const structuralBefore = this.structuralSignature();
    this.structural.clear();
    const readFile = (rel: string) => {
      seen.add(rel);
      this.readIfChanged(rel);
    };

    // A tracked name that is not a plain file (a symlink, a pipe) is still read: fsx refuses it
    // with a reason. Skipping it would hide a cancel signal or a loop without a word.
    const entry = (rel: string, kind: string) => {
      if (kind === 'dir')
        this.structural.set(rel, {
          path: rel,
          message: 'is a directory where a state file was expected',
          severity: 'error',
        });
      else readFile(rel);
    };
    const top = listDirSync(this.root, '');
    if (top.ok) {
      for (const e of top.entries) if (isTrackedFile('root', e.name)) entry(e.name, e.kind);
    }
    const state = listDirSync(this.root, 'state');
    if (state.ok) {
      for (const e of state.entries) if (isTrackedFile('state', e.name)) entry(`state/${e.name}`, e.kind);
    } else if (state.code !== 'missing') {
      this.structural.set('state', { path: 'state', message: state.message, severity: 'error' });
    }
    const sessions = listDirSync(this.root, 'state/sessions');
    if (sessions.ok) {
      const total = sessions.entries.length;
      let done = 0;
      for (const e of sessions.entries) {
        this.scanSessionEntry(e.name, e.kind, readFile);
        done += 1;
        if (reportProgress) {
          this.progress = { done, total };
          yield;
        }
      }
    } else if (sessions.code !== 'missing') {
      this.structural.set('state/sessions', { path: 'state/sessions', message: sessions.message, severity: 'error' });
    }
    const ended = listDirSync(this.root, 'sessions');
    if (ended.ok) {
      for (const e of ended.entries) if (ENDED_RE.test(e.name)) entry(`sessions/${e.name}`, e.kind);
    }

    for (const rel of [...this.files.keys()]) {
      if (!seen.has(rel)) this.drop(rel);
    }
    // Sessions whose directory vanished without us seeing their files go too.
    for (const key of this.views.keys()) {
      if (key !== LEGACY && !this.byKey.has(key) && !statSync(this.root, `state/sessions/${key}`)?.isDirectory())
        this.dirty.add(key);
    }
    const wasScanning = this.progress !== null;
    this.progress = null;
    // A poll tick that found nothing new must not cost a re-render.
    if (wasScanning || this.dirty.size > 0 || this.version === 0 || this.structuralSignature() !== structuralBefore)
      this.publish();
  }

  private structuralSignature(): string {
    let sig = '';
    for (const [k, p] of this.structural) sig += `${k}\u0000${p.message}\u0001`;
    return sig;
  }

  private scanSessionEntry(name: string, kind: string, readFile: (rel: string) => void): void {
    const rel = `state/sessions/${name}`;
    if (!isValidSessionId(name)) {
      this.structural.set(rel, {
        path: cleanLine(rel),
        message: 'directory name is not a valid OMC session id; OMC ignores it and so does omc-top',
        severity: 'warning',
      });
      return;
    }
    if (kind === 'symlink') {
      this.structural.set(rel, {
        path: rel,
        message: 'session directory is a symlink; OMC skips symlinked session dirs, so omc-top does too',
        severity: 'warning',
      });
      return;
    }
    if (kind !== 'dir') {
      this.structural.set(rel, {
        path: rel,
        message: 'a file where a session directory was expected',
        severity: 'warning',
      });
      return;
    }
    const list = listDirSync(this.root, rel);
    if (!list.ok) {
      if (list.code !== 'missing') this.structural.set(rel, { path: rel, message: list.message, severity: 'error' });
      return;
    }
    if (!this.views.has(name)) this.dirty.add(name);
    // OMC's own modes first: past MAX_FILES_PER_SESSION files the rest are not read (see read()).
    const entries =
      list.entries.length > MAX_FILES_PER_SESSION
        ? [...list.entries].sort((a, b) => entryRank(a.name) - entryRank(b.name))
        : list.entries;
    for (const e of entries) {
      if (!isTrackedFile('session', e.name)) continue;
      if (e.kind === 'dir') {
        this.structural.set(`${rel}/${e.name}`, {
          path: `${rel}/${e.name}`,
          message: 'is a directory where a state file was expected',
          severity: 'error',
        });
        continue;
      }
      readFile(`${rel}/${e.name}`);
    }
  }

  refresh(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    // Anything happening to the skeleton (root, state, state/sessions, sessions)
    // — removed, re-created, replaced by a file — is settled by one full scan.
    if (events.some((ev) => STRUCTURAL.has(ev.rel))) {
      this.scan();
      return;
    }
    let changed = false;
    for (const ev of events) {
      if (ev.type === 'unlink' || ev.type === 'unlinkDir') {
        changed = this.dropPrefix(ev.rel) || changed;
        if (ev.type === 'unlinkDir' && this.structural.delete(ev.rel)) changed = true;
        const parts = ev.rel.split('/');
        if (ev.type === 'unlinkDir' && parts.length === 3 && parts[1] === 'sessions')
          this.dirty.add(parts[2] as string);
        continue;
      }
      if (ev.type === 'addDir') {
        const parts = ev.rel.split('/');
        if (parts.length === 3 && parts[0] === 'state' && parts[1] === 'sessions') {
          // Files may have landed before the watch on the new dir was attached.
          this.scanSessionEntry(parts[2] as string, 'dir', (rel) => this.readIfChanged(rel));
          changed = true;
        }
        continue;
      }
      const parts = ev.rel.split('/');
      if (parts.length === 3 && parts[0] === 'state' && parts[1] === 'sessions') {
        changed = this.recheckSessionEntry(parts[2] as string) || changed;
        continue;
      }
      const k = keyOf(ev.rel);
      if (!k || !isTrackedFile(k.scope, k.file)) continue;
      changed = this.read(ev.rel, edge) || changed;
    }
    if (changed || this.dirty.size > 0) this.publish();
  }

  /** An entry of state/sessions appeared, vanished or changed kind. */
  private recheckSessionEntry(name: string): boolean {
    const rel = `state/sessions/${name}`;
    const st = statSync(this.root, rel);
    this.structural.delete(rel);
    if (!st) {
      this.dropPrefix(rel);
      this.dirty.add(name);
      return true;
    }
    const kind = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'symlink' : st.isFile() ? 'file' : 'other';
    this.scanSessionEntry(name, kind, (r) => this.readIfChanged(r));
    if (isValidSessionId(name)) this.dirty.add(name);
    return true;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Re-read only when the file's identity, size or mtime moved (scan/poll path). */
  private readIfChanged(rel: string): void {
    const prev = this.files.get(rel);
    if (prev) {
      const st = statSync(this.root, rel);
      if (st && st.isFile() && st.mtimeMs === prev.mtimeMs && st.size === prev.size && st.ino === prev.ino) return;
    }
    this.read(rel, 'scan');
  }

  /** Returns true when what we show may have changed. */
  private read(rel: string, edge: 'leading' | 'trailing' | 'scan'): boolean {
    const k = keyOf(rel);
    if (!k) return false;
    const prev = this.files.get(rel);
    if (!prev && k.scope === 'session' && (this.byKey.get(k.key)?.size ?? 0) >= MAX_FILES_PER_SESSION) {
      // Every change re-derives the whole session: 50,000 state files in one directory made each
      // change cost seconds. OMC writes one file per mode; past the cap the rest are not read.
      const dirRel = `state/sessions/${k.key}`;
      const capKey = `${dirRel}/*`;
      if (this.structural.has(capKey)) return false;
      this.structural.set(capKey, {
        path: dirRel,
        message: `more than ${MAX_FILES_PER_SESSION} state files in one session directory (OMC writes one per mode); the rest are not read`,
        severity: 'warning',
      });
      return true;
    }
    const r = readTextSync(this.root, rel);
    if (!r.ok && r.code === 'missing') return this.drop(rel);
    let problem: string | null = null;
    let value: unknown;
    let text = prev?.text ?? '';
    if (!r.ok) {
      problem = r.message;
    } else {
      const h = digest(r.text);
      if (prev && prev.text === h && !prev.problem && !prev.pendingProblem && !r.bom) {
        prev.mtimeMs = r.mtimeMs;
        prev.size = r.bytes;
        prev.ino = r.ino;
        return false;
      }
      const parsed = parseJsonText(r.text, r);
      if (!parsed.ok) problem = parsed.message;
      else if (r.bom) problem = BOM_MESSAGE;
      else if (!parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
        problem = `expected a JSON object, found ${Array.isArray(parsed.value) ? 'an array' : parsed.value === null ? 'null' : typeof parsed.value}`;
      } else {
        value = parsed.value;
        text = h;
        if (r.invalidUtf8) problem = 'contains bytes that are not valid UTF-8 (shown as �)';
      }
    }
    const stamp = r.ok ? { mtimeMs: r.mtimeMs, size: r.bytes, ino: r.ino } : { mtimeMs: -1, size: -1, ino: -1 };
    const hasValue = value !== undefined;
    const rec: FileRec = {
      rel,
      text,
      value: hasValue ? value : prev?.value,
      ...stamp,
      problem: null,
      pendingProblem: null,
    };
    if (problem && (!hasValue || problem.startsWith('contains bytes'))) {
      // A leading-edge read may catch a non-atomic writer mid-write; the
      // trailing re-read ~60 ms later decides whether this is a real problem.
      if (edge === 'leading') rec.pendingProblem = problem;
      else rec.problem = problem;
    }
    this.files.set(rel, rec);
    let set = this.byKey.get(k.key);
    if (!set) this.byKey.set(k.key, (set = new Set()));
    set.add(rel);
    this.dirty.add(k.key);
    return true;
  }

  private drop(rel: string): boolean {
    const k = keyOf(rel);
    if (!this.files.delete(rel)) return false;
    if (k) {
      this.dirty.add(k.key);
      const set = this.byKey.get(k.key);
      set?.delete(rel);
      if (set && set.size === 0) this.byKey.delete(k.key);
    }
    return true;
  }

  private dropPrefix(prefix: string): boolean {
    let any = false;
    if (this.files.has(prefix)) any = this.drop(prefix) || any;
    const p = prefix === '' ? '' : `${prefix}/`;
    for (const rel of [...this.files.keys()]) if (rel.startsWith(p)) any = this.drop(rel) || any;
    for (const rel of [...this.structural.keys()]) if (rel.startsWith(p)) this.structural.delete(rel);
    return any;
  }

  /** Re-derive dirty sessions, sort, publish, and arm the time-driven re-derivation. */
  private publish(): void {
    const now = this.clock();
    if (this.dirty.size > 0) {
      for (const key of this.dirty) {
        const recs: FileRec[] = [];
        for (const rel of this.byKey.get(key) ?? []) {
          const rec = this.files.get(rel);
          if (rec) recs.push(rec);
        }
        const view = this.derive(key, recs, now);
        if (view) this.views.set(key, view);
        else this.views.delete(key);
      }
      this.dirty.clear();
    }
    const sessions = [...this.views.values()].sort(compareSessions);
    const problems: Problem[] = [...this.structural.values()];
    for (const s of sessions) problems.push(...s.problems);
    this.version += 1;
    this.cell.set({ version: this.version, sessions, problems, derivedAt: now, scanning: this.progress });
    this.armTimer(now);
  }

  private armTimer(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let next: number | null = null;
    for (const v of this.views.values()) {
      if (v.nextChangeAt !== null && (next === null || v.nextChangeAt < next)) next = v.nextChangeAt;
    }
    if (next === null) return;
    // Timers longer than ~24.8 days overflow; cap and re-arm.
    const delay = Math.min(Math.max(0, next - now) + 5, 2 ** 31 - 1);
    this.timer = setTimeout(() => {
      this.timer = null;
      const t = this.clock();
      for (const [key, v] of this.views) if (v.nextChangeAt !== null && v.nextChangeAt <= t) this.dirty.add(key);
      this.publish();
    }, delay);
  }

  private derive(key: string, recs: FileRec[], now: number): SessionView | null {
    const kind: 'session' | 'legacy' = key === LEGACY ? 'legacy' : 'session';
    const dir = kind === 'legacy' ? 'state' : `state/sessions/${key}`;
    const problems: Problem[] = [];
    let skillActive: Record<string, unknown> | null = null;
    let started: Record<string, unknown> | null = null;
    let endedRec: Record<string, unknown> | null = null;
    const cancels: { rec: FileRec; value: unknown }[] = [];
    const modeRecs: { mode: string; rec: FileRec }[] = [];

    for (const rec of recs) {
      const k = keyOf(rec.rel);
      if (!k) continue;
      if (rec.problem)
        problems.push({ path: rec.rel, message: rec.problem, severity: rec.value === undefined ? 'error' : 'warning' });
      if (k.scope === 'ended') {
        endedRec = (rec.value as Record<string, unknown>) ?? null;
        continue;
      }
      if (k.file === 'session-started.json') {
        started = (rec.value as Record<string, unknown>) ?? null;
        continue;
      }
      const name = (STATE_FILE_RE.exec(k.file)?.[1] ?? '') as string;
      if (name === 'skill-active') {
        if (k.scope !== 'root') skillActive = (rec.value as Record<string, unknown>) ?? null;
        continue;
      }
      if (name === 'cancel-signal') {
        if (rec.value !== undefined) cancels.push({ rec, value: rec.value });
        continue;
      }
      if (rec.value === undefined) continue;
      if (!KNOWN_MODES.has(name)) {
        // Unknown *-state.json: a mode only if it looks like one.
        const v = rec.value as Record<string, unknown>;
        if (typeof v.active !== 'boolean') continue;
      }
      modeRecs.push({ mode: name, rec });
    }

    // Only ended-session markers and nothing else: not a row of its own.
    const hasDir = recs.some((r) => keyOf(r.rel)?.scope !== 'ended');
    if (!hasDir && kind === 'session') {
      const st = statSync(this.root, dir);
      if (!st || !st.isDirectory()) return null;
    }
    if (kind === 'legacy' && modeRecs.length === 0 && cancels.length === 0 && problems.length === 0) return null;

    const slots = (skillActive?.active_skills ?? null) as Record<string, unknown> | null;
    const tombstone = (mode: string): number | null => {
      const slot =
        slots && typeof slots === 'object' ? (slots[mode] as Record<string, unknown> | undefined) : undefined;
      return slot ? timeMs(slot.completed_at) : null;
    };

    let nextChangeAt: number | null = null;
    const soonest = (t: number | null) => {
      if (t !== null && t > now && (nextChangeAt === null || t < nextChangeAt)) nextChangeAt = t;
    };

    const modes: ModeView[] = modeRecs
      .map(({ mode, rec }) => {
        const s = rec.value as Record<string, unknown>;
        const verdict = modeStatus(mode, s, now, tombstone(mode));
        soonest(verdict.nextChangeAt);
        const p = modeProgress(mode, s);
        const owner = stateOwner(s);
        const promptRaw =
          str(s.prompt) ??
          str(s.original_prompt) ??
          str(s.task_description) ??
          str(s.originalIdea) ??
          str(s.task) ??
          str(s.current_objective) ??
          str(s.initial_idea) ??
          str(s.goal_pattern);
        return {
          mode: cleanLine(mode),
          path: rec.rel,
          active: verdict.registryActive,
          status: verdict.status,
          // Reasons quote values from the file ("active is …", "phase … is terminal").
          reason: cleanLine(verdict.reason),
          iteration: p.iteration,
          max: p.max,
          phase: p.phase === null ? null : truncate(cleanLine(p.phase), 60),
          extras: p.extras.map((e) => truncate(cleanLine(e), 60)),
          startedMs: timeMs(s.started_at),
          updatedMs: lastUpdateMs(s, rec.mtimeMs > 0 ? rec.mtimeMs : null),
          owner: owner === null ? null : cleanLine(owner),
          stranded: kind === 'session' && owner !== null && owner !== key,
          linked: linkedModes(s),
          retired: RETIRED_IN_55.has(mode),
          prompt: promptRaw === null ? null : truncate(cleanLine(promptRaw), 500),
          fields: {},
          problem: rec.problem,
        } satisfies ModeView;
      })
      .map((view) => {
        // Sanitising every field of every mode is only needed for the one
        // session a user opens; do it then (and once).
        const raw = (modeRecs.find((m) => m.rec.rel === view.path)?.rec.value ?? {}) as Record<string, unknown>;
        let cached: Record<string, unknown> | null = null;
        Object.defineProperty(view, 'fields', {
          enumerable: true,
          get: () => (cached ??= cleanDeep(raw) as Record<string, unknown>),
        });
        return view;
      })
      .sort((a, b) => modeSortKey(a.mode) - modeSortKey(b.mode) || a.path.localeCompare(b.path));

    // The session's own signal wins over the legacy one for display.
    let cancel: CancelView | null = null;
    for (const { rec, value } of cancels.sort(
      (a, b) => (a.rec.rel.includes('/sessions/') ? -1 : 1) - (b.rec.rel.includes('/sessions/') ? -1 : 1),
    )) {
      const v = genericCancelVerdict(value, now);
      const raw = value as Record<string, unknown>;
      cancel = {
        path: rec.rel,
        mode: str(raw?.mode) === null ? null : cleanLine(raw.mode),
        source: str(raw?.source) === null ? null : cleanLine(raw.source),
        requestedMs: v.requestedMs,
        expiresMs: v.expiresMs,
        inForce: v.inForce,
        targeted: v.targeted,
        reason: v.reason,
      };
      if (v.expiresMs !== null) soonest(v.expiresMs);
      if (v.requestedMs !== null) soonest(v.requestedMs + 30_000 + 1);
      break;
    }
    const cancelFresh =
      cancel !== null &&
      cancel.expiresMs !== null &&
      cancel.expiresMs > now &&
      cancel.requestedMs !== null &&
      now - cancel.requestedMs <= 30_000;

    let status: SessionStatus = 'idle';
    for (const m of modes) if (STATUS_RANK[m.status] < STATUS_RANK[status]) status = m.status;
    if (cancelFresh) status = 'cancelling';
    let rank = STATUS_RANK[status];
    if (problems.length > 0) rank = Math.min(rank, 1);

    const startedMs =
      timeMs(started?.started_at) ??
      modes.reduce<number | null>(
        (acc, m) => (m.startedMs !== null && (acc === null || m.startedMs < acc) ? m.startedMs : acc),
        null,
      );
    const updatedMs = modes.reduce<number | null>(
      (acc, m) => (m.updatedMs !== null && (acc === null || m.updatedMs > acc) ? m.updatedMs : acc),
      null,
    );

    return {
      id: kind === 'legacy' ? 'legacy' : cleanLine(key),
      kind,
      dir,
      modes,
      cancel,
      status,
      rank,
      startedMs,
      updatedMs,
      ended: endedRec
        ? {
            endedAt: str(endedRec.ended_at) === null ? null : cleanLine(endedRec.ended_at),
            reason: str(endedRec.reason) === null ? null : cleanLine(endedRec.reason),
          }
        : null,
      cwd: str(started?.cwd) === null ? null : cleanLine(started?.cwd),
      problems,
      nextChangeAt,
    };
  }
}

/** Attention first, then newest session first, then id: rows only move when their status changes. */
export function compareSessions(a: SessionView, b: SessionView): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.kind !== b.kind) return a.kind === 'legacy' ? 1 : -1;
  const as = a.startedMs ?? -Infinity;
  const bs = b.startedMs ?? -Infinity;
  if (as !== bs) return bs - as;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
