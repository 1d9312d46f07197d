/** Header, problem lines, message line and footer: the frame around every pane. */
import React from 'react';
import { Box, Text } from 'ink';
import type { AnyPaneModule } from '../kit/pane.js';
import type { OmcInstall } from '../store/omc-install.js';
import { omcGuessMarks, omcLabel } from '../store/omc-label.js';
import { KEPT_TAG } from '../store/omc-kept.js';
import { unreadableDirCount, type SessionsSnapshot } from '../store/sessions/model.js';
import { sessionCountOf } from '../store/sessions/derive.js';
import type { StoreStatus } from '../store/store.js';
import { pollingByChoice } from '../store/polling-chosen.js';
import type { Problem } from '../store/types.js';
import { clip, fit, formatClock, width as textWidth } from './format.js';
import { useTheme } from './theme.js';
import { messageLines } from './layout.js';
import type { Flash, PaneId } from '../kit/ui-store.js';
import { MOVE_HINT } from '../kit/nav.js';
import { shownPath } from '../io/shown-path.js';

export function shortenPath(p: string, max: number, home = process.env.HOME ?? ''): string {
  const s = home && p.startsWith(home + '/') ? '~' + p.slice(home.length) : p;
  if (s.length <= max) return s;
  return '…' + s.slice(s.length - max + 1);
}

/**
 * Sessions with a loop still running (a mode active or pending), and stale
 * ones (sessionCountOf). The sessions domain keeps the sums as sessions change,
 * so a frame does not walk every session.
 */
export function sessionCounts(snap: SessionsSnapshot): { running: number; stale: number; unreadable: number } {
  // A directory above the sessions that could not be listed counts as one unknown more (status-line.ts says the same).
  const dirs = unreadableDirCount(snap);
  if (snap.counts) {
    const { running, stale, unreadable } = snap.counts;
    return { running, stale, unreadable: (unreadable ?? 0) + dirs };
  }
  let running = 0;
  let stale = 0;
  let unreadable = 0;
  for (const s of snap.sessions) {
    const c = sessionCountOf(s);
    running += c.running;
    stale += c.stale;
    if (s.status === 'unreadable') unreadable += 1;
  }
  return { running, stale, unreadable: unreadable + dirs };
}

/** The header's attention part: "needs you: N" (the attention monitor's count) and "notify off" while muted. */
export function attentionText(needs: number | null | undefined, notifyOff: boolean | undefined): string {
  return [needs ? `needs you: ${needs}` : '', notifyOff ? 'notify off' : ''].filter(Boolean).join(' · ');
}

/** Room the root path keeps beside the right side before that side gives way. */
const PATH_MIN = 12;
/** Below this the path is left out of the header (the count and the name keep their room). */
const PATH_LEAST = 8;

