/**
 * The wiki slice of .omc: an in-memory index of `wiki/*.md` kept current one
 * file at a time. A watcher event re-reads only the file it names; a scan
 * (start, poll tick) re-reads only files whose size, mtime or inode moved.
 * Searching and linting run over this index and never touch the disk, so a
 * keystroke costs no I/O and nothing is ever appended to log.md.
 */
import { SnapshotCell } from '../../io/snapshot-cell.js';
import {
  listDirSync,
  readTextByNameSync,
  statByNameSync,
  statSync,
  type DirEntry,
  type ReadResult,
} from '../../io/safe-fs/index.js';
import { LastGoodFile, type Parsed, type ReadEdge } from '../../io/last-good.js';
import { cleanLine } from '../../io/sanitize.js';
import type { Clock, Domain, Problem, WatchEvent } from '../types.js';
import { lintWiki, type LintReport } from './lint.js';
import {
  buildPage,
  entryProblemPage,
  isNotUtf8Key,
  notUtf8Key,
  notUtf8NamePage,
  omcReadsIt,
  shownPageName,
  WIKI_PAGE_MAX_BYTES,
  type WikiPage,
} from './page.js';
import { DATE_NOT_SET } from './frontmatter.js';
import { rankWiki, searchWiki, type Ranking, type SearchOptions, type SearchResult } from './search.js';
import { WikiSearchIndex } from './search-index.js';
import { warmUpQueries } from './warm-up.js';
import { SlicedScan } from '../../io/sliced-scan.js';
import { ScanMisses } from '../scan-misses.js';

export const WIKI_DIR = 'wiki';
/** Characters of page text that may wait unfolded for the warm-up (see WikiDomain.boundUnfolded). */
const UNFOLDED_MAX = 16 * 1024 * 1024;
/** Rows whose snippets the warm-up reads per query: about what one screen of results shows. */
const WARM_ROWS = 20;
/** OMC's reserved files: never pages (index.md and log.md are OMC's bookkeeping, environment.md is fed from project memory). */
export const RESERVED = new Set(['index.md', 'log.md', 'environment.md']);

export interface WikiSnapshot {
  version: number;
  dir: 'missing' | 'ok' | 'error';
  dirMessage: string | null;
  /**
   * Every page file (readable or not), in OMC's listing order: names sorted by UTF-16 code units; a name that is not
   * UTF-8 (OMC cannot open it: never searched) by its shown name (`caf\xe9-notes.md`), where a user looks for it.
   */
  pages: readonly WikiPage[];
  /** The pages OMC can read, same order: what search and lint run over. */
  searchable: readonly WikiPage[];
  byName: ReadonlyMap<string, WikiPage>;
  /** Categories in use, sorted; tags in use with their page counts, most used first. */
  categories: readonly string[];
  tags: ReadonlyArray<readonly [string, number]>;
  problems: readonly Problem[];
}

export const EMPTY_WIKI: WikiSnapshot = {
  version: 0,
  dir: 'missing',
  dirMessage: null,
  pages: [],
  searchable: [],
  byName: new Map(),
  categories: [],
  tags: [],
  problems: [],
};

/** Is `name` a page file by OMC's rule (any *.md except the reserved ones)? */
export const isPageName = (name: string) => name.endsWith('.md') && !RESERVED.has(name);

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The list's order of page identities: file names by code units, as OMC lists them (its search breaks ties in this
 * order, and so the searchable pages keep it exactly); a page whose name is not UTF-8 placed by its shown name among
 * them, not by its key's leading NUL (which put every such page first); the identity breaks a tie.
 */
const byListing = (a: string, b: string) =>
  byCodeUnits(isNotUtf8Key(a) ? shownPageName(a) : a, isNotUtf8Key(b) ? shownPageName(b) : b) || byCodeUnits(a, b);

export interface WikiDomainOptions {
  root: string;
  clock?: Clock;
}

