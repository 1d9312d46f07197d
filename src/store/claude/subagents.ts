/**
 * Subagents: Claude Code 2.1.332 writes each Task/Agent subagent's turns to
 * its own file beside the session's transcript,
 * `projects/<cwd>/<session>/subagents/agent-<id>.jsonl`, with
 * `agent-<id>.meta.json` naming its type and model; the parent transcript never
 * repeats their usage (observed: /work/notes/claude-2.1.332-protocols.md §3).
 * Each file is read incrementally by byte offset (TranscriptReader), its usage
 * counted once per API response (message.id) per model, and the session's
 * figures are the parent's plus every subagent's (`withSubagents`): a
 * subagent's usage counts in the iteration in which it started.
 */
import { type Obj, obj } from '../../io/json.js';
import fs from 'node:fs';
import path from 'node:path';
import { listDirSync, readJsonSync, statSync } from '../../io/safe-fs/index.js';
import { stampKey } from '../../io/file-stamp.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import { timeMs } from '../sessions/omc-rules.js';
import type { IterationFacts, Tokens, TranscriptFacts } from './transcript-facts.js';
import { KEEP_USAGE_SAMPLES, tokenTotal, zeroTokens } from './transcript-facts.js';
import { TranscriptReader, type LineFolder } from './transcript-reader.js';
import {
  addResponse,
  addUsage,
  badUsageText,
  copyUsage,
  modelKey,
  readUsage,
  SpendTimeline,
  type UsageByModel,
} from './usage.js';
import { UsageSamples } from './usage-samples.js';
import { RecentIds } from './recent-ids.js';
import { CLAUDE_DIR_READ } from './config-dir.js';

/** Subagent files followed per session (a delegation-heavy session beyond this is counted up to it, and says so). */
export const MAX_SUBAGENTS = 300;
/** Subagent directories with their own fs.watch (the rest are re-read when their session's transcript moves). */
export const MAX_SUBAGENT_WATCHES = 64;
const RECENT_IDS = 128;
const KEEP_SAMPLES = 50;

export interface SubagentFacts {
  tokens: Tokens;
  messages: number;
  byModel: UsageByModel;
  timeline: SpendTimeline;
  firstMs: number | null;
  lastMs: number | null;
  usageSamples: UsageSamples;
}

/** Folds a subagent's file: only usage (its lines are side-chain lines by definition). */
export class SubagentFolder implements LineFolder<SubagentFacts> {
  readonly facts: SubagentFacts = {
    tokens: zeroTokens(),
    messages: 0,
    byModel: new Map(),
    timeline: new SpendTimeline(),
    firstMs: null,
    lastMs: null,
    usageSamples: new UsageSamples(KEEP_SAMPLES),
  };
  private recent = new RecentIds(RECENT_IDS);
  /** Responses whose usage could not be counted (usage.ts readUsage): left out of every total. */
  private badResponses = 0;
  problem: string | null = null;

  add(line: Obj): void {
    const f = this.facts;
    const at = timeMs(line.timestamp);
    if (at !== null) {
      f.firstMs ??= at;
      f.lastMs = at;
    }
    if (line.type !== 'assistant') return;
    const msg = obj(line.message);
    const usage = obj(msg?.usage);
    if (!msg || !usage) return;
    const id = typeof msg.id === 'string' ? msg.id : typeof line.requestId === 'string' ? line.requestId : null;
    if (id !== null && !this.recent.firstSight(id)) return;
    const read = readUsage(usage);
    if (!read.ok) {
      this.badResponses += 1;
      this.problem = badUsageText(read.why, id, at, this.badResponses);
      return;
    }
    const part = read.part;
    const model = modelKey(msg.model, usage);
    f.tokens.input += part.input;
    f.tokens.output += part.output;
    f.tokens.cacheRead += part.cacheRead;
    f.tokens.cacheWrite += part.cacheWrite;
    f.messages += 1;
    addResponse(f.byModel, model, part);
    f.timeline.add(at, model, part);
    if (at !== null) f.usageSamples.push(at, part.input + part.output + part.cacheRead + part.cacheWrite);
  }
}

