/**
 * One wiki page as omc-top indexes it: OMC's parsed view of the file (what
 * wiki_query searches), the lower-cased search fields prepared once per file
 * change (never per keystroke), sanitised display strings, and the reasons
 * the page is odd (problem badges). The body is held once (see fold.ts).
 */
import type { ReadResult } from '../../io/safe-fs/index.js';
import { formatBytes } from '../../io/safe-fs/index.js';
import { cleanLine } from '../../io/sanitize.js';
import { shownPath } from '../../io/shown-path.js';
import { foldText, originalSlice, type FoldedText } from './fold.js';
import { explainUnparseable, parseWikiPage, type WikiFrontmatter } from './frontmatter.js';
import { wikiLinkTargets } from './slug.js';

/** Files larger than this are listed with a badge but not indexed (OMC has no limit; memory here does). */
export const WIKI_PAGE_MAX_BYTES = 8 * 1024 * 1024;
/** Pages above this get a "huge" badge and the page view shows only their start. */
export const WIKI_HUGE_BYTES = 1024 * 1024;

export type IssueKind =
  | 'unparseable'
  | 'bom'
  | 'bad-name'
  | 'invalid-utf8'
  | 'crlf'
  | 'huge'
  | 'unreadable'
  /** Past omc-top's read limit: OMC reads it (it has none), so its own ranking can hold this page. */
  | 'too-large';