export class WikiDomain implements Domain {
  readonly name = 'wiki';
  readonly cell = new SnapshotCell<WikiSnapshot>(EMPTY_WIKI);
  private readonly root: string;
  private readonly clock: Clock;
  /**
   * Every page file by name, each kept by the last-good rule: a page OMC
   * cannot parse (or read) is *suspect*, so a leading-edge read that catches
   * a non-atomic editor mid-write keeps showing the good version until the
   * trailing read decides.
   */
  private readonly entries = new Map<string, LastGoodFile<WikiPage>>();
  private dirState: { dir: WikiSnapshot['dir']; message: string | null } = { dir: 'missing', message: null };
  private dirty = false;
  private version = 0;
  private lintCache: { version: number; hour: number; report: LintReport } | null = null;
  /** Which pages hold which tokens, kept in step with the published pages (see search-index.ts). */
  private readonly index = new WikiSearchIndex(64, 4);

  constructor(opts: WikiDomainOptions) {
    this.root = opts.root;
    this.clock = opts.clock ?? Date.now;
  }

  subscribe = this.cell.subscribe;
  getSnapshot = this.cell.getSnapshot;
  problems = () => this.cell.getSnapshot().problems;

  /**
   * The wiki directory only holds page files (OMC's wiki is flat): one plain fs.watch instead of chokidar,
   * which would lstat every page once at start (5,000 pages: most of its walk) before saying it is ready.
   */
  isLeafDir(rel: string): boolean {
    return rel === WIKI_DIR;
  }

  wants(rel: string, isDir: boolean | undefined): boolean {
    if (rel === WIKI_DIR) return isDir !== false;
    const slash = rel.indexOf('/');
    if (slash === -1 || rel.slice(0, slash) !== WIKI_DIR) return false;
    const name = rel.slice(slash + 1);
    return !name.includes('/') && isDir !== true && isPageName(name);
  }

  scan(): void {
    // A full scan while the sliced first read is under way (the wiki directory itself changed) finishes that
    // read first, so its end does not forget what this scan finds.
    this.scans.full();
  }

  /**
   * The first read in slices (see Domain.scanStep): 5,000 pages take ~0.5 s
   * to read and index, and keys typed meanwhile should not wait for all of it.
   */
  scanStep(deadline: number): boolean {
    return this.scans.step(deadline);
  }

  private warming: NodeJS.Immediate | null = null;
  private warmed = false;
  /**
   * Once the store is live (OmcStore calls it then, once): build the search index (and fold each body, see
   * page.ts) in 8 ms slices, so the first keystroke of a search does not pay for it, the first read of the
   * rest of `.omc` does not wait for it, and the monitor stays responsive meanwhile. Each slice follows the
   * newest pages; a keystroke before the end finishes the index itself. Then a few queries run through the
   * ranking once, so the first keys a user types do not run it cold (warm-up.ts).
   */
  warmSearch(): void {
    if (this.warmed) return;
    this.warmed = true;
    let queries: string[] | null = null;
    const step = () => {
      this.warming = null;
      const pages = this.cell.getSnapshot().searchable;
      const deadline = performance.now() + 8;
      if (!this.index.sync(pages, deadline)) {
        this.warming = setImmediate(step);
        return;
      }
      // Then the ranking and snippet code a keystroke runs, once, on this wiki (see warm-up.ts).
      queries ??= warmUpQueries(pages);
      while (queries.length > 0 && performance.now() < deadline) {
        const ranking = rankWiki(pages, queries.shift() as string, {}, this.index);
        for (let r = 0; r < Math.min(WARM_ROWS, ranking.total); r++) void ranking.hit(r).snippet;
      }
      if (queries.length > 0) this.warming = setImmediate(step);
      else {
        this.index.forget();
        this.warmDone = true;
      }
    };
    this.warming = setImmediate(step);
  }

  private warmDone = false;
  /** Whether the warm-up (warmSearch) is done: the index built and the ranking run once. */
  get warmedUp(): boolean {
    return this.warmDone;
  }

  dispose(): void {
    if (this.warming) clearImmediate(this.warming);
    this.warming = null;
  }

