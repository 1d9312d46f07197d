/**
 * What the user can answer from omc-top, as inbox items: permission requests the hook handed over (y / n / A)
 * and OMC's human gates (y approve / n deny), oldest first, each with the lines its detail shows (for a gate,
 * the run's progress). Pure over the store's snapshots.
 */
import type { GateView, GraphRunView } from '../../store/graph/model.js';
import type { PermissionRequestView } from '../../store/permissions/model.js';
import type { ClaudeSnapshot } from '../../store/claude/model.js';
import { askingProcess } from '../../store/claude/asker.js';
import { gateOf, permissionRequestOf, type NeedItem } from '../attention/needs.js';
/** HH:MM:SS in UTC, the app's one time zone (as ui/format.ts's formatClock; a feed does not import views). */
const formatClock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

export type AnswerItem =
  | {
      kind: 'permission';
      id: string;
      since: number;
      /** One line: what is asked, by whom, and the keys. */
      text: string;
      /** The same without the keys (a surface with buttons). */
      summary: string;
      detail: string[];
      request: PermissionRequestView;
    }
  | {
      kind: 'gate';
      id: string;
      since: number | null;
      text: string;
      summary: string;
      detail: string[];
      gate: GateView;
      run: GraphRunView | null;
    };

export interface AnswerInput {
  permissions: readonly PermissionRequestView[];
  gates: readonly GateView[];
  runs: readonly GraphRunView[];
  claude: ClaudeSnapshot;
}

/** The run's progress in a few lines: state, revision, activations by state, the last transitions, the owner. */
export function runProgressLines(r: GraphRunView): string[] {
  const by = Object.entries(r.byState)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const owner = r.owner
    ? `owner pid ${r.owner.pid} (epoch ${r.owner.epoch}): ${r.owner.alive === 'alive' ? 'alive' : r.owner.alive === 'dead' ? 'gone' : 'cannot check'}`
    : 'no owner (nobody runs it)';
  const nodes = r.nodes.map((n) => `${n.id} ${n.state}`).join(' → ');
  const last = r.lastTransitions
    .slice(-4)
    .map((t) => `${t.nodeId} ${t.outcome}`)
    .join(', ');
  return [
    `run ${r.runId} · revision ${r.revisionId ?? '?'} · ${r.state}: ${r.stateText}`,
    `  activations: ${by || 'none yet'} · ${owner}`,
    ...(nodes ? [`  nodes: ${nodes}`] : []),
    ...(last ? [`  last transitions (${r.transitionsTotal} in all): ${last}`] : []),
    `  if nobody decides: ${r.timeout.text}`,
    ...(r.updatedMs > 0 ? [`  last change ${formatClock(r.updatedMs)}`] : []),
  ];
}

/** A permission request's item id: the request's nonce, as its need names it too. */
export const permissionItemId = (request: string) => `perm:${request}`;

/** An OMC gate's item id: its run and activation, as its need (gateNeed) names them too. */
export const gateItemId = (run: string, activation: string) => `gate:${run}/${activation}`;

/** The answer item a need stands for (its permission prompt or its OMC gate), or null. */
function answerItemOf(n: Pick<NeedItem, 'id'>): string | null {
  const req = permissionRequestOf(n);
  if (req !== null) return permissionItemId(req);
  const gate = gateOf(n);
  return gate === null ? null : `gate:${gate}`;
}

/** Under --readonly nothing is answered: the item offers no key, and its detail says where it can be answered. */
const READONLY_DETAIL =
  "  --readonly: nothing is answered here (Claude's own prompt, or an omc-top without --readonly, answers it)";

