/**
 * Turns transitions into notifications: the terminal bell, a desktop
 * notification by OSC 9 or OSC 777, and `tmux display-message` (shown in
 * tmux's status line; it never switches window or pane). A new occurrence of
 * a condition that needs the user notifies on the default channels (unless
 * it is already acknowledged, or the config turns its reason off); news (a
 * loop finished) notifies only when the config turns its reason on.
 * Transitions arriving within `debounceMs` of the first one become one
 * notification naming project, session, what it waits for and the key that
 * acts (plus "+N more"). The engine reports each transition once; the
 * notifier also drops a repeat of the same item (its id; for news, the same
 * fact and reason) within `REPEAT_MS` (a file that flaps). Every text is
 * cleaned of control bytes before it is written.
 */
import { execFile } from 'node:child_process';
import type { Transition } from '../attention/engine.js';
import { shownSession, type NeedItem } from '../attention/needs.js';
import { cleanLine } from '../../io/sanitize.js';
import type { Channel, OmcTopConfig } from '../../config/config-file.js';
import type { PushMessage } from './push/channel.js';
import { SYNC_KILL, trackChild } from '../../io/child-end.js';
import { tmuxLiteral } from '../../io/tmux-literal.js';

export interface NotifierOptions {
  channels: readonly Channel[];
  project: string;
  config?: OmcTopConfig;
  /** Writes to the terminal (bell, OSC). */
  write(bytes: string): void;
  env?: NodeJS.ProcessEnv;
  /** The tmux command (tests run a private `tmux -L` server). */
  tmux?: readonly string[];
  clock?: () => number;
  /**
   * Push (the user's phone): called once per item that newly needs the user, after the same debounce as the
   * bell. Queues and returns at once (push/sender.ts); never for news. `ids`: the items the message is about (one;
   * several for a "+N more" message), so that a handover of the push lease neither loses nor repeats it.
   */
  push?(m: PushMessage, ids: readonly string[]): void;
  /** The toggle key turned notifications off or on (push follows: a muted monitor lets the push lease go). */
  onEnabled?(on: boolean): void;
}

interface Pending {
  text: string;
  channels: Set<Channel>;
  push: { message: PushMessage; id: string } | null;
}

/** Pushes per debounce window at most; the rest are named in the last one ("+N more"). */
const PUSH_MAX = 5;

export const DEFAULT_DEBOUNCE_MS = 1500;
const REPEAT_MS = 60_000;

const short = (session: string) => (session.length > 12 ? session.slice(0, 8) : shownSession(session));

/** The push message of an item that newly needs the user: project, session, what is waited on; nothing else. */
export function pushMessageOf(t: Transition, project: string): PushMessage | null {
  const n = t.needs ? t.fact.need : null;
  if (!n) return null;
  // The session by the name Claude Code gives it and its tmux window, when known; else its short id.
  const session = [n.name ?? (n.session ? short(n.session) : null), n.tmux ? `(${n.tmux})` : null]
    .concat(n.team ? [`team ${n.team}`, n.worker ? `worker ${n.worker}` : null] : [])
    .filter(Boolean)
    .join(' ');
  return {
    project: cleanLine(project),
    session: session ? cleanLine(session) : null,
    waitingOn: cleanLine(n.waitingOn ? `${n.reason}: ${n.waitingOn}` : n.reason),
  };
}

/**
 * An item that newly needs the user, known only as an item (a remote host's attention line): the transition
 * that raised it, so it takes the same path (debounce, repeat guard, reason rules, message) as a local one.
 */
export function raisedBy(n: NeedItem): Transition {
  return {
    kind: `need:${n.kind}`,
    key: n.id,
    from: null,
    to: n.id,
    needs: n.reason,
    news: null,
    fact: {
      value: n.id,
      session: n.session,
      mode: n.mode,
      team: n.team,
      worker: n.worker,
      path: n.path,
      need: n,
      needs: n.reason,
      news: null,
    },
  };
}

/** What the inbox key does for an item, in a notification ("! then J jumps there"). */
const ACTION_HINT: Record<NeedItem['action'], string> = {
  jump: '! then J jumps there',
  cancel: '! then c cleans it up',
  detail: '! lists it',
};

