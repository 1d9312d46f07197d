/**
 * The fleet view's text, pure: the header, the group headers and the rows at
 * any width, and how many list rows fit. The view and the keys use the same
 * numbers, so paging moves exactly a screenful.
 */
import { fleetTitle, SIBLING_SLOWDOWN, type FleetGroup, type FleetRow, type FleetSnapshot } from '../../fleet/model.js';
import { cell, fit, formatAge, width as textWidth } from '../../ui/format.js';
import { formatUsd } from '../../store/claude/prices.js';
import { NOT_PRICED, readingMark, spendCell, type Reading } from '../../store/cost/spend.js';
import { quotaLine } from '../../store/cost/quota-words.js';
import { shortId } from '../sessions/rows.js';
import { rowLabel, rowModesText, rowProcessText, rowStatusText } from '../../feeds/row.js';

/** Header, column header, message line, footer. */
export const FLEET_CHROME_ROWS = 4;

/** List rows at a terminal height; a filter line (typed or kept) takes one of them. */
export const listHeight = (rows: number, filterLine = false) =>
  Math.max(1, rows - 1 - FLEET_CHROME_ROWS - (filterLine ? 1 : 0));

/** The words after a count of Claude sessions over SIBLING_SLOWDOWN: the help says them whole (keys.ts). */
export const SIBLING_SLOWDOWN_WORDS = `OMC 5.6 slows sibling sessions down`;

/**
 * The fleet's header at `width` (unbounded: every part whole). What needs you comes first and is never given up
 * for anything else; then, as the width shrinks, the parts go lowest first, each through its shorter forms before
 * it is left out: the explanation of "over 8" (kept as "(over 8)"; the help says it whole), the count's "on this
 * machine", the roots, the hosts' count (its "N not live" stays), the Claude count, "reading…", the plan quota's
 * long form, the words "omc-top --all" before "needs you: N", the quota, the hosts not live, "notify off". So a
 * narrow header says what needs you, which hosts are not live and the quota before any count, and never cuts one of
 * them mid-word while a lower part could go.
 */
export function headerText(
  snap: FleetSnapshot,
  hosts: number,
  hostsLive = hosts,
  now = Date.now(),
  width = Infinity,
  notifyOff = false,
): string {
  const n = snap.localClaude;
  const local = snap.local !== false;
  const needing = fleetTitle(snap);
  const what = local ? 'omc-top --all' : 'omc-top --host';
  const over = n > SIBLING_SLOWDOWN;
  const down = hosts - hostsLive;
  // This machine's plan quota, in the monitor header's words and place (last, two spaces apart): one for every
  // local root, as OMC's usage cache is the machine's. `--host` alone shows only other machines (fleetTitle says
  // so), and this machine has no roots to count.
  const quota = local ? quotaLine(snap.quota ?? null, now) : null;
  const h = {
    // The terminal title's very words (run-fleet.tsx sets it): what this is, and what needs you (the monitors' sum).
    title: needing,
    claude: `${n} Claude session${n === 1 ? '' : 's'} on this machine`,
    why: over ? ` (over ${SIBLING_SLOWDOWN}: ${SIBLING_SLOWDOWN_WORDS})` : '',
    roots: local ? `${snap.roots} root${snap.roots === 1 ? '' : 's'}` : '',
    hosts: hosts > 0 ? `${hosts} host${hosts === 1 ? '' : 's'}${down > 0 ? ` (${down} not live)` : ''}` : '',
    reading: snap.ready ? '' : 'reading…',
    quota: quota?.text ?? '',
    notify: notifyOff ? 'notify off' : '',
  };
  const text = () =>
    [h.title, h.claude && h.claude + h.why, h.roots, h.hosts, h.reading].filter(Boolean).join(' · ') +
    (h.quota ? `  ${h.quota}` : '') +
    (h.notify ? ` · ${h.notify}` : '');
  // Each step gives up a little of the lowest part left, in order; the first text that fits is drawn.
  const steps: Array<() => void> = [
    () => (h.why = over ? ` (over ${SIBLING_SLOWDOWN})` : ''),
    () => (h.claude = `${n} Claude session${n === 1 ? '' : 's'}`),
    () => (h.roots = ''),
    () => (h.hosts = down > 0 ? `${down} host${down === 1 ? '' : 's'} not live` : ''),
    () => (h.claude = ''),
    () => (h.reading = ''),
    () => (h.quota = quota?.short ?? ''),
    // The words "omc-top --all" say no fact: they go before the quota (what needs you stays, as in the monitor).
    () => (h.title = needing === what ? what : needing.slice(what.length + 3)),
    () => (h.quota = ''),
    () => (h.hosts = ''),
    () => (h.notify = ''),
  ];
  let t = text();
  for (const step of steps) {
    if (textWidth(t) <= width) return t;
    step();
    t = text();
  }
  return t;
}