/** What `agent-<id>.meta.json` says (all optional: an older CLI writes none). */
export interface SubagentMeta {
  type: string | null;
  /** The model the Agent call named (an alias such as "haiku") or resolved to. */
  model: string | null;
  description: string | null;
  finished: boolean;
}

export interface SubagentView {
  id: string;
  meta: SubagentMeta;
  facts: SubagentFacts;
  /** Its file could not be read (the reason). */
  problem: string | null;
}

export interface SubagentTypeTotal {
  type: string;
  count: number;
  tokens: Tokens;
  byModel: UsageByModel;
}

export interface SubagentsSummary {
  agents: SubagentView[];
  /** Per agent type (meta.json's agentType; "unknown type" without one), most tokens first. */
  byType: SubagentTypeTotal[];
  tokens: Tokens;
  messages: number;
  byModel: UsageByModel;
  /** More files than MAX_SUBAGENTS: the rest were not counted. */
  notCounted: number;
}

/** Subagent files over FULL_READ_MAX read from their last 64 MB only: how many, and the bytes before, never read. */
export interface SubagentsPartial {
  files: number;
  notRead: number;
}

const AGENT_FILE = /^agent-([A-Za-z0-9_-]{1,64})\.jsonl$/;
const text = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() !== '' ? truncate(cleanLine(v).trim(), max) : null;

/** One session's subagent directory. */
export class SubagentSet {
  readonly dirRel: string;
  private readers = new Map<string, TranscriptReader<SubagentFacts>>();
  private metas = new Map<string, { stamp: string; meta: SubagentMeta }>();
  private dirStamp = '';
  private skipped = 0;
  /** Files whose change an fs.watch announced (null = read every file). */
  private dirty: Set<string> | null = null;
  private behindIds = new Set<string>();
  /** The directory has been listed and its files read once (or found absent). */
  private readOnce = false;
  /** Before the first read: whether the directory was there at the last look (probe). */
  private dirSeen = false;
  version = 0;
  private memo: { version: number; summary: SubagentsSummary | null } = { version: -1, summary: null };

  constructor(
    private readonly configDir: string,
    /** The transcript whose subagents these are (follow() keeps the set while that stays the session's). */
    readonly transcriptRel: string,
  ) {
    this.dirRel = `${transcriptRel.replace(/\.jsonl$/, '')}/subagents`;
  }

  get size(): number {
    return this.readers.size;
  }

  get behind(): boolean {
    return this.behindIds.size > 0;
  }

  /** Lines over MAX_PARSED_LINE its subagent files hold (transcript-reader.ts): their usage is in no figure. */
  get longLines(): number {
    let n = 0;
    for (const r of this.readers.values()) n += r.longLines;
    return n;
  }

  /**
   * Its subagent files over FULL_READ_MAX, read from their last 64 MB only (as a session's transcript is): how many,
   * and the bytes before the part read, never counted. Null when every file is read from its start.
   */
  get partial(): SubagentsPartial | null {
    let files = 0;
    let notRead = 0;
    for (const r of this.readers.values())
      if (r.unreadHead > 0) {
        files += 1;
        notRead += r.unreadHead;
      }
    return files === 0 ? null : { files, notRead };
  }

  /** Some of the session's subagent files are not read to their end: the figures are a lower bound. */
  get reading(): boolean {
    return this.readOnce ? this.behindIds.size > 0 : this.dirSeen;
  }

  /**
   * Before the first read: one lstat says whether there are subagents still to read. True when `reading` moved.
   * `folderMissing`: the transcript's project folder is known not to be there, so neither is this directory.
   */
  probe(folderMissing = false): boolean {
    const st = folderMissing ? null : statSync(this.configDir, this.dirRel);
    const seen = st !== null && st.isDirectory();
    if (seen === this.dirSeen) return false;
    this.dirSeen = seen;
    this.version += 1;
    return true;
  }

  /** An fs.watch said this name changed (null: something in the directory). */
  touched(name: string | null): void {
    if (name === null) this.dirty = null;
    else if (this.dirty) this.dirty.add(name);
  }

