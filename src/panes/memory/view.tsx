import React, { memo, useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { DirectiveRow, MemoryModel } from '../../store/memory/model.js';
import type { MemoryDomain } from '../../store/memory/domain.js';
import { MAX_DIRECTIVES } from '../../store/memory/schema.js';
import { cleanLine } from '../../io/sanitize.js';
import { unitsOf, type ShownUnit } from '../../ui/edit-units.js';
import { clip, fit, width as cells, wrapText } from '../../ui/format.js';
import { useTheme, type Theme } from '../../ui/theme.js';
import { notKnownLine, ROOT_NAME, useRootUnreadWhy } from '../../ui/not-known.js';
import type { ViewProps } from '../../kit/pane.js';
import {
  counter,
  detailLines,
  headerText,
  LIMITS,
  previewLines,
  rowText,
  summaryLines,
  visibleDirectives,
} from './layout.js';
import type { DirectiveForm, MemoryPaneState } from './reducer.js';
import { offerLine } from '../../ui/kept-draft-line.js';
import { memoryListLayout } from './list-layout.js';
import { moreText, textWindow, withNote } from '../../kit/list.js';
import { FilterLine } from '../../ui/filter-line.js';

const tone = (theme: Theme, t?: string) =>
  t === 'ok'
    ? theme.ok
    : t === 'warn'
      ? theme.warn
      : t === 'error'
        ? theme.error
        : t === 'dim' || t === 'cut'
          ? theme.muted
          : undefined;

const Row = memo(function Row({
  r,
  now,
  width,
  selected,
}: {
  r: DirectiveRow;
  now: number;
  width: number;
  selected: boolean;
}) {
  const theme = useTheme();
  const t = rowText(r, now, width);
  return (
    <Text inverse={selected} wrap="truncate">
      {selected ? '▸ ' : '  '}
      <Text color={theme.muted}>{t.rank}</Text>
      <Text bold={r.directive.priority === 'high'} color={r.directive.priority === 'high' ? theme.error : undefined}>
        {t.prio}
      </Text>
      {t.text}
      <Text color={theme.muted}>{t.source}</Text>
      <Text color={theme.muted}>{t.age}</Text>
      <Text color={tone(theme, t.fateTone)}>{t.fate}</Text>
    </Text>
  );
});

/**
 * One text field with its cursor; long text shows the window around the cursor. The field holds the directive
 * raw; each unit shows its stand-in (ui/edit-units.ts), so an escape sequence reads `␛[31m` wherever the cursor is.
 */
function FieldLine({
  text,
  cursor,
  focused,
  width,
}: {
  text: string;
  cursor: number;
  focused: boolean;
  width: number;
}) {
  const w = Math.max(4, width - 3);
  if (!focused) return <Text wrap="truncate">{'  ' + fit(cleanLine(text) || ' ', w)}</Text>;
  const units = unitsOf(text);
  const at = units.findIndex((u) => u.from >= cursor);
  const split = at === -1 ? units.length : at;
  const shown = (us: readonly ShownUnit[]) => us.map((u) => u.shown).join('');
  const beforeText = shown(units.slice(0, split));
  const afterText = shown(units.slice(split + 1));
  // Keep the cursor visible: drop characters from the left as needed.
  let head = beforeText;
  while (head.length > 0 && cells(head) + 1 > w - 8) head = Array.from(head).slice(1).join('');
  const shownHead = head.length < beforeText.length ? '…' + head : head;
  return (
    <Text wrap="truncate">
      <Text color={undefined}>{'> '}</Text>
      {shownHead}
      <Text inverse>{units[split]?.shown ?? ' '}</Text>
      {clip(afterText, Math.max(0, w - cells(shownHead) - 1))}
    </Text>
  );
}

function FormView({
  form,
  offer,
  now,
  domain,
  width,
  height,
}: {
  form: DirectiveForm;
  offer: MemoryPaneState['offer'];
  now: number;
  domain: MemoryDomain;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const over = (n: number, max: number) => (n > max ? theme.error : theme.muted);
  // Live check of what saving would do: duplicates and OMC's 20-cap.
  let warning: string | null = null;
  const text = form.directive.text.trim();
  if (text) {
    const op =
      form.mode === 'add'
        ? {
            kind: 'add' as const,
            input: { directive: text, context: form.context.text, priority: form.priority },
            timestamp: Number.MAX_SAFE_INTEGER,
          }
        : {
            kind: 'edit' as const,
            target: form.target as string,
            input: { directive: text, context: form.context.text, priority: form.priority },
          };
    const r = domain.previewOp(op);
    if (!r.ok) warning = r.reason;
    else if (r.dropped.length)
      warning = `saving pushes out ${r.dropped.length} directive(s) (OMC keeps 20): you will be asked first`;
  }
  const label = (name: string, focused: boolean, extra = '') => (
    <Text key={`l-${name}`} bold={focused} color={focused ? theme.accent : theme.muted} wrap="truncate">
      {clip(`${focused ? '▌' : ' '}${name}${extra}`, width)}
    </Text>
  );
  /** A text field of the form: its label, its length against OMC's limit, the field itself. */
  const textField = (name: string, field: 'directive' | 'context', limit: number) => [
    label(name, form.field === field),
    <Text key={`${field}-count`} color={over(form[field].text.length, limit)} wrap="truncate">
      {'  ' + counter(form[field].text, limit)}
    </Text>,
    <FieldLine
      key={field}
      text={form[field].text}
      cursor={form[field].cursor}
      focused={form.field === field}
      width={width}
    />,
  ];
  const lines = [
    <Text key="t" bold wrap="truncate">
      {clip(
        form.mode === 'add'
          ? 'Add a directive (as project_memory_add_directive would, source "explicit")'
          : 'Edit directive (timestamp and source are kept)',
        width,
      )}
    </Text>,
    // A draft kept at the last hang-up is offered first (Ctrl-R restores · Ctrl-X discards), in place of the blank line.
    ...(offer
      ? wrapText(offerLine(offer, now), width)
          .slice(0, 3)
          .map((l, i) => (
            <Text key={`o${i}`} color={offer.kind === 'bad' ? theme.error : theme.warn} wrap="truncate">
              {clip(l, width)}
            </Text>
          ))
      : [<Text key="s"> </Text>]),
    ...textField('Directive', 'directive', LIMITS.directive),
    ...textField('Context', 'context', LIMITS.context),
    label('Priority', form.field === 'priority'),
    <Text key="p" wrap="truncate">
      {'  '}
      <Text inverse={form.priority === 'high'}> high → critical </Text>{' '}
      <Text inverse={form.priority === 'normal'}> normal → note </Text>
      <Text color={theme.muted}>{form.field === 'priority' ? '  Space toggles' : ''}</Text>
    </Text>,
    <Text key="s2"> </Text>,
    <Text key="w" color={warning ? theme.warn : theme.muted} wrap="truncate">
      {clip(warning ?? 'Enter saves · Tab next field · Esc cancels', width)}
    </Text>,
  ];
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(0, height)}
    </Box>
  );
}

