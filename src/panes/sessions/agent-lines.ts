/**
 * The session detail's "Claude process" section: who runs the session (pid,
 * version, entrypoint, name, tmux pane), what needs the user and why, the
 * tokens with a burn rate and an estimated cost where the model's price is
 * known, per ralph iteration too, and the loop analytics (seconds per
 * iteration, ETA to max_iterations, stall badges). Pure: text from the store's
 * snapshots, already sanitised.
 */
import { loopAnalytics, numberedIterations } from '../../store/claude/analytics.js';
import { activeLoop, attentionFor, reachAdvice, type AttentionFact } from '../../store/claude/attention.js';
import { isDead, lifeOf, tmuxPlaceOf, waitingProcess } from '../../store/claude/life.js';
import type { ClaudeSessionView, ProcessView } from '../../store/claude/model.js';
import { processesText } from '../../store/claude/join-words.js';
import { estimate, estimateText, type ModelPrice } from '../../store/claude/prices.js';
import type { SessionView } from '../../store/sessions/model.js';
import { formatAge, formatTimestamp } from '../../ui/format.js';
import type { DetailLine } from './detail.js';
import { sparkline } from './peek-lines.js';
import { exitLines, lifeWords, tokenText } from './life-lines.js';
import { costLines } from './cost-lines.js';
import { readingMark, readingOf } from '../../store/cost/spend.js';

/**
 * What the user can do about an attention fact, in the words of the keys that do it. `answerable`: omc-top holds a
 * permission prompt of this session to answer (y / n), so that is offered first and the terminal is the alternative.
 */
export function attentionAction(a: AttentionFact, answerable = false): string {
  switch (a.kind) {
    case 'orphaned-loop':
      // A Claude that runs elsewhere is not resumed here while it runs: it is ended there first.
      return a.elsewhere
        ? 'press c to clean it up (the cancel plan, shown before anything is written), or end that Claude and resume the session in this project'
        : `press c to clean it up (the cancel plan, shown before anything is written), or ${reachAdvice(a.kind, !!a.paneKnown, true)}`;
    case 'waiting-for-you':
      return answerable
        ? `y allow · n deny here (below), or ${reachAdvice(a.kind, !!a.paneKnown, true)}`
        : reachAdvice(a.kind, !!a.paneKnown, true);
    default:
      return a.reason === 'one-iteration-per-turn'
        ? 'send a prompt to run the next iteration, or c to end the loop'
        : a.reason === 'block-cap'
          ? 'raise CLAUDE_CODE_STOP_HOOK_BLOCK_CAP or send a prompt to continue'
          : 'see the Stop-hook timeline (P peek)';
  }
}

/**
 * "2 Claude processes run this session (pids 7, 9): pid 9 is the one shown; J, m and I act on it", or, while another of
 * them waits on a prompt (the registry's, or the one that asked a prompt the hook handed over: `askerPid`), which
 * process each key acts on: J goes to the one that waits, m and I act on the one shown. Null when one process runs it.
 */
export function severalText(p: ProcessView | null, askerPid: number | null = null): string | null {
  const several = processesText(p);
  if (!several || !p) return null;
  const asker = askerPid ?? waitingProcess(p)?.pid ?? null;
  return asker !== null && asker !== p.pid
    ? `${several}: pid ${p.pid} is the one shown: m and I act on it; J goes to pid ${asker}, which waits on a prompt`
    : `${several}: pid ${p.pid} is the one shown; J, m and I act on it`;
}

/**
 * `head`: one line on the process and what needs the user, near the top (nothing when no process is
 * registered, so the modes stay where they were); `tail`: the whole section, after the modes.
 */
export function agentDetail(
  s: SessionView,
  c: ClaudeSessionView | undefined,
  now: number,
  prices: Readonly<Record<string, ModelPrice>> | undefined,
  /** A permission prompt of this session waits in omc-top to be answered (DetailExtra.answerable). */
  answerable = false,
  /** The pid of the Claude that asked that prompt (DetailExtra.askerPid). */
  askerPid: number | null = null,
): { head: DetailLine[]; tail: DetailLine[] } {
  if (s.kind === 'legacy') return { head: [], tail: [] };
  const head: DetailLine[] = [];
  const p = c?.process ?? null;
  const life = lifeOf(c);
  if (p || life.exit)
    head.push({
      text: `Claude: ${lifeWords(life.status, life.sinceMs, now, life.goneDatedBy)}${p ? ` · pid ${p.pid} · v${p.version ?? '?'}` : ''} (process, tokens and cost below)`,
      tone: life.status === 'gone' ? 'error' : life.status === 'waiting' ? 'warn' : 'dim',
    });
  const several = severalText(p, askerPid);
  if (several) head.push({ text: `! ${several}`, tone: 'warn' });
  for (const a of attentionFor(s, p, c?.transcript?.facts ?? null))
    head.push({
      text: `! ${a.text}: ${attentionAction(a, answerable)}`,
      tone: a.kind === 'orphaned-loop' ? 'error' : 'warn',
    });
  return { head, tail: agentDetailLines(s, c, now, prices, answerable, askerPid) };
}

