/**
 * The Cost pane's text, pure: what the project spent (total, today, per mode,
 * per day: each list adds up to the total), every loop with its burn rate and
 * spend (OMC's loops and Claude Code's own: /goal, /loop, background jobs),
 * the plan quota and OMC's wait daemon, the budget guard, and where the prices
 * come from. Wrapped to the pane so the view and the scroll keys agree.
 */
import { estimateText, formatUsd, PRICE_SOURCE, type ModelPrice } from '../../store/claude/prices.js';
import { planLimit, type LoopRow } from '../../store/cost/loops.js';
import { storeLoops } from '../../feeds/cost-report.js';
import { judgeUsage, resetPassed } from '../../store/cost/quota.js';
import {
  readingOf,
  SUBAGENTS_READING,
  SUBAGENTS_READING_SHORT,
  TRANSCRIPT_READING,
  TRANSCRIPT_READING_SHORT,
} from '../../store/cost/spend.js';
import { costRollupMemo, NO_LOOP } from '../../store/cost/rollup.js';
import { sessionIndex } from '../../store/sessions/view-index.js';
import type { OmcStore } from '../../store/store.js';
import { cell, fit, formatAge, formatClock, formatTimestamp, wrapText } from '../../ui/format.js';
import { countdown, quotaHeaderText } from '../../ui/quota-text.js';
import { joinLines, rowLines, type LineSource, type ToneLine } from '../../ui/line-source.js';
import { formatTokens } from '../history/rows.js';
import { rateLimitText } from '../sessions/cost-lines.js';
import { groupDigits } from '../../io/group-digits.js';

const short = (sid: string | null) => (sid === null ? 'legacy' : sid.slice(0, 8));

/**
 * A row's lines at one width, for rows that do not change with the clock (no rate-limit countdown, no next run):
 * the OMC rows of sessions with no Claude process are the same objects from one change to the next (loops.ts), so
 * a change draws the lines of the rows it touched.
 */
const steadyLines = new WeakMap<LoopRow, { width: number; lines: ToneLine[] }>();

function loopLines(l: LoopRow, now: number, width: number): ToneLine[] {
  if (l.rateLimit !== null || l.nextMs !== null) return loopLine(l, now, width);
  const hit = steadyLines.get(l);
  if (hit && hit.width === width) return hit.lines;
  const lines = loopLine(l, now, width);
  steadyLines.set(l, { width, lines });
  return lines;
}

/** How many lines loopLine makes for `l` at `width`, without making them (rowLines: only the lines on screen are). */
export function loopLineCount(l: LoopRow, width: number): number {
  return 1 + (width <= 110 && l.detail ? 1 : 0) + (l.competing ? 1 : 0) + (l.rateLimit ? 1 : 0);
}

export function loopLine(l: LoopRow, now: number, width: number): ToneLine[] {
  const burn =
    l.spend?.burnPerMin == null
      ? '—'
      : `${formatTokens(l.spend.burnPerMin)}/min${l.spend.burnUsdPerHour !== null ? ` ${formatUsd(l.spend.burnUsdPerHour)}/h` : ''}`;
  // `$1.20+subagents…` does not fit the column: the short mark, explained under the project's line. The column
  // holds `$0.0036+sub…` whole (a cell keeps its last place blank).
  const spent = l.spend
    ? `${estimateText(l.spend.estimate).replace(' est.', '')}${l.spend.reading === 'transcript' ? TRANSCRIPT_READING_SHORT : l.spend.partial ? SUBAGENTS_READING_SHORT : ''}`
    : '—';
  const proc = l.process ? l.process.status : '—';
  const state = `${l.state}${l.nextMs !== null ? ` · next ${formatClock(l.nextMs).slice(0, 5)}` : ''}`;
  const head =
    '  ' +
    fit(l.label, 22) +
    ' ' +
    cell(short(l.sessionId), 9) +
    cell(proc, 8) +
    cell(state, 26) +
    cell(burn, 18) +
    cell(spent, 13) +
    (width > 110 ? fit(l.detail, width - 100) : '');
  const out: ToneLine[] = [{ text: head, tone: l.ended ? 'dim' : undefined }];
  if (width <= 110 && l.detail) out.push({ text: `      ${l.detail}`, tone: 'dim' });
  if (l.competing)
    out.push({
      text: '      ⚠ two Stop hooks compete here: an OMC loop and /goal (either keeps the session going)',
      tone: 'warn',
    });
  if (l.rateLimit) out.push({ text: `      ⚠ ${rateLimitText(l.rateLimit, now)}`, tone: 'warn' });
  return out;
}

