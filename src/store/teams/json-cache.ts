/**
 * Every JSON file the teams domain reads (team config, tasks, worker files,
 * bridge heartbeats), each kept by the last-good rule (src/store/last-good.ts),
 * keyed across the two team locations (e.g. "root|state/team/x/config.json").
 */
import { LastGoodFile, parseOmcJson, type ReadEdge } from '../../io/last-good.js';
import { BOM_MESSAGE } from '../sessions/omc-rules.js';

export type { ReadEdge };

/** What team derivation reads of one file. */
export interface JsonRec {
  /** The last good parse (undefined when there never was one). */
  readonly value: unknown;
  readonly mtimeMs: number;
  /** The line to show: a confirmed failure, or a warning about the value. */
  readonly problem: string | null;
  /**
   * The file is there but omc-top may not read it (permission, I/O: LastGoodFile.unreadable): what it holds now is
   * unknown (OMC, run as its owner, reads it), whatever the last good value says.
   */
  readonly unreadable?: string | null;
}

/** State and task files are small; 1 MiB is OMC's own state payload cap. */
const MAX_BYTES = 1024 * 1024;
const OPTIONS = { maxBytes: MAX_BYTES, parse: parseOmcJson(BOM_MESSAGE) };

export class JsonCache {
  private files = new Map<string, LastGoodFile<unknown>>();

  get(key: string): JsonRec | undefined {
    return this.files.get(key);
  }

  has(key: string): boolean {
    return this.files.has(key);
  }

  keys(): IterableIterator<string> {
    return this.files.keys();
  }

  /** Re-reads only when identity, size or mtime moved (the poll/scan path). Returns true when what we hold changed. */
  readIfChanged(key: string, root: string, rel: string, edge: ReadEdge = 'scan'): boolean {
    return this.settle(key, this.fileFor(key, root, rel), (f) => f.readIfChanged(edge));
  }

  /** Reads and parses; returns true when the value or the problem changed. */
  read(key: string, root: string, rel: string, edge: ReadEdge): boolean {
    return this.settle(key, this.fileFor(key, root, rel), (f) => f.read(edge));
  }

  drop(key: string): boolean {
    return this.files.delete(key);
  }

  /** Drops every key starting with `prefix` (a removed directory). */
  dropPrefix(prefix: string): boolean {
    let any = false;
    const under = prefix.endsWith('/') ? prefix : `${prefix}/`;
    for (const k of [...this.files.keys()]) {
      if (k === prefix || k.startsWith(under)) {
        this.files.delete(k);
        any = true;
      }
    }
    return any;
  }

  private fileFor(key: string, root: string, rel: string): LastGoodFile<unknown> {
    const f = this.files.get(key);
    return f && f.root === root && f.rel === rel ? f : new LastGoodFile<unknown>(root, rel, OPTIONS);
  }

  /** Keeps a file that exists, forgets one that is gone. */
  private settle(key: string, f: LastGoodFile<unknown>, read: (f: LastGoodFile<unknown>) => boolean): boolean {
    const known = this.files.has(key);
    const changed = read(f);
    if (f.missing) return this.files.delete(key) || changed;
    this.files.set(key, f);
    return changed || !known;
  }
}
