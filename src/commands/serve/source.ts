/**
 * What `omc-top serve` shows: one project (a store and its attention
 * monitor), or with `--all` / `--host` the fleet (every local root's store
 * and attention monitor are LocalFleet's own, shared with its rows; remote
 * hosts' rows and attention items come over ssh as in the fleet view, and
 * their cancel and pause run there as the fleet view's c / p do). The
 * picture is plain JSON made from the same row model (feeds/row.ts) and the
 * same attention model as the TUI.
 */
import { cleanLine } from '../../io/sanitize.js';
import { AckFile } from '../../feeds/attention/acks.js';
import { AttentionMonitor } from '../../feeds/attention/monitor.js';
import { sessionJson, type NeedItem } from '../../feeds/attention/needs.js';
import { ownStateDir } from '../../io/state-dir.js';
import { rowIdentity, rowOf, rowModesText, rowProcessText, rowStatusText, type RowModel } from '../../feeds/row.js';
import { quotaJson, type QuotaJson } from '../../feeds/quota-json.js';
import { sessionKey } from '../../store/sessions/model.js';
import { cancelTargetOf } from '../../store/cancel/target.js';
import { answerInputOf, answerItems, foldAnswered, type AnswerItem } from '../../feeds/answers/items.js';
import type { ReportKind } from '../../feeds/answers/answer.js';
import type { OmcStore } from '../../store/store.js';
import { followRoot, type RootLookCause } from '../../store/omc-root.js';
import type { OmcInstall } from '../../store/omc-install.js';
import { omcGuessLine } from '../../store/omc-label.js';
import type { RootResolution } from '../../store/root.js';
import { shownName } from '../../io/shown-path.js';
import type { LocalFleet } from '../../fleet/local.js';
import type { FleetGroup } from '../../fleet/model.js';
import type { RemoteFleet } from '../../fleet/remotes.js';

export interface ServeRoot {
  id: string;
  project: string;
  root: string;
  store: OmcStore;
  monitor: AttentionMonitor;
  /** What the page's answers led to, as observed (the TUI's flash lines): the page lists the last few. */
  outcomes: OutcomeLog;
  /** Stops following the acknowledgements file. */
  unwatch(): void;
}

export interface OutcomeJson {
  at: number;
  text: string;
  kind: ReportKind;
}

/** The last few outcomes of answers given from the page, newest last. */
export class OutcomeLog {
  private static readonly KEEP = 8;
  private items: OutcomeJson[] = [];
  private readonly listeners = new Set<() => void>();
  constructor(private readonly now: () => number = Date.now) {}
  add(text: string, kind: ReportKind): void {
    this.items = [...this.items, { at: this.now(), text: cleanLine(text), kind }].slice(-OutcomeLog.KEEP);
    for (const l of [...this.listeners]) l();
  }
  list(): readonly OutcomeJson[] {
    return this.items;
  }
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}

/** A root's attention monitor with omc-top's acknowledgements file (the TUI's, `status --tmux`'s). */
function attend(id: string, project: string, store: OmcStore, env: NodeJS.ProcessEnv): ServeRoot {
  const acks = new AckFile(ownStateDir(env), store.root);
  const unwatch = acks.watch();
  const monitor = new AttentionMonitor(store, { acks });
  return { id, project, root: store.root, store, monitor, outcomes: new OutcomeLog(), unwatch };
}

/** An item the page can answer: a permission request (bound to its id and digest) or an OMC gate. */
export type AnswerJson =
  | {
      kind: 'permission';
      id: string;
      text: string;
      detail: string[];
      request: string;
      digest: string;
      session: string;
      /** "always for this command" is offered (where the TUI offers A). */
      always: boolean;
      /** Allowing is offered (the page shows the whole subject). */
      allow: boolean;
      expiresMs: number;
    }
  | {
      kind: 'gate';
      id: string;
      text: string;
      detail: string[];
      run: string;
      activation: string;
      node: string;
      /** A decision file is already there; OMC has not taken it yet. */
      decided: string | null;
    };

