/**
 * The OMC that runs a project's hooks can change under a running monitor: `claude plugin update` rewrites
 * installed_plugins.json, a dotfiles switch relinks settings.json, OMC's setup rewrites the CLAUDE.md marker.
 * Those files live in Claude Code's config directory and the project's `.claude/`, outside the watched `.omc`,
 * so the same finding a fresh process makes (detectOmcInstall) is made again on a bounded timer. So is the release in
 * the `--plugin-dir` directories of the project's running Claudes: OMC upgraded in place there (a `git pull` in the
 * checkout, a copy over it) runs its new scripts from the Claude's next turn. A different answer is taken only when
 * a second look a moment later agrees: a file caught mid-rewrite (a directory mid-copy) is not a new OMC.
 */
import { installKey, omcVersionAt, type OmcInstall, type OmcReadMemo } from './omc-install.js';
import { keepLastGood } from './omc-kept.js';

/** How often the files are looked at again: a few small reads, so the idle cost stays in the noise. */
export const OMC_RECHECK_MS = 5000;
/** The second look that confirms a change. */
export const OMC_CONFIRM_MS = 700;

export interface OmcRecheckOptions {
  /**
   * The finding as a fresh process makes it (same env, project directory and --omc-version). `reads`: the round's
   * shared reads when a ticker looks for many projects at once (none for the confirming look: it reads afresh).
   */
  detect: (reads?: OmcReadMemo, processes?: boolean) => OmcInstall;
  /** The answer in force. */
  current: () => OmcInstall;
  /**
   * Whether the Claude process whose `--plugin-dir` decided the answer in force still runs, as the Claude side last
   * judged it (no read of its own). Unset: such an answer stands for good.
   */
  processLive?: (p: NonNullable<OmcInstall['process']>) => boolean;
  /**
   * The releases now in the `--plugin-dir` directories the sessions' own Claudes loaded (claude/session-installs.ts),
   * as read on this look, and whether one differs from those in force. Unset: none are looked at.
   */
  ownReleases?: (reads?: OmcReadMemo) => { key: string; moved: boolean };
  /**
   * Takes a confirmed new answer (re-judges, tells the surfaces): another project install, or the same one when only
   * a session's own `--plugin-dir` release moved (ownReleases).
   */
  apply: (next: OmcInstall, was: OmcInstall) => void;
  everyMs?: number;
  confirmMs?: number;
  /** One timer for every project of a process (the fleet, `serve --all`): looks on its ticks, not a timer of its own. */
  ticker?: OmcRecheckTicker;
  /**
   * Other files outside the watched root looked at on the same ticks (Claude's settings for OMC's variables:
   * claude/hook-env.ts), so a monitor at rest keeps one timer for all of them.
   */
  alsoOnEachLook?: () => void;
}

/**
 * The one timer of a process that watches many projects: each tick is one round of looks, every project's, with
 * the files they share read once in the round (OmcReadMemo). It runs while any project is registered.
 */
export class OmcRecheckTicker {
  private readonly rechecks = new Set<OmcRecheck>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly everyMs = OMC_RECHECK_MS) {}

  add(r: OmcRecheck): () => void {
    this.rechecks.add(r);
    if (!this.timer) {
      this.timer = setInterval(() => this.round(), this.everyMs);
      this.timer.unref?.();
    }
    return () => {
      this.rechecks.delete(r);
      if (this.rechecks.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** One look at every project registered, sharing the reads of files they have in common. */
  round(): void {
    const reads: OmcReadMemo = new Map();
    for (const r of [...this.rechecks]) r.look(reads);
  }
}

export class OmcRecheck {
  private timer: NodeJS.Timeout | null = null;
  private confirm: NodeJS.Timeout | null = null;
  private offTicker: (() => void) | null = null;
  private stopped = false;

  constructor(private readonly o: OmcRecheckOptions) {}

  start(): void {
    if (this.timer || this.offTicker || this.stopped) return;
    if (this.o.ticker) {
      this.offTicker = this.o.ticker.add(this);
      return;
    }
    this.timer = setInterval(() => this.look(), this.o.everyMs ?? OMC_RECHECK_MS);
    this.timer.unref?.();
  }

  /**
   * One look; a difference is confirmed by a second look before it is taken. `withProcesses`: the project's live
   * Claudes are looked at too (a session new to the monitor: its Claude may run with another config directory).
   */
  look(reads?: OmcReadMemo, withProcesses = false): void {
    if (this.stopped) return;
    if (!withProcesses) this.o.alsoOnEachLook?.();
    if (this.confirm) return;
    // One look reads a file once: a lone monitor's directory of its --plugin-dir Claude is the project's and a session's.
    const first = this.see(reads ?? new Map(), withProcesses);
    if (first === null) return;
    this.confirm = setTimeout(() => {
      this.confirm = null;
      if (this.stopped) return;
      const again = this.see(undefined, withProcesses);
      if (again === null || again.key !== first.key) return; // still moving: the next look decides
      this.o.apply(again.next, this.o.current());
    }, this.o.confirmMs ?? OMC_CONFIRM_MS);
    this.confirm.unref?.();
  }

  /** What one look finds: null when it is what is in force, else the new project answer and the look's key. */
  private see(reads: OmcReadMemo | undefined, withProcesses: boolean): { next: OmcInstall; key: string } | null {
    // A live process started with --plugin-dir decides over every file: while it does, the files cannot change the
    // answer (and the look is of the files only: see omc-root.ts's redetect). The release in its directory can: it is
    // read again (a small file), and when it moved the answer is looked for as a fresh start finds it. Once that
    // process is gone, the same: another live process's --plugin-dir, else the files. Either reads the processes'
    // command lines once, then the looks are of the files again.
    const current = this.o.current();
    let processes = withProcesses;
    let stays = false;
    if (current.sourceTag === '--plugin-dir' && !withProcesses) {
      const p = current.process;
      if (!p || !this.o.processLive) stays = true;
      else if (this.o.processLive(p)) stays = p.dir === undefined || omcVersionAt(p.dir, reads) === current.version;
      processes = !stays;
    }
    const own = this.o.ownReleases?.(reads);
    // A file that decides the answer and can no longer be read keeps the answer in force (omc-kept.ts).
    const next = stays ? current : keepLastGood(this.o.detect(reads, processes), current);
    const key = installKey(next);
    if (key === installKey(current) && !own?.moved) return null;
    return { next, key: `${key}\u0000${own?.key ?? ''}` };
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.confirm) clearTimeout(this.confirm);
    this.offTicker?.();
    this.timer = this.confirm = null;
    this.offTicker = null;
  }
}
