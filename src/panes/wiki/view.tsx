import React, { memo, useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { WikiDomain, WikiSnapshot } from '../../store/wiki/domain.js';
import type { LintReport } from '../../store/wiki/lint.js';
import { pageNameText } from '../../store/wiki/page.js';
import { cleanLine } from '../../io/sanitize.js';
import { clip, fit, width as cells } from '../../ui/format.js';
import { EmptyLines } from '../../ui/empty-lines.js';
import { useTheme, type Theme } from '../../ui/theme.js';
import { notKnownLine, ROOT_NAME, useRootNotReadWhy } from '../../ui/not-known.js';
import type { ViewProps } from '../../kit/pane.js';
import { lintSummary } from './lint-lines.js';
import type { PageLine } from './page-lines.js';
import type { WikiPaneState } from './reducer.js';
import { badgesFor, headerLine, rowLayout, type WikiRow } from './rows.js';
import { lintLayout, pageLayout, resultsLayout, visibleRows } from './layout.js';
import { clampTop, moreText, textWindow, withNote } from '../../kit/list.js';
import { pickerTags } from './picker.js';

const toneColor = (theme: Theme, tone?: string) =>
  tone === 'error' || tone === 'missing'
    ? theme.error
    : tone === 'warn'
      ? theme.warn
      : tone === 'dim' || tone === 'info'
        ? theme.muted
        : tone === 'link' || tone === 'heading'
          ? theme.accent
          : undefined;

interface RowProps {
  row: WikiRow;
  lint: LintReport;
  width: number;
  selected: boolean;
  /** False when only the title line fits (layout.ts `resultsRoom`). */
  tagLine: boolean;
}

/**
 * A row shows its page, score and snippet: a keystroke that lengthens the query makes a new ranking (new row
 * objects) that mostly puts the same pages in the same slots with the same score and snippet. Compared by what
 * is shown, those rows are not laid out, rendered or handed to Ink again; only the rows that changed are.
 * (The snippet is read here, not built twice: a row computes it once and the render below reuses it.)
 */
const sameRow = (a: RowProps, b: RowProps) =>
  a.lint === b.lint &&
  a.width === b.width &&
  a.selected === b.selected &&
  a.tagLine === b.tagLine &&
  (a.row === b.row || (a.row.page === b.row.page && a.row.score === b.row.score && a.row.snippet === b.row.snippet));

const Row = memo(function Row({ row, lint, width, selected, tagLine }: RowProps) {
  const theme = useTheme();
  const t = rowLayout(row, badgesFor(row.page, lint), width);
  // Two lines straight in the list's column, no wrapping <Box>: a keystroke that changes every visible row
  // then creates, lays out and deletes one Yoga node per line, not three per row (BENCHMARKS.md, "Round three,
  // second wave"). The layout is the same: the list gives each line exactly one row.
  return (
    <>
      <Text inverse={selected} wrap="truncate">
        {selected ? '▸ ' : '  '}
        <Text bold>{t.score}</Text>
        <Text color={theme.muted}>{t.category}</Text>
        <Text bold={row.page.searchable} color={row.page.searchable ? undefined : theme.warn}>
          {t.title}
        </Text>
        {t.badges.map((b, i) => (
          <Text key={i} color={toneColor(theme, b.tone)}>
            {b.shown}
          </Text>
        ))}
      </Text>
      {tagLine ? (
        <Text color={theme.muted} wrap="truncate">
          {'  '}
          {t.detail}
        </Text>
      ) : null}
    </>
  );
}, sameRow);

function SearchLine({
  state,
  snap,
  shown,
  searching,
  width,
}: {
  state: WikiPaneState;
  snap: WikiSnapshot;
  shown: number;
  searching: boolean;
  width: number;
}) {
  const theme = useTheme();
  const count = searching
    ? `${shown} match${shown === 1 ? '' : 'es'} in ${snap.searchable.length} pages`
    : `${shown} of ${snap.pages.length} pages`;
  const placeholder = state.query === '' && !state.editing;
  const cursor = state.editing ? 1 : 0;
  const room = Math.max(4, width - 2 - cursor - count.length - 2);
  // Show the end of a long query: that is where the user is typing.
  const q = cleanLine(state.query);
  // Idle, the row's own `/` is the key to press: "/ to search" (its placeholder said "/ to search" after it: "/ / …").
  const shownQuery = placeholder ? 'to search' : cells(q) <= room ? q : '…' + tail(q, room - 1);
  const pad = Math.max(1, width - 2 - cursor - cells(shownQuery) - count.length);
  return (
    <Text wrap="truncate">
      <Text color={theme.accent} bold>
        /{' '}
      </Text>
      <Text color={placeholder ? theme.muted : undefined}>{shownQuery}</Text>
      {state.editing ? <Text inverse> </Text> : null}
      <Text color={theme.muted}>{' '.repeat(pad) + count}</Text>
    </Text>
  );
}

/** The last `w` cells of `s`. */
function tail(s: string, w: number): string {
  const chars = Array.from(s);
  let out = '';
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const c = cells(chars[i] as string);
    if (used + c > w) break;
    out = chars[i] + out;
    used += c;
  }
  return out;
}

