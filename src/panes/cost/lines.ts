/**
 * The Cost pane's text, pure: what the project spent (total, today, per mode,
 * per day: each list adds up to the total), every loop with its burn rate and
 * spend (OMC's loops and Claude Code's own: /goal, /loop, background jobs),
 * the plan quota and OMC's wait daemon, the budget guard, and where the prices
 * come from. Wrapped to the pane so the view and the scroll keys agree.
 */
import { estimateText, formatUsd, PRICE_SOURCE, type Estimate, type ModelPrice } from '../../store/claude/prices.js';
import { planLimit, type LoopRow } from '../../store/cost/loops.js';
import { limitedUntilWords } from '../../store/cost/plan-hold.js';
import { storeLoops } from '../../feeds/cost-report.js';
import { judgeUsage, resetPassed } from '../../store/cost/quota.js';
import {
  NOT_PRICED,
  notPricedText,
  readingOf,
  readingShort,
  spendUnknownText,
  stillBeingRead,
  SUBAGENTS_READING,
  TRANSCRIPT_READING,
  UNREAD,
  UNREAD_SHORT,
} from '../../store/cost/spend.js';
import { costRollupMemo, NO_LOOP } from '../../store/cost/rollup.js';
import { FULL_READ_MAX, MAX_PARSED_LINE } from '../../store/claude/transcript-reader.js';
import { formatBytes } from '../../io/safe-fs/index.js';
import { sessionIndex } from '../../store/sessions/view-index.js';
import type { OmcStore } from '../../store/store.js';
import { cell, fit, formatAgo, formatClock, formatTimestamp, wrapText } from '../../ui/format.js';
import { notKnownLine, ROOT_NAME, rootUnreadWhy } from '../../ui/not-known.js';
import { countdown, quotaHeaderText } from '../../store/cost/quota-words.js';
import { joinLines, rowLines, type LineSource, type ToneLine } from '../../ui/line-source.js';
import { formatTokens } from '../history/rows.js';
import { rateLimitText } from '../sessions/cost-lines.js';
import { rowCancelWords, statusLabel, type RowCancelWords } from '../sessions/rows.js';
import { trackerKey, type TrackedCancel } from '../../store/cancel/tracker.js';
import type { CancelRecord } from '../../store/cancel/cancel-records.js';
import type { ClaudeSessionView } from '../../store/claude/model.js';
import { hookSettingWords } from '../../store/claude/hook-env.js';
import { sessionKey, type SessionView } from '../../store/sessions/model.js';
import { sessionCountOf } from '../../store/sessions/derive.js';
import { groupDigits } from '../../io/group-digits.js';

const short = (sid: string | null) => (sid === null ? 'legacy' : sid.slice(0, 8));

/**
 * A row's lines at one width, for rows that do not change with the clock (no rate-limit countdown, no next run,
 * no cancel countdown): the OMC rows of sessions with no Claude process are the same objects from one change to
 * the next (loops.ts), so a change draws the lines of the rows it touched.
 */
const steadyLines = new WeakMap<LoopRow, { width: number; lines: ToneLine[] }>();

/**
 * omc-top's cancels, by session: this monitor's own (its tracker) and every omc-top's record of them, with the
 * sessions' Claude processes: the Sessions pane words a row's state with them, and so does this pane.
 */
interface Cancels {
  tracked: ReadonlyMap<string, TrackedCancel>;
  records: ReadonlyMap<string, CancelRecord>;
  claude: ReadonlyMap<string, ClaudeSessionView>;
}

/** A session's cancel words as the Sessions pane's row has them (panes/sessions/rows.ts rowCancelWords). */
const wordsFor = (c: Cancels, s: SessionView, now: number): RowCancelWords =>
  rowCancelWords(
    s,
    c.tracked.get(trackerKey(s.kind === 'legacy' ? null : s.id)),
    c.records.get(sessionKey(s)),
    c.claude.get(s.id),
    now,
  );

function loopLines(l: LoopRow, now: number, width: number, cancels: Cancels): ToneLine[] {
  const words = l.session ? wordsFor(cancels, l.session, now) : undefined;
  const cancelWord = words && (words.tracked || words.flight || words.settled || words.failedElsewhere);
  if (l.rateLimit !== null || l.nextMs !== null || cancelWord || l.session?.status === 'cancelling')
    return loopLine(l, now, width, words);
  const hit = steadyLines.get(l);
  if (hit && hit.width === width) return hit.lines;
  const lines = loopLine(l, now, width);
  steadyLines.set(l, { width, lines });
  return lines;
}

/** How many lines loopLine makes for `l` at `width`, without making them (rowLines: only the lines on screen are). */
export function loopLineCount(l: LoopRow, width: number): number {
  return (
    1 + (width <= 110 && l.detail ? 1 : 0) + (l.spendUnknown ? 1 : 0) + (l.competing ? 1 : 0) + (l.rateLimit ? 1 : 0)
  );
}

