/**
 * The Notepad pane: a tab bar (Priority / Working / MANUAL with sizes against
 * OMC's limits), the section's entries newest first with a preview, the full
 * text of one entry, and the editor. Reads only; every line is cut to width.
 */
import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { NotepadDomain } from '../../store/notepad/domain.js';
import { LIMITS, SECTION_TITLES, type SectionId } from '../../store/notepad/format.js';
import { readLength } from '../../store/notepad/validate.js';
import { isDue, type NotepadEntry, type NotepadSnapshot } from '../../store/notepad/model.js';
import { formatBytes } from '../../io/safe-fs/index.js';
import { clip, fit, formatAgo, wrapText } from '../../ui/format.js';
import { useTheme, type Theme } from '../../ui/theme.js';
import { notKnownLine, ROOT_NAME, useRootNotReadWhy } from '../../ui/not-known.js';
import type { ViewProps } from '../../kit/pane.js';
import { cursorRow, layout } from './editor.js';
import { diskLines, diskRoom } from './conflict-lines.js';
import { offerLine } from '../../ui/kept-draft-line.js';
import { TABS, type EditorSession, type NotepadPaneState } from './reducer.js';
import { entryListLayout, textLayout } from './layout.js';
import { DUE_TAG, entryCells } from './rows.js';
import { ScrollLines } from '../../ui/scroll-lines.js';
import { moreText, withNote } from '../../kit/list.js';
import { FilterLine } from '../../ui/filter-line.js';
import { groupDigits } from '../../io/group-digits.js';

const n = groupDigits;
export function useNotepad(domain: NotepadDomain): NotepadSnapshot {
  return useSyncExternalStore(domain.subscribe, domain.getSnapshot);
}

/** What a section holds is not known while notepad.md was never read (unreadable): its tab says "?", not 0. */
const UNKNOWN_COUNT = '?';
/** The words under the tabs for a notepad.md never read: nothing is listed, and nothing is offered to add. */
export const NOTEPAD_UNREAD = notKnownLine('Entries', 'notepad.md', 'the line above says why');

/**
 * A notepad.md last seen missing under a root that cannot be read now (ui/not-known.ts) was not read: shown as
 * unreadable, the line above saying why, never "No notepad.md yet".
 */
function shownNotepad(snap: NotepadSnapshot, rootWhy: string | null): NotepadSnapshot {
  if (rootWhy === null || snap.status !== 'missing') return snap;
  return { ...snap, status: 'unreadable', editBlock: `${ROOT_NAME} cannot be read (${rootWhy})` };
}

function tabLabel(id: SectionId, snap: NotepadSnapshot, now: number): string {
  const s = snap.sections[id];
  const i = TABS.indexOf(id) + 1;
  if (snap.status === 'unreadable')
    return id === 'priority'
      ? `${i} Priority ${UNKNOWN_COUNT}/${LIMITS.priorityRecommended}`
      : `${i} ${id === 'working' ? 'Working' : 'MANUAL'} ${UNKNOWN_COUNT}`;
  if (id === 'priority') return `${i} Priority ${s.chars}/${LIMITS.priorityRecommended}`;
  const count = s.entries.length;
  const due = id === 'working' ? s.entries.filter((e) => isDue(e, now)).length : 0;
  return `${i} ${id === 'working' ? 'Working' : 'MANUAL'} ${count}${due > 0 ? ` (${due} due)` : ''}`;
}

function TabBar({ snap, tab, width, now }: { snap: NotepadSnapshot; tab: SectionId; width: number; now: number }) {
  const theme = useTheme();
  let used = 0;
  const parts: React.ReactNode[] = [];
  TABS.forEach((id, i) => {
    const label = ` ${tabLabel(id, snap, now)} `;
    const sep = i < TABS.length - 1 ? '│' : '';
    const room = Math.max(0, width - used);
    const shown = clip(label, room);
    used += shown.length;
    parts.push(
      <Text key={id} inverse={id === tab} bold={id === tab} color={id === tab ? undefined : theme.muted}>
        {shown}
      </Text>,
    );
    if (sep && used < width) {
      parts.push(
        <Text key={`${id}-sep`} color={theme.muted}>
          {sep}
        </Text>,
      );
      used += 1;
    }
  });
  return <Text wrap="truncate">{parts}</Text>;
}

/**
 * Why nothing is written from this pane now, in words for an empty state (its writing keys are not offered then
 * either), or null when they work: a notepad.md omc-top will not write (CRLF line endings OMC reads no section in,
 * a symlink…: the info line above says which), or --readonly.
 */
