/**
 * The OMC each session's own Claude loaded, where no settings file says it: the `--plugin-dir` of its live process,
 * the flags recorded off its command line once that process is gone (what `r` resumes with), or the plugin its
 * transcript says the skills came from. A command line cannot change, so each process's is read once; the release
 * in a directory can (OMC upgraded in place: a `git pull` in the checkout `--plugin-dir` names, a copy over it,
 * under a Claude that keeps running and whose hooks run the new scripts from the next turn). So the installs in
 * force read each directory's release once (`inForce`), and the OMC look (omc-recheck.ts, on its timer: no watch
 * or timer of its own) reads those directories again: one small read per directory in use, not per session.
 */
import {
  installAtDirs,
  installForRecorded,
  installForTranscript,
  omcVersionAt,
  skillRootOf,
  type OmcInstall,
  type OmcReadMemo,
  type ReleaseAt,
} from '../omc-install.js';
import { pluginDirsIn } from './plugin-dir.js';
import type { RegistryEntry } from './registry.js';
import type { LaunchRecord } from './launch-flags.js';

/** Gone sessions whose recorded --plugin-dir OMC judges them, kept at most (as many as the launch records). */
const MAX_RECORDED = 2000;
/** Transcript skill directories looked up, kept at most (a few in practice: one per OMC a session loaded). */
const MAX_TRANSCRIPT_DIRS = 64;

/** What the look at the directories found: `moved` when a release differs from the one in force. */
export interface ReleasesLook {
  /** The releases read, in a key (a confirming look must find the same). */
  key: string;
  moved: boolean;
}

type ProcessEntry = Pick<RegistryEntry, 'pid' | 'cwd' | 'procStart'>;

export class SessionInstalls {
  /** Per live process (`pid:procStart`): its --plugin-dir directories as its command line named them, its OMC. */
  private readonly processes = new Map<
    string,
    { e: ProcessEntry; dirs: readonly string[] | null; install: OmcInstall | null }
  >();
  /** Per gone session: the flags its last process ran with, and the OMC they load. */
  private readonly recorded = new Map<string, { rec: LaunchRecord; install: OmcInstall }>();
  /** Per skill directory a transcript named: the OMC there (null: not an OMC plugin's). */
  private readonly transcripts = new Map<string, OmcInstall | null>();
  /** The release each directory held when the installs in force read it. */
  private readonly inForce = new Map<string, string | null>();

  /** `dirsOf`: a live process's --plugin-dir directories (read once per process by the caller's reader). */
  constructor(private readonly dirsOf: (e: ProcessEntry) => readonly string[] | null) {}

  private readonly releaseAt: ReleaseAt = (dir) => {
    if (!this.inForce.has(dir)) this.inForce.set(dir, omcVersionAt(dir));
    return this.inForce.get(dir) ?? null;
  };

  /** A live process's OMC (its command line read the first time it is asked about). */
  ofProcess(key: string, e: ProcessEntry): OmcInstall | null {
    let p = this.processes.get(key);
    if (!p) {
      const dirs = this.dirsOf(e);
      p = { e, dirs, install: installAtDirs(dirs, e, this.releaseAt) };
      this.processes.set(key, p);
    }
    return p.install;
  }

  /** Whether the process was live at the last pass (no read). */
  hasProcess(key: string): boolean {
    return this.processes.has(key);
  }

  /** Forgets the processes not in `live` (gone, or no longer the session's). */
  keepProcesses(live: ReadonlySet<string>): void {
    for (const k of this.processes.keys()) if (!live.has(k)) this.processes.delete(k);
  }

  clearProcesses(): void {
    this.processes.clear();
  }

  /** The session's process is gone: judged by the OMC its recorded flags load, if any. */
  noteGone(sid: string, rec: LaunchRecord | null): void {
    this.recorded.delete(sid);
    const install = rec ? installForRecorded(rec.flags, rec.pid, this.releaseAt) : null;
    if (!rec || !install) return;
    this.recorded.set(sid, { rec, install });
    // Bounded as the launch records are: the oldest gone session is forgotten first.
    if (this.recorded.size > MAX_RECORDED) this.recorded.delete(this.recorded.keys().next().value as string);
  }

  /** The session runs again: its live process's OMC judges it. */
  forgetRecorded(sid: string): void {
    this.recorded.delete(sid);
  }

  recordedInstalls(): IterableIterator<[string, { install: OmcInstall }]> {
    return this.recorded.entries();
  }

  /** The OMC in the plugin a transcript's skill directory is in (looked up once per directory). */
  ofTranscript(skillDir: string): OmcInstall | null {
    let i = this.transcripts.get(skillDir);
    if (i === undefined) {
      i = installForTranscript(skillDir, this.releaseAt);
      this.transcripts.set(skillDir, i);
      if (this.transcripts.size > MAX_TRANSCRIPT_DIRS)
        this.transcripts.delete(this.transcripts.keys().next().value as string);
    }
    return i;
  }

  /**
   * The OMC look's question: do the directories hold other releases than the ones in force? One read per directory
   * (`reads`: shared by every project looked at in the round). Directories no install uses any more are dropped
   * first when one seems to have moved (a rare pass over the sessions, never on a quiet look).
   */
  look(reads?: OmcReadMemo): ReleasesLook {
    const first = this.readAll(reads);
    if (!first.moved) return first;
    this.prune();
    return this.readAll(reads);
  }

  private readAll(reads?: OmcReadMemo): ReleasesLook {
    const seen: Array<[string, string | null]> = [];
    let moved = false;
    for (const [dir, was] of this.inForce) {
      const now = omcVersionAt(dir, reads);
      seen.push([dir, now]);
      if (now !== was) moved = true;
    }
    return { key: JSON.stringify(seen), moved };
  }

  /**
   * The releases there now are taken: every install is made again from what was recorded (no command line is read
   * again), each directory read afresh. False when every directory still holds the release in force (nothing made).
   */
  retake(): boolean {
    if (!this.readAll().moved) return false;
    this.inForce.clear();
    for (const p of this.processes.values()) p.install = installAtDirs(p.dirs, p.e, this.releaseAt);
    for (const [sid, r] of [...this.recorded]) this.noteGone(sid, r.rec);
    for (const dir of [...this.transcripts.keys()])
      this.transcripts.set(dir, installForTranscript(dir, this.releaseAt));
    return true;
  }

  /** Drops the releases of directories no install in force was made from. */
  private prune(): void {
    const used = new Set<string>();
    for (const p of this.processes.values()) for (const d of p.dirs ?? []) used.add(d);
    for (const r of this.recorded.values()) for (const d of pluginDirsIn(r.rec.flags, null)) used.add(d);
    for (const dir of this.transcripts.keys()) {
      const root = skillRootOf(dir);
      if (root !== null) used.add(root);
    }
    for (const d of [...this.inForce.keys()]) if (!used.has(d)) this.inForce.delete(d);
  }
}