  /** Characters of page text the pass under way read and left unfolded (see boundUnfolded). */
  private unfolded = 0;

  /**
   * Folding a body (the search index's lower-cased text, fold.ts) waits for the warm-up (warmSearch, once
   * the store is live), so the read is not slowed by it; but until then each page keeps its file's whole text. Past
   * UNFOLDED_MAX characters in one pass, pages are folded as they are read: a big wiki's texts never all
   * pile up in the old generation at once (20,000 pages: ~40 MB less RSS for good), a wiki of up to
   * ~6,000 average pages reads as fast as before.
   */
  private boundUnfolded(name: string): void {
    const page = this.entries.get(name)?.value;
    if (!page?.searchable) return;
    if (this.unfolded + page.bodyLength <= UNFOLDED_MAX) this.unfolded += page.bodyLength;
    else page.foldBody();
  }

  private readonly scans = new SlicedScan(() => this.scanIter());
  /**
   * The names the pass under way has seen: listed by it, or read by an event while it runs (the watcher is
   * live during the progressive start), so its end does not drop a page created after its listing.
   */
  private passSeen: Set<string> | null = null;

  /**
   * Set by the store for the progressive start: watch the wiki directory (a leaf of the tree watcher) just
   * before it is listed, so the read needs no rescan once the rest of the watches are up.
   */
  watchLeaves: ((rel: string) => boolean) | null = null;

  /** What a scan no longer finds: dropped now, or held for the watcher's removal hold or the next poll. */
  readonly misses = new ScanMisses();

  private *scanIter(): Generator<void, void> {
    const seen = new Set<string>();
    this.passSeen = seen;
    this.unfolded = 0;
    this.watchLeaves?.(WIKI_DIR);
    const dir = this.readDirState();
    if (dir) {
      for (const e of dir) {
        if (!isPageName(e.name)) continue;
        if (e.invalidName && e.nameBytes && e.shownName !== undefined) {
          // Its bytes are lost in the decoded name: named and read by them instead (notUtf8NamePage).
          const key = notUtf8Key(e.shownName);
          seen.add(key);
          this.readNotUtf8(key, e.nameBytes);
          yield;
          continue;
        }
        seen.add(e.name);
        const page =
          e.kind === 'dir' || e.kind === 'other'
            ? entryProblemPage(
                e.name,
                e.kind === 'dir' ? 'is a directory where a page file was expected' : 'is not a regular file',
              )
            : null;
        if (page) {
          if (this.fileOf(e.name).accept({ ok: true, value: page, suspect: true }, 'scan')) this.dirty = true;
        } else {
          this.readIfChanged(e.name);
          this.boundUnfolded(e.name);
        }
        yield;
      }
    }
    if (this.passSeen === seen) this.passSeen = null;
    const missed = [...this.entries.keys()].filter((name) => !seen.has(name));
    // A page the listing no longer names waits as every list's misses do (scan-misses.ts): an editor's save by
    // rename, a page replaced, would flicker it away and back (and move a selection on it). Not when the directory
    // itself could not be listed (said by its own state), nor a name that is no path (its bytes are not UTF-8).
    const byPath = dir ? missed.filter((name) => !isNotUtf8Key(name)) : [];
    const gone = new Set(this.misses.gone(byPath.map((name) => `${WIKI_DIR}/${name}`)));
    const held = new Set(byPath.filter((name) => !gone.has(`${WIKI_DIR}/${name}`)));
    for (const name of missed) {
      if (held.has(name)) continue;
      this.entries.delete(name);
      this.dirty = true;
    }
    this.publish();
  }