  /** Lists the directory when it changed (one lstat otherwise). Returns true when the set of agents changed. */
  private sync(): boolean {
    const st = statSync(this.configDir, this.dirRel);
    if (!st || !st.isDirectory()) {
      const had = this.readers.size > 0 || this.dirStamp !== '';
      this.readers.clear();
      this.metas.clear();
      // Nothing left to read: a file that was behind must not keep its session "still being read".
      this.behindIds.clear();
      this.dirStamp = '';
      return had;
    }
    const stamp = stampKey(st, ['ino', 'mtimeMs']);
    if (stamp === this.dirStamp) return false;
    this.dirStamp = stamp;
    const list = listDirSync(this.configDir, this.dirRel, CLAUDE_DIR_READ);
    if (!list.ok) return false;
    let changed = false;
    const names = list.entries.filter((e) => e.kind === 'file' && !e.invalidName).map((e) => e.name);
    const ids = names.flatMap((n) => AGENT_FILE.exec(n)?.[1] ?? []).sort();
    this.skipped = Math.max(0, ids.length - MAX_SUBAGENTS);
    for (const id of ids.slice(0, MAX_SUBAGENTS))
      if (!this.readers.has(id)) {
        this.readers.set(
          id,
          new TranscriptReader(this.configDir, `${this.dirRel}/agent-${id}.jsonl`, () => new SubagentFolder(), false),
        );
        this.behindIds.add(id);
        changed = true;
      }
    for (const id of [...this.readers.keys()])
      if (!ids.includes(id)) {
        this.readers.delete(id);
        this.metas.delete(id);
        this.behindIds.delete(id);
        changed = true;
      }
    return changed;
  }

  private readMeta(id: string): boolean {
    const rel = `${this.dirRel}/agent-${id}.meta.json`;
    const st = statSync(this.configDir, rel);
    const stamp = stampKey(st, ['ino', 'size', 'mtimeMs']);
    if (this.metas.get(id)?.stamp === stamp) return false;
    let meta: SubagentMeta = { type: null, model: null, description: null, finished: false };
    if (st) {
      const r = readJsonSync(this.configDir, rel, 64 * 1024, CLAUDE_DIR_READ);
      const o = r.ok ? obj(r.value) : null;
      if (o)
        meta = {
          type: text(o.agentType, 60),
          model: text(o.model, 60),
          description: text(o.description, 120),
          finished: o.finished === true,
        };
    }
    this.metas.set(id, { stamp, meta });
    return true;
  }

  /**
   * Reads what changed, within `budget` bytes. Returns the bytes read and whether anything a view
   * shows changed.
   */
  refresh(budget: number, watched: boolean): { bytes: number; changed: boolean } {
    const wasReading = this.reading;
    let changed = this.sync();
    // Without a watch nothing says which file moved: every file is looked at (one fstat each when unchanged).
    const dirty = watched ? this.dirty : null;
    this.dirty = new Set();
    let bytes = 0;
    for (const [id, r] of this.readers) {
      const wanted =
        dirty === null ||
        this.behindIds.has(id) ||
        dirty.has(`agent-${id}.jsonl`) ||
        dirty.has(`agent-${id}.meta.json`);
      if (!wanted) continue;
      if (this.readMeta(id)) changed = true;
      if (budget - bytes <= 0) {
        this.behindIds.add(id);
        continue;
      }
      const before = r.nextOffset;
      const v = r.version;
      r.refresh(budget - bytes);
      bytes += Math.max(0, r.nextOffset - before);
      if (r.version !== v) changed = true;
      if (r.behind) this.behindIds.add(id);
      else this.behindIds.delete(id);
    }
    this.readOnce = true;
    if (this.reading !== wasReading) changed = true;
    if (changed) this.version += 1;
    return { bytes, changed };
  }

  /** Each subagent file's problem (its read, or a usage count it could not count), memoised on the version. */
  problems(): readonly { rel: string; message: string }[] {
    if (this.problemMemo.version === this.version) return this.problemMemo.list;
    const list: { rel: string; message: string }[] = [];
    for (const r of this.readers.values()) {
      const message = r.problemText;
      if (message) list.push({ rel: r.rel, message });
    }
    this.problemMemo = { version: this.version, list };
    return list;
  }
  private problemMemo: { version: number; list: readonly { rel: string; message: string }[] } = {
    version: -1,
    list: [],
  };