function writeOff(snap: NotepadSnapshot, readonly: boolean): string | null {
  if (snap.editBlock) return 'nothing can be written here: the line above says why';
  return readonly ? '--readonly: nothing is written' : null;
}

function infoLine(
  snap: NotepadSnapshot,
  tab: SectionId,
  now: number,
  off: string | null,
): { text: string; tone?: 'warn' | 'error' } {
  // What keeps edits off first: a notepad.md that is only a dangling link is missing too.
  if (snap.editBlock) return { text: snap.editBlock, tone: 'error' };
  if (snap.status === 'missing')
    return {
      text: off
        ? `No notepad.md yet (${off}).`
        : "No notepad.md yet. a adds an entry (OMC's template is written first).",
    };
  const s = snap.sections[tab];
  const orphans =
    snap.orphans.count > 0
      ? ` · ${snap.orphans.count} old 4.x blocks (${formatBytes(snap.orphans.bytes)}) ignored, as OMC does`
      : '';
  if (tab === 'priority') {
    const over = s.chars > LIMITS.priorityRecommended;
    return {
      text: `Priority Context · ${n(s.chars)} chars · ${n(LIMITS.priorityRecommended)} recommended, ${n(LIMITS.priorityMax)} max · injected into every session${orphans}`,
      ...(over ? { tone: 'warn' as const } : {}),
    };
  }
  const largest = s.entries.reduce((m, e) => Math.max(m, e.chars), 0);
  const due = tab === 'working' ? s.entries.filter((e) => isDue(e, now)).length : 0;
  const dueText = tab === 'working' ? ` · ${due} due for pruning (>7 days)` : ' · never pruned';
  return {
    text: `${SECTION_TITLES[tab]} · ${s.entries.length} ${s.entries.length === 1 ? 'entry' : 'entries'}${dueText} · largest ${n(largest)}/${n(LIMITS.entryMax)} chars${orphans}`,
  };
}

/** A label followed by a line to exactly `width` cells. */
const rule = (label: string, width: number) => {
  const l = `${clip(label, width - 1)} `;
  return l + '─'.repeat(Math.max(0, width - l.length));
};

const toneColor = (theme: Theme, tone?: string) =>
  tone === 'error' ? theme.error : tone === 'warn' ? theme.warn : theme.muted;

function entryRow(
  e: NotepadEntry,
  now: number,
  width: number,
  selected: boolean,
  prunable: boolean,
): { head: string; due: boolean; text: string } {
  const c = entryCells(e, now, prunable);
  // A narrow pane drops the stamp's year (the filter still reads it whole).
  const stamp = e.stamp !== null && width < 70 ? c.stamp.slice(5) : c.stamp;
  const head = `${selected ? '▸' : ' '} ${stamp.padEnd(width < 70 ? 11 : 16)} ${c.age.padStart(4)} `;
  return { head, due: c.due, text: c.text };
}

function Priority({
  snap,
  state,
  off,
  width,
  height,
}: {
  snap: NotepadSnapshot;
  state: NotepadPaneState;
  /** writeOff: why nothing may be written, or null. */
  off: string | null;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const s = snap.sections.priority;
  if (snap.status === 'unreadable')
    return (
      <Text color={theme.muted} wrap="truncate">
        {clip(NOTEPAD_UNREAD, width)}
      </Text>
    );
  if (s.text === '') {
    return (
      <Text color={theme.muted} wrap="truncate">
        {clip(off ? `  (empty; ${off})` : '  (empty) i or Enter writes it; OMC injects it into every session.', width)}
      </Text>
    );
  }
  const l = textLayout(s.display, { columns: width, rows: height + 2 }, false);
  const lines = l.lines.map((text) => ({ text: `  ${text}` }));
  return <ScrollLines lines={lines} scroll={state.priorityScroll} width={width} height={l.height} />;
}

function FullEntry({
  e,
  state,
  width,
  height,
  now,
}: {
  e: NotepadEntry;
  state: NotepadPaneState;
  width: number;
  height: number;
  now: number;
}) {
  const theme = useTheme();
  const l = textLayout(e.display, { columns: width, rows: height + 2 }, true);
  const lines = l.lines.map((text) => ({ text: `  ${text}` }));
  const due = state.tab === 'working' && isDue(e, now) ? ' · due for pruning' : '';
  const age = e.atMs === null ? '' : ` · ${formatAgo(e.atMs, now)}`;
  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent} wrap="truncate">
        {clip(
          `${e.stamp ?? '(untimed text)'}${age} · ${n(e.chars)}/${n(LIMITS.entryMax)} chars${due}   (Esc back)`,
          width,
        )}
      </Text>
      <ScrollLines lines={lines} scroll={state.view?.scroll ?? 0} width={width} height={l.height} />
    </Box>
  );
}

