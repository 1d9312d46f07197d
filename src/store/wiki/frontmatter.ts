/**
 * Wiki page frontmatter, read exactly the way OMC reads it
 * (OMC 5.5.0: dist/hooks/wiki/storage.js), so that the pages omc-top can search are
 * the pages OMC's wiki_query can search, with the same field values:
 *
 * - CRLF is turned into LF first (lone CR stays);
 * - the file must be `---\n<yaml>\n---\n<body>`: the closing fence needs its
 *   newline, otherwise OMC skips the page;
 * - each YAML line is split at its first ":"; a value wrapped in matching
 *   quotes loses them and gets `\\`, `\"`, `\n`, `\r` unescaped;
 * - arrays are one-line `[a, b]` split on "," (so a comma inside a quoted item
 *   splits it, as in OMC); a bare scalar is a one-item array;
 * - defaults: title "", created/updated = now (omc-top passes DATE_NOT_SET: see there), category "reference",
 *   confidence "medium", schemaVersion 1.
 */

export const WIKI_SCHEMA_VERSION = 1;

/**
 * What omc-top's own read gives a page's missing `created`/`updated` (parseWikiPage's `nowIso`): OMC fills them
 * with the time of each of its reads, a time no file holds; omc-top keeps them not set rather than invent one.
 * An unset `updated` is then never stale, as in OMC's wiki_lint, which reads it as the moment it lints.
 */
export const DATE_NOT_SET = '';

export const WIKI_CATEGORIES = [
  'architecture',
  'decision',
  'pattern',
  'debugging',
  'environment',
  'session-log',
  'reference',
  'convention',
] as const;

export interface WikiFrontmatter {
  title: string;
  tags: string[];
  created: string;
  updated: string;
  sources: string[];
  links: string[];
  /** Any string: OMC does not check it against WIKI_CATEGORIES when reading. */
  category: string;
  confidence: string;
  schemaVersion: number;
}

export interface ParsedPage {
  frontmatter: WikiFrontmatter;
  /** The body after the closing fence, CRLF already normalised (what OMC searches). */
  content: string;
}

