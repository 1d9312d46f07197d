/**
 * The sessions slice of .omc: every `state/sessions/<id>/` directory, the
 * session-less ("legacy") state in `state/` and the .omc root, and the
 * ended-session markers in `sessions/`. Keeps the last good parse of every
 * file, turns bad files into problem lines, and derives immutable
 * SessionsSnapshot values for the UI.
 */
import path from 'node:path';
import { shownPath } from '../../io/shown-path.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import {
  alongsideWords,
  makeOmcInstall,
  missingPluginDirWords,
  type OmcInstall,
  type RulesVersion,
} from '../omc-install.js';
import { GLOBAL_PREFIX, GOALS_REL, type StopFacts } from '../verdict/index.js';
import { VerdictBook, type GlobalRead } from './verdicts.js';
import { listDirSync, notReadHere, readTextSync, statSync, type ReadFailureCode } from '../../io/safe-fs/index.js';
import type { Clock, Domain, Problem, WatchEvent } from '../types.js';
import { compareSessions, deriveSession, loopCountOf, omcSeenOf, sessionCountOf } from './derive.js';
import { FileRecords } from './file-records.js';
import { DueHeap } from './due-heap.js';
import { PATCH_MAX, replaceSorted } from './sorted-views.js';
import { EMPTY_SESSIONS, signalUntilMs, type SessionView, type SessionsSnapshot } from './model.js';
import { MODE_ORDER, SIGNAL_FILE, isValidSessionId } from './omc-rules.js';
import { ENDED_RE, LEGACY, MAX_FILES_PER_SESSION, STRUCTURAL, entryRank, isTrackedFile, keyOf } from './paths.js';
import { SlicedScan } from '../../io/sliced-scan.js';
import type { HardMaxConfig, HookProcess } from '../hard-max.js';
import type { StopHookSwitch } from '../stop-hook-switch.js';
import { rootAbsence } from '../../io/watch/root-presence.js';
import { rootAbsentWords } from '../../io/watch/tree-watcher.js';
import { ScanMisses } from '../scan-misses.js';

/** One state file's parse with the mtime of the bytes behind it. */
type ParsedCopy = { rel: string; value: Record<string, unknown>; mtimeMs: number };

export { compareSessions } from './derive.js';

/** A view's key in `views` (and the snapshot's `keys`): its directory name, LEGACY for the session-less row. */
const keyOfView = (v: SessionView): string => (v.kind === 'legacy' ? LEGACY : v.id);

/**
 * During the sliced first read, the snapshot is published at most once per this much of the process's own CPU time
 * (see scanStep). CPU time, not wall time: on a loaded machine the read's slices take longer on the wall clock, and a
 * wall-clock cadence made it publish (a frame, a verdict pass, a round of subscribers) two to four times as often
 * for the same read, so the pictures took a growing share of it.
 */
const STEP_PUBLISH_MS = 200;

/** This process's CPU time (ms, every thread): what the sliced read's publish cadence counts. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/**
 * The first step of the sliced read lists at least this many session directories whatever its deadline: its rows
 * are the first frame, and a first frame without a screenful of them (a short first slice on a loaded machine)
 * waited for the next publish, STEP_PUBLISH_MS later. 64 rows fill a 200x60 terminal; they cost a few ms.
 */
const FIRST_STEP_MIN_ROWS = 64;

/**
 * The first step's rows for a terminal of `terminalRows` lines: a screenful (at most FIRST_STEP_MIN_ROWS). Every
 * directory it reads delays the first frame (~0.2 ms each at start-up), and an 80x24 terminal shows fewer than 24
 * rows; the rest come with the next slices.
 */
export function firstStepRows(terminalRows: number | undefined): number {
  if (terminalRows === undefined || !Number.isFinite(terminalRows) || terminalRows < 1) return FIRST_STEP_MIN_ROWS;
  return Math.min(FIRST_STEP_MIN_ROWS, Math.ceil(terminalRows));
}

const SESSIONS_DIR = 'state/sessions';
/** The directory of the plan the Stop hook's ultragoal check reads (GOALS_REL): made and removed with it. */
const GOALS_DIR = 'ultragoal';
/** The root itself where a path relative to it is shown (a problem line, an unreadable directory): as the UI names it. */
const ROOT_NAME = '.omc';

/** See SessionsDomain.noted: ralph's PRD (PrdDomain), OMC 5.6's feedback baseline (Omc56Presence). */
const NOTED_FILES = ['prd.json', 'feedback-baseline.json'];

export interface SessionsDomainOptions {
  root: string;
  clock?: Clock;
  /** Which OMC runs this project's hooks (detectOmcInstall): its rules decide the statuses. */
  omc?: OmcInstall;
  /** Shorthand for tests: an install of exactly this version. */
  rules?: RulesVersion;
  /** The user's home: OMC's hooks fall back to `~/.omc/state` copies a session owns (null: not read). */
  home?: string | null;
  /** flock is installed (4.15's cancel-signal check needs it); default: looked up once. */
  flock?: boolean;
  /** OMC's hard max for ralph as its hooks find it (store/hard-max.ts); absent: none. */
  hardMax?: HardMaxConfig | null;
  /** DISABLE_OMC / OMC_SKIP_HOOKS as the hooks get them (store/stop-hook-switch.ts); absent: never set. */
  stopSwitch?: StopHookSwitch | null;
  /** Where the hooks run when a session does not say (its session-started.json cwd). */
  projectDir?: string | null;
  /** During the sliced first read, publish at most once per this much CPU time (ms; tests pass 0 to see every step). */
  stepPublishMs?: number;
  /** The first step's floor of session directories (FIRST_STEP_MIN_ROWS; tests pass 0 to step one at a time). */
  firstStepMinRows?: number;
}

