/**
 * m in the session detail: a note to the session's Claude through its inbox socket. "sent" at once (all the
 * socket can say); "delivered ✓" when the transcript shows it (store.notes). With no socket registered, typing
 * it into the tmux pane is offered as a second choice, asked for explicitly, after the pane's prompt line was
 * seen to be empty.
 */
import { cleanNote, planNote, sendNote } from '../../store/claude/note.js';
import { planPaneTyping, typeIntoPane } from '../../store/claude/pane-typing.js';
import type { SessionView } from '../../store/sessions/model.js';
import type { OmcStore } from '../../store/store.js';
import type { AppActions } from '../../kit/pane.js';
import { formatClock } from '../../ui/format.js';
import { answeredPid } from '../../store/claude/join-words.js';

/** How long a sent note is watched for in the transcript before the watch gives up (the note may still arrive). */
export const DELIVERY_WATCH_MS = 10 * 60_000;

/** The session and the process a note goes to: "n30968 (22222222, pid 30968; 2 Claude processes run …)". */
const who = (store: OmcStore, s: SessionView) => {
  const p = store.claude.getSnapshot().bySession.get(s.id)?.process;
  const pid = p ? `, ${answeredPid(p)}` : '';
  return p?.name ? `${p.name} (${s.id.slice(0, 8)}${pid})` : `${s.id.slice(0, 8)}${pid ? ` (${pid.slice(2)})` : ''}`;
};

/** Says "delivered ✓" once the transcript shows the note. */
function watchDelivery(store: OmcStore, app: AppActions, id: number, label: string): void {
  let stop: () => void = () => undefined;
  const timer = setTimeout(() => stop(), DELIVERY_WATCH_MS);
  timer.unref?.();
  const check = () => {
    const n = store.notes.getSnapshot().find((x) => x.id === id);
    if (n?.deliveredMs == null) return;
    stop();
    clearTimeout(timer);
    app.flash(`note delivered to ${label}: its transcript shows it at ${formatClock(n.deliveredMs)}`, 'success');
  };
  stop = store.notes.subscribe(check);
  check();
}

export function sendNoteFlow(store: OmcStore, app: AppActions, s: SessionView, text: string): void {
  const note = cleanNote(text);
  if (note === null) {
    app.flash('the note is empty: nothing sent', 'info');
    return;
  }
  const label = who(store, s);
  const proc = store.claude.getSnapshot().bySession.get(s.id)?.process ?? null;
  const plan = planNote(store.claude.getSnapshot().configDir, proc);
  if (!plan.ok) {
    if (!plan.paneFallback || !proc) {
      app.flash(`note not sent to ${label}: ${plan.reason}`, 'error');
      return;
    }
    app.confirm({
      id: 'note-pane-typing',
      title: `No inbox socket for ${label}: type the note into its tmux pane instead?`,
      lines: [
        plan.reason,
        '',
        `omc-top would type it at Claude's prompt in pane ${proc.tmux ?? '?'} and press Enter,`,
        'after checking that nothing is typed there yet (a half-typed draft is refused, never sent with it).',
        "Claude's transcript then shows it as a typed prompt, not as a note from omc-top.",
      ],
      prompt: 'y: type it into the pane   n/Esc: do not send',
      onConfirm: () => {
        const r = typeIntoPane(planPaneTyping(proc), note);
        if (r.ok) store.notes.add(s.id, note, 'pane', proc.pid);
        app.flash(r.ok ? `${r.message}` : `not typed: ${r.message}`, r.ok ? 'success' : 'error');
      },
    });
    return;
  }
  app.run('note', async () => {
    const r = await sendNote(plan, note);
    if (!r.ok) throw new Error(r.message);
    const n = store.notes.add(s.id, note, 'socket', plan.pid);
    app.flash(`note sent to ${label}; "delivered ✓" when its transcript shows it`, 'info');
    watchDelivery(store, app, n.id, label);
  });
}
