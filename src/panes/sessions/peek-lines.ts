/**
 * The peek: what the Claude process behind a session is doing, as lines for a
 * view (pure; the view only colours and cuts them). Everything here is already
 * sanitised by the store.
 */
import { processesText } from '../../store/claude/join-words.js';
import { loopAnalytics } from '../../store/claude/analytics.js';
import { activeLoop, attentionFor } from '../../store/claude/attention.js';
import { isDead, lifeOf, tmuxPlaceOf } from '../../store/claude/life.js';
import type { ClaudeSessionView } from '../../store/claude/model.js';
import type { ToolCall } from '../../store/claude/transcript-facts.js';
import { exitLines, lifeWords } from './life-lines.js';
import type { SessionView } from '../../store/sessions/model.js';
import { estimateText, formatUsd, type ModelPrice } from '../../store/claude/prices.js';
import { readingMark, readingOf, sessionSpend } from '../../store/cost/spend.js';
import type { Size } from '../../kit/pane.js';
import { formatAge, wrapText } from '../../ui/format.js';
import { groupDigits } from '../../io/group-digits.js';

export type PeekTone = 'section' | 'warn' | 'error' | 'ok' | 'dim' | undefined;
export interface PeekLine {
  text: string;
  tone?: PeekTone;
}

const SPARK = '▁▂▃▄▅▆▇█';
export function sparkline(values: readonly number[]): string {
  if (values.length === 0) return '';
  const max = Math.max(...values);
  const min = Math.min(...values);
  return values.map((v) => SPARK[max === min ? 3 : Math.round(((v - min) / (max - min)) * 7)]).join('');
}

const n = groupDigits;