export class SessionsDomain implements Domain {
  readonly name = 'sessions';
  readonly cell = new SnapshotCell<SessionsSnapshot>(EMPTY_SESSIONS);
  private readonly root: string;
  private readonly clock: Clock;
  private readonly recs: FileRecords;
  /**
   * Which OMC runs the project's hooks: found at start, and again when what decides it changes (a plugin update
   * rewrites installed_plugins.json: setProjectInstall). A session's own Claude process may say otherwise: installOf.
   */
  private project: OmcInstall;
  private readonly projectDir: string;
  private readonly home: string | null;
  private readonly flock: boolean;
  private readonly hardMax: HardMaxConfig | null;
  private readonly stopSwitch: StopHookSwitch | null;
  /** Installs found for single sessions (their Claude process's --plugin-dir), by session id. */
  private sessionInstalls = new Map<string, OmcInstall>();
  /** What each session's transcript says of its next Stop payload. */
  private stopFacts = new Map<string, StopFacts>();
  /** Structural problems (bad directory names, files where dirs belong) keyed by path. */
  private structural = new Map<string, Problem>();
  /**
   * `~/.omc` files a verdict consulted that omc-top could not read (permission, I/O), as the problem line each is,
   * by `~/.omc/<rel>`: as of the last publish that read it (the hooks' global fallback is not watched).
   */
  private readonly globalUnread = new Map<string, Problem>();
  /**
   * Session directories omc-top may not list (permission denied, an I/O error), by name, with why: each is still a
   * row, `unreadable` (its loops are unknown, not absent), and counted.
   */
  private readonly unlisted = new Map<string, string>();
  /** `state` and `state/sessions` when omc-top may not list them (SessionsSnapshot.unreadableDirs), from the last scan. */
  private unlistedDirs: readonly string[] = [];
  /**
   * The outermost directory above the sessions the last scan could not list (permission, I/O), why, and which
   * session keys it holds (every one, or all but the session-less row for `state/sessions`), else null. What was
   * seen under it is kept, unreadable (deriveSession's `above`), not dropped for being out of sight.
   */
  private unreached: { dir: string; why: string; prefix: string; legacy: boolean; away?: boolean } | null = null;
  private views = new Map<string, SessionView>();
  /** Names this domain's snapshots (SessionsSnapshot.lineage). */
  private readonly lineage = {};
  /** The last published order (compareSessions), kept so a change re-places only what changed. */
  private sorted: SessionView[] = [];
  /** Each sorted view's key, in the same order (the snapshot's `keys`). */
  private sortedKeys: readonly string[] = [];
  private cancelling = 0;
  /** Sessions whose view carries problem lines: usually none, so collecting them costs nothing. */
  private withProblems = new Set<string>();
  private readonly due = new DueHeap((key) => this.views.get(key));
  private counts = { running: 0, stale: 0, loops: 0, unreadable: 0, above: 0 };
  private dirty = new Set<string>();
  private version = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(opts: SessionsDomainOptions) {
    this.root = opts.root;
    this.clock = opts.clock ?? Date.now;
    this.project = opts.omc ?? (opts.rules ? makeOmcInstall(opts.rules, 'test') : makeOmcInstall(null, 'not given'));
    this.installProblems = refusalProblems(this.project);
    this.projectDir = opts.projectDir ?? path.dirname(this.root);
    this.home = opts.home ?? null;
    this.flock = opts.flock ?? flockInstalled();
    this.hardMax = opts.hardMax ?? null;
    this.stopSwitch = opts.stopSwitch ?? null;
    this.stepPublishMs = opts.stepPublishMs ?? STEP_PUBLISH_MS;
    this.firstStepMinRows = opts.firstStepMinRows ?? FIRST_STEP_MIN_ROWS;
    this.recs = new FileRecords(
      this.root,
      (key) => this.dirty.add(key),
      () => {
        for (const key of this.views.keys()) this.dirty.add(key);
      },
      (key) => {
        const dirRel = `state/sessions/${key}`;
        const capKey = `${dirRel}/*`;
        if (this.structural.has(capKey)) return false;
        this.structural.set(capKey, {
          path: dirRel,
          message: `more than ${MAX_FILES_PER_SESSION} state files in one session directory (OMC writes one per mode); the rest are not read`,
          severity: 'warning',
        });
        return true;
      },
    );
  }

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;
  problems = () => this.cell.getSnapshot().problems;

  /** The OMC that runs the project's hooks, as last found. */
  get omc(): OmcInstall {
    return this.project;
  }

  /** Its rules (the project's; a session's own Claude process may say otherwise: installOf). */
  get rules(): RulesVersion {
    return this.project.rules;
  }

  /** The files that decide the version and were refused, as problem lines (OmcInstall.refused). */
  private installProblems: readonly Problem[];

  /**
   * Another OMC runs the project's hooks now (or the same, found or refused otherwise): every session is judged
   * again by its book, in one publish.
   */
  setProjectInstall(next: OmcInstall): void {
    this.project = next;
    this.installProblems = refusalProblems(next);
    this.omcSeenCache = null;
    for (const key of this.views.keys()) this.dirty.add(key);
    this.publish();
  }

  /** The OMC a session's hooks run: its own Claude process's, else the project's. */
  installOf = (sid: string): OmcInstall => this.sessionInstalls.get(sid) ?? this.omc;

  /**
   * What the Claude side found per session (the OMC of its process's --plugin-dir): the sessions whose
   * install changed are judged again. `publish` false: at the next publish (the project's install set with it).
   * `orDirty`: publish too when nothing changed here but sessions are waiting to be judged again.
   */
  setSessionInstalls(found: ReadonlyMap<string, OmcInstall>, publish = true, orDirty = false): void {
    const key = (i: OmcInstall | undefined) => (i ? `${i.version}\u0000${i.source}` : '');
    const changed = new Set<string>();
    for (const [sid, i] of found) if (key(this.sessionInstalls.get(sid)) !== key(i)) changed.add(sid);
    for (const sid of this.sessionInstalls.keys()) if (!found.has(sid)) changed.add(sid);
    if (changed.size === 0) {
      // `orDirty`: sessions marked by a change handed over just before (setSessionProcesses) publish now.
      if (publish && orDirty && this.dirty.size > 0) this.publish();
      return;
    }
    this.sessionInstalls = new Map(found);
    this.omcSeenCache = null;
    for (const sid of changed) this.dirty.add(sid);
    if (publish) this.publish();
  }

  /** The live Claude process joined to each session (the Claude side's), whose hooks' environment its verdict uses. */
  private sessionProcesses: ReadonlyMap<string, HookProcess> = new Map();