function answerJson(a: AnswerItem): AnswerJson {
  if (a.kind === 'permission')
    return {
      kind: 'permission',
      id: a.id,
      text: a.summary,
      detail: a.detail.filter((l) => !l.startsWith('  y allow')),
      request: a.request.id,
      digest: a.request.file.digest,
      session: a.request.sessionId,
      always: a.request.alwaysOffered && a.request.allowRefused === null,
      allow: a.request.allowRefused === null,
      expiresMs: a.request.expiresMs,
    };
  return {
    kind: 'gate',
    id: a.id,
    text: a.summary,
    detail: a.detail,
    run: a.gate.runId,
    activation: a.gate.activationId,
    node: a.gate.nodeId,
    decided: a.gate.decided?.decision ?? null,
  };
}

export interface NeedJson {
  id: string;
  reason: string;
  text: string;
  session: string | null;
  /** The session-less state ("legacy") rather than a session directory named legacy. */
  sessionless: boolean;
  /** Claude's name for the session and its tmux window, when known. */
  name: string | null;
  tmux: string | null;
  mode: string | null;
  team: string | null;
  worker: string | null;
  waitingOn: string | null;
  /**
   * The item of `answers` that is this same prompt (a Claude with no OMC loop is counted by its permission prompt),
   * or null: the page lists it once, there, with this need's Acknowledge.
   */
  answeredAs: string | null;
}

export interface RootJson {
  id: string;
  project: string;
  host: string | null;
  /** A root on this machine; false: a `--host` project (cancel and pause run there over ssh; nothing is answered). */
  local: boolean;
  /** `key`: the row's identity in its project; `target`: how a cancel names it (store/cancel/target.ts). */
  /** `statusText`: the row's status as every surface says it (feeds/row.ts rowStatusText), on this clock. */
  /** `processText`: what its CLAUDE cell says (feeds/row.ts rowProcessText: `elsewhere` for a Claude away). */
  /** `modesText`: its modes and the rate limit holding its loop, as every row says them (feeds/row.ts rowModesText). */
  rows: Array<
    RowModel & { key: string; target: string; statusText: string; processText: string | null; modesText: string }
  >;
  /**
   * A `--host` project whose host is not live (its rows are kept but not current): the fleet header's note and
   * why, e.g. `not live: lost 20 s ago, retrying in 1 s: no line for 20 s …`; null while live; absent for a local root.
   */
  connection?: string | null;
  /**
   * The project's problem lines (what its monitor shows under its header: a state file not JSON, one omc-top may
   * not read), as `--json`'s `problems`; a `--host` project's as its stream last said them. The first PAGE_PROBLEMS.
   */
  problems: ProblemJson[];
  /** How many problem lines there are in all (`problems` holds the first PAGE_PROBLEMS). */
  problemCount: number;
  /** Not acknowledged: what the count counts. */
  needs: NeedJson[];
  /** Acknowledged and still holding (listed, never counted). */
  acked: NeedJson[];
  /** Permission requests and OMC gates to answer (the TUI's `!` list's "To answer"), oldest first. */
  answers: AnswerJson[];
  /** What answers given from the page led to, newest last. */
  outcomes: readonly OutcomeJson[];
  /**
   * No OMC install was found: every status is judged by the newest book, a guess. The monitor header's words
   * (store/omc-label.ts omcGuessLine), shown at the top of the root's section; null when the OMC is known (and for a
   * `--host` project, whose OMC is judged on that machine).
   */
  omcGuess: string | null;
  /**
   * The plan quota of the machine the root is on (OMC's usage cache: feeds/quota-json.ts, the monitor header's
   * words), on the stream only (the token was checked: it is the user's plan). One for every local root; null when
   * OMC keeps no usage cache there, and for a `--host` project (its monitor's header shows it there).
   */
  quota: QuotaJson | null;
}

export interface ProblemJson {
  path: string;
  message: string;
  severity: 'error' | 'warning' | 'info';
}

/** Problem lines a root of the page lists (the rest are counted: `problemCount`). */
export const PAGE_PROBLEMS = 20;

const problemsJson = (all: readonly ProblemJson[]): Pick<RootJson, 'problems' | 'problemCount'> => ({
  problems: all.slice(0, PAGE_PROBLEMS).map((p) => ({ path: p.path, message: p.message, severity: p.severity })),
  problemCount: all.length,
});

export interface Picture {
  count: number;
  roots: RootJson[];
}

export interface ServeSource {
  roots(): ServeRoot[];
  root(id: string): ServeRoot | undefined;
  /** The `--host` hosts (none for one project). */
  remote?: RemoteFleet;
  picture(now: number): Picture;
  subscribe(l: () => void): () => void;
  close(): Promise<void>;
}