  /**
   * A page whose file name is not UTF-8, by its bytes: read again only when its stat moved (a scan lists it each
   * time); it is never searched (OMC's readers skip it), so it is suspect like any page OMC cannot read.
   */
  private readNotUtf8(key: string, name: Buffer): void {
    const was = this.entries.get(key)?.value;
    const st = statByNameSync(this.root, WIKI_DIR, name);
    if (was && st && st.isFile() && st.mtimeMs === was.mtimeMs && st.size === was.size && st.ino === was.ino) return;
    const page = notUtf8NamePage(
      key,
      readTextByNameSync(this.root, WIKI_DIR, name, WIKI_PAGE_MAX_BYTES, { keepNul: true }),
    );
    if (this.fileOf(key).accept({ ok: true, value: page, suspect: true }, 'scan')) this.dirty = true;
  }

  refresh(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    for (const ev of events) {
      if (ev.rel === WIKI_DIR) {
        if (ev.type === 'unlinkDir') {
          this.entries.clear();
          this.dirState = { dir: 'missing', message: null };
          this.dirty = true;
        } else if (ev.type === 'addDir' || ev.type === 'change') {
          this.scan();
        }
        continue;
      }
      if (ev.rel === '' && ev.type === 'unlinkDir') {
        this.entries.clear();
        this.dirState = { dir: 'missing', message: null };
        this.dirty = true;
        continue;
      }
      if (!ev.rel.startsWith(`${WIKI_DIR}/`)) continue;
      const name = ev.rel.slice(WIKI_DIR.length + 1);
      if (!isPageName(name) || name.includes('/')) continue;
      // A name that is not UTF-8 comes decoded (U+FFFD), naming no file and maybe several: the listing names each
      // by its bytes. (A UTF-8 name holding U+FFFD itself is read by that listing too.)
      if (name.includes('\ufffd')) {
        this.scan();
        continue;
      }
      if (ev.type === 'unlink' || ev.type === 'unlinkDir') {
        if (this.entries.delete(name)) this.dirty = true;
        continue;
      }
      if (this.dirState.dir !== 'ok') this.dirState = { dir: 'ok', message: null };
      this.passSeen?.add(name);
      this.read(name, edge);
    }
    this.publish();
  }

  /** OMC's wiki_query over the current index; reads nothing from disk and writes nothing. */
  search(query: string, opts?: SearchOptions): SearchResult {
    return searchWiki(this.cell.getSnapshot().searchable, query, opts, this.index);
  }

  /** Every match of `query`, best first, in typed arrays (the pane draws a few of them). */
  rank(query: string, opts?: Omit<SearchOptions, 'limit'>): Ranking {
    return rankWiki(this.cell.getSnapshot().searchable, query, opts, this.index);
  }

  /** The `wiki` key of `omc-top --json`: what is indexed, what OMC cannot read, and the lint counts. */
  report(): Record<string, unknown> {
    const snap = this.cell.getSnapshot();
    const lint = this.lint();
    return {
      wiki: {
        dir: snap.dir,
        pages: snap.pages.length,
        searchable: snap.searchable.length,
        not_searchable: snap.pages
          .filter((p) => !p.searchable)
          .map((p) => ({
            file: p.shownName,
            reason: p.issues[0]?.message ?? 'unreadable',
            omc_reads: omcReadsIt(p),
          })),
        categories: snap.categories.map(cleanLine),
        lint: lint.counts,
      },
    };
  }

  /** Drops the remembered token answers (for benchmarks: time a query typed from scratch). */
  forgetSearches(): void {
    this.index.forget();
  }

  /** OMC's wiki_lint findings for the current index (recomputed when a page changes or an hour passes). */
  lint(now = this.clock()): LintReport {
    const snap = this.cell.getSnapshot();
    const hour = Math.floor(now / 3_600_000);
    if (this.lintCache && this.lintCache.version === snap.version && this.lintCache.hour === hour)
      return this.lintCache.report;
    const report = lintWiki(snap.searchable, now);
    this.lintCache = { version: snap.version, hour, report };
    return report;
  }