  /**
   * The live Claude process of each session as the Claude side joined them (a session absent: none runs): the
   * sessions whose process changed are judged again (OMC's hard max reads OMC_SECURITY from its environment).
   * `publish` false: at the next publish.
   */
  setSessionProcesses(found: ReadonlyMap<string, HookProcess>, publish = true): void {
    const key = (p: HookProcess | undefined) => (p ? `${String(p.pid)}:${p.procStart ?? ''}` : '');
    const changed = new Set<string>();
    for (const [sid, p] of found) if (key(this.sessionProcesses.get(sid)) !== key(p)) changed.add(sid);
    for (const sid of this.sessionProcesses.keys()) if (!found.has(sid)) changed.add(sid);
    if (changed.size === 0) return;
    this.sessionProcesses = new Map(found);
    let any = false;
    for (const sid of changed)
      if (this.views.has(sid)) {
        this.dirty.add(sid);
        any = true;
      }
    if (publish && any) this.publish();
  }

  /** What each session's transcript says of its next Stop (stop_hook_active…): changed sessions are judged again. */
  setStopFacts(facts: ReadonlyMap<string, StopFacts>): void {
    const key = (f: StopFacts | undefined) => (f ? `${f.stopHookActive ?? ''}\u0000${f.transcriptPercent ?? ''}` : '');
    const changed = new Set<string>();
    for (const [sid, f] of facts) if (key(this.stopFacts.get(sid)) !== key(f)) changed.add(sid);
    for (const sid of this.stopFacts.keys()) if (!facts.has(sid)) changed.add(sid);
    if (changed.size === 0) return;
    this.stopFacts = new Map(facts);
    for (const sid of changed) if (this.views.has(sid)) this.dirty.add(sid);
    if (this.dirty.size > 0) this.publish();
  }

  private omcSeenCache: SessionsSnapshot['omcSeen'] | null = null;
  private omcSeen(): SessionsSnapshot['omcSeen'] {
    return (this.omcSeenCache ??= this.omcSeenIn(this.sessionInstalls));
  }

  /**
   * The OMCs that judge a session shown here, of `installs` (per session id). A Claude that ran with its own
   * `--plugin-dir` and left no OMC state judges nothing: the header does not name its release (it would say
   * "per session" for a release no row is judged by, for as long as its flags are remembered).
   */
  omcSeenIn(installs: ReadonlyMap<string, OmcInstall>): NonNullable<SessionsSnapshot['omcSeen']> {
    const judging: OmcInstall[] = [];
    installs.forEach((i, sid) => {
      if (this.views.has(sid)) judging.push(i);
    });
    return omcSeenOf(judging);
  }

  /** Every copy of one state file name (in `state/` and each session directory), as `pick` takes it. */
  private copiesOf(file: string, pick: (rel: string) => ParsedCopy | null): ParsedCopy[] {
    const out: ParsedCopy[] = [];
    this.recs.byKey.forEach((_, key) => {
      const f = pick(key === LEGACY ? `state/${file}` : `state/sessions/${key}/${file}`);
      if (f) out.push(f);
    });
    return out;
  }

  /**
   * The last good parse of one state file name in `state/` and in every
   * session directory, for the teams domain: it reads team-state.json and
   * omc-teams-state.json here instead of reading them a second time.
   */
  parsedFiles(file: string): ParsedCopy[] {
    return this.copiesOf(file, (rel) => {
      const rec = this.recs.files.get(rel);
      return rec?.value !== undefined
        ? { rel, value: rec.value as Record<string, unknown>, mtimeMs: rec.valueMtimeMs }
        : null;
    });
  }

  /**
   * Each copy of one state file name as OMC's stale-run watchdog reads it now (`JSON.parse` of the current bytes,
   * an object, with their mtime), for the stale-run facts. Unlike `parsedFiles`, a file whose current bytes do
   * not parse (binary, over the size cap, cut mid-write) is left out: the watchdog finds nothing in it, and the
   * last good value's mtime is not the current file's.
   */
  watchdogFiles(file: string): ParsedCopy[] {
    return this.copiesOf(file, (rel) => this.watchdogFile(rel));
  }

  /** One state file as the watchdog reads it now (null: missing, unread, or not a JSON object now). */
  watchdogFile(rel: string): ParsedCopy | null {
    const rec = this.recs.files.get(rel);
    const hook = rec?.hook;
    if (!rec || !hook || typeof hook !== 'object' || Array.isArray(hook) || rec.mtimeMs < 0) return null;
    return { rel, value: hook as Record<string, unknown>, mtimeMs: rec.mtimeMs };
  }

  /** Which files' parse changed since `seq` (null: too long ago, look at everything), and the new position. */
  parsedChangesSince(seq: number): { seq: number; rels: readonly string[] | null } {
    return { seq: this.recs.changeSeq, rels: this.recs.changedSince(seq) };
  }

  /**
   * Session directories, and `state/sessions` itself: a plain fs.watch names every entry that appears or goes
   * (the domain re-checks it), so chokidar need not walk 10,000 entries of it at start-up.
   */
  isLeafDir(rel: string): boolean {
    if (rel === SESSIONS_DIR) return true;
    const parts = rel.split('/');
    return (
      parts.length === 3 && parts[0] === 'state' && parts[1] === 'sessions' && isValidSessionId(parts[2] as string)
    );
  }

  holdsLeaves(rel: string): boolean {
    return rel === SESSIONS_DIR;
  }

  wants(rel: string, isDir: boolean | undefined): boolean {
    // The skeleton: events about these (even "it became a file") mean rescan.
    if (STRUCTURAL.has(rel)) return true;
    // The plan the Stop hook's ultragoal check reads, and the directory it appears and goes with.
    if (rel === GOALS_REL || (rel === GOALS_DIR && isDir !== false)) return true;
    const parts = rel.split('/');
    if (parts.length === 3 && parts[0] === 'state' && parts[1] === 'sessions') {
      // Only real session directories get a watch; but any entry appearing or
      // vanishing here (a stray file, a hostile name) is re-checked.
      return isDir === true ? isValidSessionId(parts[2] as string) : true;
    }
    const k = keyOf(rel);
    if (!k || isDir === true) return false;
    if (k.scope === 'session' && !isValidSessionId(k.key)) return false;
    // A noted file appearing or going keeps `noted` true to the disk between listings (one lstat, no read).
    if (k.scope === 'session' && this.noted.has(k.file)) return true;
    return isTrackedFile(k.scope, k.file);
  }

