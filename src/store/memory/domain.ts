/**
 * The project-memory slice of .omc (`project-memory.json`): read on every
 * change, last good value kept, problems in words; and the one writer of
 * directives. OMC has no edit or remove tool, so omc-top rewrites the file:
 * under OMC's `project-memory.json.lock`, from a fresh read of the file
 * (so whatever OMC wrote meanwhile is kept: every other key, unknown keys
 * included), atomically, pretty-printed like OMC (2 spaces, no newline).
 */
import { READONLY_NOTHING_WRITTEN } from '../../io/readonly-words.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import { lockInTheWay, withFileLock } from '../../io/file-lock.js';
import { atomicWriteSync, parseJsonText, readTextSync, type ReadOk } from '../../io/safe-fs/index.js';
import { LastGoodFile, type Parsed, type ReadEdge } from '../../io/last-good.js';
import { cleanBlock, cleanLine } from '../../io/sanitize.js';
import { isoOrNull } from '../sessions/omc-rules.js';
import type { Clock, Domain, Problem, WatchEvent } from '../types.js';
import { buildModel, type MemoryModel } from './model.js';
import { applyOp, directiveKey, type DirectiveOp, type OpResult } from './rules.js';
import { DirectiveSchema, describeIssue, type Directive, type DirectiveInput } from './schema.js';
import { isObj } from '../../io/json.js';

export const MEMORY_FILE = 'project-memory.json';

export interface MemorySnapshot {
  version: number;
  file: 'missing' | 'ok' | 'unreadable';
  /** The last good parse of the file (kept while a later read fails). */
  raw: Record<string, unknown> | null;
  problems: readonly Problem[];
  /** Why saving a directive would be refused right now; null when it can be saved. */
  writeBlock: string | null;
  mtimeMs: number;
}

export const EMPTY_MEMORY: MemorySnapshot = {
  version: 0,
  file: 'missing',
  raw: null,
  problems: [],
  writeBlock: 'no project-memory.json yet',
  mtimeMs: -1,
};

export class SaveRefused extends Error {
  constructor(
    message: string,
    /** An edit refused over a field changed on both sides: the directive on disk now. */
    readonly disk?: DirectiveInput,
    /** The directive changed is not in the file any more: an edit's draft can be added as a new one instead. */
    readonly gone = false,
  ) {
    // Reasons can quote directive text or paths from disk: clean them for the message line.
    super(cleanLine(message));
    this.name = 'SaveRefused';
  }
}

export interface MemoryDomainOptions {
  root: string;
  clock?: Clock;
  readonly?: boolean;
  /** How long to wait for OMC's lock before giving up (OMC itself waits 5 s). */
  lockTimeoutMs?: number;
}

/** One good read of the file. */
interface Reading {
  raw: Record<string, unknown>;
  invalidUtf8: boolean;
  bom: boolean;
  mtimeMs: number;
}

/** Invalid UTF-8 and a byte-order mark are kept as facts about a usable reading: they block saves, not display. */
function readingOf(r: ReadOk): Parsed<Reading> {
  const parsed = parseJsonText(r.text, r);
  if (!parsed.ok) return { ok: false, problem: parsed.message };
  if (!isObj(parsed.value)) return { ok: false, problem: 'is not a JSON object' };
  return { ok: true, value: { raw: parsed.value, invalidUtf8: r.invalidUtf8, bom: r.bom, mtimeMs: r.mtimeMs } };
}

/** Why the current file content cannot take a directive change (null when it can). */
function contentBlock(raw: Record<string, unknown>): string | null {
  if (!raw.version || !raw.projectRoot || !raw.lastScanned) {
    return 'OMC ignores this file (version, projectRoot or lastScanned missing); run a Claude session so OMC rebuilds it';
  }
  if (raw.userDirectives !== undefined && !Array.isArray(raw.userDirectives))
    return 'userDirectives is not a list; fix the file first';
  const list = (raw.userDirectives as unknown[] | undefined) ?? [];
  for (let i = 0; i < list.length; i++) {
    const r = DirectiveSchema.safeParse(list[i]);
    if (!r.success)
      return `directive [${i}] is malformed (${describeIssue(r.error.issues[0] ?? { path: [], message: 'invalid' })}); fix the file first`;
  }
  return null;
}