function EntryList({
  snap,
  state,
  off,
  width,
  height,
  now,
}: {
  snap: NotepadSnapshot;
  state: NotepadPaneState;
  /** writeOff: why nothing may be written, or null. */
  off: string | null;
  width: number;
  height: number;
  now: number;
}) {
  const theme = useTheme();
  const tab = state.tab as Exclude<SectionId, 'priority'>;
  const { rows, showFilter, listRows, previewRows, view } = entryListLayout(
    state,
    snap,
    { columns: width, rows: height + 2 },
    now,
  );
  const avail = listRows + previewRows;
  const filterLine = showFilter ? (
    <FilterLine of={state} shown={rows.length} total={snap.sections[tab].entries.length} width={width} />
  ) : null;
  if (rows.length === 0) {
    return (
      <Box flexDirection="column">
        {filterLine}
        <Text color={theme.muted} wrap="truncate">
          {clip(
            snap.status === 'unreadable'
              ? NOTEPAD_UNREAD
              : snap.sections[tab].entries.length === 0
                ? off
                  ? `  No entries (${off}).`
                  : '  No entries. a adds one (A: write it in $EDITOR).'
                : '  No entry matches the filter.',
            width,
          )}
        </Text>
      </Box>
    );
  }
  // List on top, the selected entry's text below when there is room for both.
  const sel = Math.max(0, view.index);
  const top = view.top;
  const selected = rows[sel] as NotepadEntry;
  const shownRows = Math.min(listRows, rows.length - top);
  // The preview moves up under a short list.
  const previewLines =
    previewRows > 0 ? wrapText(selected.display, Math.max(10, width - 2)).slice(0, avail - shownRows - 1) : [];
  return (
    <Box flexDirection="column">
      {filterLine}
      {rows.slice(top, top + listRows).map((e, i) => {
        const r = entryRow(e, now, width, top + i === sel, tab === 'working');
        const dueTag = r.due ? DUE_TAG : '';
        return (
          <Text key={e.id} inverse={top + i === sel} wrap="truncate">
            <Text color={theme.muted}>{r.head}</Text>
            <Text color={theme.warn} bold>
              {fit(dueTag, Math.min(dueTag.length, Math.max(0, width - r.head.length)))}
            </Text>
            {clip(r.text, Math.max(0, width - r.head.length - dueTag.length))}
          </Text>
        );
      })}
      {previewLines.length > 0 ? (
        <>
          <Text color={theme.muted} wrap="truncate">
            {rule(`── ${selected.stamp ?? 'untimed'} · ${n(selected.chars)}/${n(LIMITS.entryMax)} chars `, width)}
          </Text>
          {previewLines.map((l, i) => (
            <Text key={`p${i}`} wrap="truncate">
              {clip(`  ${l}`, width) || ' '}
            </Text>
          ))}
        </>
      ) : null}
    </Box>
  );
}

function limitText(ed: EditorSession): { text: string; tone?: 'warn' | 'error' } {
  // What OMC reads (a comment kept in the draft is not part of it), as the read view counts it.
  const len = readLength(ed.buf.text);
  if (ed.kind === 'priority') {
    const tone = len > LIMITS.priorityMax ? 'error' : len > LIMITS.priorityRecommended ? 'warn' : undefined;
    return {
      text: `${n(len)}/${n(LIMITS.priorityRecommended)} (max ${n(LIMITS.priorityMax)})`,
      ...(tone ? { tone } : {}),
    };
  }
  return { text: `${n(len)}/${n(LIMITS.entryMax)}`, ...(len > LIMITS.entryMax ? { tone: 'error' as const } : {}) };
}