function FilterLine({
  state,
  lint,
  unreadable,
  width,
}: {
  state: WikiPaneState;
  lint: LintReport;
  unreadable: number;
  width: number;
}) {
  const theme = useTheme();
  const problems = lint.counts['broken-ref'] + lint.counts.stale + lint.counts.oversized + unreadable;
  const text = `category ${state.category === null ? 'all' : cleanLine(state.category)} (c)  tag ${state.tag === null ? 'any' : cleanLine(state.tag)} (#)  lint: ${lintSummary(lint, unreadable)} (L)`;
  return (
    <Text wrap="truncate" color={problems > 0 ? undefined : theme.muted}>
      {clip(text, width)}
    </Text>
  );
}

function TagPickerView({
  state,
  snap,
  width,
  height,
}: {
  state: WikiPaneState;
  snap: WikiSnapshot;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const picker = state.picker!;
  const options = pickerTags(snap, picker.filter);
  const listH = Math.max(1, height - 2);
  const selected = Math.min(picker.selected, options.length - 1);
  const top = clampTop(0, selected, listH, options.length);
  return (
    <Box flexDirection="column" height={height}>
      <Text wrap="truncate">
        <Text color={theme.accent} bold>
          tag:{' '}
        </Text>
        {clip(cleanLine(picker.filter), width - 8)}
        <Text inverse> </Text>
      </Text>
      <Text color={theme.muted} wrap="truncate">
        {clip('type to narrow · ↑↓ pick · Enter filters by it · Esc keeps the current filter', width)}
      </Text>
      {options.slice(top, top + listH).map((o, i) => (
        <Text key={o.tag ?? ''} inverse={top + i === selected} wrap="truncate">
          {fit(
            `${top + i === selected ? '▸ ' : '  '}${o.tag === null ? '(any tag)' : cleanLine(o.tag)}${o.tag === null ? '' : `  ${o.count}`}`,
            width,
          )}
        </Text>
      ))}
    </Box>
  );
}

function ListView({
  state,
  domain,
  snap,
  lint,
  rootWhy,
  width,
  height,
}: {
  state: WikiPaneState;
  domain: WikiDomain;
  snap: WikiSnapshot;
  lint: LintReport;
  /** Why the .omc root cannot be read (ui/not-known.ts), null when it can. */
  rootWhy: string | null;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  if (state.picker) return <TagPickerView state={state} snap={snap} width={width} height={height} />;
  const lay = resultsLayout(state, domain, snap, { columns: width, rows: height });
  const { rows, searching, note, chrome, height: listH } = lay;
  const unreadable = snap.pages.length - snap.searchable.length;
  const { index: sel, top } = lay.view;
  let empty: string | null = null;
  if (snap.dir === 'missing' && rootWhy !== null) empty = notKnownLine('Pages', ROOT_NAME, rootWhy).trimStart();
  else if (snap.dir === 'missing')
    empty = 'No wiki yet: OMC creates .omc/wiki when a session saves knowledge (wiki_ingest / wiki_add).';
  else if (snap.dir === 'error') empty = notKnownLine('Pages', 'wiki', snap.dirMessage ?? 'unknown error').trimStart();
  else if (snap.pages.length === 0) empty = 'The wiki has no pages yet.';
  else if (rows.count === 0)
    empty = searching ? 'No page matches (OMC would return nothing either).' : 'No page has this category and tag.';
  return (
    <Box flexDirection="column" height={height}>
      {chrome.search ? (
        <SearchLine state={state} snap={snap} shown={rows.count} searching={searching} width={width} />
      ) : null}
      {chrome.filter ? <FilterLine state={state} lint={lint} unreadable={unreadable} width={width} /> : null}
      {chrome.header ? (
        <Text bold color={theme.muted} wrap="truncate">
          {withNote(headerLine(width), moreText(lay.view, listH, rows.count), width, fit)}
        </Text>
      ) : null}
      {empty ? (
        <EmptyLines text={`  ${empty}`} width={width} rows={listH} />
      ) : (
        // Keyed by screen position, not by page: a keystroke brings new pages into every slot, and a page key
        // made React unmount every row and mount new ones (new Ink nodes, new Yoga nodes, the garbage of both);
        // by position the same Ink text nodes take the new text. Rows hold no state, so nothing is lost.
        visibleRows(lay).map((r, i) => (
          <Row key={i} row={r} lint={lint} width={width} selected={top + i === sel} tagLine={lay.linesPerPage === 2} />
        ))
      )}
      {note ? (
        <>
          <Box flexGrow={1} />
          <Text color={theme.warn} wrap="truncate">
            {clip(note, width)}
          </Text>
        </>
      ) : null}
    </Box>
  );
}

function Lines({ lines, selectedLink, height }: { lines: PageLine[]; selectedLink: number; height: number }) {
  const theme = useTheme();
  return (
    <>
      {lines.slice(0, height).map((l, i) => (
        <Text
          key={i}
          wrap="truncate"
          bold={l.tone === 'title' || l.tone === 'heading'}
          inverse={l.link !== undefined && l.link === selectedLink}
          color={toneColor(theme, l.tone)}
        >
          {l.text === '' ? ' ' : l.text}
        </Text>
      ))}
    </>
  );
}

function PageView({
  state,
  snap,
  lint,
  width,
  height,
  now,
}: {
  state: WikiPaneState;
  snap: WikiSnapshot;
  lint: LintReport;
  width: number;
  height: number;
  now: number;
}) {
  const theme = useTheme();
  const name = state.page?.name ?? '';
  const page = snap.byName.get(name);
  if (!page) {
    return (
      <Box height={height} flexDirection="column">
        <Text color={theme.warn} wrap="truncate">
          {clip(`${pageNameText(name)} is gone from the wiki (deleted or renamed). Esc goes back.`, width)}
        </Text>
      </Box>
    );
  }
  const lay = pageLayout(state, snap, lint, { columns: width, rows: height }, now);
  const title = lay?.title;
  const rest = lay?.lines ?? [];
  const bodyH = lay?.height ?? 1;
  const w = textWindow(rest.length, state.page?.scroll ?? 0, bodyH);
  const more = w.below;
  return (
    <Box flexDirection="column" height={height}>
      <Text bold color={theme.accent} wrap="truncate">
        {fit(title?.text ?? '', Math.max(1, width - 12))}
        <Text color={theme.muted} bold={false}>
          {more > 0 ? ` ↓${more} more` : w.start > 0 ? ' (end)' : ''}
        </Text>
      </Text>
      {w.above > 0 ? <Text color={theme.muted}>{clip(`  ↑ ${w.above} more above`, width)}</Text> : null}
      <Lines lines={rest.slice(w.start, w.end)} selectedLink={state.page?.link ?? -1} height={w.end - w.start} />
      {w.below > 0 ? <Text color={theme.muted}>{clip(`  ↓ ${w.below} more below`, width)}</Text> : null}
    </Box>
  );
}

function LintView({
  state,
  snap,
  lint,
  width,
  height,
}: {
  state: WikiPaneState;
  snap: WikiSnapshot;
  lint: LintReport;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const lay = lintLayout(state, snap, lint, { columns: width, rows: height });
  const { items, height: listH } = lay;
  const unreadable = snap.pages.length - snap.searchable.length;
  const { index: sel, top } = lay.view;
  return (
    <Box flexDirection="column" height={height}>
      <Text bold wrap="truncate">
        {clip("Wiki health: OMC's wiki_lint checks (nothing is written to log.md)", width)}
      </Text>
      <Text wrap="truncate">{clip(lintSummary(lint, unreadable), width)}</Text>
      <Text color={theme.muted} wrap="truncate">
        {clip('Enter opens the page · Esc back to the list', width)}
      </Text>
      {items.length === 0 ? (
        <Text color={theme.ok} wrap="truncate">
          {clip('  No findings: every page is linked, fresh, small, confident and readable.', width)}
        </Text>
      ) : (
        items.slice(top, top + listH).map((it, i) => {
          const label = it.severity === 'error' ? 'ERROR' : it.severity === 'warning' ? 'WARN ' : 'info ';
          return (
            <Text key={top + i} inverse={top + i === sel} wrap="truncate">
              {top + i === sel ? '▸ ' : '  '}
              <Text
                color={it.severity === 'error' ? theme.error : it.severity === 'warning' ? theme.warn : theme.muted}
              >
                {label}
              </Text>{' '}
              {fit(`${it.kind.padEnd(14)} ${it.text}`, Math.max(1, width - 9))}
            </Text>
          );
        })
      )}
    </Box>
  );
}

export function WikiPaneView({ state, store, width, height, now }: ViewProps<WikiPaneState>) {
  const domain = store.wiki;
  const snap = useSyncExternalStore(domain.subscribe, domain.getSnapshot);
  const rootWhy = useRootNotReadWhy(store);
  const lint = domain.lint(now);
  if (state.view === 'page')
    return <PageView state={state} snap={snap} lint={lint} width={width} height={height} now={now} />;
  if (state.view === 'lint') return <LintView state={state} snap={snap} lint={lint} width={width} height={height} />;
  return (
    <ListView state={state} domain={domain} snap={snap} lint={lint} rootWhy={rootWhy} width={width} height={height} />
  );
}