export function agentDetailLines(
  s: SessionView,
  c: ClaudeSessionView | undefined,
  now: number,
  prices: Readonly<Record<string, ModelPrice>> | undefined,
  answerable = false,
  askerPid: number | null = null,
): DetailLine[] {
  if (s.kind === 'legacy') return [];
  const out: DetailLine[] = [{ text: '' }, { text: '▌Claude process', tone: 'title' }];
  const p = c?.process ?? null;
  const f = c?.transcript?.facts ?? null;
  const life = lifeOf(c);
  if (!p && life.exit)
    out.push({
      text: `  exited${life.sinceMs !== null ? ` ${formatTimestamp(life.sinceMs)}` : ''}: the transcript ends with the figures Claude Code writes at exit`,
      tone: 'dim',
    });
  else if (!p)
    out.push({
      text: '  unknown: no registry entry (an older CLI, an SDK session, a Claude run with another CLAUDE_CONFIG_DIR, or it exited)',
      tone: 'dim',
    });
  else {
    const tone: DetailLine['tone'] =
      p.status === 'gone' ? 'error' : p.status === 'waiting' ? 'warn' : p.status === 'busy' ? 'ok' : 'dim';
    out.push({ text: `  ${lifeWords(p.status, p.since, now, p.goneDatedBy)}: ${p.reason}`, tone });
    out.push({
      text: `  pid ${p.pid} · Claude ${p.version ?? '?'} · ${p.entrypoint ?? '?'} · name ${p.name ?? '—'} · tmux ${tmuxPlaceOf(p) ?? '—'}`,
    });
    if (p.startedAt !== null) out.push({ text: `  started ${formatTimestamp(p.startedAt)}`, tone: 'dim' });
    const several = severalText(p, askerPid);
    if (several) out.push({ text: `  ! ${several}`, tone: 'warn' });
  }
  for (const a of attentionFor(s, p, f)) {
    out.push({ text: `  ! ${a.text}`, tone: a.kind === 'orphaned-loop' ? 'error' : 'warn' });
    if (a.waiting?.sinceMs != null)
      out.push({
        text: `    waiting since ${formatTimestamp(a.waiting.sinceMs)} (${formatAge(a.waiting.sinceMs, now)})${a.waiting.call?.atMs != null ? ` · call made ${formatTimestamp(a.waiting.call.atMs)}` : ''}`,
        tone: 'dim',
      });
    out.push({ text: `    ${attentionAction(a, answerable)}`, tone: 'dim' });
  }
  if (!f) {
    out.push({ text: '  no transcript found', tone: 'dim' });
    return out;
  }
  // The same mark as the cost line below; the reason is said there (readingWhy).
  out.push({ text: `  tokens: ${tokenText(f.tokens)}${readingMark(readingOf(c))}` });
  const loop = activeLoop(s);
  const a = loopAnalytics(f, loop, now, isDead(life.status));
  out.push(...costLines(s, c, now, prices));
  if (life.exit) out.push(...exitLines(life.exit));
  else if (f.cliCost)
    out.push({ text: `  Claude Code's own figure at its last exit: $${f.cliCost.usd.toFixed(4)}`, tone: 'dim' });
  const its = numberedIterations(f, loop)
    .filter((i) => i.iteration !== null)
    .slice(-5);
  for (const it of its) {
    const usd = ` · ${estimateText(estimate(it.byModel, prices))}`;
    out.push({
      text: `  iteration ${it.iteration}: ${tokenText(it.tokens)}${usd} · ${it.filesWritten} file${it.filesWritten === 1 ? '' : 's'} written`,
      tone: 'dim',
    });
  }
  if (loop && a.secondsPerIteration.length > 0) {
    const last = a.secondsPerIteration.at(-1);
    const eta =
      a.etaMs === null
        ? ''
        : ` · ETA to ${loop.max} iterations ${formatAge(now - (a.etaMs - now), now)} (at ${formatTimestamp(a.etaMs)})`;
    out.push({ text: `  s/iteration ${sparkline(a.secondsPerIteration)} last ${last}s${eta}` });
  }
  if (a.noFileIn3) out.push({ text: '  ! no file written in the last 3 iterations', tone: 'warn' });
  if (a.sameError3) out.push({ text: `  ! the same error 3 times: ${a.sameError3}`, tone: 'warn' });
  return out;
}