export function describe(t: Transition, project: string): string {
  const f = t.fact;
  const n = t.needs ? f.need : null;
  // The session by the name Claude Code gives it and its tmux window, when known; else its short id.
  const session = n?.name ?? (f.session ? short(f.session) : null);
  const who = [
    session,
    n?.tmux ? `(${n.tmux})` : null,
    f.team ? `team ${f.team}` : null,
    f.worker ? `worker ${f.worker}` : null,
    f.mode,
  ].filter(Boolean);
  // A session directory reads as the session's short id, not a path with a 36-character id in it.
  const dir = f.path ? /^state\/sessions\/([^/]+)$/.exec(f.path)?.[1] : undefined;
  const where = who.length > 0 ? ` ${who.join(' ')}` : dir ? ` ${short(dir)}` : f.path ? ` ${f.path}` : '';
  const what = n ? (n.waitingOn ? `${n.reason}: ${n.waitingOn}` : n.reason) : (t.news ?? '');
  // J only where a tmux pane is known (store/claude/attention.ts reachAdvice): else the inbox lists it.
  const hint = n ? (n.action === 'jump' && !n.tmux ? ACTION_HINT.detail : ACTION_HINT[n.action]) : '';
  return cleanLine(`${project}${where}: ${what}${hint ? ` · ${hint}` : ''}`);
}

/** OSC 777 for VTE and rxvt terminals, OSC 9 (iTerm2, kitty, WezTerm, foot, …) otherwise. */
export function oscSequence(text: string, env: NodeJS.ProcessEnv): string {
  const body = cleanLine(text).replace(/;/g, ',');
  const seq =
    env.VTE_VERSION || /^rxvt/.test(env.TERM ?? '') ? `\x1b]777;notify;omc-top;${body}\x07` : `\x1b]9;${body}\x07`;
  // Inside tmux, hand the sequence to the outer terminal (tmux's passthrough wrapper).
  return env.TMUX ? `\x1bPtmux;${seq.replace(/\x1b/g, '\x1b\x1b')}\x1b\\` : seq;
}

export class Notifier {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly recent = new Map<string, number>();
  private enabled = true;
  private readonly env: NodeJS.ProcessEnv;
  private readonly clock: () => number;
  private debounceMs: number;
  /** What was sent, newest last (for tests and the UI's message line). */
  readonly sent: string[] = [];

  constructor(private opts: NotifierOptions) {
    this.env = opts.env ?? process.env;
    this.clock = opts.clock ?? Date.now;
    this.debounceMs = opts.config?.notify?.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  }

  /**
   * Other channels and rules from now on (the config file changed under a running fleet): what is already waiting
   * for the debounce goes out as it was queued; the repeat guard and the on/off switch are kept.
   */
  configure(channels: readonly Channel[], config: OmcTopConfig): void {
    this.opts = { ...this.opts, channels, config };
    this.debounceMs = config.notify?.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  }

  /** The toggle key: off drops what is pending and what comes until it is on again. */
  setEnabled(on: boolean): void {
    const changed = on !== this.enabled;
    this.enabled = on;
    if (!on) this.pending = [];
    if (changed) this.opts.onEnabled?.(on);
  }

  isEnabled(): boolean {
    return this.enabled;
  }

  /** A need notifies unless its reason is turned off; news only when its reason is turned on. */
  private channelsFor(reason: string, isNews: boolean): Channel[] {
    const rule = this.opts.config?.notify?.reasons?.[reason as never] as boolean | Channel[] | undefined;
    if (rule === false || (isNews && rule === undefined)) return [];
    if (Array.isArray(rule)) return rule;
    return [...this.opts.channels];
  }

  /** Push follows the reason rules too: a reason turned off (false) is not pushed. */
  private pushes(reason: string): boolean {
    return this.opts.config?.notify?.reasons?.[reason as never] !== false;
  }