export interface PageIssue {
  kind: IssueKind;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

export interface WikiPage {
  /** The page's identity: its file name, or for a name that is not UTF-8 its key (notUtf8Key). */
  readonly filename: string;
  /** Path relative to the .omc root (for a name that is not UTF-8: none that opens it, see nameBytes). */
  readonly rel: string;
  /** The file name as a user sees it: every byte, a control as an escape and one that is not UTF-8 as \xNN. */
  readonly shownName: string;
  /** `wiki/<shownName>`: the page's path in a problem line, `--json` and the page view. */
  readonly shownRel: string;
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number;
  /** OMC's readers can read this page: it takes part in search and lint. */
  readonly searchable: boolean;
  readonly frontmatter: WikiFrontmatter | null;
  /** Body as OMC sees it ('' when unparseable). Rebuilt on each read once indexed: prefer bodySlice. */
  readonly content: string;
  /** `content.length`. */
  readonly bodyLength: number;
  /** `content.slice(start, end)`, without rebuilding the whole body. */
  bodySlice(start: number, end: number): string;
  /**
   * Folds the body now (see fold.ts) if it is not yet: the file's text can then go. Returns the
   * characters of original text this let go (0 if it was folded already).
   */
  foldBody(): number;
  readonly titleLower: string;
  readonly tagsLower: readonly string[];
  /**
   * The lower-cased tags joined by "\n": a search token never contains white space, so it is in this
   * string exactly when some tag contains it (one search instead of a loop over the tags).
   */
  readonly tagsJoined: string;
  readonly contentLower: string;
  readonly bodyBytes: number;
  readonly updatedMs: number;
  /** `[[Name]]` references in the body, as file names (followable from the page view). */
  readonly bodyLinks: readonly string[];
  /** The raw text of a page OMC cannot parse, so the user can see what is wrong with it. */
  readonly rawText: string | null;
  readonly issues: readonly PageIssue[];
  readonly display: { title: string; category: string; confidence: string; tags: string[] };
}

export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/**
 * One copy of each short string many pages share (categories, confidences, tags and their lower-cased
 * and display forms): at 20,000 pages the same few dozen tags were ~60,000 strings. Bounded, so a wiki
 * of ever-new tags cannot grow it without end (it starts over, and pages keep what they hold).
 */
const shared = new Map<string, string>();
const SHARED_MAX = 20_000;
function intern(s: string): string {
  if (s.length > 64) return ownCopy(s);
  const hit = shared.get(s);
  if (hit !== undefined) return hit;
  if (shared.size >= SHARED_MAX) shared.clear();
  const own = ownCopy(s);
  shared.set(own, own);
  return own;
}

/**
 * `s` as a string of its own. V8 cuts a substring of 13 or more characters as a view into the string it was
 * cut from, which stays alive as long as the view does: the frontmatter's values are cuts of the file's
 * whole text, which would outlive the folding of the body (page.ts keeps only the folded form). Joining two
 * pieces of it writes one new flat string of its length. (structuredClone of the whole frontmatter did the
 * same at ~4× the cost; slicing a concatenation also copies, but keeps a 32-byte view on top of the copy.)
 */
function ownCopy(s: string): string {
  return s.length < 13 ? s : [s.charAt(0), s.slice(1)].join('');
}

/**
 * The key of a page whose file name is not UTF-8: its shown name (its bytes, each bad one as \xNN) after a NUL, which
 * no file name holds. Two names that decode alike (both `caf\ufffd.md` as Node gives them) are two pages, and
 * neither is taken for a UTF-8 name that happens to spell the same escapes.
 */
export const notUtf8Key = (shownName: string) => `\u0000${shownName}`;
const NOT_UTF8_MARK = '\u0000';

/** Whether a page's identity is notUtf8Key's: its file has no text name. */
export const isNotUtf8Key = (filename: string): boolean => filename.startsWith(NOT_UTF8_MARK);

/** A page's name as a path is shown (problem lines, --json, the lint list), from its identity. */
export const shownPageName = (filename: string): string =>
  isNotUtf8Key(filename) ? filename.slice(NOT_UTF8_MARK.length) : shownPath(filename);

/**
 * A page's name in the page view's text (its file line, a page gone while read): by its bytes when it is not UTF-8,
 * as everywhere; a UTF-8 one cleaned as the page's text is, an escape sequence dropped with its contents
 * (test/hostile/knowledge-files.test.ts).
 */
export const pageNameText = (filename: string): string =>
  isNotUtf8Key(filename) ? shownPageName(filename) : cleanLine(filename);

const displayOf = (filename: string, fm: WikiFrontmatter | null): WikiPage['display'] => ({
  // A name that is not UTF-8 is shown by its bytes, as everywhere else; a UTF-8 one is text like the title.
  title: cleanLine(fm?.title || (isNotUtf8Key(filename) ? shownPageName(filename) : filename).replace(/\.md$/, '')),
  category: intern(cleanLine(fm?.category ?? '—')),
  confidence: intern(cleanLine(fm?.confidence ?? '—')),
  tags: (fm?.tags ?? []).map((t) => intern(cleanLine(t))),
});

/**
 * The parse's frontmatter (a fresh object of this read's), changed in place to strings of its own (see
 * ownCopy), the ones many pages share interned (see intern): no second object per page.
 */
function ownFrontmatter(fm: WikiFrontmatter): WikiFrontmatter {
  const sameDates = fm.updated === fm.created;
  fm.title = ownCopy(fm.title);
  fm.created = ownCopy(fm.created);
  // A page OMC has not edited since it wrote it has the two equal: one copy for both.
  fm.updated = sameDates ? fm.created : ownCopy(fm.updated);
  // New arrays, not the parse's: those come from filter(), which leaves room to grow (~120 bytes each, kept
  // for good); map() makes them exactly as long as they are.
  fm.tags = fm.tags.map(intern);
  fm.sources = fm.sources.map(ownCopy);
  fm.links = fm.links.map(ownCopy);
  fm.category = intern(fm.category);
  fm.confidence = intern(fm.confidence);
  return fm;
}

/** What a page is besides its body; the body goes to IndexedPage separately. */
interface PageFields {
  filename: string;
  stamp: FileStamp;
  frontmatter: WikiFrontmatter | null;
  issues: PageIssue[];
  rawText: string | null;
}

/**
 * One class for every page, so V8 gives them one fixed shape (an object literal with getters and a spread
 * ended up in dictionary mode: ~850 bytes a page). The body is held once: the original text until the
 * search index is first needed, then only its folded form (lower-cased text + the capitals, see fold.ts).
 */
class IndexedPage implements WikiPage {
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number;
  readonly searchable: boolean;
  readonly titleLower: string;
  readonly tagsLower: readonly string[];
  readonly tagsJoined: string;
  readonly bodyLength: number;
  readonly bodyBytes: number;
  readonly updatedMs: number;
  readonly filename: string;
  readonly frontmatter: WikiFrontmatter | null;
  readonly issues: readonly PageIssue[];
  readonly rawText: string | null;
  /** The original body, until it is folded. */
  private text: string | null;
  private folded: FoldedText | null = null;
  /** bodyLinks and display, once asked for. */
  private links: readonly string[] | null = null;
  private shown: WikiPage['display'] | null = null;

