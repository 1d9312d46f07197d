/**
 * Which of OMC 5.6's own files exist (known-files.ts explains them), so the
 * session detail can list and explain the ones that belong to a session.
 * Presence only: one lstat per fixed file through fsx on a scan, one per change
 * event; nothing is parsed here. The feedback baselines come from the sessions
 * domain's own listings when the store passes them (`sessionDirsWith`): an
 * lstat per session directory was 10,000 failed opens at every scan of a
 * 10,000-session tree, twice during start-up.
 */
import { listDirSync, statSync } from '../../io/safe-fs/index.js';
import type { WatchEvent } from '../types.js';
import { explainOmc56Path } from './known-files.js';

const FIXED = ['state/runs/ledger.jsonl', 'state/enforcement/shadow.jsonl', 'state/intake-lock.json'];
export const BASELINE_FILE = 'feedback-baseline.json';
const BASELINE = /^state\/sessions\/([^/]+)\/feedback-baseline\.json$/;
const NOTEPAD_DIR = /^notepads\/([^/]+)$/;

export class Omc56Presence {
  private present = new Set<string>();

  constructor(
    private readonly root: string,
    /** The session directories whose last listing had `file` (SessionsDomain.sessionDirsWith). */
    private readonly sessionDirsWith?: (file: string) => Iterable<string>,
  ) {}

  wants(rel: string, isDir: boolean | undefined): boolean {
    if (isDir !== false && (rel === 'notepads' || NOTEPAD_DIR.test(rel))) return true;
    return FIXED.includes(rel) || BASELINE.test(rel);
  }

  scan(): boolean {
    const next = new Set<string>();
    for (const rel of FIXED) if (statSync(this.root, rel)) next.add(rel);
    if (this.sessionDirsWith) {
      for (const name of this.sessionDirsWith(BASELINE_FILE)) next.add(`state/sessions/${name}/${BASELINE_FILE}`);
    } else {
      const sessions = listDirSync(this.root, 'state/sessions');
      if (sessions.ok)
        for (const d of sessions.entries) {
          const rel = `state/sessions/${d.name}/${BASELINE_FILE}`;
          if (d.kind === 'dir' && statSync(this.root, rel)) next.add(rel);
        }
    }
    const notepads = listDirSync(this.root, 'notepads');
    if (notepads.ok) for (const d of notepads.entries) if (d.kind === 'dir') next.add(`notepads/${d.name}`);
    const changed = next.size !== this.present.size || [...next].some((r) => !this.present.has(r));
    this.present = next;
    return changed;
  }

  /** Re-checks the paths the events name; true when the set changed. */
  refresh(events: readonly WatchEvent[]): boolean {
    let changed = false;
    for (const e of events) {
      if (e.rel === 'notepads') return this.scan();
      if (!(FIXED.includes(e.rel) || BASELINE.test(e.rel) || NOTEPAD_DIR.test(e.rel))) continue;
      const there = statSync(this.root, e.rel) !== null;
      if (there === this.present.has(e.rel)) continue;
      if (there) this.present.add(e.rel);
      else this.present.delete(e.rel);
      changed = true;
    }
    return changed;
  }

  /** The 5.6 files of one session: the shared logs, its feedback baseline, its modes' notepads. */
  forSession(sessionId: string | null, modes: readonly string[]): string[] {
    const mine = (rel: string) => {
      const b = BASELINE.exec(rel);
      if (b) return b[1] === sessionId;
      const n = NOTEPAD_DIR.exec(rel);
      if (n) return modes.includes(n[1] as string);
      return true;
    };
    return [...this.present].filter((r) => mine(r) && explainOmc56Path(r) !== null).sort();
  }
}
