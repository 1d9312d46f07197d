/**
 * Follows a live OmcStore and turns each new picture of it into transitions
 * and the attention view (view.ts). It reads the same snapshot cells the
 * screen reads, so what it reports is what the user sees. Until the store has
 * finished its first read (and the watcher is up) every picture only becomes
 * the baseline: old state is never news. Conditions that hold at start do
 * need the user (they are in the view from the first settled picture on).
 * Each change is diffed once, so a transition is reported once, and costs
 * what changed: the facts are kept incrementally (incremental.ts).
 */
import { SnapshotCell } from '../../io/snapshot-cell.js';
import { planHoldOf } from '../../store/cost/plan-hold.js';
import type { OmcStore } from '../../store/store.js';
import type { AckFile } from './acks.js';
import type { Facts, Transition } from './engine.js';
import { IncrementalFacts } from './incremental.js';
import type { AttentionInput } from './kinds.js';
import { isPermissionNeed, type NeedItem } from './needs.js';
import { EMPTY_VIEW, splitAcked, type AttentionView } from './view.js';

export function attentionInput(store: OmcStore): AttentionInput {
  return {
    sessions: store.sessions.getSnapshot(),
    teams: store.teams.getSnapshot(),
    cancels: store.cancels.getSnapshot(),
    cancelRecords: store.cancelRecords.getSnapshot(),
    problems: store.problems.getSnapshot(),
    claude: store.claude.getSnapshot(),
    permissions: store.permissions.getSnapshot().requests,
    graph: store.graph.getSnapshot(),
    planHold: planHoldOf(store.quota.getSnapshot(), store.clock()),
  };
}

/**
 * True when the store's picture can be diffed: the first full read is in, the watches are up, and the root is
 * there. While `.omc` is away (moved, removed, a file in its place) its loops went out of sight with it: that is
 * not OMC ending them, so nothing is diffed until it is back; then the picture is compared with the one from
 * before, and only what differs is a transition (a root moved back unchanged is none).
 */
function settled(store: OmcStore): boolean {
  const s = store.sessions.getSnapshot();
  const status = store.status.getSnapshot();
  // `reading`: the progressive start is live before every domain has been read (teams come after sessions).
  // The sessions' own look may find the root away before the watcher's status says so (a scan inside an `rm -rf`).
  return (
    !s.scanning &&
    !status.reading &&
    status.watchMode !== 'starting' &&
    (status.rootAbsence ?? null) === null &&
    s.rootAway !== true
  );
}

export type TransitionListener = (batch: readonly Transition[], view: AttentionView) => void;

export interface AttentionMonitorOptions {
  /** omc-top's acknowledgements for this root (acks.ts); without it nothing is acknowledged. */
  acks?: AckFile | null;
}

export class AttentionMonitor {
  private readonly facts = new IncrementalFacts();
  private last: AttentionInput | null = null;
  private readonly listeners = new Set<TransitionListener>();
  private readonly unsubs: (() => void)[] = [];
  private needsSeen: readonly NeedItem[] | null = null;
  readonly acks: AckFile | null;
  /** The attention view: what needs the user, acknowledged apart. */
  readonly view = new SnapshotCell<AttentionView>(EMPTY_VIEW);
  /** The "needs you: N" count, for a header (useSyncExternalStore) or the terminal title. */
  readonly count = new SnapshotCell<number>(0);
  /** True from the first settled picture on (the view is complete). */
  ready = false;

  constructor(
    private readonly store: OmcStore,
    opts: AttentionMonitorOptions = {},
  ) {
    this.acks = opts.acks ?? null;
    const on = () => this.sync();
    this.unsubs.push(
      store.sessions.cell.subscribe(on),
      store.teams.cell.subscribe(on),
      store.cancels.subscribe(on),
      store.cancelRecords.subscribe(on),
      store.problems.subscribe(on),
      store.claude.cell.subscribe(on),
      store.permissions.subscribe(on),
      store.graph.subscribe(on),
      // OMC's usage cache and wait daemon: a loop the plan's limit holds (store/cost/plan-hold.ts).
      store.quota.subscribe(on),
      store.status.subscribe(on),
    );
    if (this.acks) this.unsubs.push(this.acks.subscribe(() => this.publishView(true)));
    this.sync();
  }

