/**
 * What one Claude Code transcript line tells a monitor, folded into a small,
 * bounded summary: token sums (per `message.id`: one assistant line is written
 * per content block, each repeating the same usage), the peek facts (last text,
 * tool calls, files written this turn, last error, turn durations) and the
 * Stop-hook timeline that marks ralph's iterations. Pure: no I/O.
 */
import { cleanBlock, cleanLine, truncate } from '../../io/sanitize.js';
import { timeMs } from '../sessions/omc-rules.js';
import { type Obj, obj } from '../../io/json.js';
import { emptyNativeLoops, NativeLoopFolder, type NativeLoopFacts } from './native-loops.js';
import { addResponse, badUsageText, modelKey, readUsage, SpendTimeline, type UsageByModel } from './usage.js';
import { UsageSamples } from './usage-samples.js';
import { RecentIds } from './recent-ids.js';

export interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}
export const zeroTokens = (): Tokens => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
export const tokenTotal = (t: Tokens) => t.input + t.output + t.cacheRead + t.cacheWrite;

export interface ToolCall {
  name: string;
  /** A short argument: the file, the command, the skill. */
  arg: string;
  atMs: number | null;
}

/** A tool call the transcript shows no result for yet (a permission dialog, or a command still running). */
export interface PendingCall extends ToolCall {
  /** The call's `tool_use` id: its result names it. */
  id: string;
}

/**
 * Claude Code's own final figures: the `cost-state` line it writes when a session exits (2.1.332 writes it
 * twice at /exit, the second differing only in totalDuration; the last one read wins).
 */
export interface ExitFigures {
  usd: number;
  unknownModelCost: boolean;
  /** Epoch ms the process started (`startTime`). */
  startMs: number | null;
  /** Wall time of the process (`totalDuration`, ms). */
  durationMs: number | null;
  /** When it exited by its own account: startTime + totalDuration; null when either is missing. */
  endMs: number | null;
  apiDurationMs: number | null;
  toolDurationMs: number | null;
  linesAdded: number | null;
  linesRemoved: number | null;
  /** Per model, subagents included (the CLI's own totals). */
  models: { model: string; tokens: Tokens; usd: number | null }[];
}

export interface StopHookMessage {
  atMs: number | null;
  text: string;
  /** From OMC's "[RALPH LOOP - ITERATION n/max]" reason, when it is one. */
  iteration: number | null;
  max: number | null;
}

export interface IterationFacts {
  /**
   * null = work before the first Stop-hook block whose number is not known yet; once a ralph block
   * "ITERATION n" arrives, the work before it is iteration n-1 (OMC calls the first one iteration 1).
   */
  iteration: number | null;
  startedMs: number | null;
  tokens: Tokens;
  /** The same usage per model (priced per model: usage.ts, prices.ts). */
  byModel: UsageByModel;
  filesWritten: number;
  errors: number;
}

