/**
 * Every `--host` of the fleet (and the config file's `hosts`), as groups for
 * the fleet snapshot and as the actions the fleet view offers on their rows.
 * While a host is not live, its header's "lost 12 s ago, retrying in 8 s"
 * moves every second; once all are live nothing ticks.
 */
import { hostSpecKey, uniqueHostSpecs, type HostSpec } from '../config/host-spec.js';
import type { FleetGroup, FleetRow, RemoteActions } from './model.js';
import { RemoteHost, type SshCommand } from './remote.js';
import { rowItems } from './ack.js';
import { cancelTargetOf } from '../store/cancel/target.js';

export class RemoteFleet implements RemoteActions {
  /** The hosts in the order given (the command line's, then the config file's); replaced by `setSpecs`. */
  hostsList: RemoteHost[];
  private tick: NodeJS.Timeout | null = null;
  private started = false;
  /** Hosts taken out by `setSpecs` whose cancels or acks are still under way there: `stop` ends them too. */
  private readonly retiring = new Set<RemoteHost>();
  /** Labels taken out of the config file while the fleet runs (an open dialog on one says so). */
  private readonly takenOut = new Set<string>();

  constructor(
    specs: readonly HostSpec[],
    private readonly onChange: () => void,
    /** `pushLease`: this side pushes, so each host's stream takes its project's push lease there (remote.ts). */
    private readonly opts: {
      ssh?: SshCommand;
      clock?: () => number;
      pushLease?: boolean;
      /** Tests shorten the bounds (remote.ts). */
      startBoundMs?: number;
      commandBoundMs?: number;
    } = {},
  ) {
    // One host per project (config/host-spec.ts: `box:/r/shop` and `box:/r/shop/` are one); the callers say so.
    this.hostsList = uniqueHostSpecs(specs).specs.map((spec) => this.hostFor(spec));
  }

  private hostFor(spec: HostSpec): RemoteHost {
    const o = this.opts;
    return new RemoteHost({
      spec,
      ssh: o.ssh,
      clock: o.clock,
      pushLease: o.pushLease,
      startBoundMs: o.startBoundMs,
      commandBoundMs: o.commandBoundMs,
      onChange: () => this.changed(),
    });
  }

  /**
   * The hosts become `specs` (the config file changed while the fleet runs): a host still named keeps its stream
   * and all it showed, a new one connects, one no longer named has its stream ended (a cancel or ack under way there
   * still gets its answer: RemoteHost.retire). Hosts match by project (hostSpecKey, as uniqueHostSpecs dedupes), so
   * `box:/r/shop` respelled `box:/r/shop/` keeps its stream and its first spelling; a host whose project was edited is
   * another one: the old one ends, the new one connects. Returns what was added and removed.
   */
  setSpecs(specs: readonly HostSpec[]): { added: number; removed: number } {
    const next = uniqueHostSpecs(specs).specs;
    const had = new Map(this.hostsList.map((h) => [hostSpecKey(h.spec), h]));
    const kept = new Set<string>();
    let added = 0;
    const list = next.map((spec) => {
      const key = hostSpecKey(spec);
      const old = had.get(key);
      if (old) {
        kept.add(key);
        return old;
      }
      added++;
      this.takenOut.delete(spec.label);
      const h = this.hostFor(spec);
      if (this.started) h.start();
      return h;
    });
    let removed = 0;
    for (const [key, h] of had) {
      if (kept.has(key)) continue;
      removed++;
      this.takenOut.add(h.spec.label);
      this.retiring.add(h);
      void h.retire().then(() => this.retiring.delete(h));
    }
    this.hostsList = list;
    if (added > 0 || removed > 0) this.changed();
    return { added, removed };
  }

  start(): void {
    this.started = true;
    for (const h of this.hostsList) h.start();
  }

  private changed(): void {
    this.onChange();
    const ticking = this.hostsList.some((h) => h.ticking());
    if (ticking && !this.tick) {
      this.tick = setInterval(() => this.onChange(), 1_000);
      this.tick.unref?.();
    } else if (!ticking && this.tick) {
      clearInterval(this.tick);
      this.tick = null;
    }
  }

  groups(): FleetGroup[] {
    return this.hostsList.map((h) => h.group());
  }

  hosts(): number {
    return this.hostsList.length;
  }

  hostsLive(): number {
    return this.hostsList.filter((h) => h.phase === 'live').length;
  }

  hostOf(label: string): RemoteHost | undefined {
    return this.hostsList.find((h) => h.spec.label === label);
  }

  describeCancel(row: FleetRow, pause: boolean): string[] {
    const h = row.host ? this.hostOf(row.host) : undefined;
    const cmd = `ssh ${h?.spec.destination ?? row.host} ${
      h ? h.cancelCommand(row, pause) : `omc-top cancel ${cancelTargetOf(row)}${pause ? ' --signal-only' : ''}`
    }`;
    const what = row.sessionless === true ? 'The session-less (legacy) state' : `Session ${row.session}`;
    return [
      `${what} (${row.modes || 'no modes'}) in ${row.rootLabel || 'its project'} on ${row.host}.`,
      pause
        ? "Writes OMC's 30 s cancel signal there; nothing is removed."
        : "Cancels its loop there the way OMC's /cancel does, then checks on that machine that it took.",
      // An older omc-top there sends a directory named legacy and the session-less state alike.
      ...(row.sessionless === undefined && row.session === 'legacy'
        ? [
            `The omc-top on ${row.host} is older and does not say whether this row is its session-less state or a session directory named legacy: "cancel legacy" there acts on the session-less state.`,
          ]
        : []),
      '',
      `Runs: ${cmd}`,
    ];
  }

  cancelRefusal(row: FleetRow, pause: boolean): string | null {
    return (row.host ? this.hostOf(row.host)?.cancelRefusal(row, pause) : null) ?? null;
  }

  /** Why a row's host is not there to act on: taken out of the config file while the fleet runs, or never known. */
  private noHost(row: FleetRow, what: string): { ok: boolean; text: string } {
    const host = row.host ?? '';
    return this.takenOut.has(host)
      ? { ok: false, text: `${what} on ${host}: not sent: host taken out of the config file` }
      : { ok: false, text: `no host ${host}` };
  }

  cancel(row: FleetRow, pause: boolean): Promise<{ ok: boolean; text: string }> {
    const h = row.host ? this.hostOf(row.host) : undefined;
    if (!h) return Promise.resolve(this.noHost(row, pause ? 'pause' : 'cancel'));
    return h.cancel(row, pause);
  }

  ack(row: FleetRow): Promise<{ ok: boolean; text: string }> {
    const h = row.host ? this.hostOf(row.host) : undefined;
    if (!h) return Promise.resolve(this.noHost(row, 'acknowledging'));
    const items = rowItems(h.needs().open, row);
    if (items.length === 0)
      return Promise.resolve({ ok: false, text: `nothing in this session needs you on ${row.host}` });
    return h.ack(items.map((n) => n.id));
  }

  reconnect(host: string): void {
    this.hostOf(host)?.reconnect();
  }

  /** Ends every host's ssh for good; resolves once they have all exited. */
  stop(): Promise<void> {
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    this.started = false;
    return Promise.all([...this.hostsList, ...this.retiring].map((h) => h.stop())).then(() => undefined);
  }
}
