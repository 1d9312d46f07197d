/**
 * The teams slice of .omc: every team runtime under `state/team/<team>/`, the
 * legacy MCP bridge heartbeats under `state/team-bridge/<team>/`, and the
 * team / omc-teams mode state in session dirs that says which session owns a
 * team. Keeps the last good parse of every file, turns bad files into problem
 * lines, and publishes immutable TeamsSnapshot values.
 *
 * The mode state is the sessions domain's parse (an explicit dependency: the
 * store refreshes sessions first, then teams), never read a second time here.
 *
 * Two locations: the .omc root, and — when the root came from OMC_STATE_DIR —
 * the project's own `.omc`, where OMC 4.x kept team runtimes regardless of
 * OMC_STATE_DIR (5.5.0 follows the root). The store's watcher only covers the
 * root, so the project location is rescanned on a timer (1 s, the --poll
 * cadence): the rescan is stat-gated (a readdir per directory and a stat per
 * file, well under a millisecond for 8 workers and 200 tasks), and it spends
 * no inotify watches on a legacy layout that is usually absent.
 *
 * What a listing no longer finds (a team directory, a task, a worker, config.json while it is replaced) is kept as
 * it was until the miss holds (scan-misses.ts): the root's misses wait in the watcher's removal hold and come back
 * as removal events; the project location's are gone when the next poll misses them too.
 */
import path from 'node:path';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import { listDirSync, type DirEntry } from '../../io/safe-fs/index.js';
import type { SessionsDomain } from '../sessions/domain.js';
import { isValidSessionId, timeMs } from '../sessions/omc-rules.js';
import type { Clock, Domain, Problem, WatchEvent } from '../types.js';
import { deriveTeam, isStalled, type ModeLink } from './derive.js';
import { EventsTail } from './events-tail.js';
import { JsonCache, type ReadEdge } from './json-cache.js';
import { EMPTY_TEAMS, type TeamView, type TeamsSnapshot } from './model.js';
import { TASK_FILE_RE, TEAM_NAME_RE, WORKER_NAME_RE, resolveHeartbeatStaleMs, teamNameOf } from './omc-team-rules.js';
import { teamsReport } from './report.js';
import { compareWorkerNames } from './worker-order.js';
import { shownPath } from '../../io/shown-path.js';
import { startedAfter } from '../../io/process-start.js';
import { ScanMisses } from '../scan-misses.js';

/** The key of an area's own problem (scanLocation): that directory could not be listed. */
const AREA_KEY = /\|state\/team(-bridge)?$/;

interface Loc {
  id: 'root' | 'project';
  root: string;
  /** Prepended to problem paths so the user can tell the two locations apart. */
  prefix: string;
}

interface TeamRec {
  key: string;
  name: string;
  loc: Loc;
  hasRuntimeDir: boolean;
  taskFiles: Map<string, string>;
  workerDirs: string[];
  bridgeWorkers: string[];
  tail: EventsTail | null;
  structural: Map<string, Problem>;
}

const TEAM_FILES = new Set(['config.json', 'manifest.json', 'manifest.v2.json', 'phase-state.json', 'shutdown.json']);
const WORKER_FILES = new Set(['heartbeat.json', 'status.json', 'shutdown-request.json', 'shutdown-ack.json']);
const MODE_FILES = ['team-state.json', 'omc-teams-state.json'] as const;
const BRIDGE_RE = /^(.+)\.heartbeat\.json$/;
/**
 * An entry of state/team or state/team-bridge: a directory with a name OMC takes is watched; anything else (a name
 * OMC refuses, a file) is only heard of as an entry of the area, never watched inside, so its problem line can
 * come and go with it.
 */
function areaEntryWanted(name: string | undefined, isDir: boolean | undefined): boolean {
  return name !== undefined && name !== '' && (isDir !== true || TEAM_NAME_RE.test(name));
}
const isModeFile = (name: string | undefined) => (MODE_FILES as readonly (string | undefined)[]).includes(name);