  /**
   * Files other domains look for in session directories (ralph's prd.json), noted from the listings this
   * domain makes anyway: file → names of the session directories whose last listing had it.
   */
  private readonly noted = new Map<string, Set<string>>(NOTED_FILES.map((f) => [f, new Set<string>()]));

  /** A noted file in one session directory was named by an event: is it there now (an lstat, as a listing would say). */
  private noteFile(name: string, file: string): void {
    const names = this.noted.get(file);
    if (!names) return;
    const st = statSync(this.root, `state/sessions/${name}/${file}`);
    if (st && !st.isDirectory()) names.add(name);
    else names.delete(name);
  }

  /** The session directories whose last listing (or a later event) had `file` (one of NOTED_FILES). */
  sessionDirsWith(file: string): Iterable<string> {
    return this.noted.get(file) ?? [];
  }

  /**
   * While the root is away (moved, removed, a file in its place): the watch status's words for it, which each
   * session kept meanwhile gives as why it cannot be read (set by the store before the rescan that follows).
   */
  rootAwayWords: string | null = null;

  /**
   * Set by the store for the progressive start: watch a session directory (a leaf of the tree watcher) just
   * before it is listed, so a change after its listing is always an event.
   */
  watchLeaves: ((rel: string) => boolean) | null = null;

  /** OMC's hard max looked at again (its config files, OMC_SECURITY): every session judged again when it moved. */
  /** ultragoal/goals.json as the Stop hook reads it (its ultragoal terminal check), and its words for comparing. */
  private goalsPlan: { read: GlobalRead; key: string } | null = null;

  /**
   * Reads ultragoal/goals.json again: when what the hook sees in it changed, every session is judged again (the
   * plan is the project's, not a session's). True when it changed.
   */
  private lookAtGoals(): boolean {
    const read = hookView(this.root, GOALS_REL);
    const key = read.unreadable ?? JSON.stringify(read.value);
    if (this.goalsPlan?.key === key) return false;
    const first = this.goalsPlan === null;
    this.goalsPlan = { read, key };
    if (first) return false;
    for (const k of this.views.keys()) this.dirty.add(k);
    return true;
  }

  /** DISABLE_OMC / OMC_SKIP_HOOKS looked at again: every session judged again when the switch moved (any process's). */
  lookAtStopSwitch(): void {
    if (!this.stopSwitch?.refresh()) return;
    for (const key of this.views.keys()) this.dirty.add(key);
    this.publish();
  }

  lookAtHardMax(): void {
    if (!this.hardMax?.refresh()) return;
    for (const key of this.views.keys()) this.dirty.add(key);
    this.publish();
  }

  scan(): void {
    this.lookAtGoals();
    // A full read reads the hard max's files again too (they live outside the watched root).
    if (this.hardMax?.refresh()) for (const key of this.views.keys()) this.dirty.add(key);
    // A full scan while the sliced first read is under way (a skeleton event, the root replaced) finishes
    // that read first, so its end does not forget what this scan finds.
    this.scans.full();
  }

  /**
   * The first scan in slices: read session directories until `deadline`
   * (performance.now()), publish what is known so far, and return false while
   * there is more. 2,000 sessions are 4,000 files; the first frame shows the
   * first few hundred and says "scanning n/N" instead of waiting for all.
   */
  scanStep(deadline: number): boolean {
    if (this.firstReadDone) return true;
    const floor = this.lastStepPublish === null ? this.firstStepMinRows : 0;
    if (this.scans.step(deadline, () => (this.progress?.done ?? 0) < floor)) {
      this.firstReadDone = true;
      return true;
    }
    // The first step's rows are the first frame; after that, one picture every so often is enough for
    // "reading n/N" (each publish is a frame, a verdict pass and a round of subscribers). A change seen by
    // the watcher meanwhile is published at once by refresh().
    const t = cpuMs();
    if (this.lastStepPublish === null || t - this.lastStepPublish >= this.stepPublishMs) {
      this.lastStepPublish = t;
      this.publish();
    }
    return false;
  }

  private lastStepPublish: number | null = null;
  private readonly stepPublishMs: number;
  private readonly firstStepMinRows: number;

  /** Whole scans, and the sliced first read (only it shows "reading n/N"). */
  private readonly scans = new SlicedScan((sliced) => this.scanIter(sliced));
  private firstReadDone = false;
  /**
   * The pass under way: files read (by it, or by events while it runs: they count as seen, so its end does
   * not drop them) and session directories already listed (by an event first: the pass does not list them
   * again).
   */
  private pass: { seen: Set<string>; dirs: Set<string> } | null = null;
  private progress: { done: number; total: number } | null = null;