export function Header({
  root,
  rule,
  sessions,
  width,
  now,
  readonly,
  omc,
  needs,
  notifyOff,
  quota,
  quotaShort,
  rootUnread,
}: {
  root: string;
  rule: string;
  sessions: SessionsSnapshot;
  width: number;
  now: number;
  readonly: boolean;
  /** Which OMC runs the hooks: the statuses follow its rules. */
  omc?: OmcInstall | null;
  /** "needs you: N" from the attention monitor (null/undefined: no monitor runs). */
  needs?: number | null;
  /** The notifications are switched off (the N key). */
  notifyOff?: boolean;
  /**
   * The plan quota (store/cost/quota-words.ts), long and short forms: shown first in the right part while the root path
   * keeps PATH_MIN cells (the path is shortened for it, as for the attention count).
   */
  quota?: string | null;
  quotaShort?: string | null;
  /**
   * Why nothing under the root can be read (not-known.ts rootUnreadWhy), or null: with no session listed no count is
   * claimed, as no pane claims an empty list ("0 sess" would say a tree nobody could look at is empty); the sessions
   * seen before are counted, each unreadable.
   */
  rootUnread?: string | null;
}) {
  const theme = useTheme();
  // The root with every byte of its name (a control as an escape): the directory it is, not a look-alike.
  // Once per root, not per frame: the header draws at every change.
  const shownRoot = React.useMemo(() => shownPath(root), [root]);
  const { running, stale, unreadable } = sessionCounts(sessions);
  // "running", not "live": the footer's "live" is the file watcher. Unreadable sessions may run a loop too: their
  // count is said apart (the status line's `? unreadable`).
  // A root that cannot be read with sessions still listed (seen before it went, each `unreadable`) counts them as a
  // root that is gone does: "6 sess · 0 running · 6 unreadable". Only with none listed is there nothing to count.
  const counts =
    rootUnread && sessions.sessions.length === 0
      ? 'sessions not known'
      : sessions.scanning
        ? `reading ${sessions.scanning.done}/${sessions.scanning.total} sessions`
        : `${sessions.sessions.length} sess · ${running} running${stale ? ` · ${stale} stale` : ''}${unreadable ? ` · ${unreadable} unreadable` : ''}`;
  const label = `omc-top${readonly ? ' [readonly]' : ''}  `;
  const clock = `${formatClock(now).slice(0, 5)} UTC`;
  const attn = attentionText(needs, notifyOff);
  const lead = attn ? `${attn}  ` : '';
  // In a pane too narrow for the name and the count, the count stays (what a narrow pane is glanced at for).
  const left = !attn || label.length + attn.length <= width ? label : '';
  // The OMC version only when the root path (and the rule, where shown) still fits beside it whole: where we look
  // matters more. A guess keeps a mark as long as one fits so: its shorter forms, then without the clock ("OMC ?"
  // says every status is a guess; the clock says nothing a status needs).
  const pathWhole = shortenPath(shownRoot, 1_000).length + (width >= 100 ? rule.length + 3 : 0);
  const fitsWhole = (c: string) => pathWhole <= width - left.length - lead.length - c.length - 2;
  const omcTries = omc ? omcRightTries(omc, sessions.omcSeen, counts, clock) : [];
  // A known OMC is not dropped for the path's sake: past its forms that leave the path whole, its short form
  // (`OMC 4.4.4`) stays while the path, shortened by its cut and without its rule, keeps PATH_MIN cells.
  const omcShort = omc && omcGuessMarks(omc, sessions.omcSeen) === null ? omcTries[omcTries.length - 1] : undefined;
  const withOmc =
    omcTries.find(fitsWhole) ??
    (omcShort !== undefined && width - left.length - lead.length - omcShort.length - 2 >= PATH_MIN
      ? omcShort
      : undefined);
  const pathCut = withOmc !== undefined && !fitsWhole(withOmc);
  const ruleText = width >= 100 && !pathCut ? ` (${rule})` : '';
  let right = withOmc ?? `${counts}  ${clock}`;
  let showRule = ruleText !== '';
  if (attn) {
    // The count is added. To make room, the rule goes first, then the clock, while the root path can stay
    // whole; past that the path is shortened (down to PATH_MIN), and only then do the counts give way.
    const full = shortenPath(shownRoot, 1_000).length;
    const room = (c: string) => width - left.length - lead.length - c.length - 2;
    const whole: Array<[string, boolean]> = [
      [right, true],
      [right, false],
      [counts, false],
    ];
    const cut: Array<[string, boolean]> = [
      [right, false],
      [counts, false],
      [`${running} running`, false],
    ];
    const [pick, rule] = whole.find(([c, r]) => room(c) >= full + (r ? ruleText.length : 0)) ??
      cut.find(([c]) => room(c) >= PATH_MIN) ?? ['', false];
    showRule = ruleText !== '' && rule;
    right = pick;
  }
  // The quota goes in front of the counts (its long form, else its short one) while the root path keeps
  // PATH_MIN cells: the README promises it in the header, and at 80 columns it never fitted beside a whole path.
  // The rule (where the root was found) goes first when the path must be shortened for it.
  // Past that the short form takes the clock's and then the counts' room (the list shows the sessions).
  const quotaTries: Array<[string | null | undefined, string]> = [
    [quota, right],
    [quotaShort, right],
    [quotaShort, counts],
    [quotaShort, `${running} running`],
  ];
  for (const [q, rest] of quotaTries) {
    if (!q) continue;
    const withQuota = rest ? `${q}  ${rest}` : q;
    const room = width - left.length - lead.length - withQuota.length - 2;
    if (room < PATH_MIN) continue;
    right = withQuota;
    if (room < shortenPath(shownRoot, 1_000).length + ruleText.length) showRule = false;
    break;
  }
  const rightAll = lead + right;
  // Under PATH_LEAST cells a path names nothing: it gives its room to the count rather than push it off the line.
  const pathRoom = width - left.length - rightAll.length - 2;
  const where =
    pathRoom < PATH_LEAST
      ? ''
      : showRule
        ? shortenPath(shownRoot, pathRoom - ruleText.length) + ruleText
        : shortenPath(shownRoot, pathRoom);
  return (
    <Text wrap="truncate">
      <Text bold color={theme.accent}>
        {left}
      </Text>
      {fit(where, Math.max(0, width - left.length - rightAll.length))}
      {attn ? (
        <Text bold color={theme.warn}>
          {right ? lead : attn}
        </Text>
      ) : null}
      <Text color={theme.muted}>{right}</Text>
    </Text>
  );
}

