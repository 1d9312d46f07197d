/**
 * Push for many projects at once (`serve`, the fleet view): each root's attention monitor feeds a notifier with
 * no terminal channel (the same transitions, debounce and redaction as the monitor's), and a root's messages go
 * out only while this process holds that project's push lease, so a monitor or another omc-top already pushing
 * for it is not doubled; what it sees while another holds the lease is left to that one (push/leased-push.ts).
 */
import type { OmcTopConfig } from '../../config/config-file.js';
import { ownStateDir } from '../../io/state-dir.js';
import type { AttentionMonitor } from '../attention/monitor.js';
import type { NeedItem } from '../attention/needs.js';
import { Notifier, raisedBy } from './notifier.js';
import { startPush } from './push/index.js';
import { LeasedPush } from './push/leased-push.js';
import type { Due } from './push/ledger.js';
import { RetryPlan } from './push/retry-plan.js';

export interface PushRoot {
  id: string;
  project: string;
  root: string;
  monitor: AttentionMonitor;
}

/**
 * A project whose items come from elsewhere (a `--host` stream): the items that newly need the user there, and
 * whether this process pushes for it now (the project's push lease is on that machine: fleet/remote.ts).
 */
export interface PushFeed {
  id: string;
  /** Asked per message: a host says its project's name once its stream is up. */
  project(): string;
  onNeeds(l: (entering: NeedItem[]) => void): () => void;
  mayPush(): boolean;
}

export function pushForRoots(opts: {
  roots(): readonly PushRoot[];
  /**
   * Remote projects (`--host`): a list fixed for the life of the process, or asked again whenever `subscribe`
   * calls (the fleet's hosts follow its config file: one taken out stops pushing, one added starts).
   */
  feeds?: readonly PushFeed[] | (() => readonly PushFeed[]);
  /** Called when roots or hosts may have been added, opened again elsewhere (a new monitor) or closed. */
  subscribe(l: () => void): () => void;
  config: OmcTopConfig;
  readonly: boolean;
  env?: NodeJS.ProcessEnv;
  /** A channel failed, or a set-up problem (one redacted line). */
  onProblem(line: string): void;
  /** Called once when push is on (at least one channel). */
  onPushing?(): void;
  /** The first pause before a `--host` project's item no channel took is sent again (tests pass less). */
  retryFirstMs?: number;
}): () => void {
  const push = startPush(opts.config, { env: opts.env, onProblem: opts.onProblem });
  for (const p of push.problems) opts.onProblem(p);
  const sender = push.sender;
  if (!sender) return () => undefined;
  opts.onPushing?.();
  const dir = ownStateDir(opts.env ?? process.env);
  const attached = new Map<string, () => void>();
  /** The monitor each root was attached with: a root opened again (renamed) has a new one; a closed root none. */
  const monitors = new Map<string, AttentionMonitor>();
  const attach = (r: PushRoot) => {
    if (monitors.get(r.id) === r.monitor) return;
    detach(r.id);
    monitors.set(r.id, r.monitor);
    const leased = new LeasedPush(dir, r.root, (m, done) => sender.send(m, done), {
      readonly: opts.readonly,
      onProblem: (line) => opts.onProblem(`push: ${r.project}: ${line}`),
    });
    const n = new Notifier({
      channels: [],
      project: r.project,
      config: opts.config,
      write: () => undefined,
      env: {},
      // The holder pushes; another records the item for the holder (a handover loses nothing: leased-push.ts).
      push: (m, ids) => leased.offer([{ ids: [...ids], message: m }]),
    });
    const off = r.monitor.onTransitions((batch) => n.handle(batch, r.monitor.isAcked));
    attached.set(r.id, () => {
      off();
      leased.dispose(n.pendingPushes());
      n.dispose();
    });
  };
  const detach = (id: string) => {
    attached.get(id)?.();
    attached.delete(id);
    monitors.delete(id);
  };
  const feedsNow = (): readonly PushFeed[] => (typeof opts.feeds === 'function' ? opts.feeds() : (opts.feeds ?? []));
  const feedKey = (f: PushFeed) => `feed|${f.id}`;
  const feedKeys = new Set<string>();
  const sync = () => {
    const now = opts.roots();
    const ids = new Set(now.map((r) => r.id));
    // A root the fleet closed (its directory gone) lets its project's push lease go.
    for (const id of [...monitors.keys()]) if (!ids.has(id)) detach(id);
    now.forEach(attach);
    const feeds = feedsNow();
    const keys = new Set(feeds.map(feedKey));
    for (const k of [...feedKeys]) {
      if (keys.has(k)) continue;
      attached.get(k)?.();
      attached.delete(k);
      feedKeys.delete(k);
    }
    for (const f of feeds) if (!feedKeys.has(feedKey(f))) attachFeed(f);
  };
  const attachFeed = (f: PushFeed) => {
    // Its lease and ledger are on that machine: what no channel took is sent again from here on the plan a local
    // project's lease follows (retry-plan.ts), and its failure line ends with the same words.
    const plan = new RetryPlan(opts.retryFirstMs);
    const timers = new Set<NodeJS.Timeout>();
    let ended = false;
    const sendItem = (d: Due) => {
      // Asked when the message goes out (after the debounce, or a retry's pause), as a local root's lease is.
      if (ended || !f.mayPush()) return;
      const key = d.ids.join('\u0000');
      sender.send(d.message, (delivery) => {
        if (ended) return null;
        if (delivery === 'taken') {
          plan.taken(key);
          return null;
        }
        const next = plan.failed(key, d.at, delivery, Date.now());
        if (next.inMs !== null) {
          const t = setTimeout(() => {
            timers.delete(t);
            sendItem(d);
          }, next.inMs);
          t.unref?.();
          timers.add(t);
        }
        return next.words;
      });
    };
    const n = new Notifier({
      channels: [],
      get project() {
        return f.project();
      },
      config: opts.config,
      write: () => undefined,
      env: {},
      push: (m, ids) => sendItem({ ids: [...ids], message: m, at: Date.now() }),
    });
    const off = f.onNeeds((items) => n.handle(items.map(raisedBy)));
    feedKeys.add(feedKey(f));
    attached.set(feedKey(f), () => {
      ended = true;
      for (const t of timers) clearTimeout(t);
      off();
      n.dispose();
    });
  };
  sync();
  const offRoots = opts.subscribe(sync);
  return () => {
    offRoots();
    for (const d of attached.values()) d();
    sender.dispose();
  };
}
