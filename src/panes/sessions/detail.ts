/**
 * The lines of the session detail view: every mode's fields, shown safely
 * (all text already sanitised by the store), wrapped to the pane width.
 */
import { flightText, flightWhy, type FlightWord } from '../../store/cancel/in-flight.js';
import { settledText, settledWhy, type rowSettlement } from '../../store/cancel/settled.js';
import { tookText, type TrackedCancel } from '../../store/cancel/tracker.js';
import { signalUntilMs, type SessionView } from '../../store/sessions/model.js';
import { newerThanKnownWords } from '../../store/omc-books.js';
import { statusWords } from './rows.js';
import { homeCopyNote, progressText } from '../../store/sessions/summary.js';
import { formatAgo, formatTimestamp, wrapText } from '../../ui/format.js';
import { groupDigits } from '../../io/group-digits.js';
import { cleanLine } from '../../io/sanitize.js';
import { countWord } from '../../io/count-words.js';

export interface DetailLine {
  text: string;
  tone?: 'title' | 'label' | 'dim' | 'warn' | 'error' | 'ok';
  /** Index of the mode this line belongs to (for highlighting the selected mode). */
  mode?: number;
  /** The permission request whose command this line shows (y and A allow only what is on screen). */
  subjectOf?: string;
}

/**
 * Bounds on what one mode's `fields:` shows. OMC writes a dozen fields; a file under the 4 MB read cap can hold
 * 240,000 keys or one 4 MB string, and every line of the detail is built and wrapped on each key press there
 * (about a second per `j`). The rest is named, not drawn: the file holds it all.
 */
export const MAX_DETAIL_FIELDS = 200;
export const MAX_FIELD_CHARS = 2_000;

function fieldValue(v: unknown): string {
  let text: string;
  if (typeof v === 'string') text = v;
  else {
    try {
      text = JSON.stringify(v) ?? String(v);
    } catch {
      text = String(v);
    }
  }
  if (text.length <= MAX_FIELD_CHARS) return text;
  // Never half a surrogate pair: a lone half is no character a terminal can draw.
  const cut = /[\ud800-\udbff]/.test(text.charAt(MAX_FIELD_CHARS - 1)) ? MAX_FIELD_CHARS - 1 : MAX_FIELD_CHARS;
  return `${text.slice(0, cut)}… (${countWord(text.length - cut, 'more character', 'more characters')})`;
}

/**
 * One field of a mode file as the detail draws it: its value on one line as the row has it (cleanLine: a newline, a
 * tab, a line separator is a space), wrapped under its key with a hanging indent deeper than any line omc-top draws
 * there. A value's newline was a line of its own at column 0, so a file could draw `  status: finished` and look
 * like omc-top's own status line; now every line of a value is visibly the field's.
 */
export function fieldLines(key: string, value: string, w: number, emit: (line: string) => void, at = '    '): void {
  const hang = `${at}  `;
  const lines = wrapText(`${key}: ${cleanLine(value)}`, Math.max(10, w - hang.length));
  lines.forEach((l, n) => emit((n === 0 ? at : hang) + l));
}

/** Claude's side of omc-top's cancel: what it was doing then, and its stop when omc-top saw it. */
function claudeLine(t: TrackedCancel): string | null {
  const c = t.claude;
  if (!c) return null;
  const who = c.pid !== null ? `Claude (pid ${c.pid})` : 'Claude';
  if (c.atCancel === 'none') return 'Claude: no process or transcript of this session can be seen';
  const at = `${who} was ${c.atCancel} at the signal (${formatTimestamp(t.requestedMs)})`;
  if (c.stoppedMs !== null)
    return `${at}; seen to stop ${formatTimestamp(c.stoppedMs)} (${tookText(c.stoppedMs - t.requestedMs)} later)`;
  return `${at}; now ${c.status}`;
}

