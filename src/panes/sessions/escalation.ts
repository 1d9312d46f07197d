/**
 * Stop escalation: when omc-top's cancel of a session has been judged "did not
 * take" CANCEL_ATTEMPTS_BEFORE_INTERRUPT times and a live Claude process runs
 * it, I offers to interrupt that process with SIGINT. The plan proves it is the
 * Claude Code CLI of that session (store/claude/interrupt.ts); the dialog says what was checked; after the
 * signal the registry and the disk are read again and the message says what
 * happened (the process stopped or not, the loop still on disk or not).
 * Kept apart from cancel-flow.ts: a cancel never signals anything.
 */
import { processStateWords } from './process-words.js';
import { processesText } from '../../store/claude/join-words.js';
import path from 'node:path';
import { trackerKey } from '../../store/cancel/tracker.js';
import { runningStartIdentity } from '../../io/process-start.js';
import { failedCancelsOf } from '../../store/claude/failed-cancels.js';
import {
  CANCEL_ATTEMPTS_BEFORE_INTERRUPT,
  planInterrupt,
  sendInterrupt,
  shouldOfferInterrupt,
} from '../../store/claude/interrupt.js';
import type { ProcessView } from '../../store/claude/model.js';
import type { SessionView } from '../../store/sessions/model.js';
import { hookLook } from '../../store/cancel/hook-look.js';
import { stopVerdict } from '../../store/verdict/index.js';
import type { OmcStore } from '../../store/store.js';
import type { KeyContext } from '../../kit/pane.js';
import type { SessionsPaneState } from './reducer.js';

type Ctx = KeyContext<SessionsPaneState>;

/** How long to wait for the interrupted CLI to exit (measured: under half a second when busy). */
export const INTERRUPT_VERIFY_MS = 10_000;
const POLL_MS = 100;

const keyOf = (s: SessionView) => trackerKey(s.kind === 'legacy' ? null : s.id);
const processOf = (store: OmcStore, s: SessionView): ProcessView | null =>
  store.claude.getSnapshot().bySession.get(s.id)?.process ?? null;
const projectOf = (store: OmcStore) => store.projectDir ?? path.dirname(store.root);

/** Why I does nothing for this session right now, or null when the offer stands. */
export function interruptUnavailable(store: OmcStore, s: SessionView): string | null {
  const failed = failedCancelsOf(store.cancels).count(keyOf(s));
  const p = processOf(store, s);
  if (shouldOfferInterrupt(failed, p)) return null;
  if (failed < CANCEL_ATTEMPTS_BEFORE_INTERRUPT)
    return `interrupt is offered after ${CANCEL_ATTEMPTS_BEFORE_INTERRUPT} cancels that did not take (this session: ${failed}); press c to cancel`;
  return p === null
    ? 'no Claude process is registered for this session: nothing to interrupt'
    : `its Claude process (pid ${p.pid}) ${processStateWords(p.status)}: nothing to interrupt`;
}

/**
 * Called before a cancel is asked for: when this session's second failure comes in and a
 * live process runs it, the message log says I is there.
 */
export function watchForEscalation(ctx: Ctx, s: SessionView): void {
  const counter = failedCancelsOf(ctx.store.cancels);
  const key = keyOf(s);
  const stop = counter.onFailure((k, n) => {
    if (k !== key) return;
    stop();
    const p = processOf(ctx.store, s);
    if (!shouldOfferInterrupt(n, p) || !p) return;
    // After the cancel flow's own "did not take" message (the same tracker change), not under it.
    setImmediate(() =>
      ctx.app.flash(
        `cancel did not take ${n} times: press I to interrupt Claude (SIGINT to pid ${p.pid}, after checking it is still that Claude Code process in this project)`,
        'error',
      ),
    );
  });
}

/** Is any mode of the session still enforced by the Stop hook, re-reading the disk now? */
function loopStillOnDisk(store: OmcStore, s: SessionView, now: number): string | null {
  // The files the session's Stop hooks read, its ~/.omc fallback copy too (as the tracker and `omc-top cancel` judge).
  const look = hookLook(store.root, s.id, { projectDir: projectOf(store), home: store.home });
  const v = stopVerdict(look.tree, {
    rules: store.sessions.installOf(s.id).rules,
    sessionId: s.id,
    cwd: s.cwd ?? look.cwd,
    now,
  });
  // Its gate: a cancel's own signal lets the agent stop now, the loop is still on disk.
  return v.modes.find((m) => m.gateHolds)?.mode ?? null;
}

export function requestInterrupt(ctx: Ctx, s: SessionView): void {
  const why = interruptUnavailable(ctx.store, s);
  const p = processOf(ctx.store, s);
  if (why || !p) {
    ctx.app.flash(`interrupt: ${why ?? 'no process'}`, 'error');
    return;
  }
  const plan = planInterrupt(p, {
    projectDir: projectOf(ctx.store),
    configDir: ctx.store.claude.getSnapshot().configDir,
  });
  if (!plan.ok) {
    ctx.app.flash(`interrupt: ${plan.reason}; nothing was signalled`, 'error');
    return;
  }
  ctx.app.confirm({
    id: 'interrupt',
    title: `Interrupt Claude (pid ${plan.pid}) running session ${s.id}?`,
    lines: [
      `omc-top's cancel did not take ${failedCancelsOf(ctx.store.cancels).count(keyOf(s))} times: the loop keeps being re-armed.`,
      `Checked: ${plan.checked}.`,
      ...(processesText(p) ? [`${processesText(p)}: only pid ${plan.pid} is signalled.`] : []),
      'SIGINT is what Ctrl-C sends: a busy CLI ends its turn and exits; its registry entry goes.',
      'The identity is checked again right before the signal; afterwards the registry and the disk are read again.',
    ],
    prompt: 'y: send SIGINT   n/Esc: leave it running',
    onConfirm: () =>
      ctx.app.run('interrupt', async () => {
        const err = sendInterrupt(plan);
        if (err) {
          ctx.app.flash(`interrupt: ${err}`, 'error');
          return;
        }
        ctx.app.flash(`SIGINT sent to pid ${plan.pid}; checking that it stopped…`, 'info');
        const deadline = Date.now() + INTERRUPT_VERIFY_MS;
        let alive = runningStartIdentity(plan.pid) === plan.procStart;
        while (alive && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, POLL_MS));
          alive = runningStartIdentity(plan.pid) === plan.procStart;
        }
        // The registry and the disk, read again now (the watcher may not have seen them yet).
        ctx.store.claude.scan();
        const entry = processOf(ctx.store, s);
        const loop = loopStillOnDisk(ctx.store, s, ctx.app.now());
        const registry =
          entry && entry.pid === plan.pid && entry.status !== 'gone'
            ? 'its registry entry still says it runs'
            : entry && entry.pid === plan.pid
              ? 'its registry entry is left behind (stale)'
              : 'its registry entry is gone';
        if (alive)
          ctx.app.flash(
            `interrupt: pid ${plan.pid} is still running ${INTERRUPT_VERIFY_MS / 1000}s after SIGINT (${registry}); it may be inside a tool call`,
            'error',
          );
        else if (loop)
          ctx.app.flash(
            `interrupt: Claude (pid ${plan.pid}) stopped, ${registry}; ${loop} is still active on disk: press c to clean it up`,
            'error',
          );
        else
          ctx.app.flash(`interrupt: Claude (pid ${plan.pid}) stopped, ${registry}; no loop is left on disk`, 'success');
      }),
    onDecline: () => ctx.app.flash('interrupt not confirmed: nothing was signalled', 'info'),
  });
}
