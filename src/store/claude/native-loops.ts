/**
 * Claude Code's own loops, as a session's transcript records them (2.1.332,
 * observed offline: /work/notes/claude-2.1.332-protocols.md §5):
 * - `/goal <condition>`: a session-scoped Stop hook; every `goal_status`
 *   attachment restates it (`sentinel` when set or carried over, `met`,
 *   `failed` when judged impossible, the evaluator's `reason`). There is no
 *   state file: the newest `goal_status` is the goal's state.
 * - `/loop`: CronCreate (a recurring or one-shot job, session-only) and
 *   ScheduleWakeup (the dynamic loop's next wakeup), their tool results with
 *   the job id and next run, `scheduled_task_fire` system lines per fire,
 *   CronDelete. Jobs die with the process.
 * Folded into a small bounded summary, like the rest of the transcript facts. Pure.
 */
import { type Obj } from '../../io/json.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import { nextCronMs } from './cron.js';

export interface GoalFacts {
  condition: string;
  state: 'active' | 'met' | 'failed' | 'cleared';
  setMs: number | null;
  /** Evaluations that found it unmet since it was set. */
  checks: number;
  lastCheckMs: number | null;
  /** The evaluator's last reason. */
  reason: string | null;
  /** Claude Code paused it after the Stop-hook block cap this turn (it stays set; a message continues). */
  paused: boolean;
  /** From the "met" (or "failed") status: turns, time and tokens Claude Code counted for it. */
  summary: { iterations: number | null; durationMs: number | null; tokens: number | null } | null;
}

export interface ScheduledJob {
  /** The job id Claude Code gave it ("wakeup" for the dynamic loop's next wakeup). */
  id: string;
  kind: 'cron' | 'wakeup';
  /** The cron expression (cron jobs) or null. */
  cron: string | null;
  /** Claude Code's words for the schedule ("Every minute"), when it gave them. */
  human: string | null;
  prompt: string;
  recurring: boolean;
  /** The next run Claude Code announced (CronCreate, ScheduleWakeup), epoch ms. */
  announcedNextMs: number | null;
  createdMs: number | null;
  lastFireMs: number | null;
  fires: number;
  /** Auto-expiry (CronCreate's maxAgeMs after creation). */
  expiresMs: number | null;
  deleted: boolean;
}

export interface NativeLoopFacts {
  goal: GoalFacts | null;
  jobs: ScheduledJob[];
}

export const KEEP_JOBS = 20;
const PENDING_CALLS = 32;

export const emptyNativeLoops = (): NativeLoopFacts => ({ goal: null, jobs: [] });