  /**
   * `isAcked`: an occurrence the user already acknowledged (in another omc-top, say) does not notify. `project`:
   * the name these transitions' notifications give (the fleet's one notifier serves every project).
   */
  handle(
    batch: readonly Transition[],
    isAcked: (id: string) => boolean = () => false,
    project: string = this.opts.project,
  ): void {
    if (!this.enabled) return;
    const now = this.clock();
    for (const t of batch) {
      const need = t.needs ? t.fact.need : null;
      if (need && isAcked(need.id)) continue;
      const reason = need ? need.reason : t.news;
      if (!reason) continue;
      // The repeat guard is per item: one item (its own id) that flaps notifies once, while each new item that
      // needs the user (a second prompt of the same session, say) is one notification and one push of its own.
      // News has no item: its fact and reason stand in.
      const id = need ? `need\u0000${need.id}` : `${t.kind}\u0000${t.key}\u0000${reason}`;
      const last = this.recent.get(id);
      if (last !== undefined && now - last < REPEAT_MS) continue;
      const channels = this.channelsFor(reason, need === null);
      // Push: only items that newly need the user (never news), unless their reason is turned off.
      const message = need && this.opts.push && this.pushes(reason) ? pushMessageOf(t, project) : null;
      const push = need && message ? { message, id: need.id } : null;
      if (channels.length === 0 && !push) continue;
      this.recent.set(id, now);
      this.pending.push({ text: describe(t, project), channels: new Set(channels), push });
    }
    for (const [id, at] of this.recent) if (now - at >= REPEAT_MS) this.recent.delete(id);
    if (this.pending.length > 0 && !this.timer) {
      this.timer = setTimeout(() => this.flush(), this.debounceMs);
      this.timer.unref?.();
    }
  }

  /** Sends what is pending as one notification (the debounce timer calls it). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0 || !this.enabled) return;
    this.sendPushes(batch);
    const rung = batch.filter((p) => p.channels.size > 0);
    if (rung.length === 0) return;
    const text = rung.length > 1 ? `${rung[0]?.text} (+${rung.length - 1} more)` : (rung[0]?.text as string);
    const channels = new Set(rung.flatMap((p) => [...p.channels]));
    this.sent.push(text);
    if (channels.has('bell')) this.opts.write('\x07');
    if (channels.has('osc')) this.opts.write(oscSequence(text, this.env));
    if (channels.has('tmux') && (this.env.TMUX || this.opts.tmux)) this.displayMessage(text);
  }

  /** One push per item; past PUSH_MAX in one window, the last names how many more. */
  private sendPushes(batch: readonly Pending[]): void {
    const push = this.opts.push;
    const items = batch.flatMap((p) => (p.push ? [p.push] : []));
    if (!push || items.length === 0) return;
    const shown = items.length > PUSH_MAX ? items.slice(0, PUSH_MAX - 1) : items;
    for (const p of shown) push(p.message, [p.id]);
    if (shown.length < items.length) {
      const rest = items.slice(shown.length);
      const first = (rest[0] as (typeof items)[number]).message;
      push(
        { ...first, waitingOn: `${first.waitingOn} (+${rest.length - 1} more need you)` },
        rest.map((p) => p.id),
      );
    }
  }

  private displayMessage(text: string): void {
    const [cmd, ...pre] = this.opts.tmux ?? ['tmux'];
    const target = this.env.TMUX_PANE ? ['-t', this.env.TMUX_PANE] : [];
    // display-message expands #{…} formats: double every '#' so the text is shown as is.
    const child = execFile(
      cmd as string,
      [...pre, 'display-message', ...target, `omc-top: ${tmuxLiteral(text)}`],
      // A tmux that hangs is ended for good (KILL: one that ignores TERM would outlive omc-top).
      { timeout: 3_000, killSignal: SYNC_KILL },
      () => {
        // A tmux that is gone or refuses is not worth a crash or a message; the bell and OSC still went out.
      },
    );
    trackChild(child);
  }

  /** The pushes waiting for the debounce (at exit they are left to the next holder of the push lease). */
  pendingPushes(): { message: PushMessage; ids: string[] }[] {
    if (!this.enabled) return [];
    return this.pending.flatMap((p) => (p.push ? [{ message: p.push.message, ids: [p.push.id] }] : []));
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
  }
}