export interface TeamsDomainOptions {
  root: string;
  /** Whose parse of the session mode files (team-state.json, omc-teams-state.json) says who owns a team. */
  sessions: SessionsDomain;
  projectDir?: string | null;
  rootRule?: string;
  clock?: Clock;
  /** Overrides OMC_TEAM_HEARTBEAT_STALE_MS / the 180 s default. */
  heartbeatStaleMs?: number;
  /**
   * Whether the worker that wrote a heartbeat at `beatMs` still runs under `pid`. true: running, false: gone,
   * null: cannot tell. Injected by tests (fixture pids belong to another host).
   */
  pidAlive?: (pid: number, beatMs: number | null) => boolean | null;
  projectPollMs?: number;
  pidRecheckMs?: number;
}

/** `kill -0`: ESRCH means gone; EPERM means it exists under another user. */
export function processAlive(pid: number): boolean | null {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'EPERM' ? true : code === 'ESRCH' ? false : null;
  }
}

/**
 * A worker's pid still its own: the process under it runs and did not start after the worker's last heartbeat.
 * A worker that died leaves its pid to the next process the system starts (on a busy machine within minutes):
 * that one started after the heartbeat the worker wrote, so it is not the worker, and its team may be stalled.
 */
export function workerAlive(pid: number, beatMs: number | null): boolean | null {
  const alive = processAlive(pid);
  if (alive !== true || beatMs === null) return alive;
  return startedAfter(pid, beatMs) === true ? false : alive;
}

export class TeamsDomain implements Domain {
  readonly name = 'teams';
  readonly cell = new SnapshotCell<TeamsSnapshot>(EMPTY_TEAMS);
  readonly heartbeatStaleMs: number;
  readonly locations: readonly Loc[];
  private readonly clock: Clock;
  private readonly pidAlive: (pid: number, beatMs: number | null) => boolean | null;
  private readonly cache = new JsonCache();
  private readonly teams = new Map<string, TeamRec>();
  private readonly views = new Map<string, TeamView>();
  private readonly dirty = new Set<string>();
  private readonly locProblems = new Map<string, Problem>();
  private readonly sessions: SessionsDomain;
  /** The sessions snapshot the current views were derived from (a scan re-derives when it moved). */
  private sessionsSeen = -1;
  /**
   * The mode links as of the last publish; dropped when a mode file or a session dir
   * changes, or a scan finds sessions moved, so a heartbeat does not walk every session.
   */
  private links: ModeLink[] | null = null;
  private version = 0;
  private timers: NodeJS.Timeout[] = [];
  private readonly projectPollMs: number;
  private readonly pidRecheckMs: number;
  /** The root's misses: the store gives them the watcher's removal hold (or the second look when polling). */
  readonly misses = new ScanMisses();
  /** The project location's misses: polled here, never watched, so a miss is gone on the next poll's second look. */
  private readonly projectMisses = new ScanMisses();
  /** Removals the watcher said happened (its hold let them through): gone now, not held again. */
  private removed = new Set<string>();

  constructor(opts: TeamsDomainOptions) {
    this.clock = opts.clock ?? Date.now;
    this.sessions = opts.sessions;
    this.pidAlive = opts.pidAlive ?? workerAlive;
    this.heartbeatStaleMs = opts.heartbeatStaleMs ?? resolveHeartbeatStaleMs();
    this.projectPollMs = opts.projectPollMs ?? 1_000;
    this.pidRecheckMs = opts.pidRecheckMs ?? 5_000;
    this.projectMisses.secondLook = true;
    const locs: Loc[] = [{ id: 'root', root: opts.root, prefix: '' }];
    if (opts.rootRule === 'state-dir' && opts.projectDir) {
      const projectOmc = path.join(opts.projectDir, '.omc');
      if (path.resolve(projectOmc) !== path.resolve(opts.root))
        locs.push({ id: 'project', root: projectOmc, prefix: `${projectOmc}/` });
    }
    this.locations = locs;
  }

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;
  problems = () => this.cell.getSnapshot().problems;
  report = () => ({ teams: teamsReport(this.cell.getSnapshot(), this.clock()) });