  /** Updates the directory state; returns its entries, or null when there is nothing to list. */
  private readDirState(): DirEntry[] | null {
    const st = statSync(this.root, WIKI_DIR);
    const prev = this.dirState;
    let next: typeof this.dirState;
    let entries: DirEntry[] | null = null;
    if (!st) next = { dir: 'missing', message: null };
    else if (!st.isDirectory() && !st.isSymbolicLink())
      next = { dir: 'error', message: 'is a file where the wiki directory was expected' };
    else {
      const r = listDirSync(this.root, WIKI_DIR);
      if (r.ok) {
        // A symlinked wiki dir is read only if it stays inside the root: every page read checks that again.
        next = { dir: 'ok', message: null };
        entries = r.entries;
      } else next = r.code === 'missing' ? { dir: 'missing', message: null } : { dir: 'error', message: r.message };
    }
    if (next.dir !== prev.dir || next.message !== prev.message) {
      this.dirState = next;
      this.dirty = true;
    }
    return entries;
  }

  private fileOf(name: string): LastGoodFile<WikiPage> {
    let f = this.entries.get(name);
    if (!f) {
      const toPage = (r: ReadResult): Parsed<WikiPage> => {
        const page = buildPage(name, r, DATE_NOT_SET);
        return { ok: true, value: page, suspect: !page.searchable };
      };
      // Pages are read only when their stat moved, and parsing one costs about what a digest would.
      f = new LastGoodFile(this.root, `${WIKI_DIR}/${name}`, {
        maxBytes: WIKI_PAGE_MAX_BYTES,
        // OMC reads a page with NUL bytes in it as text, and ranks it: so is it read here.
        keepNul: true,
        parse: toPage,
        onReadFailure: toPage,
        remember: 'nothing',
      });
      this.entries.set(name, f);
    }
    return f;
  }

  private readIfChanged(name: string): void {
    this.settle(name, this.fileOf(name).readIfChanged());
  }

  private read(name: string, edge: ReadEdge): void {
    this.settle(name, this.fileOf(name).read(edge));
  }

  /** Forgets a page whose file is gone; marks the index dirty when what it shows changed. */
  private settle(name: string, changed: boolean): void {
    const f = this.entries.get(name);
    if (f?.missing && f.value === undefined) this.entries.delete(name);
    if (changed) this.dirty = true;
  }

  /** Publishes a new snapshot when something changed (and always the first time). */
  private publish(): void {
    if (!this.dirty && this.version > 0) return;
    this.dirty = false;
    const names = [...this.entries.keys()].sort(byListing);
    const pages: WikiPage[] = [];
    // Indexed loops over the pages, and a page's tags counted once each without a Set per page: see "Cold
    // loops" in docs/ARCHITECTURE.md.
    for (let i = 0; i < names.length; i++) {
      const page = this.entries.get(names[i]!)?.value;
      if (page) pages.push(page);
    }
    const searchable = pages.filter((p) => p.searchable);
    const cats = new Set<string>();
    const tagCount = new Map<string, number>();
    for (let i = 0; i < searchable.length; i++) {
      const fm = searchable[i]!.frontmatter!;
      cats.add(fm.category);
      const tags = fm.tags;
      const unique = tags.length <= 16 ? tags : [...new Set(tags)];
      for (let j = 0; j < unique.length; j++) {
        const t = unique[j]!;
        if (unique !== tags || tags.indexOf(t) === j) tagCount.set(t, (tagCount.get(t) ?? 0) + 1);
      }
    }
    const problems: Problem[] = [];
    if (this.dirState.dir === 'error')
      problems.push({ path: WIKI_DIR, message: this.dirState.message ?? 'cannot be read', severity: 'error' });
    for (const p of pages) {
      for (const i of p.issues) {
        if (i.severity !== 'info') problems.push({ path: p.shownRel, message: i.message, severity: i.severity });
      }
    }
    this.version += 1;
    this.cell.set({
      version: this.version,
      dir: this.dirState.dir,
      dirMessage: this.dirState.message,
      pages,
      searchable,
      byName: new Map(pages.map((p) => [p.filename, p])),
      categories: [...cats].sort(byCodeUnits),
      tags: [...tagCount].sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0])),
      problems,
    });
  }
}