export interface TranscriptFacts {
  tokens: Tokens;
  /** Distinct API responses counted. */
  messages: number;
  model: string | null;
  lastAssistantText: string | null;
  lastToolCalls: ToolCall[];
  /** Calls with no tool_result yet, oldest first (a typed prompt abandons them). */
  pendingCalls: PendingCall[];
  /** Files written (Write/Edit/NotebookEdit, or created by a command) since the current turn began. */
  turnFiles: string[];
  lastError: { text: string; atMs: number | null } | null;
  /** The most recent error texts, oldest first, for "the same error 3 times". */
  recentErrors: string[];
  turnDurationsMs: number[];
  /** A prompt was seen after the last end-of-turn marker. */
  turnOpen: boolean;
  lastTurnEndMs: number | null;
  /** Stop-hook blocks seen in the current (or last) turn. */
  turnBlocks: number;
  stopHooks: StopHookMessage[];
  /** Claude Code overrode a Stop hook after its block cap, in the last turn that ended. */
  blockCapOverride: { atMs: number | null } | null;
  iterations: IterationFacts[];
  /** (time, tokens) per API response, newest last, for a burn rate. */
  usageSamples: UsageSamples;
  lastLineMs: number | null;
  /** Usage per model, for a cost per model (usage.ts, prices.ts). */
  byModel: UsageByModel;
  /** The same usage in time buckets: a run's window, a mode, a day. */
  timeline: SpendTimeline;
  /** Claude Code's own loops: /goal, /loop jobs (native-loops.ts). */
  native: NativeLoopFacts;
  /** Claude Code's own cost figure (its `cost-state` line, written when a session exits); never estimated here. */
  cliCost: { usd: number; unknownModelCost: boolean } | null;
  /**
   * Notes another process put into the session's inbox socket, as the CLI recorded them reaching the model: a
   * `user` line (idle: a new turn) or a queued command absorbed mid-turn, with `origin.kind: "peer"`. Newest last.
   */
  peerNotes: PeerNote[];
  /**
   * The last `cost-state` line, while nothing of a conversation follows it: the session's last process
   * exited cleanly and nothing resumed it since (a resume appends new turns after it). null otherwise.
   */
  exit: ExitFigures | null;
  /**
   * Where Claude Code loaded OMC's skills from, by its own line: the Skill tool's "Base directory for this skill:
   * <dir>" (a meta line tied by `sourceToolUseID` to a Skill call of an `oh-my-claudecode:` skill). The newest one;
   * once the process is gone it is the one thing on disk that names the OMC a `--plugin-dir` session loaded.
   */
  omcSkillDir: { dir: string; atMs: number | null } | null;
}

export interface PeerNote {
  /** `origin.from` as the sender gave it. */
  from: string | null;
  /** The text as recorded (the CLI wraps an idle note in its own preamble); control bytes removed. */
  text: string;
  atMs: number | null;
}

export const KEEP_TOOL_CALLS = 8;
export const KEEP_STOP_HOOKS = 50;
export const KEEP_ITERATIONS = 50;
export const KEEP_TURN_DURATIONS = 20;
export const KEEP_ERRORS = 10;
export const KEEP_TURN_FILES = 50;
export const KEEP_USAGE_SAMPLES = 200;
export const KEEP_PEER_NOTES = 20;
const PEER_NOTE_CHARS = 8_000;
export const KEEP_PENDING_CALLS = 16;
const RECENT_IDS = 256;

export function emptyFacts(): TranscriptFacts {
  return {
    tokens: zeroTokens(),
    messages: 0,
    model: null,
    lastAssistantText: null,
    lastToolCalls: [],
    pendingCalls: [],
    turnFiles: [],
    lastError: null,
    recentErrors: [],
    turnDurationsMs: [],
    turnOpen: false,
    lastTurnEndMs: null,
    turnBlocks: 0,
    stopHooks: [],
    blockCapOverride: null,
    iterations: [],
    usageSamples: new UsageSamples(KEEP_USAGE_SAMPLES),
    lastLineMs: null,
    byModel: new Map(),
    timeline: new SpendTimeline(),
    native: emptyNativeLoops(),
    cliCost: null,
    peerNotes: [],
    exit: null,
    omcSkillDir: null,
  };
}

/** A count of the CLI's own exit figures (session sums, not one response's: usage.ts readUsage judges those). */
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
const short = (v: unknown, max: number) => truncate(cleanLine(v).trim(), max);
const push = <T>(list: T[], item: T, keep: number) => {
  list.push(item);
  if (list.length > keep) list.splice(0, list.length - keep);
};

const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
/** Line types of a conversation (not the CLI's bookkeeping lines written around an exit or a resume). */
const CONVERSATION = new Set(['user', 'assistant', 'system', 'attachment']);
const RALPH_ITERATION = /ITERATION\s+(\d+)\s*\/\s*(\d+)/;
/** OMC's plugin names its skills `oh-my-claudecode:<skill>` (5.5.0 and 4.x alike). */
const OMC_SKILL_PREFIX = 'oh-my-claudecode:';
/** The first line of the text Claude Code 2.1.332's Skill tool adds for a plugin skill (an absolute path). */
const SKILL_BASE_DIR = /^Base directory for this skill: (\/[^\n]{1,4095})(?:\n|$)/;
/** Skill calls remembered until their base-directory line arrives (it follows the call at once). */
const KEEP_SKILL_CALLS = 16;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Claude Code's notice when it ends a turn a Stop hook kept blocking (2.1.332 wording). */
const BLOCK_CAP_NOTICE = /blocked the turn from ending \d+ consecutive times/;