  /** The location a team lives in, for writers (shutdown requests). */
  locationOf(key: string): Loc | null {
    return this.teams.get(key)?.loc ?? null;
  }

  wants(rel: string, isDir: boolean | undefined): boolean {
    const parts = rel.split('/');
    const dirOk = isDir !== false;
    const fileOk = isDir !== true;
    if (rel === '' || rel === 'state') return dirOk;
    if (parts[0] !== 'state') return false;
    const [, area, a, b, c, d] = parts;
    if (area === 'team') {
      if (parts.length === 2) return dirOk;
      if (parts.length === 3) return areaEntryWanted(a, isDir);
      if (!a || !TEAM_NAME_RE.test(a)) return false;
      if (parts.length === 4)
        return b === 'tasks' || b === 'workers' ? dirOk : fileOk && (b === 'events.jsonl' || TEAM_FILES.has(b ?? ''));
      if (b === 'tasks' && parts.length === 5) return fileOk && TASK_FILE_RE.test(c ?? '');
      if (b === 'workers' && c && WORKER_NAME_RE.test(c))
        return parts.length === 5 ? dirOk : parts.length === 6 && fileOk && WORKER_FILES.has(d ?? '');
      return false;
    }
    if (area === 'team-bridge') {
      if (parts.length === 2) return dirOk;
      if (parts.length === 3) return areaEntryWanted(a, isDir);
      if (!a || !TEAM_NAME_RE.test(a)) return false;
      return parts.length === 4 && fileOk && BRIDGE_RE.test(b ?? '');
    }
    if (area === 'sessions') {
      if (parts.length === 2) return dirOk;
      if (!a || !isValidSessionId(a)) return false;
      if (parts.length === 3) return dirOk;
      return parts.length === 4 && fileOk && isModeFile(b);
    }
    return parts.length === 2 && fileOk && isModeFile(area);
  }

  /**
   * Full read, stat-gated: a file whose identity, size and mtime did not move
   * is not re-read, and a team nothing changed in is not re-derived, so the
   * 1 s poll costs stats, not parses.
   */
  scan(): void {
    const problemsBefore = this.locProblemsSig();
    for (const loc of this.locations) this.scanLocation(loc, 'scan');
    if (this.sessions.getSnapshot().version !== this.sessionsSeen) {
      this.links = null;
      for (const k of this.teams.keys()) this.dirty.add(k);
    }
    this.startTimers();
    if (this.dirty.size > 0 || this.version === 0 || this.locProblemsSig() !== problemsBefore) this.publish();
  }

  private locProblemsSig(): string {
    return [...this.locProblems.keys()].join('\n');
  }

  /** What a directory listing told us about a team; a change means re-derive. */
  private listingSig(rec: TeamRec): string {
    return JSON.stringify([
      rec.hasRuntimeDir,
      [...rec.taskFiles],
      rec.workerDirs,
      rec.bridgeWorkers,
      [...rec.structural.values()].map((p) => p.message),
      rec.tail !== null,
    ]);
  }