export class MemoryDomain implements Domain {
  readonly name = 'memory';
  readonly cell = new SnapshotCell<MemorySnapshot>(EMPTY_MEMORY);
  private readonly root: string;
  private readonly clock: Clock;
  private readonly readonly: boolean;
  private readonly lockTimeoutMs: number;
  private readonly file: LastGoodFile<Reading>;
  private version = 0;
  private modelCache: { version: number; minute: number; model: MemoryModel } | null = null;

  constructor(opts: MemoryDomainOptions) {
    this.root = opts.root;
    this.clock = opts.clock ?? Date.now;
    this.readonly = opts.readonly ?? false;
    this.lockTimeoutMs = opts.lockTimeoutMs ?? 3_000;
    this.file = new LastGoodFile(this.root, MEMORY_FILE, { parse: readingOf });
  }

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;
  problems = () => this.cell.getSnapshot().problems;

  wants(rel: string, isDir: boolean | undefined): boolean {
    return rel === MEMORY_FILE && isDir !== true;
  }

  /** Stat-gated: a poll tick over an unchanged file reads nothing (and looks at its lock with one lstat). */
  scan(): void {
    // The first scan always publishes: the save block depends on --readonly and on the file being missing.
    const lockMoved = this.lookAtLock();
    if (this.file.readIfChanged() || this.version === 0 || lockMoved) this.publish();
  }

  /** Why OMC's lock can never be taken (a directory at project-memory.json.lock), as last looked at. */
  private lockBlock: string | null = null;

  private lookAtLock(): boolean {
    const lock = lockInTheWay(this.root, MEMORY_FILE);
    if (lock === this.lockBlock) return false;
    this.lockBlock = lock;
    return true;
  }

  refresh(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    if (events.some((e) => e.rel === MEMORY_FILE || e.rel === '')) this.read(edge);
  }

  /** The `project_memory` key of `omc-top --json`: directives as OMC ranks them, and the next injection. */
  report(): Record<string, unknown> {
    const snap = this.cell.getSnapshot();
    const now = this.clock();
    const m = this.model(now);
    if (!m) return { project_memory: { path: MEMORY_FILE, status: snap.file, directives: [] } };
    return {
      project_memory: {
        path: MEMORY_FILE,
        status: snap.file,
        omc_loads: m.omcLoads,
        last_scanned: isoOrNull(m.lastScanned),
        rescan_due: m.rescanDue,
        directives: m.directives.map((r) => ({
          rank: r.rank,
          directive: r.display.text,
          context: r.display.context,
          source: r.display.source,
          priority: r.directive.priority,
          shown_as: r.directive.priority === 'high' ? 'critical' : 'note',
          // The schema only says "a number": 1e308 is one, and toISOString() would throw on it.
          added_at: isoOrNull(r.directive.timestamp),
          session_start: r.injection,
          kept_by_cap: r.survivesCap,
        })),
        session_start_injection: cleanBlock(m.injection),
        save_blocked: snap.writeBlock,
      },
    };
  }

  /** The pane's view of the file at `now` (recomputed when the file changes or a minute passes). */
  model(now = this.clock()): MemoryModel | null {
    const snap = this.cell.getSnapshot();
    if (!snap.raw) return null;
    const minute = Math.floor(now / 60_000);
    if (this.modelCache && this.modelCache.version === snap.version && this.modelCache.minute === minute)
      return this.modelCache.model;
    const model = buildModel(snap.raw, now).model;
    this.modelCache = { version: snap.version, minute, model };
    return model;
  }

  /** What a change would do to the directives as they are now: the new list and what OMC's 20-cap pushes out. */
  previewOp(op: DirectiveOp): OpResult {
    const raw = this.cell.getSnapshot().raw;
    if (!raw) return { ok: false, reason: 'there is no readable project-memory.json' };
    // What the cap would push out, from the last read. Whether a field changed on both sides is judged under the
    // lock against the file as it is then (save), not against a read the watcher may not have caught up with.
    return applyOp(this.directivesOf(raw), op.kind === 'edit' ? { ...op, base: undefined } : op);
  }