/** The loops table's column widths (each with its trailing space; 0 = not shown). */
export interface LoopColumns {
  label: number;
  session: number;
  claude: number;
  state: number;
  burn: number;
  spent: number;
  /** WHAT on the row itself (wide panes; narrower ones put it on a line of its own). */
  what: number;
}

/** The widest each column needs: "ralph 3/100 · ultrawork", "scheduled · next 14:05", "12.3k/min $1.23/h". */
const FULL = { label: 22, state: 26, burn: 18 } as const;
/** SESSION (8 characters of the id) and SPENT EST (`$0.0036+sub…`): never cut, spend is the pane's figure. */
const SESSION = 9;
const SPENT = 13;
/** Room kept at the least for LOOP and STATE ("not enforced" and a space), and what CLAUDE and BURN take. */
const MIN_LABEL = 14;
const MIN_STATE = 13;
const CLAUDE = 8;
const MIN_BURN = 14;

/**
 * The columns at `width`, the row one cell short of it (as every line of the pane). SPENT EST and SESSION always
 * show; LOOP and STATE get their least room; then CLAUDE and BURN (dropped in that order from the right when the
 * pane is narrow: BURN first); then what is left widens LOOP, STATE and BURN up to what they need; WHAT takes
 * the rest of a wide pane.
 */
export function loopColumns(width: number): LoopColumns {
  // Two cells of indent, one after LOOP, one kept at the end.
  let left = width - 4 - SESSION - SPENT - MIN_LABEL - MIN_STATE;
  let claude = 0;
  let burn = 0;
  if (left >= CLAUDE + MIN_BURN) {
    claude = CLAUDE;
    burn = MIN_BURN;
  } else if (left >= CLAUDE) claude = CLAUDE;
  left -= claude + burn;
  const grow = (at: number, to: number) => {
    const more = Math.max(0, Math.min(to - at, left));
    left -= more;
    return at + more;
  };
  const label = grow(MIN_LABEL, FULL.label);
  const state = grow(MIN_STATE, FULL.state);
  if (burn > 0) burn = grow(burn, FULL.burn);
  // A pane too narrow for even the least: LOOP gives way first (the session id still names the row).
  const short = Math.min(0, left);
  return {
    label: Math.max(6, label + short + Math.max(0, width > 110 ? 0 : left)),
    session: SESSION,
    claude,
    state,
    burn,
    spent: SPENT,
    what: width > 110 ? Math.max(0, left) : 0,
  };
}

/** The burn cell: tokens/min and ≈ USD/h when the column holds both, else USD/h (what a cost pane is for). */
function burnText(l: LoopRow, w: number): string {
  const perMin = l.spend?.burnPerMin;
  if (perMin == null) return '—';
  const tokens = `${formatTokens(perMin)}/min`;
  const usd = l.spend?.burnUsdPerHour != null ? `${formatUsd(l.spend.burnUsdPerHour)}/h` : null;
  if (usd === null) return tokens;
  const both = `${tokens} ${usd}`;
  return both.length < w ? both : usd;
}

export function loopLine(l: LoopRow, now: number, width: number, words?: RowCancelWords): ToneLine[] {
  const c = loopColumns(width);
  // `$1.20+subagents…` does not fit the column: the short mark, explained under the project's line. The column
  // holds `$0.0036+sub…` whole (a cell keeps its last place blank).
  // Nothing counted yet while its transcript is still being read: "…" (the list rule, spendCell), not "$0+…".
  const spent = !l.spend
    ? '—'
    : stillBeingRead(l.spend.reading) && l.spend.estimate.priced.length === 0 && l.spend.estimate.unpriced.length === 0
      ? '…'
      : `${estimateText(l.spend.estimate).replace(' est.', '')}${readingShort(l.spend.reading)}`;
  const proc = l.process ? l.process.status : '—';
  // An OMC row's state in the Sessions pane's words ("not enforced", "cancel 12s", "stopping 47s", "stopped"), from
  // the same function and the same cancel words (any omc-top's cancel, in flight or settled).
  const word = l.session
    ? statusLabel(l.session, now, words?.tracked, words?.failedElsewhere, words?.flight, words?.settled)
    : l.state;
  const state = `${word}${l.nextMs !== null ? ` · next ${formatClock(l.nextMs).slice(0, 5)}` : ''}`;
  const head =
    '  ' +
    fit(l.label, c.label) +
    ' ' +
    cell(short(l.sessionId), c.session) +
    cell(proc, c.claude) +
    cell(state, c.state) +
    cell(burnText(l, c.burn), c.burn) +
    cell(spent, c.spent) +
    (c.what > 0 ? fit(l.detail, c.what) : '');
  const out: ToneLine[] = [{ text: head, tone: l.ended ? 'dim' : undefined }];
  if (width <= 110 && l.detail) out.push({ text: `      ${l.detail}`, tone: 'dim' });
  if (l.spendUnknown) out.push({ text: `      ⚠ ${spendUnknownText(l.spendUnknown)}`, tone: 'warn' });
  if (l.competing)
    out.push({
      text: '      ⚠ two Stop hooks compete here: an OMC loop and /goal (either keeps the session going)',
      tone: 'warn',
    });
  if (l.rateLimit) out.push({ text: `      ⚠ ${rateLimitText(l.rateLimit, now)}`, tone: 'warn' });
  return out;
}