function toolArg(name: string, input: Obj | null): string {
  if (!input) return '';
  // AskUserQuestion: the (first) question is what Claude waits on.
  if (Array.isArray(input.questions)) {
    const q = obj(input.questions[0])?.question;
    if (typeof q === 'string') return short(q, 120);
  }
  const pick =
    input.file_path ??
    input.notebook_path ??
    input.command ??
    input.skill ??
    input.pattern ??
    input.url ??
    input.description;
  return typeof pick === 'string' ? short(pick, 120) : name === 'Agent' ? short(input.subagent_type, 60) : '';
}

/**
 * Folds lines into facts. Keeps a short memory of recent message ids: the
 * block lines of one response are adjacent, so a bounded window dedupes them.
 */
export class FactsBuilder {
  facts: TranscriptFacts = emptyFacts();
  private native = new NativeLoopFolder();

  constructor() {
    this.facts.native = this.native.facts;
  }
  private recentIds = new RecentIds(RECENT_IDS);
  /** Ids of the latest Skill calls of an OMC skill (their base-directory lines name OMC's directory). */
  private omcSkillCalls: string[] = [];
  /** Responses whose usage could not be counted (usage.ts readUsage): left out of every total. */
  private badResponses = 0;
  /** What the transcript's lines hold that omc-top could not count: a problem line naming the response. */
  problem: string | null = null;

  private current(): IterationFacts {
    let it = this.facts.iterations[this.facts.iterations.length - 1];
    if (!it) {
      it = { iteration: null, startedMs: null, tokens: zeroTokens(), byModel: new Map(), filesWritten: 0, errors: 0 };
      this.facts.iterations.push(it);
    }
    return it;
  }

  private fileWritten(p: string): void {
    const f = this.facts;
    if (!f.turnFiles.includes(p)) push(f.turnFiles, p, KEEP_TURN_FILES);
    this.current().filesWritten += 1;
  }

  add(line: Obj, raw: string): void {
    const f = this.facts;
    const at = timeMs(line.timestamp);
    if (at !== null) f.lastLineMs = at;
    // Wherever the CLI puts the notice (a system line in 2.1.332), it is short text.
    if (raw.length < 16_384 && raw.includes('consecutive times') && BLOCK_CAP_NOTICE.test(raw))
      f.blockCapOverride = { atMs: at };
    // Anything of a conversation after the exit figures: the session was resumed after that exit.
    if (f.exit && CONVERSATION.has(line.type as string)) f.exit = null;
    switch (line.type) {
      case 'assistant':
        return this.assistant(line, at);
      case 'user':
        return this.user(line, at);
      case 'attachment':
        return this.attachment(line, at);
      case 'system':
        return this.system(line, at);
      case 'cost-state':
        if (typeof line.totalCostUSD === 'number' && Number.isFinite(line.totalCostUSD) && line.totalCostUSD >= 0) {
          f.cliCost = { usd: line.totalCostUSD, unknownModelCost: line.hasUnknownModelCost === true };
          f.exit = exitFigures(line, line.totalCostUSD);
        }
        return;
      default:
        return;
    }
  }