const ESCAPE_RE = /\\(\\|"|n|r)/g;

function unescapeYaml(s: string): string {
  // Most values hold no backslash: a replace with a callback per value was ~40 % of reading 5,000 pages.
  if (s.indexOf('\\') === -1) return s;
  return s.replace(ESCAPE_RE, (_m, ch: string) => (ch === 'n' ? '\n' : ch === 'r' ? '\r' : ch));
}

const isQuote = (c: number) => c === 0x22 || c === 0x27;

/**
 * OMC's `item.replace(/^["']|["']$/g, '')` on an array item: one quote (either kind) off the start and one off
 * the end, the end's only if it is not the start's (a lone `"` becomes ""). Written out: a regex replace per
 * item was a fifth of reading 5,000 pages.
 */
function stripItemQuotes(item: string): string {
  const n = item.length;
  if (n === 0) return item;
  const from = isQuote(item.charCodeAt(0)) ? 1 : 0;
  const to = n > from && isQuote(item.charCodeAt(n - 1)) ? n - 1 : n;
  return from === 0 && to === n ? item : item.slice(from, to);
}

function isQuoted(v: string): boolean {
  // A lone `"` counts as quoted too (starts and ends with the quote); OMC turns it into "".
  return (v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"));
}

/** The frontmatter keys OMC reads: every other key of the YAML block is skipped. */
interface YamlFields {
  title?: string;
  tags?: string;
  created?: string;
  updated?: string;
  sources?: string;
  links?: string;
  category?: string;
  confidence?: string;
  schemaVersion?: string;
}
type YamlKey = keyof YamlFields;
/** The keys OMC reads from a page's frontmatter, in one place (the fast compare and the trimmed fallback). */
const YAML_KEYS: readonly YamlKey[] = [
  'title',
  'tags',
  'created',
  'updated',
  'sources',
  'links',
  'category',
  'confidence',
  'schemaVersion',
];
const isYamlKey = (k: string): k is YamlKey => (YAML_KEYS as readonly string[]).includes(k);

/**
 * `block.slice(from, to).trim()` when that is a key OMC reads, else null, without making the key string: a line's
 * key with no space around it (how OMC writes them) is compared in place; only a key with something trim() would
 * remove at either end is sliced and trimmed (a string per line was ~45,000 strings at 5,000 pages).
 */
function yamlKeyAt(block: string, from: number, to: number): YamlKey | null {
  const len = to - from;
  if (len === 0) return null;
  const first = block.charCodeAt(from);
  const last = block.charCodeAt(to - 1);
  // Printable ASCII at both ends: nothing for trim() to take away.
  if (first > 32 && first < 127 && last > 32 && last < 127) {
    for (let i = 0; i < YAML_KEYS.length; i++) {
      const k = YAML_KEYS[i]!;
      if (k.length === len && block.startsWith(k, from)) return k;
    }
    return null;
  }
  const key = block.slice(from, to).trim();
  return isYamlKey(key) ? key : null;
}

/**
 * key → raw value for the keys OMC reads; later keys win ("__proto__" and the like are never stored). Walks the
 * block's lines in place into one fixed-shape object: a Map of every key and an array of every line, per page,
 * were ~5 % of what the start-up read of 5,000 pages allocated.
 */
function readYamlLines(block: string): YamlFields {
  const out: YamlFields = {
    title: undefined,
    tags: undefined,
    created: undefined,
    updated: undefined,
    sources: undefined,
    links: undefined,
    category: undefined,
    confidence: undefined,
    schemaVersion: undefined,
  };
  // The next ":" at or after the line's start, found once for all the lines before it (linear in the block).
  let colon = -1;
  for (let start = 0; start <= block.length;) {
    let end = block.indexOf('\n', start);
    if (end === -1) end = block.length;
    if (colon < start && colon !== Infinity) {
      colon = block.indexOf(':', start);
      if (colon === -1) colon = Infinity;
    }
    if (colon < end) {
      const key = yamlKeyAt(block, start, colon);
      if (key !== null) {
        let value = block.slice(colon + 1, end).trim();
        if (isQuoted(value)) value = unescapeYaml(value.slice(1, -1));
        out[key] = value;
      }
    }
    start = end + 1;
  }
  return out;
}

function readArray(value: string | undefined): string[] {
  if (!value) return [];
  const v = value.trim();
  if (v.startsWith('[') && v.endsWith(']')) {
    return v
      .slice(1, -1)
      .split(',')
      .map((item) => unescapeYaml(stripItemQuotes(item.trim())))
      .filter((item) => item !== '');
  }
  return v ? [v] : [];
}

/**
 * Parses a page the way OMC does; null when OMC would skip the page.
 * `nowIso` stands in for OMC's `new Date().toISOString()` defaults.
 */
export function parseWikiPage(raw: string, nowIso: string): ParsedPage | null {
  const text = raw.includes('\r\n') ? raw.replace(/\r\n/g, '\n') : raw;
  // OMC's /^---\n([\s\S]*?)\n---\n([\s\S]*)$/: the block runs from after the opening fence to the first
  // "\n---\n" at or after it (the lazy group may be empty); the body is everything after that. Found with
  // indexOf: the regex walked every body to its end (~10 % of reading 5,000 pages).
  if (!text.startsWith('---\n')) return null;
  const close = text.indexOf('\n---\n', 4);
  if (close === -1) return null;
  const y = readYamlLines(text.slice(4, close));
  return {
    frontmatter: {
      title: y.title || '',
      tags: readArray(y.tags),
      created: y.created || nowIso,
      updated: y.updated || nowIso,
      sources: readArray(y.sources),
      links: readArray(y.links),
      category: y.category || 'reference',
      confidence: y.confidence || 'medium',
      schemaVersion: Number(y.schemaVersion) || WIKI_SCHEMA_VERSION,
    },
    content: text.slice(close + 5),
  };
}

/**
 * Why OMC cannot read a page, in words a user can act on (only called when
 * parseWikiPage returned null).
 */
export function explainUnparseable(raw: string): string {
  const text = raw.replace(/\r\n/g, '\n');
  if (text.charCodeAt(0) === 0xfeff)
    return 'starts with a byte-order mark, so OMC does not see its frontmatter and skips the page';
  if (!text.startsWith('---\n')) return 'no frontmatter: the file must start with a "---" line; OMC skips the page';
  const rest = text.slice(4);
  if (rest.startsWith('---\n') || rest === '---') return 'empty frontmatter block ("---" twice): OMC skips the page';
  if (!/\n---\n/.test(text.slice(3))) {
    return /\n---$/.test(text)
      ? 'the closing "---" has no newline after it: OMC skips the page'
      : 'frontmatter is never closed (no "---" line after it): OMC skips the page';
  }
  return 'frontmatter OMC cannot parse: OMC skips the page';
}

function escapeYaml(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** Writes a page the way OMC serialises it (field order and quoting), for page creation and tests. */
export function serializeWikiPage(fm: WikiFrontmatter, content: string): string {
  const list = (xs: readonly string[]) => `[${xs.map((x) => `"${escapeYaml(x)}"`).join(', ')}]`;
  return [
    '---',
    `title: "${escapeYaml(fm.title)}"`,
    `tags: ${list(fm.tags)}`,
    `created: ${fm.created}`,
    `updated: ${fm.updated}`,
    `sources: ${list(fm.sources)}`,
    `links: ${list(fm.links)}`,
    `category: ${fm.category}`,
    `confidence: ${fm.confidence}`,
    `schemaVersion: ${fm.schemaVersion}`,
    '---',
    content,
  ].join('\n');
}
