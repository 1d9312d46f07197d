/**
 * The last good parse of every file the sessions domain tracks, keyed by path
 * and grouped by session. Each file follows the one last-good rule
 * (io/last-good.ts): a read that fails keeps the last good value; a failure
 * seen on a leading-edge read is pending and shown only when the trailing
 * re-read confirms it (a non-atomic writer caught mid-write).
 */
import { LastGoodFile, type Parsed } from '../../io/last-good.js';
import { sameStamp } from '../../io/file-stamp.js';
import { parseJsonText, statSync, type ReadOk } from '../../io/safe-fs/index.js';
import { BOM_MESSAGE } from './omc-rules.js';
import { MAX_FILES_PER_SESSION, keyOf, type FilePlace } from './paths.js';

/** Set by the last parse (what OMC's hooks would make of the bytes); NOT_READ when no bytes were parsed. */
const NOT_READ = Symbol('not read');
let lastHook: unknown = NOT_READ;

/** A state file as the domains take it: a JSON object (OMC's readers reject a byte-order mark). */
function parseStateFile(r: ReadOk): Parsed<Record<string, unknown>> {
  const parsed = parseJsonText(r.text, r);
  lastHook = parsed.ok && !r.bom ? parsed.value : null;
  if (!parsed.ok) return { ok: false, problem: parsed.message };
  if (r.bom) return { ok: false, problem: BOM_MESSAGE };
  const v = parsed.value;
  if (!v || typeof v !== 'object' || Array.isArray(v))
    return {
      ok: false,
      problem: `expected a JSON object, found ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}`,
    };
  return {
    ok: true,
    value: v as Record<string, unknown>,
    warning: r.invalidUtf8 ? 'contains bytes that are not valid UTF-8 (shown as �)' : null,
  };
}

const STATE_FILE = {
  parse: parseStateFile,
  onReadFailure: (r: { message: string }): Parsed<Record<string, unknown>> => {
    lastHook = null;
    return { ok: false, problem: r.message };
  },
};

/** One tracked file: its last good value (the rule), and what OMC's hooks see in it now. */
export class FileRec extends LastGoodFile<Record<string, unknown>> {
  /**
   * The file as OMC's hooks see it right now (`JSON.parse` of the raw text, any JSON type;
   * null when unreadable, unparseable or BOM-prefixed), for the verdict engine. Unlike `value`,
   * it is not the last good value, except while a leading-edge failure awaits confirmation. A file omc-top may not
   * read (`unreadable`) has `hook` null for want of anything better: the verdicts must not take that for "absent".
   */
  hook: unknown = null;

  /**
   * keyOf(rel), worked out once: the read, the drop and every derive of the session ask for it, and each
   * keyOf splits the path into new strings (three times per file at start-up, ~12,000 splits at 2,000 sessions).
   */
  constructor(
    root: string,
    rel: string,
    readonly place: FilePlace,
  ) {
    super(root, rel, STATE_FILE);
  }

  /** Reads the file: 'missing', 'same' (the bytes behind what is shown; the stamp may have moved) or 'read'. */
  load(edge: 'leading' | 'trailing' | 'scan'): 'missing' | 'same' | 'read' {
    lastHook = NOT_READ;
    this.read(edge);
    if (this.missing) {
      this.hook = null;
      return 'missing';
    }
    const hook = lastHook;
    lastHook = NOT_READ;
    if (hook === NOT_READ) return 'same';
    // A leading-edge failure keeps what the hooks saw until the trailing read decides.
    if (!(hook === null && edge === 'leading' && this.pending !== null)) this.hook = hook;
    return 'read';
  }
}

/** Session-less files the 5.5.0 Stop hook reads for every session: a change re-derives them all. */
const SHARED_STATE_FILES = new Set([
  'cancel-signal-state.json',
  'subagent-tracking.json',
  'scheduled-wakeup-state.json',
  'schedule-wakeup-state.json',
  'wakeup-state.json',
]);

/** The session a state file names as its owner (top-level session_id: what the Stop hook reads). */
function namedOwner(v: unknown): string | null {
  if (!v || typeof v !== 'object') return null;
  const sid = (v as Record<string, unknown>).session_id;
  return typeof sid === 'string' && sid !== '' ? sid : null;
}

export class FileRecords {
  readonly files = new Map<string, FileRec>();
  /** The files of each session key, so a change re-derives one session without scanning every file. */
  readonly byKey = new Map<string, Set<string>>();

