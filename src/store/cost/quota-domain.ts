/**
 * The quota domain (`store.quota`): OMC's usage cache and its wait daemon's
 * files, both outside the .omc root, read through the safe read path with
 * their own directories as roots, stat-gated every few seconds while live.
 * The wait daemon is judged alive by its pid (the state file's `isRunning`
 * survives a kill). Views judge the cache's age with their own `now`
 * (quota.ts `judgeUsage`).
 */
import { parseJsonText, listDirSync, readTextSync, statSync } from '../../io/safe-fs/index.js';
import { stampKey } from '../../io/file-stamp.js';
import { LastGoodFile } from '../../io/last-good.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import { CLAUDE_DIR_READ, findClaudeConfigDir } from '../claude/config-dir.js';
import type { Domain, Problem } from '../types.js';
import {
  DAEMON_PID,
  DAEMON_STATE,
  DEFAULT_POLL_MS,
  parseDaemonState,
  parsePidFile,
  parseUsageCache,
  pollIntervalOf,
  sourceFor,
  USAGE_CACHE_DIR,
  waitDaemonDir,
  type DaemonState,
  type UsageCache,
} from './quota.js';

/** How often the files are looked at (one lstat each when unchanged) and the daemon's pid probed. */
export const QUOTA_POLL_MS = 5_000;

export interface DaemonView {
  /** The directory its files are in. */
  dir: string;
  state: DaemonState | null;
  /** The pid file's pid and whether that process is alive now. */
  pid: number | null;
  alive: boolean;
  problem: string | null;
}

export interface QuotaSnapshot {
  version: number;
  configDir: string;
  cache: UsageCache | null;
  cacheProblem: string | null;
  /** The HUD's poll interval (settings.json), for OMC's validity rule. */
  pollMs: number;
  /** null: no daemon files at all. */
  daemon: DaemonView | null;
}

export interface QuotaDomainOptions {
  env?: NodeJS.ProcessEnv;
  live?: boolean;
  /** Test seam: is this pid alive? */
  pidAlive?: (pid: number) => boolean;
}

const defaultPidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const jsonParse =
  <T>(parse: (v: unknown) => { ok: true; value: T } | { ok: false; problem: string }) =>
  (r: Parameters<typeof parseJsonText>[1]) => {
    const j = parseJsonText(r.text, r);
    return j.ok ? parse(j.value) : { ok: false as const, problem: j.message };
  };

export class QuotaDomain implements Domain {
  readonly name = 'quota';
  readonly cell: SnapshotCell<QuotaSnapshot>;
  private readonly env: NodeJS.ProcessEnv;
  private readonly configDir: string;
  /** null: an explicit environment without HOME (a test's): no wait daemon is looked for. */
  private readonly daemonDir: string | null;
  private readonly pidAlive: (pid: number) => boolean;
  private cacheFile: LastGoodFile<UsageCache> | null = null;
  private settings: LastGoodFile<number>;
  private daemonFile: LastGoodFile<DaemonState> | null;
  private pluginStamp = '';
  private timer: NodeJS.Timeout | null = null;
  private lastKey = '';
  private version = 0;