  constructor(f: PageFields, body: string) {
    this.filename = f.filename;
    this.mtimeMs = f.stamp.mtimeMs;
    this.size = f.stamp.size;
    this.ino = f.stamp.ino;
    this.frontmatter = f.frontmatter;
    this.issues = f.issues;
    this.rawText = f.rawText;
    const fm = f.frontmatter;
    this.searchable = fm !== null;
    this.titleLower = fm ? fm.title.toLowerCase() : '';
    this.tagsLower = fm ? fm.tags.map((t) => intern(t.toLowerCase())) : [];
    this.tagsJoined = this.tagsLower.join('\n');
    this.text = body;
    this.bodyLength = body.length;
    this.bodyBytes = fm ? Buffer.byteLength(body, 'utf8') : 0;
    this.updatedMs = fm ? new Date(fm.updated).getTime() : Number.NaN;
  }

  private fold(): FoldedText {
    if (this.folded === null) {
      this.folded = foldText(this.text ?? '');
      this.text = null;
    }
    return this.folded;
  }

  /**
   * Found when first asked (only the page view follows them): a scan of every body at the first read was
   * ~15 ms of 5,000 pages, and an array per page. The body it reads is the file's, folded or not (fold.ts).
   */
  get bodyLinks(): readonly string[] {
    return (this.links ??= this.searchable ? wikiLinkTargets(this.content) : []);
  }

  /** Sanitised when first drawn (a row on screen, the page view), not for every page at the first read. */
  get display(): WikiPage['display'] {
    return (this.shown ??= displayOf(this.filename, this.frontmatter));
  }

  /** Built when asked (problem lines, the page view): not a string per page held for good. */
  get rel(): string {
    return `wiki/${this.filename}`;
  }

  /** Built when asked, as rel is. */
  get shownName(): string {
    return shownPageName(this.filename);
  }

  get shownRel(): string {
    return `wiki/${this.shownName}`;
  }

  foldBody(): number {
    if (this.folded !== null) return 0;
    this.fold();
    return this.bodyLength;
  }

  get content(): string {
    return this.text ?? originalSlice(this.fold());
  }

  get contentLower(): string {
    return this.fold().lower;
  }