function EditorView({
  ed,
  offer,
  now,
  width,
  height,
}: {
  ed: EditorSession;
  offer: NotepadPaneState['offer'];
  now: number;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const title =
    ed.kind === 'priority'
      ? 'Priority Context'
      : ed.kind === 'add'
        ? `New ${SECTION_TITLES[ed.section]} entry`
        : `${SECTION_TITLES[ed.section]} entry ${ed.target?.stamp ?? '(untimed)'}`;
  const limit = limitText(ed);
  const status = ed.saving ? '  saving…' : '';
  const banner: Array<{ text: string; tone: string }> = [];
  if (offer) {
    for (const l of wrapText(offerLine(offer, now), width).slice(0, 3))
      banner.push({ text: l, tone: offer.kind === 'bad' ? 'error' : 'warn' });
  }
  if (ed.conflict)
    for (const l of wrapText(`Changed on disk: ${ed.conflict.message}.`, width).slice(0, 2))
      banner.push({ text: l, tone: 'error' });
  const hintRow = height >= 8;
  const rows = layout(ed.buf.text, width - 1);
  if (ed.conflict && ed.conflict.disk !== null) {
    // The rest of the screen, but for the title, the lines above, the keys line and a third kept for the draft.
    const free = height - 1 - banner.length - (hintRow ? 1 : 0);
    for (const l of diskLines(ed.conflict.disk, width, diskRoom(free, rows.length)))
      banner.push({ text: l, tone: 'warn' });
  }
  const textRows = Math.max(1, height - 1 - banner.length - (hintRow ? 1 : 0));
  const cr = cursorRow(rows, ed.buf.cursor);
  const top = Math.max(0, cr - textRows + 1);
  return (
    <Box flexDirection="column" height={height}>
      <Text wrap="truncate">
        <Text bold color={theme.accent}>
          {fit(`✎ ${title}${status}`, Math.max(0, width - limit.text.length - 1))}
        </Text>{' '}
        <Text color={limit.tone ? toneColor(theme, limit.tone) : theme.muted} bold={limit.tone === 'error'}>
          {limit.text}
        </Text>
      </Text>
      {banner.map((b, i) => (
        <Text key={`b${i}`} color={toneColor(theme, b.tone)} wrap="truncate">
          {clip(b.text, width)}
        </Text>
      ))}
      {rows.slice(top, top + textRows).map((r, i) => {
        const idx = top + i;
        if (idx !== cr) {
          return (
            <Text key={idx} wrap="truncate">
              {r.text === '' ? ' ' : r.text}
            </Text>
          );
        }
        // Split at the unit under the cursor (the buffer is raw; each unit shows its stand-in).
        const at = r.units.findIndex((u) => u.from >= ed.buf.cursor);
        const split = at === -1 ? r.units.length : at;
        const before = r.units
          .slice(0, split)
          .map((u) => u.shown)
          .join('');
        const ch = r.units[split]?.shown ?? ' ';
        const after = r.units
          .slice(split + 1)
          .map((u) => u.shown)
          .join('');
        return (
          <Text key={idx} wrap="truncate">
            {before}
            <Text inverse>{ch}</Text>
            {after}
          </Text>
        );
      })}
      <Box flexGrow={1} />
      {hintRow ? (
        <Text color={theme.muted} wrap="truncate">
          {clip('Ctrl-S save · Esc cancel · Enter newline · Ctrl-O $EDITOR · paste keeps newlines', width)}
        </Text>
      ) : null}
    </Box>
  );
}

/** "↑n ↓m more" for the entry list, when it does not all fit. */
function listNote(state: NotepadPaneState, snap: NotepadSnapshot, width: number, height: number, now: number): string {
  if (state.tab === 'priority' || state.view || state.editor) return '';
  const l = entryListLayout(state, snap, { columns: width, rows: height }, now);
  return moreText(l.view, l.listRows, l.rows.length);
}

export function NotepadView({ state, store, width, height, now }: ViewProps<NotepadPaneState>) {
  const theme = useTheme();
  const snap = shownNotepad(useNotepad(store.notepad), useRootNotReadWhy(store));
  if (state.editor) return <EditorView ed={state.editor} offer={state.offer} now={now} width={width} height={height} />;
  const off = writeOff(snap, store.readonly);
  const info = infoLine(snap, state.tab, now, off);
  const bodyHeight = Math.max(1, height - 2);
  let body: React.ReactNode;
  if (state.tab === 'priority')
    body = <Priority snap={snap} state={state} off={off} width={width} height={bodyHeight} />;
  else if (state.view) {
    const e = snap.sections[state.tab].entries.find((x) => x.id === state.view?.id);
    body = e ? (
      <FullEntry e={e} state={state} width={width} height={bodyHeight} now={now} />
    ) : (
      <Text color={theme.warn} wrap="truncate">
        {clip('This entry is gone from notepad.md (deleted or pruned). Esc to go back.', width)}
      </Text>
    );
  } else body = <EntryList snap={snap} state={state} off={off} width={width} height={bodyHeight} now={now} />;
  return (
    <Box flexDirection="column" height={height}>
      <TabBar snap={snap} tab={state.tab} width={width} now={now} />
      <Text color={toneColor(theme, info.tone)} wrap="truncate">
        {withNote(info.text, listNote(state, snap, width, height, now), width, clip)}
      </Text>
      {body}
    </Box>
  );
}