export interface FleetColumns {
  status: number;
  where: number;
  id: number;
  claude: number;
  /** The session's estimated spend ("$0.42", "unpriced"); 0 = left out (narrow). */
  cost: number;
  modes: number;
  age: number;
}

export function fleetColumns(width: number): FleetColumns {
  // "cancel failed" and a space: the widest status a row shows (the sessions pane's column).
  const status = 14;
  const where = width >= 100 ? 16 : 11;
  const id = width >= 120 ? 14 : 9;
  // "!waiting" and a space: the sessions pane's words, with the "!" of what needs the user.
  const claude = 9;
  const age = 5;
  // `$0.0036+sub…` whole (a cell keeps its last place blank), as History's and the Cost pane's spend columns.
  const cost = width >= 100 ? 13 : 0;
  return {
    status,
    where,
    id,
    claude,
    cost,
    age,
    modes: Math.max(6, width - 2 - status - where - id - claude - cost - age),
  };
}

/**
 * The column header; `note` (the list's `↓8 more`) at the end of the MODES cell, so AGE stays whole (appended
 * after AGE it was cut, and the header read `AGE…` in any list longer than the screen).
 */
export function columnsHeader(width: number, note = ''): string {
  const c = fleetColumns(width);
  return fit(
    '  ' +
      fit('STATUS', c.status) +
      fit('WHERE', c.where) +
      fit('SESSION', c.id) +
      fit('CLAUDE', c.claude) +
      (c.cost ? fit('SPENT EST', c.cost) : '') +
      cell(modesTitle(note.trim(), c.modes - 1), c.modes) +
      // Right-aligned over the rows' ages, and as they do, leaves the line's last cell blank (filled, the view's fit
      // cut it to `AG…`).
      fit('AGE'.padStart(c.age - 1), c.age),
    width,
  );
}

/** `MODES  ↓8 more`; in a narrow column the note alone (how much is out of sight says more than the title). */
function modesTitle(note: string, room: number): string {
  if (note === '') return 'MODES';
  const both = `MODES  ${note}`;
  return both.length <= room ? both : note.length <= room ? note : 'MODES';
}

/**
 * A cancel in flight or a signal in force counts on this machine's clock, whatever host it came from; a cancel that
 * failed half-way (what the row needs the user for) says so instead: the words every surface says (feeds/row.ts).
 */
export function statusText(r: FleetRow, now: number): string {
  return rowStatusText(r, now);
}

/** Where the row lives: `@host` for a remote row, the worktree name for a local one. */
export const whereText = (r: FleetRow) => (r.host !== null ? `@${r.host.replace(/:.*$/, '')}` : r.rootLabel);

export function rowLine(r: FleetRow, now: number, width: number, selected: boolean): string {
  const c = fleetColumns(width);
  return fit(
    (selected ? '▸ ' : '  ') +
      cell(statusText(r, now), c.status) +
      fit(whereText(r), c.where - 1) +
      ' ' +
      fit(shortId(rowLabel(r), c.id), c.id) +
      cell(claudeText(r), c.claude) +
      (c.cost ? cell(rowCost(r), c.cost) : '') +
      cell(modesText(r), c.modes) +
      fit(ageText(r, now).padStart(c.age - 1), c.age),
    width,
  );
}

/**
 * A row of a host that is not live is as the host last said (FleetRow.asOfMs), so its age now is not known: `?`,
 * never an age that keeps counting as if the row were seen now (the group header says since when it is not live).
 */
export const AGE_NOT_KNOWN = '?';
const ageText = (r: FleetRow, now: number) => (r.asOfMs !== undefined ? AGE_NOT_KNOWN : formatAge(r.updatedMs, now));

/**
 * The CLAUDE cell: "!" as on the sessions row when the attention model says this session needs the user; the word is
 * the sessions row's (store/claude/join-words.ts processWord: `elsewhere` for a Claude whose hooks read another .omc).
 */
export const claudeText = (r: FleetRow) => {
  const word = rowProcessText(r);
  return r.needs !== null ? `!${word ?? '?'}` : (word ?? '—');
};