  /**
   * @param markDirty told which session key a change touched.
   * @param markAll told when a change may alter every session's verdict (a session-less cancel signal…).
   */
  constructor(
    private readonly root: string,
    private readonly markDirty: (key: string) => void,
    private readonly markAll: () => void = () => {},
    /** Told once a session directory holds more state files than MAX_FILES_PER_SESSION. */
    private readonly overCap: (key: string) => boolean = () => false,
  ) {}

  private noteStranded(rel: string, key: string, scope: string, hook: unknown): void {
    const owner = namedOwner(hook);
    if (scope === 'session' && owner !== null && owner !== key) this.strandedRels.add(rel);
    else this.strandedRels.delete(rel);
  }

  /** A file's change also touches the session it names as owner, and shared files touch all. */
  private touchOthers(rel: string, key: string, scope: string, before: unknown, after: unknown): void {
    // Each side by name, not looped over `[before, after]`: see "Cold loops" in docs/ARCHITECTURE.md.
    const was = namedOwner(before);
    if (was !== null && was !== key) this.markDirty(was);
    const now = namedOwner(after);
    if (now !== null && now !== key) this.markDirty(now);
    if (scope === 'state' && SHARED_STATE_FILES.has(rel.slice('state/'.length))) this.markAll();
  }

  /**
   * A session-less file (`state/`, the root) that omc-top could read and now cannot, or the reverse: every
   * session's hook may read it (a cancel signal, a mode's legacy copy, whose owner is unknown while unread), so
   * every verdict that consulted it is judged again (VerdictBook.unreadIn).
   */
  private unreadFlipped(scope: string): void {
    if (scope === 'state' || scope === 'root') this.markAll();
  }

  /**
   * Every rel whose record changed (value, problem, stamp or removal), in order, so a consumer of
   * the parse (the stale-run facts) can follow what changed instead of re-walking every file.
   * Bounded: a consumer that fell further behind than the log is told to start over.
   */
  private changeLog: string[] = [];
  private changeLogStart = 0;

  private logChange(rel: string): void {
    this.changeLog.push(rel);
    if (this.changeLog.length > 8192) {
      this.changeLog.splice(0, 4096);
      this.changeLogStart += 4096;
    }
  }

  /** The position after the last logged change. */
  get changeSeq(): number {
    return this.changeLogStart + this.changeLog.length;
  }

  /** The rels changed since `seq` (oldest first, repeats possible), or null when the log no longer reaches back. */
  changedSince(seq: number): string[] | null {
    if (seq < this.changeLogStart || seq > this.changeSeq) return null;
    return this.changeLog.slice(seq - this.changeLogStart);
  }

  /** Bumped on every change, so derived indexes know when to rebuild. */
  private generation = 0;
  private copies: { generation: number; index: Map<string, { rel: string; value: unknown }> } | null = null;
  /** Session-directory files naming another session as owner: few, so the copy index stays cheap. */
  private readonly strandedRels = new Set<string>();

  /**
   * The first state file `file` in another session's directory whose top-level session_id is
   * `sid` (5.5.0's Stop hook falls back to such a copy when the session has none of its own).
   */
  ownedCopy(file: string, sid: string): { rel: string; value: unknown } | null {
    // No file in a session directory names another owner (the usual tree): no copy, and no key to build.
    if (this.strandedRels.size === 0) return null;
    if (this.copies?.generation !== this.generation) {
      const index = new Map<string, { rel: string; value: unknown }>();
      for (const rel of [...this.strandedRels].sort()) {
        const rec = this.files.get(rel);
        if (!rec) continue;
        const k = rec.place;
        if (k.scope !== 'session' || !rec.hook) continue;
        const owner = namedOwner(rec.hook);
        const id = `${k.file}\u0000${owner}`;
        if (owner !== null && owner !== k.key && !index.has(id)) index.set(id, { rel, value: rec.hook });
      }
      this.copies = { generation: this.generation, index };
    }
    return this.copies.index.get(`${file}\u0000${sid}`) ?? null;
  }

  /** The current records of one session key. */
  /**
   * State files in other sessions' directories that name `sid` as owner, where `sid` has no file of
   * that name of its own: its Stop hook reads them (the owned-copy fallback), so its row shows them.
   * The first by path, as ownedCopy picks it.
   */
  ownedElsewhere(sid: string): FileRec[] {
    if (this.strandedRels.size === 0) return [];
    const out: FileRec[] = [];
    const seen = new Set<string>();
    for (const rel of [...this.strandedRels].sort()) {
      const rec = this.files.get(rel);
      if (!rec || rec.place.scope !== 'session' || namedOwner(rec.hook) !== sid) continue;
      const k = rec.place;
      if (seen.has(k.file) || this.files.has(`state/sessions/${sid}/${k.file}`)) continue;
      seen.add(k.file);
      out.push(rec);
    }
    return out;
  }