  private assistant(line: Obj, at: number | null): void {
    if (line.isSidechain === true) return;
    const f = this.facts;
    const msg = obj(line.message);
    if (!msg) return;
    const id = typeof msg.id === 'string' ? msg.id : typeof line.requestId === 'string' ? line.requestId : null;
    const usage = obj(msg.usage);
    if (usage && (id === null || this.recentIds.firstSight(id))) {
      const read = readUsage(usage);
      if (read.ok) {
        const part = read.part;
        const t: Tokens = {
          input: part.input,
          output: part.output,
          cacheRead: part.cacheRead,
          cacheWrite: part.cacheWrite,
        };
        for (const target of [f.tokens, this.current().tokens]) {
          target.input += t.input;
          target.output += t.output;
          target.cacheRead += t.cacheRead;
          target.cacheWrite += t.cacheWrite;
        }
        f.messages += 1;
        if (at !== null) f.usageSamples.push(at, tokenTotal(t));
        const model = modelKey(msg.model, usage);
        addResponse(f.byModel, model, part);
        addResponse(this.current().byModel, model, part);
        f.timeline.add(at, model, part);
      } else {
        this.badResponses += 1;
        this.problem = badUsageText(read.why, id, at, this.badResponses);
      }
    }
    if (typeof msg.model === 'string' && msg.model !== '<synthetic>') f.model = short(msg.model, 60);
    const content = Array.isArray(msg.content) ? msg.content : [];
    for (const block of content) {
      const b = obj(block);
      if (!b) continue;
      if (b.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '')
        f.lastAssistantText = truncate(cleanLine(b.text).trim(), 2000);
      if (b.type === 'tool_use' && typeof b.name === 'string') {
        const name = short(b.name, 60);
        const input = obj(b.input);
        const arg = toolArg(name, input);
        // Ids are short ("toolu_…"); a huge or missing one cannot name a result: not followed.
        const id = typeof b.id === 'string' && b.id !== '' && b.id.length <= 200 ? b.id : null;
        if (id !== null && f.pendingCalls.some((p) => p.id === id)) continue;
        // One object in both lists: the peek marks a listed call as pending by identity.
        const call: ToolCall = id !== null ? ({ id, name, arg, atMs: at } as PendingCall) : { name, arg, atMs: at };
        push(f.lastToolCalls, call, KEEP_TOOL_CALLS);
        if (id !== null) push(f.pendingCalls, call as PendingCall, KEEP_PENDING_CALLS);
        this.native.toolUse(b.id, name, input);
        if (name === 'Skill' && id !== null && typeof input?.skill === 'string')
          if (input.skill.startsWith(OMC_SKILL_PREFIX)) push(this.omcSkillCalls, id, KEEP_SKILL_CALLS);
        const file = input?.file_path ?? input?.notebook_path;
        if (WRITE_TOOLS.has(name) && typeof file === 'string') this.fileWritten(short(file, 300));
      }
    }
  }

  /** The Skill tool's meta line for an OMC skill call: the directory Claude Code loaded that skill from. */
  private skillBase(callId: string, msg: Obj, at: number | null): void {
    if (!this.omcSkillCalls.includes(callId)) return;
    const first = obj((msg.content as unknown[])[0]);
    const text = typeof first?.text === 'string' ? first.text.slice(0, 4200) : '';
    const dir = SKILL_BASE_DIR.exec(text)?.[1];
    if (dir === undefined || CONTROL.test(dir)) return;
    this.facts.omcSkillDir = { dir, atMs: at };
  }

  private peerNote(origin: unknown, text: unknown, at: number | null): void {
    const o = obj(origin);
    if (o?.kind !== 'peer' || typeof text !== 'string') return;
    push(
      this.facts.peerNotes,
      {
        from: typeof o.from === 'string' ? short(o.from, 200) : null,
        text: cleanBlock(text.slice(0, PEER_NOTE_CHARS)),
        atMs: at,
      },
      KEEP_PEER_NOTES,
    );
  }

  private user(line: Obj, at: number | null): void {
    if (line.isSidechain === true) return;
    const f = this.facts;
    const msg = obj(line.message);
    if (!msg) return;
    if (line.origin !== undefined) this.peerNote(line.origin, msg.content, at);
    if (typeof msg.content === 'string') {
      this.native.userText(msg.content, line.isMeta === true);
      // A typed prompt (not a meta line the CLI injects) begins a turn.
      if (line.isMeta !== true) {
        f.turnOpen = true;
        f.turnFiles = [];
        f.turnBlocks = 0;
        f.blockCapOverride = null;
        // A new prompt is only typed once nothing is pending: a call left open was abandoned (interrupted).
        if (f.pendingCalls.length > 0) f.pendingCalls = [];
      }
      return;
    }
    if (!Array.isArray(msg.content)) return;
    if (line.isMeta === true && typeof line.sourceToolUseID === 'string') this.skillBase(line.sourceToolUseID, msg, at);
    for (const block of msg.content) {
      const b = obj(block);
      if (b?.type === 'tool_result' && typeof b.tool_use_id === 'string' && f.pendingCalls.length > 0)
        f.pendingCalls = f.pendingCalls.filter((p) => p.id !== b.tool_use_id);
      if (b?.type === 'tool_result') {
        this.native.toolResult(b.tool_use_id, b.is_error === true, obj(line.toolUseResult), at);
      }
      if (b?.type !== 'tool_result' || b.is_error !== true) continue;
      const text = short(resultText(b.content), 300) || 'tool error';
      f.lastError = { text, atMs: at };
      push(f.recentErrors, text, KEEP_ERRORS);
      this.current().errors += 1;
    }
    // Files a command created or changed (Bash reports them in its structured result).
    const files = obj(obj(line.toolUseResult)?.bashEditDiff)?.files;
    if (Array.isArray(files))
      for (const x of files) {
        const p = obj(x)?.filePath;
        if (typeof p === 'string') this.fileWritten(short(p, 300));
      }
  }