/**
 * The header's right part with the OMC, in the order tried: the label with the clock, and for a guess each shorter
 * mark (omc-label.ts), then the shortest without the clock.
 */
function omcRightTries(omc: OmcInstall, seen: SessionsSnapshot['omcSeen'], counts: string, clock: string): string[] {
  const marks = omcGuessMarks(omc, seen);
  if (marks === null) {
    // A known OMC: its label, then its short form (`OMC 4.4.4`, `OMC 4.4.4/5.5.0`: where it came from left out).
    const label = omcLabel(omc, seen);
    const bare = label.replace(/ \(.*\)$/, '');
    // A version kept while its file cannot be read keeps that mark when shortened: it must not read as checked now.
    const short = label.includes(KEPT_TAG) ? `${bare} (${KEPT_TAG})` : bare;
    // Last, without the clock, as a guess's mark: the version says how every status was judged, the clock does not.
    return short === label
      ? [`${counts}  ${label}  ${clock}`, `${counts}  ${label}`]
      : [`${counts}  ${label}  ${clock}`, `${counts}  ${short}  ${clock}`, `${counts}  ${short}`];
  }
  const tries = marks.map((m) => `${counts}  ${m}  ${clock}`);
  const shortest = marks[marks.length - 1];
  if (shortest !== undefined) tries.push(`${counts}  ${shortest}`);
  return tries;
}

export function ProblemLines({ problems, width, max }: { problems: readonly Problem[]; width: number; max: number }) {
  const theme = useTheme();
  if (problems.length === 0 || max <= 0) return null;
  const shown = problems.slice(0, max);
  const more = problems.length - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((p, i) => {
        const suffix = i === shown.length - 1 && more > 0 ? `  (+${more} more: press ! to list)` : '';
        return (
          <Text key={i} wrap="truncate" color={p.severity === 'error' ? theme.error : theme.warn}>
            {clip(`⚠ ${p.path}: ${p.message}${suffix}`, width)}
          </Text>
        );
      })}
    </Box>
  );
}

export function FlashLine({ flash, width, height }: { flash: Flash | null; width: number; height: number }) {
  const theme = useTheme();
  if (!flash) return <Text> </Text>;
  const color = flash.kind === 'error' ? theme.error : flash.kind === 'success' ? theme.ok : theme.accent;
  return (
    <Box flexDirection="column">
      {messageLines(flash, width, height).map((l, i) => (
        <Text key={i} wrap="truncate" color={color} bold={flash.kind === 'error'}>
          {clip(l, width)}
        </Text>
      ))}
    </Box>
  );
}

export function Footer({
  panes,
  current,
  hints,
  status,
  width,
  typing = false,
  claimed,
}: {
  panes: ReadonlyArray<AnyPaneModule>;
  current: PaneId;
  hints: Array<[string, string]>;
  status: StoreStatus;
  width: number;
  /** A text field is open: every key is text there, so `?` and `q` are not offered. */
  typing?: boolean;
  /** Keys the pane on screen binds now (kit/bindings claimedKeys): pane hotkeys among them are left out. */
  claimed?: ReadonlySet<string>;
}) {
  const theme = useTheme();
  // Polling the user asked for (--poll) is a fact in the footer's quiet colour; a fallback to it is the alarm.
  const chosen = pollingByChoice(status);
  const watch =
    status.watchMode === 'events'
      ? 'live'
      : status.watchMode === 'polling'
        ? chosen
          ? 'polling'
          : 'POLLING'
        : status.watchMode === 'waiting'
          ? 'NO .omc'
          : status.watchMode === 'starting'
            ? 'starting'
            : 'off';
  const tabs = footerTabs(panes, current, width, claimed);
  // While the first read is under way the watcher may already be live: say both. A bare `live` at the end
  // still means "everything read and watched" (what the benchmarks and tests wait for).
  const watchText = status.reading ? `${watch} · ${status.reading}` : watch;
  const help = typing ? '' : '? help  ';
  const tabsWidth = tabs.reduce((n, t) => n + t.text.length + 1, 0);
  const room = Math.max(0, width - tabsWidth - help.length - watchText.length - 2);
  const hintText = hintsThatFit(footerOrder(hints, typing), room);
  const alarm = (status.watchMode === 'polling' && !chosen) || status.watchMode === 'waiting';
  return (
    <Text wrap="truncate">
      {tabs.map((t) => (
        <Text key={t.id} inverse={t.id === current} color={t.id === current ? undefined : theme.muted}>
          {t.text}
          <Text inverse={false}> </Text>
        </Text>
      ))}
      <Text> </Text>
      <Text>{fit(hintText, room)}</Text>
      <Text color={theme.muted}>{` ${help}`}</Text>
      <Text color={alarm ? theme.warn : theme.muted} bold={alarm}>
        {watchText}
      </Text>
    </Text>
  );
}

