/**
 * `omc-top wiki search QUERY [--limit N] [--json]`: OMC's wiki_query ranking
 * from a script, over the same index the wiki pane uses. Unlike OMC's own
 * query it writes nothing (OMC appends every query to wiki/log.md).
 */
import { fitHelp } from './help-width.js';
import { noRootMessage, resolveOmcRoot } from '../store/root.js';
import { groupDigits } from '../io/group-digits.js';
import { cleanLine } from '../io/sanitize.js';
import { headUnits } from '../io/grapheme-cut.js';
import { printErr, printJson, printOut } from '../io/output.js';
import { WikiDomain } from '../store/wiki/domain.js';
import { omcReadsIt, type WikiPage } from '../store/wiki/page.js';
import { parseArgs, UsageError } from './args.js';
import { shownPath } from '../io/shown-path.js';
import { shownArg } from '../io/shown-arg.js';

export const WIKI_USAGE = `Usage: omc-top wiki search QUERY... [--limit N] [--json] [--category C] [--tag T[,T…]] [--cwd DIR | --root DIR]

Ranks the wiki pages in <.omc>/wiki exactly as OMC's wiki_query does and exits.
  --limit N      at most N results (default 20, as OMC)
  --json         print [{"slug","title","score","snippet"}] (slug = file name without .md)
  --category C   only pages of this category (OMC's category filter)
  --tag T,…      OMC's tags option: +3 per page tag matching (a boost, not a filter)
  --cwd DIR      find the .omc root from DIR;  --root DIR  use DIR as the .omc root
Nothing is written: OMC's own query appends to wiki/log.md, this does not.`;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = {
  limit: 'value',
  json: 'bool',
  category: 'value',
  tag: 'value',
  cwd: 'value',
  root: 'value',
  help: 'bool',
} as const;

/** Far above any wiki's page count: a bound on the list built, not on what a user would ask for. */
const MAX_LIMIT = 100_000;

function parseLimit(v: string | true | undefined): number {
  if (v === undefined) return 20;
  const n = Number(v);
  // The value is the user's: cleaned before it is quoted back.
  const got = shownArg(headUnits(String(v), 40));
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--limit needs a whole number from 1 up, got ${got}`);
  if (n > MAX_LIMIT) throw new UsageError(`--limit is at most ${groupDigits(MAX_LIMIT)}, got ${got}`);
  return n;
}

/** Pages named with why, the first PAGES_NAMED of them; how many more there are (the Wiki pane's L lists all). */
const PAGES_NAMED = 10;
function pageList(pages: readonly WikiPage[]): string {
  const named = pages
    .slice(0, PAGES_NAMED)
    .map((p) => `${p.shownName} (${p.issues[0]?.message ?? 'unreadable'})`)
    .join('; ');
  const more = pages.length - PAGES_NAMED;
  return more > 0 ? `${named}; and ${more} more (the Wiki pane's L lists them all)` : named;
}

export async function runWikiCommand(argv: readonly string[]): Promise<number> {
  // Flags may come before or after "search" (`omc-top wiki --root R search q`).
  const args = parseArgs(argv, FLAGS, { h: 'help', n: 'limit' });
  const [sub, ...words] = args.positionals;
  if (args.flags.has('help') || sub === 'help') {
    printOut(fitHelp(WIKI_USAGE) + '\n');
    return 0;
  }
  if (sub !== 'search') {
    throw new UsageError(
      sub === undefined
        ? 'wiki needs a subcommand: omc-top wiki search QUERY'
        : `unknown wiki subcommand ${JSON.stringify(sub)} (try: omc-top wiki search QUERY)`,
    );
  }
  // A blank query ('' or spaces) searches for nothing: every page would score the same.
  if (words.every((w) => w.trim() === ''))
    throw new UsageError('wiki search needs a QUERY (a blank one matches nothing)');
  if (args.flags.has('cwd') && args.flags.has('root')) throw new UsageError('use either --cwd or --root, not both');
  const limit = parseLimit(args.flags.get('limit'));
  const query = words.join(' ');
  const tagFlag = args.flags.get('tag');
  const tags =
    typeof tagFlag === 'string'
      ? tagFlag
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : undefined;
  const category = args.flags.get('category') as string | undefined;
  const json = args.flags.has('json');

  const res = resolveOmcRoot({
    cwd: (args.flags.get('cwd') as string | undefined) ?? process.cwd(),
    rootOverride: args.flags.get('root') as string | undefined,
  });
  if (!res.exists) {
    printErr(`omc-top: ${cleanLine(`${noRootMessage(res)}; looked in: ${res.looked.map(shownPath).join(', ')}`)}\n`);
    return 2;
  }
  const wiki = new WikiDomain({ root: res.root });
  wiki.scan();
  const snap = wiki.getSnapshot();
  const result = wiki.search(query, { limit, tags, category });

  if (snap.dir !== 'ok')
    printErr(
      `omc-top: ${snap.dir === 'missing' ? `no wiki yet at ${shownPath(res.root)}/wiki` : `${shownPath(res.root)}/wiki: ${snap.dirMessage}`}\n`,
    );
  const notSearched = snap.pages.filter((p) => !p.searchable);
  const tooLarge = notSearched.filter(omcReadsIt);
  const skipped = notSearched.filter((p) => !omcReadsIt(p));
  if (skipped.length > 0)
    printErr(`omc-top: ${skipped.length} wiki page(s) not searched, as OMC skips them too: ${pageList(skipped)}\n`);
  if (tooLarge.length > 0)
    printErr(
      `omc-top: ${tooLarge.length} wiki page(s) too large for omc-top, not searched: OMC reads ${tooLarge.length === 1 ? 'it' : 'them'}, so its own ranking can hold ${tooLarge.length === 1 ? 'it' : 'them'}: ${pageList(tooLarge)}\n`,
    );

  if (json) {
    const rows = result.hits.map((h) => ({
      slug: h.page.filename.replace(/\.md$/, ''),
      title: h.page.frontmatter?.title ?? '',
      score: h.score,
      snippet: h.snippet,
    }));
    printJson(rows);
    return 0;
  }
  if (result.hits.length === 0) {
    printOut(
      `No wiki pages match ${shownArg(query)} (searched ${snap.searchable.length} page(s) in ${shownPath(res.root)}/wiki).\n`,
    );
    return 0;
  }
  const lines: string[] = [];
  result.hits.forEach((h, i) => {
    const fm = h.page.frontmatter;
    lines.push(`${i + 1}. ${cleanLine(fm?.title ?? '')}  [${cleanLine(fm?.category ?? '')}]  score ${h.score}`);
    lines.push(
      `   ${cleanLine(h.page.filename)}${fm && fm.tags.length > 0 ? `  tags: ${fm.tags.map(cleanLine).join(', ')}` : ''}`,
    );
    lines.push(`   ${cleanLine(h.snippet)}`);
  });
  if (result.total > result.hits.length)
    lines.push(`(${result.hits.length} of ${result.total} matches; --limit N for more)`);
  printOut(lines.join('\n') + '\n');
  return 0;
}