  /** @param reportProgress only the sliced first scan shows "reading n/N". */
  private *scanIter(reportProgress = false): Generator<void, void> {
    const pass = { seen: new Set<string>(), dirs: new Set<string>() };
    this.pass = pass;
    const seen = pass.seen;
    const structuralBefore = this.structuralSignature();
    this.structural.clear();
    const readFile = (rel: string) => {
      seen.add(rel);
      this.recs.readIfChanged(rel);
    };

    // A tracked name that is not a plain file (a symlink, a pipe) is still read: fsx refuses it
    // with a reason. Skipping it would hide a cancel signal or a loop without a word.
    const entry = (rel: string, kind: string) => {
      if (kind === 'dir')
        this.structural.set(rel, {
          path: rel,
          message: 'is a directory where a state file was expected',
          severity: 'error',
        });
      else readFile(rel);
    };
    const unlistedDirs: string[] = [];
    const found: { unreached: SessionsDomain['unreached'] } = { unreached: null };
    /** A directory omc-top is refused (not one missing or broken): the outermost one stands for what is under it. */
    const refused = (dir: string, rel: string, list: { code: ReadFailureCode; message: string }): boolean => {
      if (!notReadHere(list.code)) return false;
      if (found.unreached === null) {
        found.unreached = { dir, why: list.message, prefix: rel === '' ? '' : `${rel}/`, legacy: rel !== SESSIONS_DIR };
        unlistedDirs.push(dir);
        this.structural.set(dir, { path: dir, message: list.message, severity: 'error' });
      }
      return true;
    };
    const top = listDirSync(this.root, '');
    // The root itself gone (moved away, removed) or a file in its place: the sessions seen under it went out of
    // sight with it, which is not OMC ending them. They are kept as last seen, each unreadable with `.omc` first
    // (as under a root omc-top may not read), until the root is back and says what is there; nothing under it is
    // listed or read meanwhile (there is nothing to read).
    const away = !top.ok && (top.code === 'missing' || top.code === 'not-a-file');
    if (away) found.unreached = { dir: ROOT_NAME, why: this.awayWhy(), prefix: '', legacy: true, away };
    else if (top.ok) {
      for (const e of top.entries) if (isTrackedFile('root', e.name)) entry(e.name, e.kind);
    } else refused(ROOT_NAME, '', top);
    const state = away ? null : listDirSync(this.root, 'state');
    if (state === null) {
      // away: see above
    } else if (state.ok) {
      for (const e of state.entries) if (isTrackedFile('state', e.name)) entry(`state/${e.name}`, e.kind);
    } else if (state.code !== 'missing' && !refused('state', 'state', state)) {
      this.structural.set('state', { path: 'state', message: state.message, severity: 'error' });
    }
    // Watched before it is listed, like each session directory: a session created after this listing is an event.
    if (!away) this.watchLeaves?.(SESSIONS_DIR);
    const sessions = away ? null : listDirSync(this.root, SESSIONS_DIR);
    if (sessions === null) {
      // away
    } else if (sessions.ok) {
      const total = sessions.entries.length;
      let done = 0;
      for (let i = 0; i < total; i++) {
        const e = sessions.entries[i]!;
        if (!pass.dirs.has(e.name)) this.scanSessionEntry(e.name, e.kind, readFile, e.shownName);
        done += 1;
        if (reportProgress) {
          this.progress = { done, total };
          yield;
        }
      }
    } else if (sessions.code !== 'missing' && !refused(SESSIONS_DIR, SESSIONS_DIR, sessions)) {
      // Refused here, but OMC's hooks (its owner) list it: its sessions are unknown, never "no loops" (refused).
      this.structural.set('state/sessions', { path: 'state/sessions', message: sessions.message, severity: 'error' });
    }
    const dirsChanged = unlistedDirs.join('\u0000') !== this.unlistedDirs.join('\u0000');
    if (dirsChanged) this.unlistedDirs = unlistedDirs;
    const wasUnreached = this.unreached;
    const unreached = found.unreached;
    this.unreached = unreached;
    const hidden = (rel: string): boolean => unreached !== null && rel.startsWith(unreached.prefix);
    // A directory that could not be listed and is no longer there (or no longer listed at all) is no row; one
    // out of sight under a refused directory keeps its row.
    for (const name of [...this.unlisted.keys()]) {
      if (pass.dirs.has(name) || hidden(`${SESSIONS_DIR}/${name}`)) continue;
      this.unlisted.delete(name);
      this.dirty.add(name);
    }
    // Every session is judged again when a directory above them becomes refused or listed again.
    if (`${wasUnreached?.dir}\u0000${wasUnreached?.why}` !== `${this.unreached?.dir}\u0000${this.unreached?.why}`)
      for (const key of this.views.keys()) this.dirty.add(key);
    const ended = away ? null : listDirSync(this.root, 'sessions');
    if (ended?.ok) {
      for (const e of ended.entries) if (ENDED_RE.test(e.name)) entry(`sessions/${e.name}`, e.kind);
    }

    if (this.pass === pass) this.pass = null;
    const unlistedFiles: string[] = [];
    for (const rel of [...this.recs.files.keys()]) {
      if (seen.has(rel)) continue;
      // Out of sight under a refused directory: read by its own path (refused too: kept, unreadable, with its last
      // good value; gone: dropped), not taken for removed because no listing named it. Under a root that is away,
      // kept as it was: there is no path to read it by.
      if (!hidden(rel)) unlistedFiles.push(rel);
      else if (!away) this.recs.readIfChanged(rel);
    }
    // What this scan no longer finds waits as any list's misses do (scan-misses.ts): a rescan of a root just back can
    // land inside the next `rm -rf .omc` (its files go before its directories), a poll tick too.
    for (const rel of this.misses.gone(unlistedFiles, away)) this.recs.drop(rel);
    // Sessions whose directory vanished without us seeing their files go too.
    for (const key of this.views.keys()) {
      if (key !== LEGACY && !this.recs.byKey.has(key) && !statSync(this.root, `state/sessions/${key}`)?.isDirectory())
        this.dirty.add(key);
    }
    const wasScanning = this.progress !== null;
    this.progress = null;
    // A poll tick that found nothing new must not cost a re-render.
    if (
      wasScanning ||
      dirsChanged ||
      this.dirty.size > 0 ||
      this.version === 0 ||
      this.structuralSignature() !== structuralBefore
    )
      this.publish();
  }

  /** What a scan no longer finds: dropped now, or held for the watcher's removal hold or the next poll. */
  readonly misses = new ScanMisses();

  /** Why the sessions kept while the root is away cannot be read: the watch status's words, or the same words. */
  private awayWhy(): string {
    return this.rootAwayWords ?? rootAbsentWords(this.root, rootAbsence(this.root), { polling: false, wasThere: true });
  }

  private structuralSignature(): string {
    let sig = '';
    for (const [k, p] of this.structural) sig += `${k}\u0000${p.message}\u0001`;
    return sig;
  }