/** The MODES cell: what the session needs the user for first, then its modes (or its prompt) and its rate limit. */
export const modesText = (r: FleetRow) => (r.needs !== null ? `needs you: ${r.needs} · ` : '') + rowModesText(r);

/**
 * The words the `/` filter reads in a row: every cell the row draws (rowLine), whole (a narrow column cuts the
 * drawing, not what the filter finds), and the project's name from its group header.
 */
export function rowSearchText(groupLabel: string, r: FleetRow, now: number): string {
  return [groupLabel, statusText(r, now), whereText(r), r.rootLabel, rowLabel(r), r.host ?? '', claudeText(r)]
    .concat(rowCost(r), modesText(r), ageText(r, now))
    .join(' ')
    .toLowerCase();
}

/** A row's spend cell: the one list rule (spendCell: "$0.42", "$0.42+?", "$0.42+sub…", "$0.42+part", "unpriced", "…", "—"). */
export function rowCost(r: FleetRow): string {
  return spendCell(r.costUsd ?? null, !!r.unpricedModels, rowReading(r));
}

/** Why a row's spend is a lower bound, as a session's own (readingOf): still being read first, then a part never read. */
const rowReading = (r: FleetRow): Reading =>
  r.costPartial ? (r.costReading ?? 'subagents') : r.costUnread ? 'unread' : null;

/**
 * The project's spend: the sum of its rows (each the session's own estimate), so it equals the project total
 * the monitor and --json show for that root. null when no row has a priced spend.
 */
export function groupSpend(g: FleetGroup): GroupSpend | null {
  let sp = spendOfGroup.get(g);
  if (sp === undefined) spendOfGroup.set(g, (sp = sumSpend(g)));
  return sp;
}

type GroupSpend = {
  usd: number;
  today: number;
  unpriced: boolean;
  reading: Reading;
  notPriced: number;
  priced: boolean;
};

/**
 * Once per group object: a visible project line is drawn on every render (a key, the clock), and the fleet keeps a
 * group whose rows did not change (fleet/model.ts never mutates one), so its 200 rows are summed when it is new.
 */
const spendOfGroup = new WeakMap<FleetGroup, GroupSpend | null>();

function sumSpend(g: FleetGroup): GroupSpend | null {
  let usd = 0;
  let today = 0;
  let any = false;
  let unpriced = false;
  let reading: Reading = null;
  let notPriced = 0;
  for (const r of g.rows) {
    if (r.unpricedModels) unpriced = true;
    if (r.costUnknown) notPriced += 1;
    // The transcript's mark first, as a session's own (readingOf); a part never read only when nothing is being read.
    const mine = rowReading(r);
    if (mine === 'transcript' || reading === 'transcript') reading = 'transcript';
    else if (mine === 'subagents' || reading === 'subagents') reading = 'subagents';
    else if (mine === 'unread') reading = 'unread';
    if (r.costUsd === null || r.costUsd === undefined) continue;
    any = true;
    usd += r.costUsd;
    today += r.todayUsd ?? 0;
  }
  // A project whose rows say only "unpriced" says so too, never nothing.
  return any || notPriced > 0 || unpriced ? { usd, today, unpriced, reading, notPriced, priced: any } : null;
}

export function groupLine(g: FleetGroup, width: number, selected: boolean): string {
  const count = `${g.rows.length} session${g.rows.length === 1 ? '' : 's'}`;
  const host = g.host !== null ? `@${g.host}  ` : '';
  const sp = groupSpend(g);
  // Rows whose spend cannot be known are counted apart ("2 not priced"), never as $0.
  const notPriced = sp && sp.notPriced > 0 ? `${sp.notPriced} ${NOT_PRICED}` : '';
  // What the rows say, each part once: "$0.24 est. + unpriced + 1 not priced", "spend unpriced + 1 not priced".
  const unpriced = sp?.unpriced ? 'unpriced' : '';
  const spend = !sp
    ? ''
    : !sp.priced
      ? `spend ${[unpriced, notPriced].filter(Boolean).join(' + ')}`
      : `${[`${formatUsd(sp.usd)} est.`, unpriced, notPriced].filter(Boolean).join(' + ')}${readingMark(sp.reading)} · today ${formatUsd(sp.today)}`;
  return fit(
    `${selected ? '▸ ' : '  '}${host}${g.label}  (${[count, spend, ...g.notes].filter(Boolean).join(' · ')})`,
    width,
  );
}