  refresh(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    const loc = this.locations[0] as Loc;
    const rescan = new Set<string>();
    const bridgeRescan = new Set<string>();
    let modes = false;
    const problemsBefore = this.locProblemsSig();
    let relist = false;
    this.removed = new Set(events.filter((e) => e.type === 'unlink' || e.type === 'unlinkDir').map((e) => e.rel));
    for (const ev of events) {
      const parts = ev.rel.split('/');
      if (
        ev.rel === '' ||
        ev.rel === 'state' ||
        (parts.length === 2 && (parts[1] === 'team' || parts[1] === 'team-bridge')) ||
        // An entry of state/team or state/team-bridge itself appeared, went or was replaced: the area is listed
        // again, so a problem line about an entry (a name OMC refuses, a file or a symlink where a team directory
        // belongs) comes and goes with it. Listing is stat-gated below the entries: each team costs a few lstats.
        (parts.length === 3 && (parts[1] === 'team' || parts[1] === 'team-bridge'))
      ) {
        // The root, state/ or a whole team area appeared or went away (listed once, after the loop).
        relist = true;
        continue;
      }
      const [, area, name] = parts;
      if (area === 'team' && name) {
        const key = this.keyFor(loc, name);
        const rec = this.teams.get(key);
        const file = parts.slice(3).join('/');
        const known = rec && (file === 'events.jsonl' ? rec.tail !== null : this.cache.has(`${loc.id}|${ev.rel}`));
        if (ev.type === 'change' && rec && known) {
          if (file === 'events.jsonl') rec.tail?.refresh();
          else this.cache.read(`${loc.id}|${ev.rel}`, loc.root, ev.rel, edge);
          this.dirty.add(key);
        } else rescan.add(name);
      } else if (area === 'team-bridge' && name) {
        bridgeRescan.add(name);
      } else if (area === 'sessions' || (parts.length === 2 && isModeFile(area))) {
        // A mode file or a session dir changed: the sessions domain has already read it.
        modes = true;
      }
    }
    if (relist) {
      this.scanLocation(loc, edge);
      this.links = null;
      for (const k of this.teams.keys()) this.dirty.add(k);
    }
    for (const name of rescan) this.scanTeamDir(loc, name, edge);
    for (const name of bridgeRescan) this.scanBridgeDir(loc, name, edge);
    // Who owns a team can change for any team.
    if (modes) {
      this.links = null;
      for (const k of this.teams.keys()) this.dirty.add(k);
    }
    this.removed.clear();
    if (this.dirty.size > 0 || this.locProblemsSig() !== problemsBefore) this.publish();
  }

  /**
   * Of what a listing of `loc` no longer finds, what is kept as it was for now (scan-misses.ts). A removal the
   * watcher reported (of the path or a directory above it) is not held again. `within`: the part of the location
   * this listing covered.
   */
  private keptMisses(loc: Loc, missed: readonly string[], within: (rel: string) => boolean): Set<string> {
    const said = (rel: string) => {
      for (let r = rel; r !== '' && r !== '.'; r = path.posix.dirname(r)) if (this.removed.has(r)) return true;
      return false;
    };
    const asked = missed.filter((rel) => !said(rel));
    const gone = new Set((loc.id === 'root' ? this.misses : this.projectMisses).gone(asked, false, within));
    return new Set(asked.filter((rel) => !gone.has(rel)));
  }