  summary(): SubagentsSummary | null {
    if (this.memo.version === this.version) return this.memo.summary;
    let summary: SubagentsSummary | null = null;
    if (this.readers.size > 0) {
      const agents: SubagentView[] = [];
      const byModel: UsageByModel = new Map();
      const tokens = zeroTokens();
      let messages = 0;
      const types = new Map<string, SubagentTypeTotal>();
      for (const [id, r] of this.readers) {
        const st = r.state();
        const meta = this.metas.get(id)?.meta ?? { type: null, model: null, description: null, finished: false };
        agents.push({ id, meta, facts: st.facts, problem: st.problem });
        addTokens(tokens, st.facts.tokens);
        messages += st.facts.messages;
        addUsage(byModel, st.facts.byModel);
        const type = meta.type ?? 'unknown type';
        const t = types.get(type) ?? { type, count: 0, tokens: zeroTokens(), byModel: new Map() };
        t.count += 1;
        addTokens(t.tokens, st.facts.tokens);
        addUsage(t.byModel, st.facts.byModel);
        types.set(type, t);
      }
      agents.sort((a, b) => (a.facts.firstMs ?? 0) - (b.facts.firstMs ?? 0) || (a.id < b.id ? -1 : 1));
      summary = {
        agents,
        byType: [...types.values()].sort(
          (a, b) => tokenTotal(b.tokens) - tokenTotal(a.tokens) || (a.type < b.type ? -1 : 1),
        ),
        tokens,
        messages,
        byModel,
        notCounted: this.skipped,
      };
    }
    this.memo = { version: this.version, summary };
    return summary;
  }
}

function addTokens(into: Tokens, t: Tokens): void {
  into.input += t.input;
  into.output += t.output;
  into.cacheRead += t.cacheRead;
  into.cacheWrite += t.cacheWrite;
}

/**
 * The session's facts with its subagents folded in: tokens, responses, usage per model, the spend
 * timeline, the burn-rate samples and each iteration (a subagent counts in the iteration in which it
 * started: the last one whose start is not after its first line). A new object; the parent's stays as it is.
 */
export function withSubagents(parent: TranscriptFacts, subs: SubagentsSummary | null): TranscriptFacts {
  if (!subs || subs.agents.length === 0) return parent;
  const tokens = { ...parent.tokens };
  addTokens(tokens, subs.tokens);
  const byModel = copyUsage(parent.byModel);
  addUsage(byModel, subs.byModel);
  const timeline = parent.timeline.clone();
  for (const a of subs.agents) timeline.merge(a.facts.timeline);
  const iterations: IterationFacts[] = parent.iterations.map((it) => ({
    ...it,
    tokens: { ...it.tokens },
    byModel: copyUsage(it.byModel),
  }));
  for (const a of subs.agents) {
    const at = a.facts.firstMs;
    if (at === null) continue;
    let target: IterationFacts | undefined;
    for (const it of iterations) if (it.startedMs === null || it.startedMs <= at) target = it;
    if (!target) continue;
    addTokens(target.tokens, a.facts.tokens);
    addUsage(target.byModel, a.facts.byModel);
  }
  const usageSamples = UsageSamples.merged(
    [parent.usageSamples, ...subs.agents.map((a) => a.facts.usageSamples)],
    KEEP_USAGE_SAMPLES,
  );
  return { ...parent, tokens, messages: parent.messages + subs.messages, byModel, timeline, iterations, usageSamples };
}

/**
 * Every session's subagent set for the Claude domain: created with the session's transcript reader,
 * read with it (within the same byte budget), and one fs.watch per subagent directory up to
 * MAX_SUBAGENT_WATCHES so a background subagent's progress shows while its session is quiet.
 */
export class SubagentTracker {
  private sets = new Map<string, SubagentSet>();
  private watchers = new Map<string, fs.FSWatcher>();
  private combined = new Map<string, { key: string; facts: TranscriptFacts }>();
  private disposed = false;
  /** Files are read (false until start() when deferred: only each directory's presence is looked at). */
  private started: boolean;

  constructor(
    private readonly configDir: string,
    private readonly live: boolean,
    private readonly onChange: (sessionId: string) => void,
    deferred = false,
  ) {
    this.started = !deferred;
  }