  /** The facts of the last picture (for `watch --snapshot`; live maps: read them at once). */
  current(): Facts {
    return this.facts.facts();
  }

  /** Every condition that needs the user now, acknowledged or not, oldest first. */
  needsYou(): readonly NeedItem[] {
    return this.facts.needsYou();
  }

  isAcked = (id: string): boolean => this.acks?.has(id) ?? false;

  onTransitions(l: TransitionListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Re-reads the cells; called on every cell notification (and safe to call any time). */
  sync(): void {
    // Until then every picture is only a baseline: building its facts per slice of a big first read cost
    // more than the read itself. The first settled picture is the baseline (its status change syncs us).
    if (!settled(this.store)) {
      // Before the first settled picture every one is only a baseline; after it, a picture that cannot be diffed
      // (the root away, the watches restarting) is held, and the next settled one is diffed with the last.
      if (!this.ready) this.last = null;
      // The root going away (or a restart of the watches under it) changes what the view may count: see publishView.
      else this.publishView(false);
      return;
    }
    const input = attentionInput(this.store);
    const last = this.last;
    if (
      last &&
      last.sessions === input.sessions &&
      last.teams === input.teams &&
      last.cancels === input.cancels &&
      last.cancelRecords === input.cancelRecords &&
      last.problems === input.problems &&
      last.claude === input.claude &&
      last.permissions === input.permissions &&
      last.graph === input.graph &&
      last.planHold === input.planHold
    ) {
      return;
    }
    this.last = input;
    this.wakeAtLimitEnd(input.planHold?.limit?.untilMs ?? null);
    // The first settled picture is the baseline: what is already there when omc-top starts is never news.
    const batch = this.facts.update(input, last === null);
    this.ready = true;
    this.publishView(false);
    if (batch.length === 0) return;
    const view = this.view.getSnapshot();
    for (const l of [...this.listeners]) l(batch, view);
  }

  /**
   * Whether the last published view was taken while `.omc` was away. The facts are held then (sync: nothing is
   * diffed until it is back), but what they say of its loops, gates and sessions is no longer true: OMC's hooks find
   * no state there (an idle loop is not held, a gate cannot be decided), and the fleet and `status --tmux` see no
   * `.omc`. So the view counts only what does not live under the root meanwhile (a permission prompt the hook
   * handed to omc-top); the held facts come back with the root, as they were, with no transition.
   */
  private awaySeen = false;
  /** The items of the last published view. */
  private shown: readonly NeedItem[] = [];

  private limitTimer: NodeJS.Timeout | null = null;
  private limitEnd: number | null = null;

  /** The plan's limit ends with nothing written: judged again then (the held loops' words, or their need). */
  private wakeAtLimitEnd(untilMs: number | null): void {
    if (untilMs === this.limitEnd) return;
    if (this.limitTimer) clearTimeout(this.limitTimer);
    this.limitTimer = null;
    this.limitEnd = untilMs;
    if (untilMs === null) return;
    const delay = Math.max(0, untilMs - this.store.clock()) + 1;
    this.limitTimer = setTimeout(
      () => {
        this.limitTimer = null;
        this.limitEnd = null;
        this.sync();
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    this.limitTimer.unref?.();
  }

  private publishView(acksChanged: boolean): void {
    const all = this.facts.needsYou();
    const away = (this.store.status.getSnapshot().rootAbsence ?? null) !== null;
    if (!acksChanged && all === this.needsSeen && away === this.awaySeen) return;
    this.needsSeen = all;
    this.awaySeen = away;
    const needs = away ? all.filter(isPermissionNeed) : all;
    // The root going or coming back with nothing under it that needed the user: the same view, no new line.
    const shown = this.shown;
    this.shown = needs;
    if (!acksChanged && needs.length === shown.length && needs.every((n, i) => n === shown[i])) return;
    const view = splitAcked(needs, this.isAcked);
    this.view.set(view);
    this.count.set(view.count);
  }

  dispose(): void {
    if (this.limitTimer) clearTimeout(this.limitTimer);
    this.limitTimer = null;
    for (const u of this.unsubs.splice(0)) u();
    this.listeners.clear();
  }
}