/**
 * The project's total: "$1.20 est. · 340k tokens over 2 sessions (subagents included)", and "— · 3 sessions not
 * priced" when none of its sessions could be counted (their transcripts cannot be read): never "$0" for those.
 */
/**
 * The Loops title's counts in the header's words: OMC loops `running` (a mode holding its agent) and `stale`,
 * counted per session as the header counts them (sessionCountOf); then the rows that are neither (a mode not
 * enforced, Claude Code's own /goal, /loop or a background job) and those over.
 */
export function loopCountsText(loops: readonly LoopRow[]): string {
  let running = 0;
  let stale = 0;
  let other = 0;
  let ended = 0;
  for (const l of loops) {
    if (l.ended) ended += 1;
    else {
      const c = l.session ? sessionCountOf(l.session) : { running: 0, stale: 0 };
      running += c.running;
      stale += c.stale;
      if (c.running + c.stale === 0) other += 1;
    }
  }
  return [
    `${running} running`,
    stale ? `${stale} stale` : '',
    other ? `${other} other` : '',
    ended ? `${ended} ended` : '',
  ]
    .filter((t) => t !== '')
    .join(' · ');
}

/** The project's spend when no transcript of it was seen. */
export const NO_TRANSCRIPT = 'no Claude transcript of this project found';