/** What omc-top's own cancel / pause of this session did, and the verdict so far. */
function trackedLines(t: TrackedCancel, now: number, push: (text: string, tone?: DetailLine['tone']) => void): void {
  const left = Math.max(0, Math.ceil((t.expiresMs - now) / 1000));
  const tone: DetailLine['tone'] =
    t.phase === 'not-taken'
      ? 'error'
      : t.phase === 'waiting'
        ? 'warn'
        : t.phase === 'stopped' || t.phase === 'cancelled'
          ? 'ok'
          : undefined;
  const when = t.final
    ? `settled ${formatTimestamp(t.settledMs)}`
    : left > 0
      ? `${left}s of signal left`
      : `${tookText(now - t.requestedMs)} since the signal`;
  push(`omc-top ${t.pauseOnly ? 'pause' : 'cancel'}: ${t.text}  (${when})`, tone);
  push(`  ${t.reason}`, 'dim');
  const claude = claudeLine(t);
  if (claude) push(`  ${claude}`, 'dim');
  const sig = t.result.signal;
  push(
    `  wrote ${sig.rel} (${sig.form} signal${sig.autopilotRel ? ` bound to ${sig.autopilotRel}` : ''}), ${formatTimestamp(sig.requestedMs)} → ${formatTimestamp(sig.expiresMs)}`,
    'dim',
  );
  for (const st of t.result.steps)
    push(`  ${st.ok ? st.detail : `FAILED: ${st.detail}`}: ${st.rel}`, st.ok ? 'dim' : 'error');
  for (const sk of t.result.plan.skipped) push(`  left alone: ${sk.rel}: ${sk.reason}`, 'dim');
}

/**
 * The session's status in words: the store's word (read from the disk, the same for every monitor and --json),
 * with what the cancel signal in force is doing when it decides it.
 */
/** What the session's Stop hook does next, in words: blocks for a mode, lets the agent stop, or not known here. */
function nextStopWords(v: NonNullable<SessionView['verdict']>): string {
  if (v.decision === 'block') return `blocks for ${v.mode ?? '?'}`;
  return v.decision === 'unknown' ? 'unknown' : 'lets the agent stop';
}

/** A settled cancel as the row says it (store/cancel/settled.ts rowSettlement). */
type Settled = NonNullable<ReturnType<typeof rowSettlement>>;

export function detailStatus(
  s: SessionView,
  flight: FlightWord | null = null,
  now = Date.now(),
  settled: Settled | null = null,
): string {
  // A cancel in flight: the row's word (store/cancel/in-flight.ts), what it means after it.
  if (flight) return `${flightText(flight, now)} (${flightWhy(flight)})`;
  // Settled: the row's word for its five minutes, and what the process that followed the cancel saw.
  if (settled) return `${settledText(settled.word)} (${settledWhy(settled.settlement, settled.requestedMs)})`;
  if (signalUntilMs(s) === null) return statusWords(s.status);
  return s.status === 'paused'
    ? 'paused (cancel signal in force: the Stop hook lets the agent stop; the loop keeps its state)'
    : 'cancelling (cancel signal in force: the loop is ending)';
}