  private scanSessionEntry(name: string, kind: string, readFile: (rel: string) => void, shownName?: string): void {
    const rel = `state/sessions/${name}`;
    if (!isValidSessionId(name)) {
      // A name that is not UTF-8 by its bytes (listDirSync's shownName): its decoded name (U+FFFD) names no
      // directory, and two such names can decode alike; each is its own problem, named as itself.
      const shown = shownName !== undefined ? `${SESSIONS_DIR}/${shownName}` : shownPath(rel);
      this.structural.set(shownName !== undefined ? shown : rel, {
        // A problem's path is shown as it is (on screen and in --json): the name with every byte, its controls as
        // escapes (io/shown-path.ts), not removed (`evil]0;x` named no directory) and never raw.
        path: shown,
        message: 'directory name is not a valid OMC session id; OMC ignores it and so does omc-top',
        severity: 'warning',
      });
      return;
    }
    // A symlinked session directory: OMC's listSessionIds passes it by (a symlink's Dirent is no directory), but
    // its Stop hook reads state/sessions/<id>/<mode>-state.json through the link (research/omc-contract.md,
    // "Directory name ≠ session"). So it is read as the hook reads it, through the safe path: followed while it
    // stays inside the root; a link out of the root is a refusal of omc-top's own (unreadable, never absent).
    if (kind !== 'dir' && kind !== 'symlink') {
      this.structural.set(rel, {
        path: rel,
        message: 'a file where a session directory was expected',
        severity: 'warning',
      });
      return;
    }
    this.pass?.dirs.add(name);
    this.watchLeaves?.(rel);
    const list = listDirSync(this.root, rel);
    if (!list.ok) {
      for (const names of this.noted.values()) names.delete(name);
      // Refused here, but there: OMC's hooks (its owner) read it. A row that says so, not a session gone.
      if (notReadHere(list.code)) {
        if (this.unlisted.get(name) !== list.message || !this.views.has(name)) this.dirty.add(name);
        this.unlisted.set(name, list.message);
        // Its files seen before are read again by their own paths, as under a refused directory above: refused
        // too, each keeps its last good value marked unreadable (not shown as read now, nor counted running);
        // readable by path (a directory that may be searched but not listed), what they say now.
        const under = `${rel}/`;
        for (const f of [...this.recs.files.keys()]) if (f.startsWith(under)) readFile(f);
        return;
      }
      if (this.unlisted.delete(name)) this.dirty.add(name);
      if (list.code !== 'missing') this.structural.set(rel, { path: rel, message: list.message, severity: 'error' });
      return;
    }
    if (this.unlisted.delete(name)) this.dirty.add(name);
    // forEach and indexed loops in this per-session step: see "Cold loops" in docs/ARCHITECTURE.md.
    this.noted.forEach((names, file) => {
      if (list.entries.some((e) => e.name === file)) names.add(name);
      else names.delete(name);
    });
    if (!this.views.has(name)) this.dirty.add(name);
    // OMC's own modes first: past MAX_FILES_PER_SESSION files the rest are not read (see read()).
    const entries =
      list.entries.length > MAX_FILES_PER_SESSION
        ? [...list.entries].sort((a, b) => entryRank(a.name, MODE_ORDER) - entryRank(b.name, MODE_ORDER))
        : list.entries;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (!isTrackedFile('session', e.name)) continue;
      if (e.kind === 'dir') {
        this.structural.set(`${rel}/${e.name}`, {
          path: `${rel}/${e.name}`,
          message: 'is a directory where a state file was expected',
          severity: 'error',
        });
        continue;
      }
      readFile(`${rel}/${e.name}`);
    }
  }

  refresh(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    // Anything happening to the skeleton (root, state, state/sessions, sessions)
    // — removed, re-created, replaced by a file — is settled by one full scan.
    // So is a name that is not UTF-8: its decoded name cannot tell which entry it was (listDirSync lists it by bytes).
    if (events.some((ev) => STRUCTURAL.has(ev.rel) || ev.rel.includes('\ufffd'))) {
      this.scan();
      return;
    }
    let changed = false;
    for (const ev of events) {
      if (ev.rel === GOALS_REL || ev.rel === GOALS_DIR) {
        changed = this.lookAtGoals() || changed;
        continue;
      }
      const noted = keyOf(ev.rel);
      if (noted?.scope === 'session' && this.noted.has(noted.file)) {
        this.noteFile(noted.key, noted.file);
        continue;
      }
      if (ev.type === 'unlink' || ev.type === 'unlinkDir') {
        changed = this.recs.dropPrefix(ev.rel, this.structural) || changed;
        changed = this.readSignalBeside(ev, edge) || changed;
        if (ev.type === 'unlinkDir' && this.structural.delete(ev.rel)) changed = true;
        const parts = ev.rel.split('/');
        if (ev.type === 'unlinkDir' && parts.length === 3 && parts[1] === 'sessions') {
          this.dirty.add(parts[2] as string);
          this.unlisted.delete(parts[2] as string);
          for (const names of this.noted.values()) names.delete(parts[2] as string);
        }
        continue;
      }
      if (ev.type === 'addDir') {
        const parts = ev.rel.split('/');
        if (parts.length === 3 && parts[0] === 'state' && parts[1] === 'sessions') {
          // Files may have landed before the watch on the new dir was attached.
          this.scanSessionEntry(parts[2] as string, 'dir', this.readFromEvent);
          changed = true;
        }
        continue;
      }
      const parts = ev.rel.split('/');
      if (parts.length === 3 && parts[0] === 'state' && parts[1] === 'sessions') {
        changed = this.recheckSessionEntry(parts[2] as string) || changed;
        continue;
      }
      const k = keyOf(ev.rel);
      if (!k || !isTrackedFile(k.scope, k.file)) continue;
      this.pass?.seen.add(ev.rel);
      changed = this.recs.read(ev.rel, edge) || changed;
    }
    if (changed || this.dirty.size > 0) this.publish();
  }

  /**
   * A mode file went: read the cancel signal beside it in the same picture. Every cancel (OMC's, omc-top's) writes
   * the signal before it removes a file, but the watcher may report the removal first (or alone, in a leading
   * batch): without this read one picture would show the loop gone with no signal, i.e. stopped by someone else.
   */
  private readSignalBeside(ev: WatchEvent, edge: 'leading' | 'trailing'): boolean {
    if (ev.type !== 'unlink') return false;
    const k = keyOf(ev.rel);
    if (!k || (k.scope !== 'session' && k.scope !== 'state') || k.file === SIGNAL_FILE) return false;
    const rel = `${ev.rel.slice(0, ev.rel.length - k.file.length)}${SIGNAL_FILE}`;
    this.pass?.seen.add(rel);
    return this.recs.read(rel, edge);
  }

  /** A read an event asked for; during a pass it counts as seen by it (stat-gated: never read twice). */
  private readonly readFromEvent = (rel: string) => {
    this.pass?.seen.add(rel);
    this.recs.readIfChanged(rel);
  };

  /**
   * The progressive start's answer to "what changed before the watches were set": the session directories
   * were each watched before they were listed, so only the skeleton can have moved unseen — the files in
   * the root, `state/` and `sessions/` (stat-gated re-reads), and session directories that vanished
   * (new ones are announced by the watcher's own walk at `ready`). A few listings, not a rescan.
   */
  reconcile(): void {
    let changed = false;
    const listed = new Set<string>();
    // Scopes whose listing was refused: their files are out of sight, not gone (the next scan says which).
    const refused = new Set<string>();
    const look = (dir: string, scope: 'root' | 'state' | 'ended', prefix: string) => {
      const list = listDirSync(this.root, dir);
      if (!list.ok) {
        if (notReadHere(list.code)) refused.add(scope);
        return;
      }
      for (const e of list.entries) {
        const ok = scope === 'ended' ? ENDED_RE.test(e.name) : isTrackedFile(scope, e.name);
        if (!ok || e.kind === 'dir') continue;
        listed.add(`${prefix}${e.name}`);
        this.readFromEvent(`${prefix}${e.name}`);
      }
    };
    changed = this.lookAtGoals() || changed;
    look('', 'root', '');
    look('state', 'state', 'state/');
    look('sessions', 'ended', 'sessions/');
    for (const rel of [...this.recs.files.keys()]) {
      const k = keyOf(rel);
      if (k && k.scope !== 'session' && !listed.has(rel) && !refused.has(k.scope))
        changed = this.recs.drop(rel) || changed;
    }
    const sessions = listDirSync(this.root, 'state/sessions');
    const present = new Set(sessions.ok ? sessions.entries.map((e) => e.name) : []);
    if (refused.size > 0 || (!sessions.ok && notReadHere(sessions.code))) this.scan();
    else
      for (const key of new Set([...this.views.keys(), ...this.recs.byKey.keys()])) {
        if (key !== LEGACY && !present.has(key)) changed = this.recheckSessionEntry(key) || changed;
      }
    if (changed || this.dirty.size > 0) this.publish();
  }

  /** An entry of state/sessions appeared, vanished or changed kind. */
  private recheckSessionEntry(name: string): boolean {
    const rel = `state/sessions/${name}`;
    const st = statSync(this.root, rel);
    this.structural.delete(rel);
    if (!st) {
      for (const names of this.noted.values()) names.delete(name);
      this.unlisted.delete(name);
      this.recs.dropPrefix(rel, this.structural);
      this.dirty.add(name);
      return true;
    }
    const kind = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'symlink' : st.isFile() ? 'file' : 'other';
    this.scanSessionEntry(name, kind, this.readFromEvent);
    if (isValidSessionId(name)) this.dirty.add(name);
    return true;
  }

  /** Sessions a mode of which is held by its `~/.omc/state` copy (derive.ts homeCopies), as last published. */
  private readonly homeHeld = new Set<string>();

  /** The mode files of `~/.omc/state` the hooks fall back to (the store watches these names there). */
  static readonly HOME_STATE_FILES: readonly string[] = MODE_ORDER.map((m) => `${m}-state.json`);

  /**
   * A file of `~/.omc/state` changed (the store's watch of it): judged again are the sessions whose row shows a copy
   * there and those the copies there name now. A few small reads of the home, whatever the number of sessions.
   */
  homeStateChanged(): void {
    if (this.home === null) return;
    const state = path.join(this.home, '.omc', 'state');
    for (const key of this.homeHeld) this.dirty.add(key);
    for (const file of SessionsDomain.HOME_STATE_FILES) {
      const sid = (hookView(state, file).value as Record<string, unknown> | null)?.session_id;
      if (typeof sid === 'string' && this.views.has(sid)) this.dirty.add(sid);
    }
    if (this.dirty.size > 0) this.publish();
  }

  /** Every session is judged again at the new time (the staleness line, pending and signal windows). */
  clockJumped(): void {
    for (const key of this.views.keys()) this.dirty.add(key);
    this.publish();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Re-derive dirty sessions, sort, publish, and arm the time-driven re-derivation. A publish costs
   * the sessions that changed: unchanged views keep their place in the previous order, changed ones
   * are re-placed by binary search (compareSessions is a total order, so the result is the full sort's).
   */
  private publish(): void {
    const now = this.clock();
    const gone = new Set<SessionView>();
    const fresh: SessionView[] = [];
    const removed: SessionView[] = [];
    if (this.dirty.size > 0) {
      // Verdicts are computed here, on change only, and shared by the rows of this publish.
      const globals = new Map<string, GlobalRead>();
      const book = new VerdictBook(this.recs, {
        installOf: this.installOf,
        factsOf: (sid) => this.stopFacts.get(sid),
        readGlobal: (rel) => {
          if (this.home === null) return NOT_READ;
          let g = globals.get(rel);
          if (g === undefined) globals.set(rel, (g = this.readGlobal(rel)));
          return g;
        },
        readOther: (rel) => {
          if (rel !== GOALS_REL) return NOT_READ;
          if (this.goalsPlan === null) this.lookAtGoals();
          return (this.goalsPlan as { read: GlobalRead }).read;
        },
        flock: this.flock,
        ...(this.stopSwitch
          ? {
              // The session's own Claude's environment decides DISABLE_OMC / OMC_SKIP_HOOKS, as it does OMC_SECURITY.
              hooksOffOf: (sid: string) =>
                (this.stopSwitch as StopHookSwitch).offFor(this.sessionProcesses.get(sid) ?? null),
            }
          : {}),
        ...(this.hardMax
          ? {
              // The session's own Claude's environment decides OMC_SECURITY, never another Claude's.
              hardMaxOf: (cwd: string, sid: string) =>
                (this.hardMax as HardMaxConfig).of(cwd, this.sessionProcesses.get(sid) ?? null),
            }
          : {}),
        projectDir: this.projectDir,
        now,
      });
      for (const key of this.dirty) {
        const old = this.views.get(key);
        const view = deriveSession(
          this.root,
          key,
          this.recs.recsOf(key),
          now,
          book,
          this.recs.ownedElsewhere(key),
          this.unlisted.get(key) ?? null,
          this.aboveOf(key),
        );
        if (old === view) {
          if (view) this.due.push(key, view); // its due entry may just have been taken
          continue;
        }
        if (old) gone.add(old);
        // A session with its own OMC shown or no longer: the header's list of releases may change with it.
        if (!old !== !view && this.sessionInstalls.has(key)) this.omcSeenCache = null;
        this.count(old, -1);
        this.count(view, 1);
        if (view) {
          this.views.set(key, view);
          fresh.push(view);
          this.due.push(key, view);
        } else {
          this.views.delete(key);
          if (old) removed.push(old);
        }
        if (view && view.problems.length > 0) this.withProblems.add(key);
        else this.withProblems.delete(key);
        if (view && view.modes.some((m) => m.path.startsWith(GLOBAL_PREFIX))) this.homeHeld.add(key);
        else this.homeHeld.delete(key);
      }
      this.dirty.clear();
      this.due.compact(this.views);
    }
    if (gone.size + fresh.length > PATCH_MAX || this.sorted.length === 0) {
      this.sorted = [...this.views.values()].sort(compareSessions);
      this.sortedKeys = this.sorted.map(keyOfView);
    } else if (gone.size + fresh.length > 0) {
      const next = replaceSorted(this.sorted, this.sortedKeys, gone, fresh, compareSessions, keyOfView);
      this.sorted = next.views;
      this.sortedKeys = next.keys;
    }
    let problems: readonly Problem[] = [
      ...this.installProblems,
      ...(this.hardMax?.problems() ?? []),
      ...this.structural.values(),
      ...this.globalUnread.values(),
    ];
    if (this.withProblems.size > 0) {
      const having = [...this.withProblems].map((k) => this.views.get(k) as SessionView).sort(compareSessions);
      // Under a refused directory every file is refused too: its one line says so, not one line per file.
      const prefix = this.unreached?.prefix;
      for (const s of having)
        for (const p of s.problems)
          if (prefix === undefined || !p.path.startsWith(prefix)) (problems as Problem[]).push(p);
    }
    // The same lines keep their list, so the store's collection of every domain's lines can tell nothing moved.
    const prev = this.cell.getSnapshot().problems;
    if (prev.length === problems.length && problems.every((p, i) => p === prev[i])) problems = prev;
    const from = this.version;
    this.version += 1;
    this.cell.set({
      version: this.version,
      sessions: this.sorted,
      keys: this.sortedKeys,
      problems,
      derivedAt: now,
      scanning: this.progress,
      counts: { ...this.counts },
      cancelling: this.cancelling,
      delta: { from, changed: fresh, removed, gone: [...gone] },
      lineage: this.lineage,
      omcSeen: this.omcSeen(),
      unreadableDirs: this.unlistedDirs,
      rootAway: this.unreached?.away === true,
    });
    this.armTimer(now);
  }

  /** The refused directory above a session (the `above` of deriveSession), or null. */
  private aboveOf(key: string): { dir: string; why: string; away?: boolean } | null {
    const u = this.unreached;
    return u === null || (key === LEGACY && !u.legacy) ? null : u;
  }

  /** `~/.omc/<rel>` as the hooks read it; one omc-top may not read keeps (or drops) its problem line. */
  private readGlobal(rel: string): GlobalRead {
    const g = hookView(path.join(this.home as string, '.omc'), rel);
    const at = `~/.omc/${rel}`;
    if (g.unreadable === null) this.globalUnread.delete(at);
    // The same line keeps its object, so a publish that read it again does not count as the problems changing.
    else if (this.globalUnread.get(at)?.message !== g.unreadable)
      this.globalUnread.set(at, { path: at, message: g.unreadable, severity: 'error' });
    return g;
  }

  private count(view: SessionView | null | undefined, sign: 1 | -1): void {
    if (!view) return;
    const c = sessionCountOf(view);
    this.counts.running += sign * c.running;
    this.counts.stale += sign * c.stale;
    this.counts.loops += sign * loopCountOf(view);
    if (view.status === 'unreadable') this.counts.unreadable += sign;
    if (view.unreadableAbove !== undefined) this.counts.above += sign;
    if (signalUntilMs(view) !== null) this.cancelling += sign;
  }

  private armTimer(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.due.next();
    if (next === null) return;
    // Timers longer than ~24.8 days overflow; cap and re-arm.
    const delay = Math.min(Math.max(0, next - now) + 5, 2 ** 31 - 1);
    this.timer = setTimeout(() => {
      this.timer = null;
      for (const key of this.due.takeDue(this.clock())) this.dirty.add(key);
      this.publish();
    }, delay);
  }
}

const NOT_READ: GlobalRead = Object.freeze({ value: null, unreadable: null });

/**
 * A file as OMC's readJsonFile sees it: JSON.parse of the raw text; null when missing, unreadable or BOM-prefixed.
 * A read refused here (permission, I/O: notReadHere) says why, since OMC's hooks, run as the owner, may read it.
 */
function hookView(root: string, rel: string): GlobalRead {
  const r = readTextSync(root, rel);
  if (!r.ok) return notReadHere(r.code) ? { value: null, unreadable: r.message } : NOT_READ;
  if (r.bom) return NOT_READ;
  try {
    return { value: JSON.parse(r.text) as unknown, unreadable: null };
  } catch {
    return NOT_READ;
  }
}

let flockCache: boolean | null = null;
/** 4.15's lock helper looks for flock at exactly these two paths. */
export function flockInstalled(): boolean {
  if (flockCache === null)
    flockCache = ['/usr/bin/flock', '/bin/flock'].some((p) => statSync('/', p.slice(1)) !== null);
  return flockCache;
}

/** Each refused file that decides the OMC version, as a problem line naming it and why. */
function refusalProblems(i: OmcInstall): readonly Problem[] {
  const refused = i.refused.map((r) => ({
    path: shownPath(r.path),
    // Refused since the answer kept was found (omc-kept.ts): this file is why it is not checked again now.
    message:
      i.keptFrom && !i.keptFrom.refused.some((k) => k.path === r.path)
        ? `${r.why}; OMC ${i.version ?? '?'} as found before is kept (${i.keptFrom.source}), not re-checked until it can be read again`
        : `${r.why}; the OMC version is found without it (${i.assumed ? 'not found: newest rules assumed' : `OMC ${i.version ?? '?'}, ${i.source}`})`,
    severity: 'warning' as const,
  }));
  // Two OMC plugins enabled at once: both Stop hooks run (the verdicts take a block from either); said as a problem.
  const both = alongsideWords(i);
  const where = i.candidates.find((c) => c.source.startsWith('plugin '))?.path;
  const gone = missingPluginDirWords(i);
  return [
    ...refused,
    ...(both === null ? [] : [{ path: where ? shownPath(where) : '', message: both, severity: 'warning' as const }]),
    // The registry's plugin directory is not there: the path is in the words, the line names no one file.
    ...(gone === null ? [] : [{ path: '', message: gone, severity: 'warning' as const }]),
  ];
}