const text = (v: unknown, max: number) => (typeof v === 'string' ? truncate(cleanLine(v).trim(), max) : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** Folds transcript lines into the native-loop facts. */
export class NativeLoopFolder {
  readonly facts: NativeLoopFacts = emptyNativeLoops();
  /** Tool calls whose result is still to come: id → (name, input). */
  private pending = new Map<string, { name: string; input: Obj }>();

  private job(id: string): ScheduledJob | undefined {
    return this.facts.jobs.find((j) => j.id === id);
  }

  private putJob(j: ScheduledJob): void {
    const jobs = this.facts.jobs.filter((x) => x.id !== j.id);
    jobs.push(j);
    // Deleted jobs go first when there are too many.
    while (jobs.length > KEEP_JOBS) {
      const i = jobs.findIndex((x) => x.deleted);
      jobs.splice(i === -1 ? 0 : i, 1);
    }
    this.facts.jobs = jobs;
  }

  /** An assistant line's tool calls (CronCreate / ScheduleWakeup / CronDelete are remembered until their result). */
  toolUse(id: unknown, name: string, input: Obj | null): void {
    if (typeof id !== 'string' || !input) return;
    if (name !== 'CronCreate' && name !== 'ScheduleWakeup' && name !== 'CronDelete') return;
    this.pending.set(id, { name, input });
    if (this.pending.size > PENDING_CALLS) this.pending.delete(this.pending.keys().next().value as string);
  }

  /** A user line's tool result (`toolUseResult` holds the structured answer). */
  toolResult(toolUseId: unknown, isError: boolean, result: Obj | null, at: number | null): void {
    if (typeof toolUseId !== 'string') return;
    // The call is known when its line was read; else (a transcript read from its last 64 MB) the result's shape says.
    const call = this.pending.get(toolUseId) ?? inferCall(result);
    if (!call) return;
    this.pending.delete(toolUseId);
    if (isError) return;
    if (call.name === 'CronCreate' && result && typeof result.id === 'string') {
      const maxAge = num(result.maxAgeMs);
      this.putJob({
        id: text(result.id, 40),
        kind: 'cron',
        cron: text(call.input.cron, 80) || null,
        human: text(result.humanSchedule, 80) || null,
        prompt: text(call.input.prompt, 300),
        recurring: result.recurring !== false && call.input.recurring !== false,
        announcedNextMs: num(result.nextFireAt),
        createdMs: at,
        lastFireMs: null,
        fires: 0,
        expiresMs: maxAge !== null && at !== null ? at + maxAge : null,
        deleted: false,
      });
    } else if (call.name === 'ScheduleWakeup' && result) {
      const prev = this.job('wakeup');
      this.putJob({
        id: 'wakeup',
        kind: 'wakeup',
        cron: null,
        human: typeof result.clampedDelaySeconds === 'number' ? `in ${result.clampedDelaySeconds}s` : null,
        prompt: text(call.input.prompt, 300),
        recurring: false,
        announcedNextMs: num(result.scheduledFor),
        createdMs: prev?.createdMs ?? at,
        lastFireMs: prev?.lastFireMs ?? null,
        fires: prev?.fires ?? 0,
        expiresMs: null,
        deleted: false,
      });
    } else if (call.name === 'CronDelete' && typeof call.input.id === 'string') {
      const j = this.job(text(call.input.id, 40));
      if (j) this.putJob({ ...j, deleted: true });
    }
  }

  /** `system` lines: a scheduled fire, the block cap's "Goal paused". */
  system(line: Obj, at: number | null): void {
    if (line.subtype === 'scheduled_task_fire') {
      const loop = line.taskKind === 'loop' || line.cronKind === 'loop';
      const id = loop ? 'wakeup' : text(line.taskId, 40);
      const j = this.job(id);
      if (j) this.putJob({ ...j, fires: j.fires + 1, lastFireMs: at, ...(loop ? { announcedNextMs: null } : {}) });
      else if (id)
        // Created before the part of the transcript we read (or by an earlier process): known from its fires.
        this.putJob({
          id,
          kind: loop ? 'wakeup' : 'cron',
          cron: loop ? null : text(line.cron, 80) || null,
          human: null,
          prompt: text(line.prompt, 300),
          recurring: !loop,
          announcedNextMs: null,
          createdMs: null,
          lastFireMs: at,
          fires: 1,
          expiresMs: null,
          deleted: false,
        });
      return;
    }
    const content = typeof line.content === 'string' ? line.content : '';
    if (line.subtype === 'informational' && this.facts.goal && content.startsWith('Goal paused'))
      this.facts.goal = { ...this.facts.goal, paused: true };
  }

  /** A `goal_status` attachment. */
  goalStatus(a: Obj, at: number | null): void {
    const condition = text(a.condition, 400);
    const prev = this.facts.goal;
    const same = prev !== null && prev.condition === condition;
    if (a.sentinel === true) {
      // Set (or restated) while active; a sentinel with met:true marks an earlier goal as no longer set.
      if (a.met === true) {
        if (same && prev.state === 'active') this.facts.goal = { ...prev, state: 'cleared', paused: false };
        return;
      }
      this.facts.goal =
        same && prev.state === 'active'
          ? prev
          : {
              condition,
              state: 'active',
              setMs: at,
              checks: 0,
              lastCheckMs: null,
              reason: null,
              paused: false,
              summary: null,
            };
      return;
    }
    const base: GoalFacts = same
      ? prev
      : {
          condition,
          state: 'active',
          setMs: null,
          checks: 0,
          lastCheckMs: null,
          reason: null,
          paused: false,
          summary: null,
        };
    const reason = text(a.reason, 300) || null;
    if (a.met === true || a.failed === true)
      this.facts.goal = {
        ...base,
        state: a.met === true ? 'met' : 'failed',
        lastCheckMs: at,
        reason,
        paused: false,
        summary: { iterations: num(a.iterations), durationMs: num(a.durationMs), tokens: num(a.tokens) },
      };
    else this.facts.goal = { ...base, state: 'active', checks: base.checks + 1, lastCheckMs: at, reason };
  }

  /** A typed prompt continues a paused goal; "/goal clear" shows as the command's own output. */
  userText(content: string, isMeta: boolean): void {
    const g = this.facts.goal;
    if (!g) return;
    if (content.includes('<local-command-stdout>Goal cleared')) {
      if (g.state === 'active') this.facts.goal = { ...g, state: 'cleared', paused: false };
      return;
    }
    if (!isMeta && g.paused) this.facts.goal = { ...g, paused: false };
  }
}

function inferCall(result: Obj | null): { name: string; input: Obj } | null {
  if (!result) return null;
  if (typeof result.id === 'string' && typeof result.humanSchedule === 'string')
    return { name: 'CronCreate', input: {} };
  if (typeof result.scheduledFor === 'number' && 'clampedDelaySeconds' in result)
    return { name: 'ScheduleWakeup', input: {} };
  return null;
}

/**
 * When a job runs next, as far as the transcript tells: the announced time while it is ahead, else (a
 * recurring cron job) the cron's next minute after now. null: fired and not re-armed, deleted, expired.
 */
export function nextRunMs(j: ScheduledJob, now: number): number | null {
  if (j.deleted || (j.expiresMs !== null && now >= j.expiresMs)) return null;
  if (
    j.announcedNextMs !== null &&
    j.announcedNextMs > now &&
    (j.lastFireMs === null || j.lastFireMs < j.announcedNextMs)
  )
    return j.announcedNextMs;
  if (j.kind === 'cron' && j.recurring && j.cron) return nextDelayedCronMs(j.cron, j.id, now);
  if (j.kind === 'cron' && !j.recurring && j.fires === 0) return j.announcedNextMs;
  return null;
}

/**
 * Claude Code runs a recurring job after each cron time by a delay of its own (observed with 2.1.332: the
 * CronCreate result's nextFireAt): a fraction taken from the job id's first eight hex digits, times half the
 * interval to the following cron time, at most 30 minutes. So an every-minute job runs up to 30 s after the
 * minute, at the same second each time.
 */
const MAX_DELAY_MS = 30 * 60_000;
const idFraction = (id: string) => {
  const f = parseInt(id.slice(0, 8), 16) / 2 ** 32;
  return Number.isFinite(f) ? f : 0;
};

/** The first run after `now` of a recurring job, its delay included; cron times older than the longest delay cannot be it. */
export function nextDelayedCronMs(cron: string, id: string, now: number): number | null {
  const frac = idFraction(id);
  let at = nextCronMs(cron, now - MAX_DELAY_MS - 60_000);
  for (let i = 0; at !== null && i < 64; i++) {
    const following = nextCronMs(cron, at);
    const run = following === null ? at : at + Math.min(frac * 0.5 * (following - at), MAX_DELAY_MS);
    if (run > now) return run;
    at = following;
  }
  return at === null ? null : nextCronMs(cron, now);
}

/** The jobs still scheduled (not deleted, not expired, not a spent one-shot). */
export function liveJobs(f: NativeLoopFacts, now: number): ScheduledJob[] {
  return f.jobs.filter((j) => nextRunMs(j, now) !== null || (j.kind === 'wakeup' && j.announcedNextMs !== null));
}
