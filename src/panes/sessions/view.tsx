import React, { memo } from 'react';
import { Box, Text } from 'ink';
import { useSyncExternalStore } from 'react';
import { trackerKey, type TrackedCancel } from '../../store/cancel/tracker.js';
import { sessionKey, type SessionView, type SessionsSnapshot } from '../../store/sessions/model.js';
import type { CancelRecord } from '../../store/cancel/cancel-records.js';
import { failedNeed } from '../../feeds/attention/needs.js';
import { clip, fit, formatAge, wrapText } from '../../ui/format.js';
import { offerLine } from '../../ui/kept-draft-line.js';
import { toneColor, useTheme } from '../../ui/theme.js';
import { paint } from '../../ui/paint.js';
import type { ClaudeSessionView } from '../../store/claude/model.js';
import { processCell } from './agent-cell.js';
import { PeekView } from './peek.js';
import type { ViewProps } from '../../kit/pane.js';
import { detailLayout, listLayout } from './layout.js';
import { isDone, keyLabel, rowByKey, rowKey, type SessionsPaneState } from './reducer.js';
import { ScrollLines } from '../../ui/scroll-lines.js';
import { moreAbove, moreBelow } from '../../kit/list.js';
import { withListNote } from './rows.js';
import {
  columnsFor,
  headerText,
  rowCancel,
  rowText,
  settledTone,
  statusLabel,
  trackedTone,
  waitsText,
} from './rows.js';
import { FilterLine } from '../../ui/filter-line.js';
import { EmptyLines } from '../../ui/empty-lines.js';
import { rowFlight } from '../../store/cancel/in-flight.js';
import { rowSettled } from '../../store/cancel/settled.js';
import { rowExtras, withRunFacts } from './run-facts.js';
import { detailExtras } from './answer-lines.js';
import type { OmcStore } from '../../store/store.js';
import { useOpenNeedSessions } from '../../ui/open-needs.js';
import { notKnownLine, ROOT_NAME, useRootUnreadWhy } from '../../ui/not-known.js';

/** The tracker entry for a row's session (legacy state has its own key). */
const failedElsewhere = (records: ReadonlyMap<string, CancelRecord>, s: SessionView): boolean => {
  const rec = records.get(sessionKey(s));
  return rec !== undefined && failedNeed(rec, s) !== null;
};

export const trackedFor = (entries: ReadonlyMap<string, TrackedCancel>, s: SessionView) =>
  entries.get(trackerKey(s.kind === 'legacy' ? null : s.id));

interface RowProps {
  s: SessionView;
  now: number;
  width: number;
  selected: boolean;
  tracked?: TrackedCancel;
  claude?: ClaudeSessionView;
  /** run-facts.ts: badges and the story cell, appended to the modes cell when they fit. */
  extras: readonly string[];
  /** What the session raises is acknowledged (out of the count): no "!" on its process cell. */
  acknowledged: boolean;
  /** Another omc-top's cancel of it failed half-way, its loop still active (the cancel record says so). */
  failedElsewhere: boolean;
  /** omc-top's record of its newest cancel of this session (this process's or another's): its word in flight. */
  record: CancelRecord | undefined;
}

/** The word of a cancel in flight on this row (store/cancel/in-flight.ts), the same every surface says. */
const flightOf = (p: RowProps) => rowFlight(p.tracked, p.record, p.s, p.claude, p.now);
/** The settled word of a cancel on this row (store/cancel/settled.ts), likewise. */
const settledOf = (p: RowProps) => rowSettled(p.tracked, p.record, p.s, p.now);

/** What a row shows that depends on the clock: it re-renders only when these change, not on every tick. */
const timeLabels = (p: RowProps) =>
  `${statusLabel(p.s, p.now, p.tracked, p.failedElsewhere, flightOf(p), settledOf(p))}\u0000${formatAge(p.s.updatedMs, p.now)}\u0000${formatAge(p.claude?.process?.since ?? null, p.now)}`;
const sameRow = (a: RowProps, b: RowProps) =>
  a.s === b.s &&
  a.width === b.width &&
  a.selected === b.selected &&
  a.tracked === b.tracked &&
  a.claude === b.claude &&
  a.acknowledged === b.acknowledged &&
  a.failedElsewhere === b.failedElsewhere &&
  a.record === b.record &&
  a.extras.join('\u0000') === b.extras.join('\u0000') &&
  timeLabels(a) === timeLabels(b);