  recsOf(key: string): FileRec[] {
    const out: FileRec[] = [];
    for (const rel of this.byKey.get(key) ?? []) {
      const rec = this.files.get(rel);
      if (rec) out.push(rec);
    }
    return out;
  }

  /** Re-read only when the file's identity, size or mtime moved (scan/poll path). */
  readIfChanged(rel: string): void {
    const prev = this.files.get(rel);
    if (prev && prev.stamp && prev.pending === null) {
      const st = statSync(this.root, rel);
      const s = prev.stamp;
      if (st && st.isFile() && sameStamp(st, s)) return;
    }
    this.read(rel, 'scan');
  }

  /** Returns true when what we show may have changed. */
  read(rel: string, edge: 'leading' | 'trailing' | 'scan'): boolean {
    let rec = this.files.get(rel);
    const k = rec?.place ?? keyOf(rel);
    if (!k) return false;
    // Every change re-derives the whole session: 50,000 state files in one directory made each change
    // cost seconds. OMC writes one file per mode; past the cap the rest are not read.
    if (!rec && k.scope === 'session' && (this.byKey.get(k.key)?.size ?? 0) >= MAX_FILES_PER_SESSION)
      return this.overCap(k.key);
    const known = rec !== undefined;
    rec ??= new FileRec(this.root, rel, k);
    const mtimeBefore = rec.mtimeMs;
    const valueMtimeBefore = rec.valueMtimeMs;
    const hookBefore = rec.hook;
    const unreadBefore = known ? rec.unreadable : null;
    const outcome = rec.load(edge);
    if (outcome === 'missing') return known ? this.drop(rel) : false;
    if (outcome === 'same') {
      // Same bytes: OMC's stale-run watchdog reads the mtime.
      if (rec.mtimeMs !== mtimeBefore) this.logChange(rel);
      // The mode's view shows when its file was written (writtenMs; updatedMs without time fields): the same bytes
      // written again are a new write, as a fresh read of the tree says. Rare (OMC's writes move a time field).
      if (!known || rec.valueMtimeMs === valueMtimeBefore) return false;
      this.generation += 1;
      this.markDirty(k.key);
      return true;
    }
    // Refused again for the same reason (a poll tick under a directory omc-top may not list): nothing shown moved.
    if (known && unreadBefore !== null && rec.unreadable === unreadBefore && hookBefore === null && rec.hook === null)
      return false;
    this.generation += 1;
    this.logChange(rel);
    this.noteStranded(rel, k.key, k.scope, rec.hook);
    this.touchOthers(rel, k.key, k.scope, hookBefore, rec.hook);
    if ((unreadBefore === null) !== (rec.unreadable === null)) this.unreadFlipped(k.scope);
    if (!known) {
      this.files.set(rel, rec);
      let set = this.byKey.get(k.key);
      if (!set) this.byKey.set(k.key, (set = new Set()));
      set.add(rel);
    }
    this.markDirty(k.key);
    return true;
  }

  drop(rel: string): boolean {
    const prev = this.files.get(rel);
    const k = prev?.place ?? keyOf(rel);
    if (!this.files.delete(rel)) return false;
    this.generation += 1;
    this.logChange(rel);
    this.strandedRels.delete(rel);
    if (k) {
      this.touchOthers(rel, k.key, k.scope, prev?.hook, null);
      if (prev?.unreadable != null) this.unreadFlipped(k.scope);
      this.markDirty(k.key);
      const set = this.byKey.get(k.key);
      set?.delete(rel);
      if (set && set.size === 0) this.byKey.delete(k.key);
    }
    return true;
  }

  dropPrefix(prefix: string, structural?: Map<string, unknown>): boolean {
    let any = false;
    if (this.files.has(prefix)) any = this.drop(prefix) || any;
    const p = prefix === '' ? '' : `${prefix}/`;
    for (const rel of [...this.files.keys()]) if (rel.startsWith(p)) any = this.drop(rel) || any;
    if (structural) for (const rel of [...structural.keys()]) if (rel.startsWith(p)) structural.delete(rel);
    return any;
  }
}