export function answerItems(input: AnswerInput, opts: { readonly?: boolean } = {}): AnswerItem[] {
  const items: AnswerItem[] = [];
  const ro = opts.readonly === true;
  for (const r of input.permissions) {
    // The Claude that asked, not only the session's: a second terminal may run the same session.
    const p = askingProcess(input.claude, r.sessionId, r.claudePid);
    const who = p?.name ? `${p.name} (${r.sessionId.slice(0, 8)})` : r.sessionId.slice(0, 8);
    const until = formatClock(r.expiresMs);
    const keys = r.allowRefused ? 'n deny' : `y allow · n deny${r.alwaysOffered ? ' · A always' : ''}`;
    const summary = `permission: ${r.toolName} ${r.subject} — ${who} (until ${until})`;
    items.push({
      kind: 'permission',
      id: permissionItemId(r.id),
      since: r.createdMs,
      text: ro ? summary : `permission: ${r.toolName} ${r.subject} — ${who} — ${keys} (until ${until})`,
      summary,
      detail: [
        `Claude asks to run ${r.toolName}: ${r.subject}`,
        `  session ${r.sessionId}${p?.name ? ` (${p.name})` : ''} in ${r.cwd}`,
        ro
          ? READONLY_DETAIL
          : r.allowRefused
            ? `  ${keys} · ${r.allowRefused}`
            : `  ${keys}${r.alwaysOffered ? ' (always: this exact command, as configured: this session or local settings)' : ''}`,
        `  the hook waits until ${until}; after that only Claude's own prompt in its terminal answers it`,
      ],
      request: r,
    });
  }
  const runs = new Map(input.runs.map((r) => [r.runId, r]));
  for (const g of input.gates) {
    const run = runs.get(g.runId) ?? null;
    const decided = g.decided ? ` (decided: ${g.decided.decision}; OMC has not read it yet)` : '';
    const summary = `OMC gate: ${g.prompt.split('\n')[0] ?? ''} — run ${g.runId}, ${g.title ?? g.nodeId}${decided}`;
    items.push({
      kind: 'gate',
      id: gateItemId(g.runId, g.activationId),
      since: g.createdMs,
      text: ro
        ? summary
        : `OMC gate: ${g.prompt.split('\n')[0] ?? ''} — run ${g.runId}, ${g.title ?? g.nodeId} — y approve · n deny${decided}`,
      summary,
      detail: [
        `OMC graph gate ${g.nodeId}${g.title ? ` (${g.title})` : ''}, activation ${g.activationId}: ${g.prompt}`,
        `  waiting since ${g.createdMs !== null ? formatClock(g.createdMs) : 'an unknown time'} UTC`,
        ...(run ? runProgressLines(run) : [`  run ${g.runId}`]),
      ],
      gate: g,
      run,
    });
  }
  return items.sort((a, b) => (a.since ?? 0) - (b.since ?? 0));
}

/** An item as a line of the `!` list (the problems view until the attention inbox takes these items). */
export interface AnswerLine {
  path: string;
  message: string;
  severity: 'needs you';
  detail: string[];
  answer: AnswerItem;
}

export const ANSWER_PATH = 'answer:';
export const isAnswerLine = (p: { path: string }): p is AnswerLine =>
  p.path.startsWith(ANSWER_PATH) && (p as Partial<AnswerLine>).answer !== undefined;

/** The store's answerable items, from its snapshots. */
export function answerInputOf(store: {
  permissions: { getSnapshot(): { requests: readonly PermissionRequestView[] } };
  graph: { getSnapshot(): { gates: readonly GateView[]; runs: readonly GraphRunView[] } };
  claude: { getSnapshot(): ClaudeSnapshot };
}): AnswerInput {
  const g = store.graph.getSnapshot();
  return {
    permissions: store.permissions.getSnapshot().requests,
    gates: g.gates,
    runs: g.runs,
    claude: store.claude.getSnapshot(),
  };
}

/** The answerable items first (they wait on a clock or on a person), then the rest of the list. */
export function withAnswers<P extends { path: string; message: string; severity: string }>(
  lines: readonly P[],
  input: AnswerInput,
  opts: { readonly?: boolean } = {},
): ReadonlyArray<P | AnswerLine> {
  const items = answerItems(input, opts);
  if (items.length === 0) return lines;
  return [
    ...items.map((a): AnswerLine => ({
      path: `${ANSWER_PATH}${a.id}`,
      message: a.text,
      severity: 'needs you',
      detail: a.detail,
      answer: a,
    })),
    ...lines,
  ];
}

/**
 * One prompt, one entry: the needs that stand for a permission request or an OMC gate listed to answer (a Claude with
 * no OMC loop is counted by its prompt, a graph run by its gate), matched by the request's nonce or the gate's
 * activation, not by their words. `byAnswer` maps an answer item's id to its need (still counted, acknowledged from
 * the item); `rest` are the needs listed on their own.
 */
export function foldAnswered<N extends Pick<NeedItem, 'id'>>(
  answers: readonly Pick<AnswerItem, 'kind' | 'id'>[],
  needs: readonly N[],
): { byAnswer: Map<string, N>; rest: N[] } {
  const listed = new Set(answers.map((a) => a.id));
  const byAnswer = new Map<string, N>();
  const rest: N[] = [];
  for (const n of needs) {
    const item = answerItemOf(n);
    if (item !== null && listed.has(item)) byAnswer.set(item, n);
    else rest.push(n);
  }
  return { byAnswer, rest };
}