const Row = memo(function Row({
  s,
  now,
  width,
  selected,
  tracked,
  claude,
  extras,
  acknowledged,
  failedElsewhere,
  record,
}: RowProps) {
  const theme = useTheme();
  const cell = processCell(s, claude, now, acknowledged);
  const props = { s, now, width, selected, tracked, claude, extras, acknowledged, failedElsewhere, record };
  const flight = flightOf(props);
  const settled = settledOf(props);
  const t = rowText(s, now, width, selected, tracked, cell, failedElsewhere, flight, settled);
  if (extras.length > 0) t.modes = withRunFacts(s, t.modes, columnsFor(width).modes, extras, waitsText(cell));
  const tone = flight
    ? 'cancelling'
    : settled
      ? settledTone(settled)
      : tracked
        ? trackedTone(tracked)
        : failedElsewhere
          ? 'error'
          : null;
  const statusColor =
    tone === null
      ? theme.status[s.status]
      : tone === 'ok'
        ? theme.ok
        : tone === 'warn'
          ? theme.warn
          : tone === 'error'
            ? theme.error
            : tone === 'muted'
              ? theme.muted
              : theme.status.cancelling;
  // One element a row, its pieces painted as nested <Text> elements would be (ui/paint.ts).
  return (
    <Text inverse={selected} wrap="truncate">
      {t.marker +
        paint(t.status, { color: statusColor }) +
        paint(t.id, { bold: s.rank <= 2 }) +
        paint(t.modes, { color: s.problems.length > 0 ? theme.warn : undefined }) +
        (t.prompt ? paint(t.prompt, { color: theme.muted }) : '') +
        paint(t.age, { color: theme.muted }) +
        (t.proc ? paint(t.proc, { color: toneColor(theme, cell.tone) }) : '')}
    </Text>
  );
}, sameRow);

function Detail({
  state,
  s,
  width,
  height,
  now,
  tracked,
  claude,
  store,
  record,
}: {
  state: SessionsPaneState;
  s: SessionView;
  width: number;
  height: number;
  now: number;
  tracked?: TrackedCancel;
  claude?: ClaudeSessionView;
  store: OmcStore;
  record?: CancelRecord;
}) {
  const theme = useTheme();
  // The note field (m) takes the last line; the detail scrolls above it.
  const note = state.note && state.note.id === s.id ? state.note : null;
  // A note kept at the last hang-up is offered above the field (Ctrl-R restores · Ctrl-X discards).
  const offer = note && state.noteOffer ? wrapText(offerLine(state.noteOffer, now), width).slice(0, 2) : [];
  const rows = note ? Math.max(1, height - 1 - offer.length) : height;
  const l = detailLayout(s, { columns: width, rows }, now, tracked, claude, detailExtras(store, s, width - 1), record);
  const modeIndex = state.detail?.modeIndex ?? 0;
  const lines = l.lines.map((x) => ({
    text: x.text,
    tone: x.tone,
    inverse: x.tone === 'title' && x.mode !== undefined && x.mode === modeIndex && s.modes.length > 1,
  }));
  const scroll = <ScrollLines lines={lines} scroll={state.detail?.scroll ?? 0} width={width} height={rows} />;
  if (!note) return scroll;
  return (
    <Box flexDirection="column" height={height}>
      {scroll}
      {offer.map((l, i) => (
        <Text key={`o${i}`} color={state.noteOffer?.kind === 'bad' ? theme.error : theme.warn} wrap="truncate">
          {clip(l, width)}
        </Text>
      ))}
      <NoteLine text={note.text} width={width} />
    </Box>
  );
}

/** The note being typed (m): the text with a block cursor, and the keys. */
function NoteLine({ text, width }: { text: string; width: number }) {
  const theme = useTheme();
  const keys = '  (Enter sends, Esc cancels)';
  const room = Math.max(1, width - keys.length - 8);
  return (
    <Text wrap="truncate">
      <Text color={theme.accent}>note: </Text>
      {[...text].slice(-room).join('')}
      <Text inverse> </Text>
      <Text color={theme.muted}>{keys}</Text>
    </Text>
  );
}

/**
 * The list holds no session: empty only when the directories it comes from were read. With the root unreadable
 * (a symlink loop, a file in its place) or a directory above the sessions refused, nobody knows (ui/not-known.ts).
 */
function noSessionsText(snap: SessionsSnapshot, rootWhy: string | null): string {
  if (rootWhy !== null) return notKnownLine('Sessions', ROOT_NAME, rootWhy);
  const refused = snap.unreadableDirs?.[0];
  if (refused !== undefined) return notKnownLine('Sessions', refused, 'the ⚠ line says why');
  return '  No sessions yet: start a ralph / autopilot / team loop in Claude and it appears here.';
}