  constructor(private readonly opts: QuotaDomainOptions = {}) {
    this.env = opts.env ?? process.env;
    this.configDir = findClaudeConfigDir(this.env).dir;
    this.daemonDir = opts.env && !opts.env.HOME && !opts.env.OMC_HOME ? null : waitDaemonDir(this.env);
    this.pidAlive = opts.pidAlive ?? defaultPidAlive;
    this.settings = new LastGoodFile(this.configDir, 'settings.json', {
      ...CLAUDE_DIR_READ,
      parse: jsonParse((v) => ({ ok: true, value: pollIntervalOf(v) })),
    });
    this.daemonFile = this.daemonDir
      ? new LastGoodFile(this.daemonDir, DAEMON_STATE, { parse: jsonParse(parseDaemonState) })
      : null;
    this.cell = new SnapshotCell<QuotaSnapshot>({
      version: 0,
      configDir: this.configDir,
      cache: null,
      cacheProblem: null,
      pollMs: DEFAULT_POLL_MS,
      daemon: null,
    });
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();

  /** Outside the .omc root: the tree watcher never sees these files. */
  wants(): boolean {
    return false;
  }
  refresh(): void {}

  scan(): void {
    this.read();
    if (this.opts.live !== false && !this.timer) {
      this.timer = setInterval(() => this.read(), QUOTA_POLL_MS);
      this.timer.unref();
    }
  }

  /** Which cache file OMC's HUD would use here: this environment's source, else the newest, else the legacy one. */
  private pickCache(): void {
    const st = statSync(this.configDir, USAGE_CACHE_DIR);
    const stamp = stampKey(st, ['ino', 'mtimeMs']);
    if (stamp === this.pluginStamp) return;
    this.pluginStamp = stamp;
    const list = st ? listDirSync(this.configDir, USAGE_CACHE_DIR, CLAUDE_DIR_READ) : null;
    const names = list?.ok ? list.entries.filter((e) => e.kind === 'file').map((e) => e.name) : [];
    const mine = `.usage-cache-${sourceFor(this.env)}.json`;
    const perSource = names.filter((n) => /^\.usage-cache-[a-z]+\.json$/.test(n));
    const newest = perSource
      .map((n) => ({ n, t: statSync(this.configDir, `${USAGE_CACHE_DIR}/${n}`)?.mtimeMs ?? 0 }))
      .sort((a, b) => b.t - a.t)[0]?.n;
    const pick = names.includes(mine)
      ? mine
      : (newest ?? (names.includes('.usage-cache.json') ? '.usage-cache.json' : null));
    const rel = pick ? `${USAGE_CACHE_DIR}/${pick}` : null;
    if (rel !== (this.cacheFile?.rel ?? null))
      this.cacheFile = rel
        ? new LastGoodFile(this.configDir, rel, {
            ...CLAUDE_DIR_READ,
            // The cache as last read: an odd field keeps its last good value (quota.ts).
            parse: jsonParse((v) => parseUsageCache(rel, v, this.cacheFile?.value ?? null)),
          })
        : null;
  }

  private read(): void {
    this.pickCache();
    // OMC writes the cache with a plain writeFileSync: a half-written file is pending until the next look.
    const edge = 'leading';
    if (this.cacheFile?.pending) this.cacheFile.read('trailing');
    else this.cacheFile?.readIfChanged(edge);
    this.settings.readIfChanged('scan');
    let daemon: DaemonView | null = null;
    const dfile = this.daemonFile;
    if (dfile && this.daemonDir) {
      if (dfile.pending) dfile.read('trailing');
      else dfile.readIfChanged(edge);
      const pidText = readTextSync(this.daemonDir, DAEMON_PID, 64);
      const pid = pidText.ok ? parsePidFile(pidText.text) : null;
      if (!dfile.missing || pid !== null)
        daemon = {
          dir: this.daemonDir,
          state: dfile.value ?? null,
          pid,
          alive: pid !== null && this.pidAlive(pid),
          problem: dfile.problem,
        };
    }
    const cache = this.cacheFile?.value ?? null;
    const next = {
      configDir: this.configDir,
      cache,
      cacheProblem: this.cacheFile?.problem ?? null,
      pollMs: this.settings.value ?? DEFAULT_POLL_MS,
      daemon,
    };
    const key = JSON.stringify(next);
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.cell.set({ version: ++this.version, ...next });
  }

  problems(): readonly Problem[] {
    const s = this.cell.getSnapshot();
    const out: Problem[] = [];
    if (s.cacheProblem && s.cache)
      out.push({
        path: `${s.configDir}/${s.cache.rel}`,
        message: `OMC's usage cache: ${s.cacheProblem}`,
        severity: 'warning',
      });
    for (const message of s.cache?.problems ?? [])
      out.push({
        path: `${s.configDir}/${s.cache?.rel}`,
        message: `OMC's usage cache: ${message}`,
        severity: 'warning',
      });
    if (s.daemon?.problem)
      out.push({
        path: `${s.daemon.dir}/${DAEMON_STATE}`,
        message: `OMC's wait daemon state: ${s.daemon.problem}`,
        severity: 'warning',
      });
    return out;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