  bodySlice(start: number, end: number): string {
    return this.text !== null ? this.text.slice(start, end) : originalSlice(this.fold(), start, end);
  }
}

function emptyPage(filename: string, stamp: FileStamp, issues: PageIssue[], rawText: string | null): WikiPage {
  return new IndexedPage({ filename, stamp, frontmatter: null, issues, rawText }, '');
}

/** A page omc-top does not search that OMC reads all the same (past omc-top's read limit). */
export function omcReadsIt(page: WikiPage): boolean {
  return page.issues.some((i) => i.kind === 'too-large');
}

/** OMC refuses to read names with a path separator or ".." in them (its safeWikiPath). */
export function omcRefusesName(filename: string): boolean {
  return filename.includes('/') || filename.includes('\\') || filename.includes('..');
}

/** The raw text of a page OMC cannot read, as much of it as the page view shows. */
const rawCut = (t: string) => (t.length > 64 * 1024 ? t.slice(0, 64 * 1024) : t);

/** Builds the index entry for one file from its read result. */
export function buildPage(filename: string, r: ReadResult, nowIso: string): WikiPage {
  if (!r.ok) {
    const stamp = { mtimeMs: -1, size: -1, ino: -1 };
    // fsx messages can quote a path from the filesystem: clean it like any other text from disk.
    const tooLarge = r.code === 'too-large';
    const message = cleanLine(
      tooLarge ? `${r.message} (OMC reads it; omc-top does not search it)` : `${r.message}; not indexed`,
    );
    return emptyPage(
      filename,
      stamp,
      [{ kind: tooLarge ? 'too-large' : 'unreadable', severity: 'error', message }],
      null,
    );
  }
  const stamp = { mtimeMs: r.mtimeMs, size: r.bytes, ino: r.ino };
  const issues: PageIssue[] = [];
  if (r.invalidUtf8) {
    issues.push({
      kind: 'invalid-utf8',
      severity: 'warning',
      message: 'contains bytes that are not valid UTF-8 (shown as �, as OMC reads them)',
    });
  }
  if (r.text.includes('\r\n')) {
    issues.push({
      kind: 'crlf',
      severity: 'info',
      message: 'CRLF line endings (OMC reads them; its own writes use LF)',
    });
  }
  if (r.bytes > WIKI_HUGE_BYTES) {
    issues.push({
      kind: 'huge',
      severity: 'warning',
      message: `huge page (${formatBytes(r.bytes)}); the page view shows its first 512 KB`,
    });
  }
  if (omcRefusesName(filename)) {
    issues.unshift({
      kind: 'bad-name',
      severity: 'warning',
      message: 'file name contains ".." or "\\": OMC refuses to read it',
    });
    return emptyPage(filename, stamp, issues, rawCut(r.text));
  }
  if (r.bom) {
    // fsx removed the byte-order mark; OMC keeps it, and then its frontmatter pattern no longer matches.
    issues.unshift({ kind: 'bom', severity: 'warning', message: explainUnparseable('\ufeff' + r.text) });
    return emptyPage(filename, stamp, issues, rawCut(r.text));
  }
  const parsed = parseWikiPage(r.text, nowIso);
  if (!parsed) {
    issues.unshift({ kind: 'unparseable', severity: 'warning', message: explainUnparseable(r.text) });
    return emptyPage(filename, stamp, issues, rawCut(r.text));
  }
  // The body's lower-cased text and the search index (search-index.ts) are built on first use, not
  // here: the first read of a big wiki does not wait for them, and the domain builds them after the read
  // (WikiDomain.warmSearch, once the store is live), before anyone types.
  // The frontmatter's strings are slices of the file's text, and a V8 slice keeps its whole parent alive:
  // copied, they let the file's text go once the body is folded.
  const frontmatter = ownFrontmatter(parsed.frontmatter);
  return new IndexedPage({ filename, stamp, frontmatter, issues, rawText: null }, parsed.content);
}

const NOT_UTF8_NAME =
  'file name is not valid UTF-8: OMC cannot open it by the name it lists (its readers skip it), so it is not searched; rename it';

/**
 * A page whose file name is not UTF-8, read by its bytes (safe-fs readTextByNameSync): OMC lists it by the name
 * Node decodes (U+FFFD), which opens nothing, so its readers skip it; it is not searched. Its text is kept to be
 * read in the page view, like any page OMC cannot read, with the reason and what to do.
 */
export function notUtf8NamePage(key: string, r: ReadResult): WikiPage {
  const issues: PageIssue[] = [{ kind: 'bad-name', severity: 'error', message: NOT_UTF8_NAME }];
  if (!r.ok) {
    issues.push({ kind: 'unreadable', severity: 'error', message: cleanLine(`${r.message}; not indexed`) });
    return emptyPage(key, { mtimeMs: -1, size: -1, ino: -1 }, issues, null);
  }
  return emptyPage(key, { mtimeMs: r.mtimeMs, size: r.bytes, ino: r.ino }, issues, rawCut(r.text));
}

/** A listing entry that is not a readable file at all (a directory named *.md, a dangling symlink…). */
export function entryProblemPage(filename: string, message: string): WikiPage {
  return emptyPage(
    filename,
    { mtimeMs: -1, size: -1, ino: -1 },
    [{ kind: 'unreadable', severity: 'error', message: cleanLine(message) }],
    null,
  );
}