  private attachment(line: Obj, at: number | null): void {
    const a = obj(line.attachment);
    if (a?.type === 'goal_status') {
      this.native.goalStatus(a, at);
      return;
    }
    if (a?.type === 'queued_command') return this.peerNote(a.origin, a.prompt, at);
    if (a?.type !== 'hook_blocking_error') return;
    const be = a.blockingError;
    const reason = typeof be === 'string' ? be : obj(be)?.blockingError;
    if (typeof reason !== 'string') return;
    const text = truncate(cleanLine(reason).trim(), 300);
    const m = RALPH_ITERATION.exec(text);
    const iteration = m ? Number(m[1]) : null;
    const max = m ? Number(m[2]) : null;
    const f = this.facts;
    f.turnBlocks += 1;
    push(f.stopHooks, { atMs: at, text, iteration, max }, KEEP_STOP_HOOKS);
    const before = f.iterations[f.iterations.length - 1];
    // The work before OMC's block "ITERATION n" was iteration n-1 (the first block names 2: ralph starts at 1).
    if (iteration !== null && before && before.iteration === null && iteration > 1) before.iteration = iteration - 1;
    if (iteration !== null)
      push(
        f.iterations,
        { iteration, startedMs: at, tokens: zeroTokens(), byModel: new Map(), filesWritten: 0, errors: 0 },
        KEEP_ITERATIONS,
      );
  }

  private system(line: Obj, at: number | null): void {
    const f = this.facts;
    this.native.system(line, at);
    if (line.subtype === 'turn_duration') {
      const d = line.durationMs;
      if (typeof d === 'number' && Number.isFinite(d) && d >= 0) push(f.turnDurationsMs, d, KEEP_TURN_DURATIONS);
      f.turnOpen = false;
      f.lastTurnEndMs = at;
    }
  }
}

const ms = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v < 253_402_300_799_999 ? v : null;

function exitFigures(line: Obj, usd: number): ExitFigures {
  const startMs = ms(line.startTime);
  const durationMs = ms(line.totalDuration);
  const models: ExitFigures['models'] = [];
  const usage = obj(line.modelUsage);
  for (const [model, v] of Object.entries(usage ?? {}).slice(0, 16)) {
    const u = obj(v);
    if (!u) continue;
    models.push({
      model: short(model, 60),
      tokens: {
        input: count(u.inputTokens),
        output: count(u.outputTokens),
        cacheRead: count(u.cacheReadInputTokens),
        cacheWrite: count(u.cacheCreationInputTokens),
      },
      usd: typeof u.costUSD === 'number' && Number.isFinite(u.costUSD) && u.costUSD >= 0 ? u.costUSD : null,
    });
  }
  return {
    usd,
    unknownModelCost: line.hasUnknownModelCost === true,
    startMs,
    durationMs,
    endMs: startMs !== null && durationMs !== null ? startMs + durationMs : null,
    apiDurationMs: ms(line.totalAPIDuration),
    toolDurationMs: ms(line.totalToolDuration),
    linesAdded: ms(line.totalLinesAdded),
    linesRemoved: ms(line.totalLinesRemoved),
    models,
  };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((c) => (typeof obj(c)?.text === 'string' ? (obj(c)?.text as string) : ''))
      .join(' ')
      .trim();
  return '';
}