export function SessionsView({ state, store, width, height, now }: ViewProps<SessionsPaneState>) {
  const theme = useTheme();
  const snap = useSyncExternalStore(store.sessions.subscribe, store.sessions.getSnapshot);
  const tracker = store.cancels;
  const cancels = useSyncExternalStore(tracker.subscribe, tracker.getSnapshot).entries;
  // Every omc-top's cancels of this root: one that failed half-way in another process says so on this row too.
  const records = useSyncExternalStore(store.cancelRecords.subscribe, store.cancelRecords.getSnapshot).records;
  // Stories and next-session facts come from the prd and runs domains: repaint when they change.
  useSyncExternalStore(store.runs.subscribe, store.runs.runs);
  useSyncExternalStore(store.prd.subscribe, store.prd.version);
  // Goals, quota (rate-limited badges): repaint when they change.
  useSyncExternalStore(store.ultragoal.subscribe, store.ultragoal.plansNow);
  useSyncExternalStore(store.quota.subscribe, store.quota.getSnapshot);
  const claude = useSyncExternalStore(store.claude.subscribe, store.claude.getSnapshot).bySession;
  const openNeeds = useOpenNeedSessions();
  // The detail's answering lines: permission requests and notes.
  useSyncExternalStore(store.permissions.subscribe, store.permissions.getSnapshot);
  useSyncExternalStore(store.notes.subscribe, store.notes.getSnapshot);
  const rootWhy = useRootUnreadWhy(store);
  if (state.peek) {
    const s = rowByKey(snap.sessions, state.peek.id);
    if (!s)
      return (
        <Box height={height} flexDirection="column">
          <Text color={theme.warn}>
            Session {keyLabel(state.peek.id)} is gone from disk (ended or cleaned up). Esc to go back.
          </Text>
        </Box>
      );
    return <PeekView store={store} session={s} width={width} height={height} now={now} scroll={state.peek.scroll} />;
  }
  if (state.detail) {
    const s = rowByKey(snap.sessions, state.detail?.id);
    if (!s) {
      return (
        <Box height={height} flexDirection="column">
          <Text color={theme.warn}>
            Session {keyLabel(state.detail.id)} is gone from disk (ended or cleaned up). Esc to go back.
          </Text>
        </Box>
      );
    }
    return (
      <Detail
        state={state}
        s={s}
        width={width}
        height={height}
        now={now}
        tracked={trackedFor(cancels, s)}
        claude={claude.get(s.id)}
        store={store}
        record={records.get(sessionKey(s))}
      />
    );
  }

  const {
    rows,
    showFilter,
    height: listHeight,
    view,
  } = listLayout(state, snap, { columns: width, rows: height }, now, claude);
  const { index: sel, top } = view;
  const visible = rows.slice(top, top + listHeight);
  const above = moreAbove(view);
  const below = moreBelow(view, listHeight, rows.length);
  const scroll =
    above + below === 0
      ? ''
      : `${above ? `↑${above}` : ''}${above && below ? ' ' : ''}${below ? `↓${below}` : ''} more`;
  const hidden = state.hideDone ? snap.sessions.filter(isDone).length : 0;
  const header = withListNote(headerText(width), {
    // Every order is named, the default too: a list that says "by recent" after S says "by attention" before it.
    sort: `by ${state.sort}`,
    hidden: hidden ? `${hidden} done hidden` : '',
    scroll,
    scrollShort: below ? `↓${below}` : above ? `↑${above}` : '',
  });

  return (
    <Box flexDirection="column" height={height}>
      {showFilter ? <FilterLine of={state} shown={rows.length} total={snap.sessions.length} width={width} /> : null}
      <Text bold color={theme.muted} wrap="truncate">
        {fit(header, width)}
      </Text>
      {rows.length === 0 ? (
        <EmptyLines
          text={
            snap.sessions.length === 0
              ? noSessionsText(snap, rootWhy)
              : state.filter === '' && state.hideDone
                ? `  Every session is finished, idle or stale (${snap.sessions.length}); H shows them.`
                : '  No session matches the filter.'
          }
          width={width}
          rows={listHeight}
        />
      ) : (
        // Keyed by screen position, as the wiki's rows are: a `/` keystroke or a page move brings other sessions
        // into most slots, and a session key made React unmount those rows and mount new ones (new Ink and Yoga
        // nodes, and their garbage); by position the same Ink nodes take the new text. Rows hold no state.
        visible.map((s, i) => (
          <Row
            key={i}
            s={s}
            now={now}
            width={width}
            selected={top + i === sel}
            tracked={rowCancel(trackedFor(cancels, s), now, s)}
            claude={claude.get(s.id)}
            extras={rowExtras(store, s)}
            acknowledged={openNeeds !== null && !openNeeds.has(rowKey(s))}
            failedElsewhere={failedElsewhere(records, s)}
            record={records.get(sessionKey(s))}
          />
        ))
      )}
    </Box>
  );
}