export function detailLines(
  s: SessionView,
  now: number,
  width: number,
  tracked?: TrackedCancel,
  /** Lines from other sources (the Claude process): `head` before the modes, `tail` after them. */
  extra: { head: readonly DetailLine[]; tail: readonly DetailLine[] } = { head: [], tail: [] },
  /** The word of a cancel in flight (store/cancel/in-flight.ts rowFlight), the row's. */
  flight: FlightWord | null = null,
  /** The settled word of one (store/cancel/settled.ts rowSettlement), the row's. */
  settled: Settled | null = null,
): DetailLine[] {
  const w = Math.max(20, width);
  const out: DetailLine[] = [];
  const push = (text: string, tone?: DetailLine['tone'], mode?: number) => {
    for (const line of wrapText(text, w)) out.push({ text: line, tone, mode });
  };
  push(`${s.kind === 'legacy' ? 'Legacy (session-less) state' : `Session ${s.id}`}`, 'title');
  push(
    `status: ${detailStatus(s, flight, now, settled)}   started: ${formatTimestamp(s.startedMs)}   updated: ${formatAgo(s.updatedMs, now)}`,
  );
  if (s.verdict) {
    push(
      `next Stop (OMC ${s.verdict.rules} rules): ${nextStopWords(s.verdict)} — ${s.verdict.detail}`,
      s.verdict.decision === 'block' ? 'ok' : s.verdict.decision === 'unknown' ? 'error' : 'dim',
    );
    if (s.verdict.unless.length > 0)
      push(`  unless the Stop payload carries ${s.verdict.unless.join(', or ')} (omc-top cannot see these)`, 'dim');
    if (s.verdict.readings)
      push(
        `  the OMC version is not known and the rule books disagree: ${s.verdict.readings
          .map(
            (r) =>
              `${r.rules.join(', ')} rules ${r.decision === 'block' ? `block for ${r.mode ?? '?'}` : 'let the agent stop'}`,
          )
          .join('; ')}`,
        'warn',
      );
  }
  if (s.omc) {
    push(
      s.omc.assumed
        ? // The source already says "not found" (and which files were refused): said once, then the book assumed.
          `OMC: ${s.omc.source.replace(/: assuming the newest rules$/, '')}; judged by the ${s.omc.rules} rules (the newest, assumed)`
        : `OMC ${s.omc.version ?? '?'}: ${s.omc.source}; judged by the ${s.omc.rules} rules${s.omc.exact ? '' : ' (not its own book)'}`,
      s.omc.assumed || !s.omc.exact ? 'warn' : 'dim',
    );
    const newer = s.omc.assumed ? null : newerThanKnownWords(s.omc.version);
    if (newer) push(`  ${newer}`, 'warn');
    for (const d of s.omc.differences ?? []) push(`  known difference: ${d}`, 'dim');
  }
  push(`dir: ${s.dir}`, 'dim');
  if (s.cwd) push(`cwd: ${s.cwd}`, 'dim');
  if (s.ended) push(`ended: ${s.ended.endedAt ?? '?'}${s.ended.reason ? ` (${s.ended.reason})` : ''}`, 'dim');
  if (s.cancel) {
    const left = s.cancel.expiresMs !== null ? Math.max(0, Math.ceil((s.cancel.expiresMs - now) / 1000)) : null;
    push(
      `cancel signal: ${s.cancel.path}  mode=${s.cancel.mode ?? '?'} source=${s.cancel.source ?? '?'}${left !== null && left > 0 ? `  ${left}s left` : '  expired'}`,
      s.cancel.inForce ? 'warn' : 'dim',
    );
    push(`  ${s.cancel.reason}`, 'dim');
  }
  if (tracked) trackedLines(tracked, now, push);
  for (const p of s.problems) push(`⚠ ${p.path}: ${p.message}`, 'error');
  for (const x of extra.head) push(x.text, x.tone);
  s.modes.forEach((m, i) => {
    out.push({ text: '', mode: i });
    push(`▌${m.mode}${m.retired ? '  (retired in OMC 5.5)' : ''}`, 'title', i);
    push(
      `  status: ${statusWords(m.status)}  —  ${m.verdict.detail}`,
      m.status === 'enforced' || m.status === 'paused'
        ? 'ok'
        : m.status === 'stale' || m.status === 'pending' || m.status === 'not-enforced'
          ? 'warn'
          : m.status === 'unreadable'
            ? 'error'
            : 'dim',
      i,
    );
    // The same reason as --json's: a mode retired by the session's release says so (store/sessions/derive.ts).
    // A file omc-top cannot read: what the registry says of it is not known here either.
    const registry = m.status === 'unreadable' ? 'unknown' : m.active ? 'active' : 'inactive';
    push(`  OMC registry: ${registry} (${m.reason})`, 'dim', i);
    const prog = progressText(m.iteration, m.max);
    push(
      `  progress: ${prog || '—'}   phase: ${m.phase ?? '—'}${m.extras.length ? `   ${m.extras.join('  ')}` : ''}`,
      undefined,
      i,
    );
    push(
      `  started: ${formatTimestamp(m.startedMs)}   updated: ${formatTimestamp(m.updatedMs)} (${formatAgo(m.updatedMs, now)})`,
      undefined,
      i,
    );
    push(
      `  owner: ${m.owner ?? 'unowned'}${m.stranded ? '  (stranded: owned by another session)' : ''}${m.linked.length ? `   linked: ${m.linked.join(', ')}` : ''}`,
      undefined,
      i,
    );
    push(`  file: ${m.path}${homeCopyNote(m)}`, 'dim', i);
    if (m.problem) push(`  ⚠ last read failed: ${m.problem} (showing the last good values)`, 'error', i);
    if (m.prompt) fieldLines('prompt', m.prompt, w, (text) => out.push({ text, mode: i }), '  ');
    push('  fields:', 'label', i);
    let shown = 0;
    let more = 0;
    for (const k in m.fields) {
      if (shown === MAX_DETAIL_FIELDS) {
        more += 1;
        continue;
      }
      shown += 1;
      fieldLines(k, fieldValue(m.fields[k]), w, (text) => out.push({ text, tone: 'dim', mode: i }));
    }
    if (more > 0) push(`    … ${groupDigits(more)} more fields (all in ${m.path})`, 'dim', i);
  });
  for (const x of extra.tail) push(x.text, x.tone);
  return out;
}