/**
 * The footer's pane tabs, from its first column, each followed by one space (a click on one opens its pane).
 * Wide: every pane by name. Narrow: the current pane by name and the other panes' keys, so the pane's own hints
 * (what the user needs now) get the room. Not before 140 columns: at 120 the names took the room of the pane's
 * own keys (`S sort` fell off).
 */
export function footerTabs(
  panes: ReadonlyArray<AnyPaneModule>,
  current: PaneId,
  width: number,
  claimed?: ReadonlySet<string>,
): Array<{ id: PaneId; text: string }> {
  const wide = width >= 140;
  // A pane's hotkey the pane on screen takes for itself here is not offered as a switch (it would do the other thing).
  return panes
    .filter((p) => p.id === current || !claimed?.has(p.hotkey))
    .map((p) => ({
      id: p.id,
      text: wide ? `${p.hotkey}:${p.title}` : p.id === current ? `${p.hotkey}:${p.title}` : p.hotkey,
    }));
}

/** The pane whose footer tab is at column `x`, or null. */
export function footerTabAt(tabs: ReadonlyArray<{ id: PaneId; text: string }>, x: number): PaneId | null {
  let from = 0;
  for (const t of tabs) {
    if (x >= from && x < from + textWidth(t.text)) return t.id;
    from += textWidth(t.text) + 1;
  }
  return null;
}

/**
 * What the footer offers, most useful first: the pane's own actions, then how
 * to move (arrow keys: everyone knows them), then `q quit`, which is left out while
 * a text field is open (q is a letter there) and where q means something else (a dialog's `n/Esc/q no`).
 */
export function footerOrder(hints: Array<[string, string]>, typing: boolean): Array<[string, string]> {
  const isNav = ([keys, what]: [string, string]) => what === MOVE_HINT || /^[←→↑↓]/.test(keys);
  const nav = hints.filter(isNav);
  const actions = hints.filter((h) => !isNav(h));
  const qTaken = hints.some(([keys]) => keys.split('/').includes('q'));
  return typing || qTaken ? [...actions, ...nav] : [...actions, ...nav, ['q', 'quit']];
}

/**
 * The pane's hints, most important first, as many whole ones as fit: a hint
 * cut mid-word ("c canc…") tells the user less than one left for `?` help.
 */
export function hintsThatFit(hints: Array<[string, string]>, room: number): string {
  // The way back out (`Esc back`, `Esc close`) is kept whatever else is left out: without it on screen a user
  // in a narrow pane sees the keys that go deeper and none that return.
  const way = hints.findIndex(([, v]) => v === 'back' || v === 'close');
  const kept = way === -1 ? null : (hints[way] as [string, string]);
  const keptWidth = kept ? textWidth(`${kept[0]} ${kept[1]}`) + 2 : 0;
  let text = '';
  let fitted = 0;
  for (const [k, v] of hints) {
    const next = text ? `${text}  ${k} ${v}` : `${k} ${v}`;
    // Room for the way back after this one, unless this one is it (or it is already on the line).
    const reserve = kept && fitted < way ? keptWidth : 0;
    if (textWidth(next) + reserve > room) break;
    text = next;
    fitted += 1;
  }
  if (kept && fitted <= way) {
    const withWay = text ? `${text}  ${kept[0]} ${kept[1]}` : `${kept[0]} ${kept[1]}`;
    if (textWidth(withWay) <= room) text = withWay;
  }
  // Not even the first fits whole: show what fits of it rather than nothing.
  return text || (hints[0] ? fit(`${hints[0][0]} ${hints[0][1]}`, room) : '');
}
