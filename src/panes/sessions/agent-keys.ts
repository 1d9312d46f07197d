/**
 * The sessions pane's keys for the Claude process behind a session: P peeks
 * (read only), J jumps to its tmux pane, I interrupts it (offered only after
 * cancels that did not take). Upper case because they are free in every pane
 * and never shadow a pane hotkey (lower-case letters), j/k/h/l navigation or
 * c / p (cancel / pause).
 */
import type { Binding, Mode } from '../../kit/bindings.js';
import { configuredPrices } from '../../store/claude/price-config.js';
import { askingProcess } from '../../store/claude/asker.js';
import { waitingProcess } from '../../store/claude/life.js';
import type { SessionView } from '../../store/sessions/model.js';
import { navBindings, scrollDelta } from '../../kit/nav.js';
import type { KeyContext } from '../../kit/pane.js';
import { requestInterrupt, interruptUnavailable } from './escalation.js';
import { jumpTo } from './jump-flow.js';
import { peekLayout } from './peek-lines.js';
import { closePeek, openPeek, scrollPeek } from './peek-state.js';
import { rowByKey, rowKey, type SessionsPaneState } from './reducer.js';

type S = SessionsPaneState;
type Ctx = KeyContext<S>;

const PEEK_HELP = 'peek at the Claude process behind the session: last text, tool calls, files, errors, Stop hooks';
const JUMP_HELP = "jump: switch tmux to the pane running the session's Claude process";
const INTERRUPT_HELP =
  'interrupt the Claude process (SIGINT) after 2 cancels that did not take: first proves it is that session’s Claude (start time, executable, owner, cwd, registry file)';

const peekSession = (ctx: Ctx) => rowByKey(ctx.store.sessions.getSnapshot().sessions, ctx.state.peek?.id);
/**
 * The Claude J goes to: the one that asks the session's pending permission prompt (a second terminal may run the
 * same session, askingProcess), else the session's process.
 */
const processOf = (ctx: Ctx, s: SessionView | undefined) => {
  if (!s) return null;
  const claude = ctx.store.claude.getSnapshot();
  const asking = ctx.store.permissions.getSnapshot().requests.find((r) => r.sessionId === s.id);
  if (asking) return askingProcess(claude, s.id, asking.claudePid);
  // Another of the session's Claudes waits on a prompt (the registry's): J goes to it, as the detail says.
  const p = claude.bySession.get(s.id)?.process ?? null;
  return waitingProcess(p) ?? p;
};

export function peekLayoutOf(ctx: Ctx) {
  const s = peekSession(ctx);
  if (!s) return null;
  return peekLayout(
    s,
    ctx.store.claude.getSnapshot().bySession.get(s.id) ?? null,
    ctx.body,
    ctx.app.now(),
    configuredPrices(),
  );
}

/** Pressed with no session (an empty list, a filter matching nothing): said; in the footer, not offered at all. */
const none = (s: SessionView | undefined) => (s ? null : 'no session selected');
const legacy = (s: SessionView | undefined) =>
  s?.kind === 'legacy' ? 'the session-less (legacy) state has no Claude process' : null;

export function agentBindings(
  modes: { LIST: Mode<S>; DETAIL: Mode<S>; PEEK: Mode<S> },
  current: (ctx: Ctx) => SessionView | undefined,
): Binding<S>[] {
  const peek = (when: Mode<S>, hint?: string): Binding<S> => ({
    keys: ['P'],
    help: PEEK_HELP,
    hint,
    when,
    disabled: (ctx) => none(current(ctx)) ?? legacy(current(ctx)),
    offered: (ctx) => current(ctx) !== undefined,
    run: (ctx) => {
      const s = current(ctx);
      if (s) ctx.set((st) => openPeek(st, rowKey(s)));
    },
  });
  const jump = (when: Mode<S>, which: (ctx: Ctx) => SessionView | undefined, hint?: string): Binding<S> => ({
    keys: ['J'],
    help: JUMP_HELP,
    hint,
    when,
    disabled: (ctx) => none(which(ctx)) ?? legacy(which(ctx)),
    offered: (ctx) => which(ctx) !== undefined,
    run: (ctx) => {
      const s = which(ctx);
      if (s) jumpTo(ctx.app, `session ${s.id}`, processOf(ctx, s));
    },
  });
  const interrupt = (when: Mode<S>): Binding<S> => ({
    keys: ['I'],
    help: INTERRUPT_HELP,
    when,
    // Not a write to .omc, but it changes what runs: --readonly promises to leave everything alone.
    writes: true,
    readonlyText: '--readonly: interrupt is disabled (nothing is signalled)',
    disabled: (ctx) => {
      const s = current(ctx);
      return none(s) ?? legacy(s) ?? (s ? interruptUnavailable(ctx.store, s) : null);
    },
    run: (ctx) => {
      const s = current(ctx);
      if (s) requestInterrupt(ctx, s);
    },
  });
  const scroll = (ctx: Ctx, delta: (h: number) => number) => {
    const l = peekLayoutOf(ctx);
    if (l) ctx.set((st) => scrollPeek(st, delta(l.height), l.lines.length, l.height));
  };
  return [
    peek(modes.LIST, 'peek'),
    peek(modes.DETAIL, 'peek'),
    jump(modes.LIST, current, 'jump'),
    jump(modes.DETAIL, current),
    interrupt(modes.LIST),
    interrupt(modes.DETAIL),
    ...navBindings(modes.PEEK, 'scroll', (ctx, to) => scroll(ctx, (h) => scrollDelta(to, h)), { hint: false }),
    { keys: [' '], help: 'scroll a page down', when: modes.PEEK, run: (ctx) => scroll(ctx, (h) => Math.max(1, h)) },
    jump(modes.PEEK, peekSession, 'jump'),
    {
      keys: ['escape', 'backspace', 'left', 'h', 'P'],
      help: 'close the peek',
      hint: 'close',
      when: modes.PEEK,
      run: (ctx) => ctx.set(closePeek),
    },
  ];
}