const needJson = (n: NeedItem, answeredAs: string | null = null): NeedJson => ({
  id: n.id,
  reason: n.reason,
  text: n.text,
  ...sessionJson(n.session),
  name: n.name,
  tmux: n.tmux,
  mode: n.mode,
  team: n.team,
  worker: n.worker,
  waitingOn: n.waitingOn,
  answeredAs,
});

/** The answer item that is this need's prompt, or null (one prompt, one entry on the page). */
const answeredAs = (answers: readonly AnswerItem[], n: NeedItem): string | null =>
  foldAnswered(answers, [n]).byAnswer.keys().next().value ?? null;

function rootJson(r: ServeRoot, now: number): RootJson {
  const claude = r.store.claude.getSnapshot().bySession;
  const records = r.store.cancelRecords.getSnapshot().records;
  const quota = r.store.quota.getSnapshot();
  const snap = r.store.sessions.getSnapshot();
  const omc = r.store.omc;
  const rows = snap.sessions
    .map((s) => {
      const row = rowOf(s, claude.get(s.id), now, undefined, records.get(sessionKey(s)), quota);
      return {
        key: rowIdentity(row),
        target: cancelTargetOf(row),
        statusText: rowStatusText(row, now),
        processText: rowProcessText(row),
        modesText: rowModesText(row),
        ...row,
      };
    })
    .sort((a, b) => a.rank - b.rank || (b.updatedMs ?? 0) - (a.updatedMs ?? 0));
  const view = r.monitor.view.getSnapshot();
  const answers = answerItems(answerInputOf(r.store));
  return {
    id: r.id,
    project: r.project,
    host: null,
    local: true,
    rows,
    ...problemsJson(r.store.problems.getSnapshot()),
    needs: view.open.map((n) => needJson(n, answeredAs(answers, n))),
    acked: view.acked.map((n) => needJson(n, answeredAs(answers, n))),
    answers: answers.map(answerJson),
    outcomes: r.outcomes.list(),
    omcGuess: omc ? omcGuessLine(omc, snap.omcSeen) : null,
    quota: quotaJson(quota, now),
  };
}

function watchRoot(r: ServeRoot, on: () => void): () => void {
  const offs = [
    r.store.sessions.subscribe(on),
    r.store.claude.subscribe(on),
    r.store.cancelRecords.subscribe(on),
    // OMC's quota files: a loop the plan's limit holds says so in its row.
    r.store.quota.subscribe(on),
    // Its problem lines: the root's section lists them.
    r.store.problems.subscribe(on),
    r.monitor.view.subscribe(on),
    r.store.permissions.subscribe(on),
    r.store.graph.subscribe(on),
    r.outcomes.subscribe(on),
  ];
  return () => offs.forEach((o) => o());
}

/**
 * How one project's source follows its state when an OMC upgrade moves it (store/omc-root.ts followRoot, as the
 * monitor and `watch --json` do): where to look again, how to open a store there, and whom to tell.
 */
export interface RootFollow {
  rootFor(install: OmcInstall): RootResolution;
  open(at: RootResolution, install: OmcInstall): OmcStore;
  said(words: string): void;
}

