/**
 * One wiki page as omc-top indexes it: OMC's parsed view of the file (what
 * wiki_query searches), the lower-cased search fields prepared once per file
 * change (never per keystroke), sanitised display strings, and the reasons
 * the page is odd (problem badges).
 */
import type { ReadResult } from '../fsx.js';
import { formatBytes } from '../fsx.js';
import { cleanLine } from '../sanitize.js';
import { buildCharFilter, type CharFilter } from './bloom.js';
import { explainUnparseable, parseWikiPage, type WikiFrontmatter } from './frontmatter.js';
import { wikiLinkTargets } from './slug.js';

/** Files larger than this are listed with a badge but not indexed (OMC has no limit; memory here does). */
export const WIKI_PAGE_MAX_BYTES = 8 * 1024 * 1024;
/** Pages above this get a "huge" badge and the page view shows only their start. */
export const WIKI_HUGE_BYTES = 1024 * 1024;

export type IssueKind = 'unparseable' | 'bom' | 'bad-name' | 'invalid-utf8' | 'crlf' | 'huge' | 'unreadable';

export interface PageIssue {
  kind: IssueKind;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

export interface WikiPage {
  filename: string;
  /** Path relative to the .omc root. */
  rel: string;
  mtimeMs: number;
  size: number;
  ino: number;
  /** OMC's readers can read this page: it takes part in search and lint. */
  searchable: boolean;
  frontmatter: WikiFrontmatter | null;
  /** Body as OMC sees it ('' when unparseable). */
  content: string;
  titleLower: string;
  tagsLower: string[];
  contentLower: string;
  filter: CharFilter | null;
  bodyBytes: number;
  updatedMs: number;
  /** `[[Name]]` references in the body, as file names (followable from the page view). */
  bodyLinks: string[];
  /** The raw text of a page OMC cannot parse, so the user can see what is wrong with it. */
  rawText: string | null;
  issues: PageIssue[];
  display: { title: string; category: string; confidence: string; tags: string[] };
}

export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

const displayOf = (filename: string, fm: WikiFrontmatter | null): WikiPage['display'] => ({
  title: cleanLine(fm?.title || filename.replace(/\.md$/, '')),
  category: cleanLine(fm?.category ?? '—'),
  confidence: cleanLine(fm?.confidence ?? '—'),
  tags: (fm?.tags ?? []).map((t) => cleanLine(t)),
});

function emptyPage(filename: string, stamp: FileStamp, issues: PageIssue[], rawText: string | null): WikiPage {
  return {
    filename,
    rel: `wiki/${filename}`,
    ...stamp,
    searchable: false,
    frontmatter: null,
    content: '',
    titleLower: '',
    tagsLower: [],
    contentLower: '',
    filter: null,
    bodyBytes: 0,
    updatedMs: Number.NaN,
    bodyLinks: [],
    rawText,
    issues,
    display: displayOf(filename, null),
  };
}

/** OMC refuses to read names with a path separator or ".." in them (its safeWikiPath). */
export function omcRefusesName(filename: string): boolean {
  return filename.includes('/') || filename.includes('\\') || filename.includes('..');
}

/** Builds the index entry for one file from its read result. */
export function buildPage(filename: string, r: ReadResult, nowIso: string): WikiPage {
  if (!r.ok) {
    const stamp = { mtimeMs: -1, size: -1, ino: -1 };
    // fsx messages can quote a path from the filesystem: clean it like any other text from disk.
    const message = cleanLine(
      r.code === 'too-large'
        ? `${r.message} (OMC still reads it; omc-top does not index it)`
        : `${r.message}; not indexed`,
    );
    return emptyPage(filename, stamp, [{ kind: 'unreadable', severity: 'error', message }], null);
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
  const rawCut = (t: string) => (t.length > 64 * 1024 ? t.slice(0, 64 * 1024) : t);
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
  const { frontmatter: fm, content } = parsed;
  // The search index of the body (lower-cased text, character-pair filter) is built on first use, not
  // here: the first read of a big wiki does not wait for it, and the domain builds it after the read
  // (WikiDomain.warmIndex), before anyone types.
  let lower: string | undefined;
  let filter: CharFilter | undefined;
  return {
    filename,
    rel: `wiki/${filename}`,
    ...stamp,
    searchable: true,
    frontmatter: fm,
    content,
    titleLower: fm.title.toLowerCase(),
    tagsLower: fm.tags.map((t) => t.toLowerCase()),
    get contentLower() {
      return (lower ??= content.toLowerCase());
    },
    get filter() {
      return (filter ??= buildCharFilter(this.contentLower));
    },
    bodyBytes: Buffer.byteLength(content, 'utf8'),
    updatedMs: new Date(fm.updated).getTime(),
    bodyLinks: wikiLinkTargets(content),
    rawText: null,
    issues,
    display: displayOf(filename, fm),
  };
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