function projectSpentText(p: { estimate: Estimate; tokens: number; sessions: number; notPriced: number }): string {
  const over = `over ${p.sessions} session${p.sessions === 1 ? '' : 's'} (subagents included)`;
  if (p.sessions === 0 && p.notPriced > 0)
    return `— (${p.notPriced} session${p.notPriced === 1 ? '' : 's'} ${NOT_PRICED})`;
  // No transcript seen at all (no Claude config directory here, or none of its sessions): what was spent is not
  // known, which "$0" would hide.
  if (p.sessions === 0) return `— (${NO_TRANSCRIPT})`;
  return `${estimateText(p.estimate)} · ${formatTokens(p.tokens)} tokens ${over}${p.notPriced > 0 ? ` + ${p.notPriced} ${NOT_PRICED}` : ''}`;
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
  const r = costRollupMemo(sessions, store.runs.runs(), claude, prices, now, index, store.runs.seenWindows());
  const today = r.byDay.find((d) => d.day === new Date(now).toISOString().slice(0, 10));
  push(
    `Spent in this project: ${projectSpentText(r.project)} · today (UTC) ${today ? estimateText(today.estimate) : r.project.sessions === 0 ? '—' : '$0 est.'}`,
    'title',
  );
  if (r.project.notPriced > 0) push(`  ⚠ ${notPricedText(r.project.notPriced)}`, 'warn');
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
  // Read only in part, for good (not "until then"): the rollup counts them among the sessions it sums.
  if (r.project.unread > 0)
    push(
      `  ${UNREAD} ${r.project.unread} session${r.project.unread === 1 ? "'s" : "s'"} transcript${r.project.unread === 1 ? ' is' : 's are'} read only in part (a transcript or subagent file over ${formatBytes(FULL_READ_MAX)} is read from its last ${formatBytes(FULL_READ_MAX)}, a line over ${formatBytes(MAX_PARSED_LINE)} not at all): these figures are a lower bound (${UNREAD_SHORT} on a loop, the session's detail says what was left out)`,
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
      `  ${quota.configDir}/${quota.cache.rel} · written ${formatAgo(quota.cache.writtenMs, now)} · last answer from the usage API ${formatAgo(quota.cache.lastSuccessMs, now)}${quota.cache.error ? ` · last fetch failed: ${quota.cache.error}` : ''}`,
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
      `  wait daemon: ${d.alive ? `running (pid ${d.pid})` : `not running${d.pid ? ` (pid ${d.pid} is gone)` : ''}`}${d.state?.lastPollMs ? ` · last poll ${formatAgo(d.state.lastPollMs, now)}` : ''}${d.state?.limited ? ` · plan limited until ${formatTimestamp(d.state.nextResetMs)}` : d.state?.limited === false ? ' · plan not limited' : ''}`,
      d.alive && d.state?.limited ? 'warn' : 'dim',
    );
  const lim = planLimit(quota, now);
  if (lim) push(`  ⚠ the plan is ${limitedUntilWords(lim.untilMs)} (${lim.by})`, 'warn');

  // Every loop.
  const loops = storeLoops(store, prices, now);
  const cancels: Cancels = {
    tracked: store.cancels.getSnapshot().entries,
    records: store.cancelRecords.getSnapshot().records,
    claude: store.claude.getSnapshot().bySession,
  };
  out.push({ text: '' });
  out.push({ text: `▌Loops (${loopCountsText(loops)})`, tone: 'title' });
  const rootWhy = rootUnreadWhy(store.status.getSnapshot().rootAbsence);
  if (loops.length === 0 && rootWhy !== null) push(notKnownLine('Loops', ROOT_NAME, rootWhy), 'dim');
  else if (loops.length === 0)
    push('  none: no active OMC mode, /goal, /loop job or background job in this project', 'dim');
  else {
    const c = loopColumns(width);
    out.push({
      text:
        '  ' +
        fit('LOOP', c.label) +
        ' ' +
        cell('SESSION', c.session) +
        cell('CLAUDE', c.claude) +
        cell('STATE', c.state) +
        cell('BURN', c.burn) +
        cell('SPENT EST', c.spent) +
        (c.what > 0 ? 'WHAT' : ''),
      tone: 'label',
    });
  }
  // Every loop's lines, made only where the window reaches (at 10,000 sessions, ~20,000 lines for a screen of 20).
  const loopPart = rowLines(
    loops,
    (l) => loopLineCount(l, width),
    (l) => loopLines(l, now, width, cancels),
  );
  const tail: ToneLine[] = [];
  out = tail;

  // Budget guard (OMC 5.6 only).
  // The guard's variables as its hooks see them (Claude's settings, a live Claude's environment…), with the source.
  const tokens = store.runs.hookSetting('OMC_RUN_BUDGET_TOKENS');
  const enforce = store.runs.hookSetting('OMC_BUDGET_ENFORCE');
  const budgetSet = Number(tokens.value) > 0;
  // The modes the sessions hold, from the index (kept by each change, not a pass over every session), by name.
  const readings = [...index.modes.keys()].sort().flatMap((m) => {
    const b = store.runs.budgetFor(m);
    return b ? [{ m, b }] : [];
  });
  if (budgetSet || readings.length > 0) {
    out.push({ text: '' });
    out.push({ text: '▌Budget guard (OMC 5.6)', tone: 'title' });
    // One line each: where each value came from is the point, and a narrow pane must not cut it.
    if (budgetSet) {
      push(`  ${hookSettingWords(tokens)}`);
      push(`  ${enforce.value === null ? "OMC_BUDGET_ENFORCE=shadow, OMC's default" : hookSettingWords(enforce)}`);
    }
    for (const { m, b } of readings)
      push(
        `  ${m}: ~${groupDigits(b.spend)}/${groupDigits(b.budget)} tokens (${b.pct}%)${b.outcome ? `, ${b.outcome}` : ''} at ${formatTimestamp(b.tsMs)} (state/enforcement/shadow.jsonl)`,
        b.pct >= 100 ? 'warn' : undefined,
      );
  }

  // Rollups.
  out.push({ text: '' });
  push('▌By mode (a stretch where two loops ran counts once, under both names)', 'title');
  // Each cell keeps a space after it (two figures never run together), narrower in a narrow pane.
  const nameW = Math.min(28, Math.max(12, Math.floor(width * 0.3)));
  const estW = Math.max(12, Math.min(34, width - 3 - nameW - 14));
  const rollupRow = (name: string, s: { estimate: Parameters<typeof estimateText>[0]; tokens: number }) => ({
    text: `  ${cell(name, nameW)}${cell(estimateText(s.estimate), estW)}${formatTokens(s.tokens)} tokens`,
  });
  for (const m of r.byMode) out.push(rollupRow(m.mode === NO_LOOP ? '(no loop)' : m.mode, m));
  // Nothing counted because no transcript was seen is not "nothing spent".
  const none = r.project.sessions === 0 ? `  nothing counted: ${NO_TRANSCRIPT}` : '  nothing spent yet';
  if (r.byMode.length === 0) push(none, 'dim');
  out.push({ text: '' });
  out.push({ text: '▌By day (UTC)', tone: 'title' });
  for (const x of r.byDay) out.push(rollupRow(x.day, x));
  if (r.byDay.length === 0) push(none, 'dim');

  out.push({ text: '' });
  push(
    `Prices: ${PRICE_SOURCE}${Object.keys(prices).length ? `; overridden in the config file: ${Object.keys(prices).join(', ')}` : ''}. Estimates only: no batch, regional or negotiated prices. A model with no price is shown as unpriced, never as $0.`,
    'dim',
  );
  return joinLines([head, loopPart, tail]);
}