function PreviewView({
  model,
  scroll,
  width,
  height,
}: {
  model: MemoryModel;
  scroll: number;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const lines = previewLines(model, width - 1);
  const w = textWindow(lines.length, scroll, height);
  return (
    <Box flexDirection="column" height={height}>
      {w.above > 0 ? <Text color={theme.muted}>{clip(`  ↑ ${w.above} more above`, width)}</Text> : null}
      {lines.slice(w.start, w.end).map((l, i) => (
        <Text
          key={i}
          wrap="truncate"
          bold={l.tone === 'title'}
          color={tone(theme, l.tone)}
          strikethrough={l.tone === 'cut' && theme.color === false}
        >
          {l.text === '' ? ' ' : l.text}
        </Text>
      ))}
      {w.below > 0 ? <Text color={theme.muted}>{clip(`  ↓ ${w.below} more below`, width)}</Text> : null}
    </Box>
  );
}

function ListView({
  state,
  model,
  domain,
  width,
  height,
  now,
}: {
  state: MemoryPaneState;
  model: MemoryModel;
  domain: MemoryDomain;
  width: number;
  height: number;
  now: number;
}) {
  const theme = useTheme();
  const rows = visibleDirectives(model, state.filter, now);
  const lay = memoryListLayout(state, model, { columns: width, rows: height }, now);
  const sel = lay.view.index;
  const selected = rows[sel];
  // Bottom sections shrink first when the pane is short.
  const summary = summaryLines(model, width);
  const showSummary = height >= 16;
  const detailMax = height >= 12 ? 4 : height >= 8 ? 2 : 0;
  const detail = selected && detailMax > 0 ? detailLines(selected, now, width, detailMax) : [];
  const showFilter = state.filterEditing || state.filter !== '';
  const fixed =
    2 +
    (showFilter ? 1 : 0) +
    (detail.length ? detail.length + 1 : 0) +
    (showSummary ? summary.length + 1 : 0) +
    model.malformed.length;
  const listH = lay.height;
  const top = lay.view.top;
  void fixed;
  const injected = model.directives.filter((r) => r.injection === 'injected' || r.injection === 'cut-short').length;
  const block = domain.getSnapshot().writeBlock;
  const head = `Directives ${model.directives.length}${model.overCap ? ` (over OMC's cap of ${MAX_DIRECTIVES}: its next add keeps 20)` : ''} · ${injected} injected at session start${block ? ` · ${block}` : ''}`;
  return (
    <Box flexDirection="column" height={height}>
      <Text bold wrap="truncate" color={model.overCap || block ? theme.warn : undefined}>
        {clip(head, width)}
      </Text>
      {showFilter ? <FilterLine of={state} shown={rows.length} total={model.directives.length} width={width} /> : null}
      <Text bold color={theme.muted} wrap="truncate">
        {withNote(headerText(width), moreText(lay.view, listH, rows.length), width, fit)}
      </Text>
      {rows.length === 0 ? (
        <Text color={theme.muted} wrap="truncate">
          {clip(
            model.directives.length === 0
              ? '  No directives yet. Press a to add one (or tell Claude "always …" / "never …").'
              : '  No directive matches the filter.',
            width,
          )}
        </Text>
      ) : (
        rows
          .slice(top, top + listH)
          .map((r, i) => <Row key={r.key} r={r} now={now} width={width} selected={top + i === sel} />)
      )}
      {model.malformed.map((m) => (
        <Text key={`m${m.index}`} color={theme.error} wrap="truncate">
          {clip(`  ⚠ directive [${m.index}] ${m.text ? `"${m.text}" ` : ''}is malformed: ${m.problem}`, width)}
        </Text>
      ))}
      <Box flexGrow={1} />
      {detail.length ? (
        <>
          <Text color={theme.muted} wrap="truncate">
            {clip('── selected ' + '─'.repeat(Math.max(0, width - 12)), width)}
          </Text>
          {detail.map((l, i) => (
            <Text key={`d${i}`} wrap="truncate" color={i === 0 ? undefined : theme.muted}>
              {l}
            </Text>
          ))}
        </>
      ) : null}
      {showSummary ? (
        <>
          <Text color={theme.muted} wrap="truncate">
            {clip(`── project (${model.projectRoot || 'unknown root'}) ` + '─'.repeat(width), width)}
          </Text>
          {summary.map(([k, v]) => (
            <Text key={k} wrap="truncate">
              <Text color={theme.accent}>{k}</Text>
              {v}
            </Text>
          ))}
        </>
      ) : null}
    </Box>
  );
}

export function MemoryPaneView({ state, store, width, height, now }: ViewProps<MemoryPaneState>) {
  const theme = useTheme();
  const domain = store.memory;
  const snap = useSyncExternalStore(domain.subscribe, domain.getSnapshot);
  const rootWhy = useRootUnreadWhy(store);
  const model = domain.model(now);
  // An open form stays on screen whatever happened to the file meanwhile (removed with .omc, say): the keys still
  // go to it, so its fields, its draft and the save's refusal must be what the user sees.
  if (state.form)
    return <FormView form={state.form} offer={state.offer} now={now} domain={domain} width={width} height={height} />;
  if (!model) {
    const lines =
      snap.file === 'missing' && rootWhy !== null
        ? [notKnownLine('Project memory', ROOT_NAME, rootWhy).trimStart()]
        : snap.file === 'missing'
          ? [
              'No project memory yet.',
              'OMC writes .omc/project-memory.json at the first session start in this project (tech stack, build commands), then adds directives, notes and hot paths as you work.',
            ]
          : ['project-memory.json cannot be read:', ...snap.problems.map((p) => p.message)];
    return (
      <Box flexDirection="column" height={height}>
        {lines
          .flatMap((l) => wrapText(l, width))
          .slice(0, height)
          .map((l, i) => (
            <Text key={i} color={i === 0 ? undefined : theme.muted} bold={i === 0} wrap="truncate">
              {l || ' '}
            </Text>
          ))}
      </Box>
    );
  }
  if (state.view === 'preview')
    return <PreviewView model={model} scroll={state.previewScroll} width={width} height={height} />;
  return <ListView state={state} model={model} domain={domain} width={width} height={height} now={now} />;
}