export function costPaneLines(
  store: OmcStore,
  prices: Readonly<Record<string, ModelPrice>>,
  now: number,
  width: number,
): LineSource {
  const head: ToneLine[] = [];
  let out = head;
  const push = (text: string, tone?: string) => {
    for (const t of wrapText(text, Math.max(20, width - 1))) out.push({ text: t, tone });
  };
  const snapshot = store.sessions.getSnapshot();
  const sessions = snapshot.sessions;
  const claude = store.claude.getSnapshot();
  const quota = store.quota.getSnapshot();
  const index = sessionIndex(snapshot);
  const r = costRollupMemo(sessions, store.runs.runs(), claude, prices, now, index);
  const today = r.byDay.find((d) => d.day === new Date(now).toISOString().slice(0, 10));
  push(
    `Spent in this project: ${estimateText(r.project.estimate)} · ${formatTokens(r.project.tokens)} tokens over ${r.project.sessions} session${r.project.sessions === 1 ? '' : 's'} (subagents included) · today (UTC) ${today ? estimateText(today.estimate) : '$0 est.'}`,
    'title',
  );
  // Counted over Claude's sessions (a few) and looked up in the sessions' index, not a pass over every session.
  let reading = 0;
  let readingTranscripts = 0;
  for (const [sid, c] of claude.bySession) {
    if (!index.byKey.has(sid)) continue;
    if (c.transcript?.subagentsReading === true) reading += 1;
    if (readingOf(c) === 'transcript') readingTranscripts += 1;
  }
  if (reading > 0)
    push(
      `  ${SUBAGENTS_READING} ${reading} session${reading === 1 ? "'s" : "s'"} subagent files are still being read: these figures are a lower bound until then (+sub… on a loop)`,
      'warn',
    );
  if (readingTranscripts > 0)
    push(
      `  ${TRANSCRIPT_READING} ${readingTranscripts} session${readingTranscripts === 1 ? "'s" : "s'"} transcript${readingTranscripts === 1 ? ' is' : 's are'} still being read: these figures are a lower bound until then (+… on a loop)`,
      'warn',
    );
  for (const u of r.project.estimate.unpriced)
    push(
      `  ${u.model}: ${formatTokens(u.tokens)} tokens with no price: add it under "prices" in the config file`,
      'warn',
    );

  // The plan quota and the wait daemon.
  out.push({ text: '' });
  out.push({ text: '▌Plan quota (OMC)', tone: 'title' });
  if (!quota.cache)
    push(
      `  no usage cache (OMC's HUD writes ${quota.configDir}/plugins/oh-my-claudecode/.usage-cache-<source>.json)`,
      'dim',
    );
  else {
    const j = judgeUsage(quota.cache, now, quota.pollMs);
    push(`  ${quotaHeaderText(quota, now) ?? 'no windows'}`);
    push(
      `  ${quota.configDir}/${quota.cache.rel} · written ${formatAge(quota.cache.writtenMs, now)} ago · last answer from the usage API ${formatAge(quota.cache.lastSuccessMs, now)} ago${quota.cache.error ? ` · last fetch failed: ${quota.cache.error}` : ''}`,
      'dim',
    );
    if (j.data === null && quota.cache.data !== null)
      push('  OMC no longer serves this data (its last success is over 15 minutes old)', 'warn');
    if (j.notRefreshed) push("  nothing refreshes it: OMC's HUD and wait daemon refetch every poll interval", 'warn');
    if (j.data?.extraUsage)
      push(
        `  extra usage ${formatUsd(j.data.extraUsage.spentUsd)}${j.data.extraUsage.limitUsd !== null ? ` of ${formatUsd(j.data.extraUsage.limitUsd)}` : ''}`,
        'dim',
      );
    for (const s of j.data?.scoped ?? [])
      push(
        resetPassed(s.window, now)
          ? `  ${s.label} weekly ? (reset ${formatClock(s.window.resetsMs ?? 0).slice(0, 5)}; OMC has not read it since)`
          : `  ${s.label} weekly ${Math.round(s.window.percent)}%${s.window.resetsMs ? ` ↻${countdown(s.window.resetsMs, now)}` : ''}`,
        'dim',
      );
  }
  const d = quota.daemon;
  if (!d)
    push('  wait daemon: not set up (omc wait --start resumes rate-limited tmux panes when the limit resets)', 'dim');
  else
    push(
      `  wait daemon: ${d.alive ? `running (pid ${d.pid})` : `not running${d.pid ? ` (pid ${d.pid} is gone)` : ''}`}${d.state?.lastPollMs ? ` · last poll ${formatAge(d.state.lastPollMs, now)} ago` : ''}${d.state?.limited ? ` · plan limited until ${formatTimestamp(d.state.nextResetMs)}` : d.state?.limited === false ? ' · plan not limited' : ''}`,
      d.alive && d.state?.limited ? 'warn' : 'dim',
    );
  const lim = planLimit(quota, now);
  if (lim) push(`  ⚠ the plan is rate-limited until ${formatClock(lim.untilMs).slice(0, 5)} UTC (${lim.by})`, 'warn');

  // Every loop.
  const loops = storeLoops(store, prices, now);
  out.push({ text: '' });
  out.push({ text: `▌Loops (${loops.filter((l) => !l.ended).length} live)`, tone: 'title' });
  if (loops.length === 0) push('  none: no active OMC mode, /goal, /loop job or background job in this project', 'dim');
  else {
    out.push({
      text:
        '  ' +
        fit('LOOP', 22) +
        ' ' +
        fit('SESSION', 9) +
        fit('CLAUDE', 8) +
        fit('STATE', 26) +
        fit('BURN', 18) +
        fit('SPENT EST', 13) +
        (width > 110 ? 'WHAT' : ''),
      tone: 'label',
    });
  }
  // Every loop's lines, made only where the window reaches (at 10,000 sessions, ~20,000 lines for a screen of 20).
  const loopPart = rowLines(
    loops,
    (l) => loopLineCount(l, width),
    (l) => loopLines(l, now, width),
  );
  const tail: ToneLine[] = [];
  out = tail;

  // Budget guard (OMC 5.6 only).
  const env = process.env;
  const budgetSet = Number(env.OMC_RUN_BUDGET_TOKENS) > 0;
  // The modes the sessions hold, from the index (kept by each change, not a pass over every session), by name.
  const readings = [...index.modes.keys()].sort().flatMap((m) => {
    const b = store.runs.budgetFor(m);
    return b ? [{ m, b }] : [];
  });
  if (budgetSet || readings.length > 0) {
    out.push({ text: '' });
    out.push({ text: '▌Budget guard (OMC 5.6)', tone: 'title' });
    if (budgetSet)
      push(
        `  OMC_RUN_BUDGET_TOKENS=${env.OMC_RUN_BUDGET_TOKENS} · OMC_BUDGET_ENFORCE=${env.OMC_BUDGET_ENFORCE ?? 'shadow'} (omc-top's environment; the hooks' may differ)`,
      );
    for (const { m, b } of readings)
      push(
        `  ${m}: ~${groupDigits(b.spend)}/${groupDigits(b.budget)} tokens (${b.pct}%)${b.outcome ? `, ${b.outcome}` : ''} at ${formatTimestamp(b.tsMs)} (state/enforcement/shadow.jsonl)`,
        b.pct >= 100 ? 'warn' : undefined,
      );
  }

  // Rollups.
  out.push({ text: '' });
  out.push({ text: '▌By mode (a stretch where two loops ran counts once, under both names)', tone: 'title' });
  for (const m of r.byMode)
    out.push({
      text: `  ${fit(m.mode === NO_LOOP ? '(no loop)' : m.mode, 28)}${fit(estimateText(m.estimate), 28)}${formatTokens(m.tokens)} tokens`,
    });
  if (r.byMode.length === 0) push('  nothing spent yet', 'dim');
  out.push({ text: '' });
  out.push({ text: '▌By day (UTC)', tone: 'title' });
  for (const x of r.byDay)
    out.push({ text: `  ${fit(x.day, 28)}${fit(estimateText(x.estimate), 28)}${formatTokens(x.tokens)} tokens` });
  if (r.byDay.length === 0) push('  nothing spent yet', 'dim');

  out.push({ text: '' });
  push(
    `Prices: ${PRICE_SOURCE}${Object.keys(prices).length ? `; overridden in the config file: ${Object.keys(prices).join(', ')}` : ''}. Estimates only: no batch, regional or negotiated prices. A model with no price is shown as unpriced, never as $0.`,
    'dim',
  );
  return joinLines([head, loopPart, tail]);
}
