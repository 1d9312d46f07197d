/**
 * The session detail's lines about answering the session from omc-top: a permission request its Claude is
 * waiting on (answered in the inbox), the notes sent to it and whether its transcript shows them, and, when its
 * Claude process is gone, what OMC would do if it were resumed.
 */
import type { OmcStore } from '../../store/store.js';
import type { SessionView } from '../../store/sessions/model.js';
import { activeLoop } from '../../store/claude/attention.js';
import { askingProcess } from '../../store/claude/asker.js';
import { whereText } from '../../store/claude/life.js';
import { resumeLoad, resumeVerdict, resumeVerdictLine } from '../../store/claude/resume.js';
import { formatClock, wrapText } from '../../ui/format.js';
import type { DetailLine } from './detail.js';
import type { DetailExtra } from './layout.js';
import { runFactDetail } from './run-facts.js';
import { noteTarget } from './note-kept.js';

const NOTES_SHOWN = 3;

export function answerLines(store: OmcStore, s: SessionView): DetailLine[] {
  if (s.kind !== 'session') return [];
  const out: DetailLine[] = [];
  const claude = store.claude.getSnapshot();
  for (const r of store.permissions.getSnapshot().requests) {
    if (r.sessionId !== s.id) continue;
    out.push({ text: `! Claude asks permission: ${r.toolName} ${r.subject}`, tone: 'warn', subjectOf: r.id });
    // Two terminals on one session: say which Claude asks when it is not the one the detail describes.
    const asker = askingProcess(claude, s.id, r.claudePid);
    if (asker && asker.pid !== claude.bySession.get(s.id)?.process?.pid) {
      const where = whereText(asker);
      out.push({ text: `  asked by pid ${asker.pid}${where ? ` (${where})` : ''}`, tone: 'dim' });
    }
    out.push({
      text: r.allowRefused
        ? `  n denies (here or in the ! list); ${r.allowRefused}`
        : `  y allow · n deny${r.alwaysOffered ? ' · A always for this command' : ''} (here or in the ! list); the hook waits until ${formatClock(r.expiresMs)}, then Claude's own prompt only`,
      tone: 'dim',
    });
  }
  const proc = store.claude.getSnapshot().bySession.get(s.id)?.process ?? null;
  if (proc?.status === 'gone' && activeLoop(s)) {
    const v = resumeVerdict(s);
    // The config's claudeCommand is not read here (a file read per frame); its dialog says what it changes.
    const load = resumeLoad(store.claude.launchOf(s.id), { omcSourceTag: store.sessions.installOf(s.id).sourceTag });
    out.push({ text: resumeVerdictLine(v, load), tone: v.continues ? 'warn' : 'dim' });
    out.push({
      text: '  r resumes it (claude --resume in a new tmux window); c cancels the loop instead',
      tone: 'dim',
    });
  }
  // A note kept at a hang-up waits for its session: when the session is back (resumed, or its files returned) the
  // detail says so, without waiting for m. A set lookup (KeptDrafts.has), never a file read per frame.
  if (store.drafts.has(noteTarget(s.id)))
    out.push({
      text: "A note to this session's Claude was kept when omc-top was last ended without asking: m offers it back",
      tone: 'warn',
    });
  const notes = store.notes.getSnapshot().filter((n) => n.sessionId === s.id);
  for (const n of notes.slice(-NOTES_SHOWN)) {
    const state =
      n.via === 'pane'
        ? 'typed into its tmux pane'
        : n.deliveredMs !== null
          ? `delivered ✓ ${formatClock(n.deliveredMs)} (in its transcript)`
          : 'sent; not in its transcript yet';
    out.push({
      text: `note ${formatClock(n.sentMs)}: "${n.text}" — ${state}`,
      tone: n.deliveredMs !== null ? 'ok' : 'dim',
    });
  }
  return out;
}

/** Every other domain's lines of the detail: the run facts, then answering. */
export function detailExtras(store: OmcStore, s: SessionView, width: number): DetailExtra {
  const runs = runFactDetail(store, s, width);
  const w = Math.max(20, width);
  const wrap = (lines: readonly DetailLine[]) =>
    lines.flatMap((l) =>
      wrapText(l.text, w).map((text) => ({ text, tone: l.tone, ...(l.subjectOf ? { subjectOf: l.subjectOf } : {}) })),
    );
  const request =
    s.kind === 'session' ? store.permissions.getSnapshot().requests.find((r) => r.sessionId === s.id) : undefined;
  // The Claude J goes to while the prompt waits (agent-keys.ts): the one that asked.
  const askerPid = request ? (askingProcess(store.claude.getSnapshot(), s.id, request.claudePid)?.pid ?? null) : null;
  return { top: [...wrap(answerLines(store, s)), ...runs.top], bottom: runs.bottom, answerable: !!request, askerPid };
}