  /**
   * Saves one change. Under the lock the file is read again and the change is
   * applied to what is on disk now: if OMC added a note or a directive in the
   * meantime, both survive; if the directive being changed is gone, or the cap
   * would now push out something else than the user agreed to, nothing is
   * written and the reason is thrown.
   */
  async save(
    op: DirectiveOp,
    agreedDropped: readonly string[] = [],
  ): Promise<{ dropped: Directive[]; changed: Directive | null; kept: readonly string[] }> {
    if (this.readonly) throw new SaveRefused(READONLY_NOTHING_WRITTEN);
    const outcome = await withFileLock(
      this.root,
      MEMORY_FILE,
      () => {
        const r = readTextSync(this.root, MEMORY_FILE);
        if (!r.ok) {
          throw new SaveRefused(
            r.code === 'missing'
              ? 'project-memory.json does not exist: OMC creates it at the first session start'
              : `project-memory.json ${r.message}`,
          );
        }
        if (r.invalidUtf8)
          throw new SaveRefused(
            'project-memory.json has bytes that are not valid UTF-8; saving would replace them, so nothing was written',
          );
        if (r.bom)
          throw new SaveRefused(
            'project-memory.json starts with a byte-order mark, which OMC cannot parse; remove it first',
          );
        const parsed = parseJsonText(r.text, r);
        if (!parsed.ok) throw new SaveRefused(`project-memory.json: ${parsed.message}; nothing was written`);
        if (!isObj(parsed.value))
          throw new SaveRefused('project-memory.json is not a JSON object; nothing was written');
        const raw = parsed.value;
        const block = contentBlock(raw);
        if (block) throw new SaveRefused(block);
        const result = applyOp(this.directivesOf(raw), op);
        if (!result.ok) throw new SaveRefused(result.reason, result.disk, result.gone === true);
        const dropped = result.dropped.map(directiveKey);
        if (dropped.some((k) => !agreedDropped.includes(k))) {
          throw new SaveRefused(
            'the directives changed on disk while you were deciding: saving now would push out another one. Nothing was written; look again and retry',
          );
        }
        // Assigning keeps the key where it was; every other key, known or not, is written back as read.
        raw.userDirectives = result.list;
        atomicWriteSync(this.root, MEMORY_FILE, JSON.stringify(raw, null, 2));
        return { dropped: result.dropped, changed: result.changed, kept: result.kept ?? [] };
      },
      { timeoutMs: this.lockTimeoutMs },
    );
    this.read('scan');
    return outcome;
  }

  private directivesOf(raw: Record<string, unknown>): Directive[] {
    return Array.isArray(raw.userDirectives) ? (raw.userDirectives as Directive[]) : [];
  }

  private read(edge: ReadEdge): void {
    const lockMoved = this.lookAtLock();
    if (this.file.read(edge) || lockMoved) this.publish();
  }

  private publish(): void {
    const f = this.file;
    const s = {
      file: f.missing ? 'missing' : f.value ? 'ok' : 'unreadable',
      raw: f.value?.raw ?? null,
      problem: f.failure,
      invalidUtf8: f.value?.invalidUtf8 ?? false,
      bom: f.value?.bom ?? false,
      mtimeMs: f.value?.mtimeMs ?? -1,
    } as const;
    const problems: Problem[] = [];
    const add = (message: string, severity: Problem['severity']) =>
      problems.push({ path: MEMORY_FILE, message: cleanLine(message), severity });
    if (s.problem) add(s.raw ? `${s.problem} (showing the last good version)` : s.problem, s.raw ? 'warning' : 'error');
    if (s.invalidUtf8) add('contains bytes that are not valid UTF-8 (shown as �)', 'warning');
    if (s.bom) add("starts with a byte-order mark: OMC's JSON.parse rejects it, so OMC ignores this file", 'error');
    if (s.raw) for (const p of buildModel(s.raw, this.clock()).problems) problems.push({ path: MEMORY_FILE, ...p });
    if (this.lockBlock) problems.push({ path: `${MEMORY_FILE}.lock`, message: this.lockBlock, severity: 'error' });

    let writeBlock: string | null = null;
    if (this.readonly) writeBlock = 'read-only mode (--readonly)';
    else if (s.file === 'missing') writeBlock = 'no project-memory.json yet: OMC creates it at the first session start';
    else if (!s.raw) writeBlock = `project-memory.json cannot be read (${s.problem ?? 'unknown'})`;
    else if (s.problem) writeBlock = `project-memory.json is currently unreadable (${s.problem})`;
    else if (s.invalidUtf8) writeBlock = 'the file has bytes that are not valid UTF-8; saving would replace them';
    else if (s.bom) writeBlock = 'the file starts with a byte-order mark that OMC cannot parse';
    else if (this.lockBlock) writeBlock = `${MEMORY_FILE}.lock ${this.lockBlock}`;
    else writeBlock = contentBlock(s.raw);

    this.version += 1;
    this.cell.set({ version: this.version, file: s.file, raw: s.raw, problems, writeBlock, mtimeMs: s.mtimeMs });
  }
}