export function singleSource(
  store: OmcStore,
  project: string,
  env: NodeJS.ProcessEnv = process.env,
  follow?: RootFollow,
): ServeSource {
  let r = attend('local', project, store, env);
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  let offRoot: () => void = () => undefined;
  let closing = false;
  let moving: Promise<void> | null = null;
  /** The page's subscribers hear the root's cells, and another OMC found there may move the source elsewhere. */
  const wire = () => {
    const offCells = watchRoot(r, notify);
    const from = r.store;
    const offOmc = follow
      ? from.onOmcChange((words, next) => {
          // The monitor's message line; the move, if any, is said by move().
          if (words) follow.said(words);
          move(from, next);
        })
      : () => undefined;
    // OMC_STATE_DIR changed in Claude's settings: the same OMC, its state maybe elsewhere now.
    const offStateDir = follow
      ? from.onStateDirSetting(() => {
          if (from.omc) move(from, from.omc, 'state-dir-setting');
        })
      : () => undefined;
    offRoot = () => {
      offCells();
      offOmc();
      offStateDir();
    };
  };
  const release = async (old: ServeRoot) => {
    old.monitor.dispose();
    old.unwatch();
    await old.store.close();
  };
  const move = (from: OmcStore, next: OmcInstall, cause?: RootLookCause) => {
    if (!follow || closing || moving || from !== r.store) return;
    const found = followRoot(follow.rootFor, next, r.root, cause);
    if (found.moved === null) return;
    const words = found.moved;
    // After the old store's own re-judging (this runs inside it): its store closes, one on the new root starts.
    moving = new Promise<void>((done) =>
      setImmediate(() => {
        const old = r;
        offRoot();
        if (!closing) {
          r = attend('local', project, follow.open(found.res, next), env);
          wire();
          follow.said(words);
          notify();
        }
        moving = null;
        void release(old).then(done, done);
      }),
    );
  };
  wire();
  return {
    roots: () => [r],
    root: (id) => (id === r.id ? r : undefined),
    picture(now) {
      const j = rootJson(r, now);
      return { count: j.needs.length, roots: [j] };
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async close() {
      closing = true;
      await moving;
      offRoot();
      await release(r);
    },
  };
}

/** A host's group with what needs the user there (its attention lines: the count, the acknowledged ones). */
function remoteJson(g: FleetGroup, remote: RemoteFleet | undefined, now: number): RootJson {
  const host = g.host ? remote?.hostOf(g.host) : undefined;
  const needs = host?.needs() ?? { open: [], acked: [] };
  const down = host?.notLive() ?? null;
  return {
    id: g.key,
    project: g.label,
    host: g.host,
    local: false,
    connection: down ? `not live: ${down.note}${down.why ? `: ${down.why}` : ''}` : null,
    rows: g.rows.map((row) => ({
      ...row,
      key: row.key,
      target: cancelTargetOf(row),
      statusText: rowStatusText(row, now),
      processText: rowProcessText(row),
      modesText: rowModesText(row),
    })),
    ...problemsJson(host?.problemsNow() ?? []),
    needs: needs.open.map((n) => needJson(n)),
    acked: needs.acked.map((n) => needJson(n)),
    answers: [],
    outcomes: [],
    omcGuess: null,
    quota: remoteQuota(host?.quotaNow() ?? null),
  };
}

/** A `--host` machine's quota as its stream said it: the narrow words only (a countdown there would be stale here). */
function remoteQuota(q: { short: string; limitedUntilMs: number | null } | null): QuotaJson | null {
  if (q === null) return null;
  const until = q.limitedUntilMs === null ? null : new Date(q.limitedUntilMs).toISOString();
  return { text: q.short, short: q.short, limited_until: until };
}

export function fleetSource(
  fleet: LocalFleet,
  remote: RemoteFleet | undefined,
  close: () => Promise<void>,
): ServeSource {
  const roots = new Map<string, ServeRoot>();
  const listeners = new Set<() => void>();
  const offs = new Map<string, () => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  /**
   * Every local root the fleet has opened, with the fleet's own attention monitor and acknowledgements (one per
   * root: the rows' "needs" and the page's items are the same monitor's, and it is not built twice).
   */
  const sync = () => {
    const open = new Map(fleet.localRoots().map((lr) => [lr.info.id, lr]));
    // A root the fleet closed (its directory gone) leaves the page; one opened again (renamed) is its new store.
    for (const [id, r] of roots)
      if (open.get(id)?.store !== r.store) {
        offs.get(id)?.();
        offs.delete(id);
        roots.delete(id);
      }
    for (const [id, lr] of open) {
      if (roots.has(id)) continue;
      const r: ServeRoot = {
        id,
        project: shownName(lr.info.projectDir),
        root: lr.store.root,
        store: lr.store,
        monitor: lr.monitor,
        outcomes: new OutcomeLog(),
        // The fleet follows the acknowledgements file and disposes the monitor itself.
        unwatch: () => undefined,
      };
      roots.set(id, r);
      offs.set(id, watchRoot(r, notify));
    }
    notify();
  };
  const offFleet = fleet.subscribe(sync);
  sync();
  return {
    roots: () => [...roots.values()],
    root: (id) => roots.get(id),
    remote,
    picture(now) {
      const local = [...roots.values()].map((r) => rootJson(r, now));
      const hosts = fleet
        .getSnapshot()
        .groups.filter((g) => g.host !== null)
        .map((g) => remoteJson(g, remote, now));
      const all = [...local, ...hosts];
      return { count: all.reduce((n, r) => n + r.needs.length, 0), roots: all };
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async close() {
      offFleet();
      for (const o of offs.values()) o();
      await close();
    },
  };
}