  /** From now on files are read. Returns false when they already were. */
  start(): boolean {
    if (this.started) return false;
    this.started = true;
    return true;
  }

  /** Whether the session's subagent files are still being read (its figures are a lower bound). */
  reading(sid: string): boolean {
    return this.sets.get(sid)?.reading ?? false;
  }

  /** Keeps a set for exactly the sessions whose transcripts are followed. */
  follow(sessions: ReadonlyMap<string, { rel: string }>): void {
    // Compared by the transcript the set was made for: the directory string built again per set and call was
    // ~14,000 strings before `live` at 2,000 sessions (the same transcript gives the same directory).
    // forEach (drop deletes the entry it is on, as for...of allows): see "Cold loops" in docs/ARCHITECTURE.md.
    this.sets.forEach((set, sid) => {
      if (sessions.get(sid)?.rel !== set.transcriptRel) this.drop(sid);
    });
    sessions.forEach((r, sid) => {
      if (!this.sets.has(sid)) this.sets.set(sid, new SubagentSet(this.configDir, r.rel));
    });
  }

  private drop(sid: string): void {
    this.sets.delete(sid);
    this.combined.delete(sid);
    this.watchers.get(sid)?.close();
    this.watchers.delete(sid);
  }

  /** Reads the session's subagents within `budget`; returns the bytes read and whether they are behind. */
  read(sid: string, budget: number, folderMissing = false): { bytes: number; behind: boolean; changed: boolean } {
    const set = this.sets.get(sid);
    if (!set) return { bytes: 0, behind: false, changed: false };
    // Deferred: not read yet, but the view must say whether there is anything still to read.
    if (!this.started) return { bytes: 0, behind: false, changed: set.probe(folderMissing) };
    const wasWatched = this.watchers.has(sid);
    let r = set.refresh(budget, wasWatched);
    if (this.live && set.size > 0 && !wasWatched && this.watch(sid, set)) {
      // Lines written between that read and the watch: read once more now that the watch is up.
      const again = set.refresh(Math.max(0, budget - r.bytes), false);
      r = { bytes: r.bytes + again.bytes, changed: r.changed || again.changed };
    }
    return { ...r, behind: set.behind };
  }

  version(sid: string): number {
    return this.sets.get(sid)?.version ?? 0;
  }

  summary(sid: string): SubagentsSummary | null {
    return this.sets.get(sid)?.summary() ?? null;
  }

  /** The session's subagent files' lines too long to read (SubagentSet.longLines). */
  longLines(sid: string): number {
    return this.sets.get(sid)?.longLines ?? 0;
  }

  /** The session's subagent files read only from their last 64 MB (SubagentSet.partial), or null. */
  partial(sid: string): SubagentsPartial | null {
    return this.sets.get(sid)?.partial ?? null;
  }

  /** Calls `fn` with each subagent file's problem line and its session, over every followed session. */
  eachProblem(fn: (sid: string, rel: string, message: string) => void): void {
    this.sets.forEach((set, sid) => {
      if (set.size > 0) for (const p of set.problems()) fn(sid, p.rel, p.message);
    });
  }

  /** The session's facts with its subagents in, memoised on both versions. */
  facts(sid: string, parent: TranscriptFacts, parentVersion: number): TranscriptFacts {
    const set = this.sets.get(sid);
    if (!set || set.size === 0) return parent;
    const key = `${parentVersion}:${set.version}`;
    const hit = this.combined.get(sid);
    if (hit && hit.key === key) return hit.facts;
    const facts = withSubagents(parent, set.summary());
    this.combined.set(sid, { key, facts });
    return facts;
  }

  /** Returns true when a new watch was set up. */
  private watch(sid: string, set: SubagentSet): boolean {
    if (this.watchers.has(sid) || this.watchers.size >= MAX_SUBAGENT_WATCHES || this.disposed) return false;
    try {
      const w = fs.watch(path.join(this.configDir, set.dirRel), { persistent: false }, (_t, f) => {
        set.touched(f ? String(f) : null);
        this.onChange(sid);
      });
      w.on('error', () => {
        w.close();
        this.watchers.delete(sid);
      });
      this.watchers.set(sid, w);
      return true;
    } catch {
      return false; // gone meanwhile: the next read of its session tries again
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