  dispose(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private keyFor(loc: Loc, name: string): string {
    return loc.id === 'root' ? name : `project:${name}`;
  }

  private ensureTeam(loc: Loc, name: string): TeamRec {
    const key = this.keyFor(loc, name);
    let rec = this.teams.get(key);
    if (!rec) {
      rec = {
        key,
        name,
        loc,
        hasRuntimeDir: false,
        taskFiles: new Map(),
        workerDirs: [],
        bridgeWorkers: [],
        tail: null,
        structural: new Map(),
      };
      this.teams.set(key, rec);
      this.dirty.add(key);
    }
    return rec;
  }

  /** Lists `state/team` and `state/team-bridge` of one location; forgets teams that are gone. */
  private scanLocation(loc: Loc, edge: ReadEdge): void {
    const present = new Set<string>();
    for (const area of ['team', 'team-bridge'] as const) {
      const areaRel = `state/${area}`;
      for (const k of [...this.locProblems.keys()])
        if (k === `${loc.id}|${areaRel}` || k.startsWith(`${loc.id}|${areaRel}/`)) this.locProblems.delete(k);
      const list = listDirSync(loc.root, areaRel);
      if (!list.ok) {
        if (list.code !== 'missing')
          this.locProblems.set(`${loc.id}|${areaRel}`, {
            path: loc.prefix + areaRel,
            message: list.message,
            severity: 'error',
          });
        continue;
      }
      for (const e of list.entries) {
        const why = this.badEntry(e, TEAM_NAME_RE, 'team');
        if (why) {
          this.locProblems.set(`${loc.id}|${areaRel}/${e.name}`, {
            path: loc.prefix + shownPath(`${areaRel}/${e.name}`),
            message: why,
            severity: 'warning',
          });
          continue;
        }
        present.add(e.name);
        if (area === 'team') this.scanTeamDir(loc, e.name, edge);
        else this.scanBridgeDir(loc, e.name, edge);
      }
    }
    // A team's directory missed: `state/team/<name>` stands for the team (a bridge-only one too) until the miss holds.
    const missed = [...this.teams.values()]
      .filter((rec) => rec.loc === loc && !present.has(rec.name))
      .map((rec) => `state/team/${rec.name}`);
    const kept = this.keptMisses(loc, missed, (rel) => /^state\/team\/[^/]+$/.test(rel));
    for (const [key, rec] of [...this.teams]) {
      if (rec.loc === loc && !present.has(rec.name) && !kept.has(`state/team/${rec.name}`)) this.forgetTeam(key);
    }
  }

  /** Why a directory entry cannot be a team / worker dir (null when it can). */
  private badEntry(e: DirEntry, re: RegExp, what: string): string | null {
    if (!re.test(e.name)) return `directory name is not a valid OMC ${what} name; ignored`;
    if (e.kind === 'symlink')
      return `is a symlink; OMC's readers skip symlinked ${what} directories, so omc-top does too`;
    if (e.kind !== 'dir') return `a file where a ${what} directory was expected`;
    return null;
  }

  private forgetTeam(key: string): void {
    const rec = this.teams.get(key);
    if (!rec) return;
    this.cache.dropPrefix(`${rec.loc.id}|state/team/${rec.name}`);
    this.cache.dropPrefix(`${rec.loc.id}|state/team-bridge/${rec.name}`);
    this.teams.delete(key);
    this.views.delete(key);
    this.dirty.add(key);
  }

  /** (Re)reads one runtime team directory, stat-gated. */
  private scanTeamDir(loc: Loc, name: string, edge: ReadEdge): void {
    const base = `state/team/${name}`;
    const key = this.keyFor(loc, name);
    const top = listDirSync(loc.root, base);
    const within = (rel: string) => rel === base || rel.startsWith(`${base}/`);
    if (!top.ok) {
      const rec = this.teams.get(key);
      if (rec?.hasRuntimeDir && this.keptMisses(loc, [base], within).size > 0) return;
      if (rec) {
        rec.hasRuntimeDir = false;
        rec.tail = null;
        rec.taskFiles.clear();
        rec.workerDirs = [];
        this.cache.dropPrefix(`${loc.id}|${base}`);
        if (rec.bridgeWorkers.length === 0) this.forgetTeam(key);
        else this.dirty.add(key);
      }
      return;
    }
    const rec = this.ensureTeam(loc, name);
    const before = this.listingSig(rec);
    const workersBefore = rec.workerDirs;
    const tailBefore = rec.tail;
    let changed = false;
    rec.hasRuntimeDir = true;
    rec.structural.clear();
    const seen = new Set<string>();
    const readFile = (rel: string) => {
      const k = `${loc.id}|${rel}`;
      seen.add(k);
      if (this.cache.readIfChanged(k, loc.root, rel, edge)) changed = true;
    };
    const fileProblem = (rel: string, kind: DirEntry['kind']) =>
      rec.structural.set(rel, {
        path: loc.prefix + rel,
        message:
          kind === 'dir'
            ? 'is a directory where a file was expected'
            : kind === 'symlink'
              ? "is a symlink; OMC's readers refuse symlinked team files"
              : 'is not a regular file',
        severity: 'error',
      });

    let hasEvents = false;
    for (const e of top.entries) {
      const rel = `${base}/${e.name}`;
      if (TEAM_FILES.has(e.name)) {
        if (e.kind === 'file') readFile(rel);
        else fileProblem(rel, e.kind);
      } else if (e.name === 'events.jsonl') {
        if (e.kind === 'file') hasEvents = true;
        else fileProblem(rel, e.kind);
      }
    }
    if (hasEvents) {
      rec.tail ??= new EventsTail(loc.root, `${base}/events.jsonl`);
      if (rec.tail.refresh()) changed = true;
    } else rec.tail = null;

    // tasks/: canonical task-<id>.json wins over legacy <id>.json, as in OMC's list-tasks.
    rec.taskFiles = new Map();
    const tasks = listDirSync(loc.root, `${base}/tasks`);
    if (tasks.ok) {
      for (const e of tasks.entries) {
        const m = TASK_FILE_RE.exec(e.name);
        if (!m) continue;
        const rel = `${base}/tasks/${e.name}`;
        if (e.kind !== 'file') {
          fileProblem(rel, e.kind);
          continue;
        }
        const id = m[2] as string;
        const canonical = m[1] !== undefined;
        if (!rec.taskFiles.has(id) || canonical) rec.taskFiles.set(id, e.name);
      }
      for (const fileName of rec.taskFiles.values()) readFile(`${base}/tasks/${fileName}`);
    } else if (tasks.code !== 'missing')
      rec.structural.set(`${base}/tasks`, {
        path: loc.prefix + `${base}/tasks`,
        message: tasks.message,
        severity: 'error',
      });

    rec.workerDirs = [];
    const workers = listDirSync(loc.root, `${base}/workers`);
    if (workers.ok) {
      for (const e of workers.entries) {
        const why = this.badEntry(e, WORKER_NAME_RE, 'worker');
        if (why) {
          rec.structural.set(`${base}/workers/${e.name}`, {
            path: loc.prefix + shownPath(`${base}/workers/${e.name}`),
            message: why,
            severity: 'warning',
          });
          continue;
        }
        rec.workerDirs.push(e.name);
        const wl = listDirSync(loc.root, `${base}/workers/${e.name}`);
        if (!wl.ok) continue;
        for (const f of wl.entries) {
          if (!WORKER_FILES.has(f.name)) continue;
          if (f.kind === 'file') readFile(`${base}/workers/${e.name}/${f.name}`);
          else fileProblem(`${base}/workers/${e.name}/${f.name}`, f.kind);
        }
      }
    } else if (workers.code !== 'missing')
      rec.structural.set(`${base}/workers`, {
        path: loc.prefix + `${base}/workers`,
        message: workers.message,
        severity: 'error',
      });

    // What this listing no longer finds waits until the miss holds (a task rewritten by rename is not a task gone).
    const unseen = [...this.cache.keys()].filter((k) => k.startsWith(`${loc.id}|${base}/`) && !seen.has(k));
    const missed = [
      ...unseen.map((k) => k.slice(loc.id.length + 1)),
      ...workersBefore.filter((w) => !rec.workerDirs.includes(w)).map((w) => `${base}/workers/${w}`),
      ...(tailBefore && !hasEvents ? [`${base}/events.jsonl`] : []),
    ];
    const kept = this.keptMisses(loc, missed, within);
    for (const k of unseen) if (!kept.has(k.slice(loc.id.length + 1)) && this.cache.drop(k)) changed = true;
    for (const rel of kept) {
      const m = rel.startsWith(`${base}/tasks/`) ? TASK_FILE_RE.exec(path.posix.basename(rel)) : null;
      if (m && (!rec.taskFiles.has(m[2] as string) || m[1] !== undefined))
        rec.taskFiles.set(m[2] as string, path.posix.basename(rel));
      const w = rel.startsWith(`${base}/workers/`) ? rel.split('/')[4] : undefined;
      if (w && !rec.workerDirs.includes(w)) rec.workerDirs.push(w);
      if (rel === `${base}/events.jsonl`) rec.tail = tailBefore;
    }
    rec.workerDirs.sort(compareWorkerNames);
    if (changed || this.listingSig(rec) !== before) this.dirty.add(key);
  }

  /** Legacy MCP bridge heartbeats: state/team-bridge/<team>/<worker>.heartbeat.json. */
  private scanBridgeDir(loc: Loc, name: string, edge: ReadEdge): void {
    const base = `state/team-bridge/${name}`;
    const key = this.keyFor(loc, name);
    const list = listDirSync(loc.root, base);
    const names: string[] = [];
    const seen = new Set<string>();
    let changed = false;
    for (const k of [...this.locProblems.keys()]) if (k.startsWith(`${loc.id}|${base}/`)) this.locProblems.delete(k);
    if (list.ok) {
      for (const e of list.entries) {
        const m = BRIDGE_RE.exec(e.name);
        if (!m || !WORKER_NAME_RE.test(m[1] as string)) continue;
        if (e.kind === 'dir') {
          // Said, not skipped: the worker would otherwise vanish from the board without a word.
          this.locProblems.set(`${loc.id}|${base}/${e.name}`, {
            path: `${loc.prefix}${base}/${e.name}`,
            message: 'is a directory where a heartbeat file was expected',
            severity: 'error',
          });
          continue;
        }
        // A symlink or pipe is read like a file: fsx refuses what leaves the root or is not a regular file, with the reason.
        names.push(m[1] as string);
        const k = `${loc.id}|${base}/${e.name}`;
        seen.add(k);
        if (this.cache.readIfChanged(k, loc.root, `${base}/${e.name}`, edge)) changed = true;
      }
    }
    const unseen = [...this.cache.keys()].filter((k) => k.startsWith(`${loc.id}|${base}/`) && !seen.has(k));
    const kept = this.keptMisses(
      loc,
      unseen.map((k) => k.slice(loc.id.length + 1)),
      (rel) => rel.startsWith(`${base}/`),
    );
    for (const k of unseen) {
      const rel = k.slice(loc.id.length + 1);
      if (!kept.has(rel)) {
        if (this.cache.drop(k)) changed = true;
      } else names.push(BRIDGE_RE.exec(path.posix.basename(rel))?.[1] as string);
    }
    const rec = names.length > 0 ? this.ensureTeam(loc, name) : this.teams.get(key);
    if (!rec) return;
    names.sort(compareWorkerNames);
    if (names.join('/') !== rec.bridgeWorkers.join('/')) changed = true;
    rec.bridgeWorkers = names;
    if (!rec.hasRuntimeDir && names.length === 0) this.forgetTeam(key);
    else if (changed) this.dirty.add(key);
  }

  /**
   * Every session team / omc-teams mode state, as links (owner = its session
   * dir, or its session_id when legacy). Mode state lives under the root in
   * every release (it follows OMC_STATE_DIR), which is what sessions reads.
   */
  private allModeLinks(): ModeLink[] {
    const out: ModeLink[] = [];
    for (const file of MODE_FILES) {
      for (const { rel, value: s, mtimeMs } of this.sessions.parsedFiles(file)) {
        const parts = rel.split('/');
        const sid = parts.length === 4 ? (parts[2] as string) : typeof s.session_id === 'string' ? s.session_id : null;
        if (!sid) continue;
        const meta = s._meta && typeof s._meta === 'object' ? (s._meta as Record<string, unknown>) : null;
        out.push({
          sessionId: sid,
          file,
          path: rel,
          state: s,
          active: s.active === true,
          updatedMs: timeMs(s.updated_at) ?? timeMs(meta?.updatedAt) ?? (mtimeMs >= 0 ? mtimeMs : 0),
        });
      }
    }
    return out;
  }

  private startTimers(): void {
    if (this.timers.length > 0) return;
    const project = this.locations.find((l) => l.id === 'project');
    if (project) {
      const t = setInterval(() => {
        this.scanLocation(project, 'scan');
        if (this.dirty.size > 0) this.publish();
      }, this.projectPollMs);
      t.unref();
      this.timers.push(t);
    }
    // A worker process can die without any file changing: re-check pids now and then.
    const p = setInterval(() => this.recheckPids(), this.pidRecheckMs);
    p.unref();
    this.timers.push(p);
  }

  private recheckPids(): void {
    const now = this.clock();
    for (const v of this.views.values()) {
      // Heartbeats age without any file changing: a team can become stalled on its own.
      if (isStalled(v, now, this.heartbeatStaleMs) !== v.stalled) {
        this.dirty.add(v.key);
        continue;
      }
      for (const w of v.workers) {
        const pid = w.heartbeat?.pid;
        if (!pid || !w.heartbeat?.reportedAlive) continue;
        if (this.pidAlive(pid, w.heartbeat.lastBeatMs) !== w.pidAlive) {
          this.dirty.add(v.key);
          break;
        }
      }
    }
    if (this.dirty.size > 0) this.publish();
  }

  private publish(): void {
    const now = this.clock();
    const sessions = this.sessions.getSnapshot();
    this.sessionsSeen = sessions.version;
    const links = this.dirty.size > 0 ? (this.links ??= this.allModeLinks()) : [];
    let sessionIds: Set<string> | null = null;
    // A 4.x manifest owner is accepted only for a session dir that exists.
    const sessionExists = (id: string) =>
      (sessionIds ??= new Set(sessions.sessions.filter((v) => v.kind === 'session').map((v) => v.id))).has(id);
    for (const key of this.dirty) {
      const rec = this.teams.get(key);
      if (!rec) {
        this.views.delete(key);
        continue;
      }
      const loc = rec.loc;
      this.views.set(
        key,
        deriveTeam({
          key,
          name: rec.name,
          location: loc.id,
          pathPrefix: loc.prefix,
          file: (rel) => this.cache.get(`${loc.id}|${rel}`),
          hasRuntimeDir: rec.hasRuntimeDir,
          taskFiles: rec.taskFiles,
          workerDirs: rec.workerDirs,
          bridgeWorkers: rec.bridgeWorkers,
          tail: rec.tail,
          structural: [...rec.structural.values()],
          // Mode state lives under the root in every release, whichever location the runtime is in.
          modeLinks: links.filter((l) => teamNameOf(l.state) === rec.name),
          modeOfSession: (sid) => links.filter((l) => l.sessionId === sid),
          sessionExists,
          pidAlive: this.pidAlive,
          now,
          heartbeatStaleMs: this.heartbeatStaleMs,
        }),
      );
    }
    this.dirty.clear();
    const teams = [...this.views.values()].sort(compareTeams);
    const problems: Problem[] = [...this.locProblems.values()];
    for (const t of teams) problems.push(...t.problems.filter((p) => p.severity !== 'info'));
    const unreadableDirs = [...this.locProblems].filter(([k]) => AREA_KEY.test(k)).map(([, p]) => p.path);
    this.version += 1;
    this.cell.set({
      version: this.version,
      teams,
      problems,
      derivedAt: now,
      heartbeatStaleMs: this.heartbeatStaleMs,
      ...(unreadableDirs.length > 0 ? { unreadableDirs } : {}),
    });
  }
}

const BOARD_RANK = { running: 0, blocked: 1, waiting: 2, done: 3 } as const;

/**
 * Stalled teams first (they need a person), then running, blocked, waiting, done; newest team
 * first; then by key. Creation time, not last activity, so rows do not swap on every heartbeat.
 */
export function compareTeams(a: TeamView, b: TeamView): number {
  const rank = (t: TeamView) => (t.stalled ? -1 : BOARD_RANK[t.board]);
  const r = rank(a) - rank(b);
  if (r !== 0) return r;
  const ac = a.createdMs ?? -Infinity;
  const bc = b.createdMs ?? -Infinity;
  if (ac !== bc) return bc - ac;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