export function peekLines(
  s: SessionView,
  c: ClaudeSessionView | null,
  now: number,
  prices?: Readonly<Record<string, ModelPrice>>,
): PeekLine[] {
  const out: PeekLine[] = [];
  const p = c?.process ?? null;
  const f = c?.transcript?.facts ?? null;
  const life = lifeOf(c);
  out.push({ text: 'Claude process', tone: 'section' });
  if (!p && life.exit) out.push({ text: lifeWords(life.status, life.sinceMs, now), tone: 'dim' });
  else if (!p)
    out.push({
      text: 'unknown: no registry entry (an older CLI, an SDK session, a Claude run with another CLAUDE_CONFIG_DIR, or it exited)',
      tone: 'dim',
    });
  else {
    out.push({
      text: `${p.status === 'exited' || p.goneDatedBy === 'last-sign-of-life' ? lifeWords(p.status, p.since, now, p.goneDatedBy) : `${p.status} ${formatAge(p.since, now)}`} · pid ${p.pid} · ${p.entrypoint ?? '?'} · v${p.version ?? '?'}`,
      tone:
        p.status === 'gone'
          ? 'error'
          : p.status === 'waiting'
            ? 'warn'
            : p.status === 'unknown' || p.status === 'exited'
              ? 'dim'
              : 'ok',
    });
    out.push({ text: p.reason, tone: 'dim' });
    const several = processesText(p);
    if (several) out.push({ text: `! ${several}: pid ${p.pid} is the one shown`, tone: 'warn' });
    if (p.name || p.tmux) out.push({ text: `name ${p.name ?? '—'} · tmux ${tmuxPlaceOf(p) ?? '—'}`, tone: 'dim' });
  }
  for (const a of attentionFor(s, p, f))
    out.push({ text: `! ${a.text}`, tone: a.kind === 'orphaned-loop' ? 'error' : 'warn' });
  if (!f) {
    out.push({ text: 'no transcript found', tone: 'dim' });
    return out;
  }
  const t = f.tokens;
  out.push({ text: 'Tokens', tone: 'section' });
  out.push({
    text: `in ${n(t.input)} · out ${n(t.output)} · cache read ${n(t.cacheRead)} · cache write ${n(t.cacheWrite)}${readingMark(readingOf(c))}`,
  });
  const loop = activeLoop(s);
  const a = loopAnalytics(f, loop, now, isDead(life.status));
  const sp = sessionSpend(c ?? undefined, prices, now);
  if (sp) out.push({ text: `cost ${estimateText(sp.estimate)}${readingMark(sp.reading)}`, tone: 'dim' });
  const subs = c?.transcript?.subagents;
  if (subs && subs.agents.length > 0)
    out.push({
      text: `incl. ${subs.agents.length} subagent${subs.agents.length === 1 ? '' : 's'}: ${subs.byType.map((t) => `${t.type} ×${t.count}`).join(', ')}`,
      tone: 'dim',
    });
  if (life.exit) for (const l of exitLines(life.exit)) out.push({ text: l.text.trim(), tone: 'dim' });
  else if (f.cliCost)
    out.push({ text: `cost $${f.cliCost.usd.toFixed(4)} (Claude Code's own figure, at its last exit)`, tone: 'dim' });
  if (a.burnPerMin !== null)
    out.push({
      text: `burn ${n(a.burnPerMin)} tokens/min${sp?.burnUsdPerHour != null ? ` ≈ ${formatUsd(sp.burnUsdPerHour)}/h est.` : ''}`,
      tone: 'dim',
    });
  if (f.lastAssistantText) {
    out.push({ text: 'Last text', tone: 'section' });
    out.push({ text: f.lastAssistantText });
  }
  if (f.lastToolCalls.length > 0) {
    out.push({ text: 'Last tool calls', tone: 'section' });
    for (const x of f.lastToolCalls.slice(-5)) out.push(callLine(x, f.pendingCalls, p?.status ?? null, now));
  }
  if (f.turnFiles.length > 0) {
    out.push({ text: 'Files written this turn', tone: 'section' });
    for (const file of f.turnFiles.slice(-5)) out.push({ text: file });
  }
  if (f.lastError)
    out.push({ text: `last error ${formatAge(f.lastError.atMs, now)}: ${f.lastError.text}`, tone: 'error' });
  if (f.turnDurationsMs.length > 0)
    out.push({ text: `turns ${f.turnDurationsMs.map((d) => `${Math.round(d / 100) / 10}s`).join(' ')}`, tone: 'dim' });
  if (f.stopHooks.length > 0) {
    out.push({ text: 'Stop hook', tone: 'section' });
    for (const h of f.stopHooks.slice(-5)) out.push({ text: `${formatAge(h.atMs, now)} ${h.text}` });
  }
  if (loop && a.secondsPerIteration.length > 0) {
    const eta = a.etaMs === null ? '' : ` · ETA ${formatAge(now - (a.etaMs - now), now)}`;
    out.push({ text: `s/iteration ${sparkline(a.secondsPerIteration)} ${a.secondsPerIteration.at(-1)}s${eta}` });
  }
  if (a.noFileIn3) out.push({ text: 'no file written in the last 3 iterations', tone: 'warn' });
  if (a.sameError3) out.push({ text: `the same error 3 times: ${a.sameError3}`, tone: 'warn' });
  return out;
}

/**
 * A call the transcript has no result for is not a finished one: it is marked, and said to be waited on
 * when the process waits (a permission dialog), else still running.
 */
function callLine(x: ToolCall, pending: readonly ToolCall[], status: string | null, now: number): PeekLine {
  const text = `${x.name} ${x.arg}`;
  if (!pending.includes(x)) return { text };
  const since = x.atMs !== null ? ` since ${formatAge(x.atMs, now)}` : '';
  if (status === 'waiting') return { text: `pending ${text}  (no result yet: waiting for you${since})`, tone: 'warn' };
  if (status === 'busy') return { text: `pending ${text}  (no result yet: running${since})` };
  return { text: `pending ${text}  (no result: it never finished)`, tone: 'dim' };
}

export interface PeekLayout {
  lines: PeekLine[];
  /** Rows for the lines (the pane less its title line). */
  height: number;
}

/** The peek's lines wrapped to the pane, for its view and its scroll keys alike. */
export function peekLayout(
  s: SessionView,
  c: ClaudeSessionView | null,
  body: Size,
  now: number,
  prices?: Readonly<Record<string, ModelPrice>>,
): PeekLayout {
  const w = Math.max(10, body.columns - 1);
  const lines = peekLines(s, c, now, prices).flatMap((l) =>
    wrapText(l.text, w).map((text) => ({ text, tone: l.tone })),
  );
  return { lines, height: Math.max(1, body.rows - 1) };
}
