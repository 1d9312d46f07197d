/**
 * `omc-top wiki search` as a script runs it (the real bundle, a child
 * process): the same ranking as OMC's queryWiki, the documented JSON shape,
 * --limit, --root/--cwd, clear usage errors, and no write to log.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { FIXTURE_TREE } from '../helpers/fixtures.js';
import { omcWikiQuery } from '../helpers/omc-knowledge.js';
import { BIN } from '../helpers/pty.js';

function run(args: string[], cwd = process.cwd()) {
  const env = { ...process.env };
  delete env.OMC_STATE_DIR;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('omc-top wiki search', () => {
  it('--json prints [{slug,title,score,snippet}] in OMC queryWiki order, from --cwd, and leaves log.md alone', async ({
    project: p,
  }) => {
    const log = path.join(p.root, 'wiki', 'log.md');
    const before = fs.readFileSync(log, 'utf8');
    const r = run(['wiki', 'search', 'checkout', '--json', '--cwd', p.dir]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(fs.readFileSync(log, 'utf8')).toBe(before);

    const { queryWiki } = await omcWikiQuery();
    const omc = (queryWiki(p.dir, 'checkout') as any[]).map((m) => ({
      slug: m.page.filename.replace(/\.md$/, ''),
      title: m.page.frontmatter.title,
      score: m.score,
      snippet: m.snippet,
    }));
    expect(rows).toEqual(omc);
    expect(Object.keys(rows[0])).toEqual(['slug', 'title', 'score', 'snippet']);
  });

  it('names a page too large for omc-top apart from those OMC skips: OMC ranks it, so the list can differ', async ({
    project: p,
  }) => {
    const wiki = path.join(p.root, 'wiki');
    const page = (title: string, body: string) =>
      `---\ntitle: "${title}"\ntags: []\ncreated: 2026-11-01T00:00:00.000Z\nupdated: 2026-11-01T00:00:00.000Z\nsources: []\nlinks: []\ncategory: reference\nconfidence: medium\nschemaVersion: 1\n---\n${body}\n`;
    fs.writeFileSync(path.join(wiki, 'big-zebra.md'), page('Big zebra', 'zebra ' + 'x'.repeat(9 * 1024 * 1024)));
    fs.writeFileSync(path.join(wiki, 'no-fm-zebra.md'), '# zebra without frontmatter\n');
    const r = run(['wiki', 'search', 'zebra', '--json', '--cwd', p.dir]);
    expect(r.code).toBe(0);
    const { queryWiki } = await omcWikiQuery();
    expect((queryWiki(p.dir, 'zebra') as any[]).map((m) => m.page.filename)).toContain('big-zebra.md');
    expect(r.stderr).toMatch(/1 wiki page\(s\) not searched, as OMC skips them too: no-fm-zebra\.md \(no frontmatter/);
    expect(r.stderr).toMatch(
      /1 wiki page\(s\) too large for omc-top, not searched: OMC reads it, so its own ranking can hold it: big-zebra\.md/,
    );
    expect(r.stderr).not.toMatch(/big-zebra\.md[^\n]*as OMC skips/);
  });

  it('joins words into one query, honours --limit, --category and --tag like OMC, and works with --root', async () => {
    const r = run([
      'wiki',
      'search',
      'flaky',
      'test',
      '--tag',
      'vitest',
      '--limit',
      '1',
      '--json',
      '--root',
      FIXTURE_TREE,
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({ slug: 'vitest-flaky-test-debugging', title: 'Vitest Flaky Test Debugging', score: 14 }),
    ]);
    const none = run(['wiki', 'search', 'cents', '--category', 'architecture', '--root', FIXTURE_TREE]);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^No wiki pages match "cents" \(searched 10 page\(s\) in /);
    expect(
      run(['wiki', 'search', 'cents', '--category', 'architecture', '--json', '--root', FIXTURE_TREE]).stdout.trim(),
    ).toBe('[]');
  });

  it('prints readable text: rank, title, category, score, file, tags, snippet', () => {
    const r = run(['wiki', 'search', 'checkout', '--root', FIXTURE_TREE]);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      '1. Checkout Flow Architecture  [architecture]  score 8',
      '   checkout-flow-architecture.md  tags: checkout, architecture, react',
      '   # Checkout Flow Architecture The checkout flow is split into three steps: cart review, ad...',
    ]);
  });

  it('keeps control bytes from page text off the terminal in text and JSON output', ({ emptyProject: p }) => {
    fs.mkdirSync(path.join(p.root, 'wiki'));
    fs.writeFileSync(
      path.join(p.root, 'wiki', 'evil.md'),
      '---\ntitle: "Evil \u001b]0;owned\u0007 page"\ntags: ["x"]\ncategory: reference\n---\n\nboom \u001b[2J \u009b31m here\n',
    );
    const text = run(['wiki', 'search', 'boom', '--root', p.root]);
    expect(text.stdout).toContain('Evil  page');
    expect(text.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    const json = run(['wiki', 'search', 'boom', '--json', '--root', p.root]);
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    // Same value once parsed: escaping is only a safe spelling.
    expect(JSON.parse(json.stdout)[0].snippet).toContain('\u009b31m');
  });

  it('cuts a snippet at a grapheme boundary, never inside an emoji; JSON escapes the joiners', ({
    emptyProject: p,
  }) => {
    fs.mkdirSync(path.join(p.root, 'wiki'));
    const family = '👨\u200d👩\u200d👧\u200d👦';
    // OMC's cut ends 80 units after the hit: here between the two halves of 👩.
    const body = `修复${'a '.repeat(36)}🚀🔥${family}漢字 and more text after it`;
    fs.writeFileSync(
      path.join(p.root, 'wiki', 'cjk-page.md'),
      `---\ntitle: "CJK ${family} page"\ntags: ["x"]\ncategory: reference\n---\n\n${body}\n`,
    );
    const json = run(['wiki', 'search', '修复', '--json', '--root', p.root]);
    expect(json.code).toBe(0);
    const [hit] = JSON.parse(json.stdout);
    expect(hit.snippet).toMatch(new RegExp(`🚀🔥${family}\\.\\.\\.$`));
    expect(hit.snippet).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(hit.title).toBe(`CJK ${family} page`);
    // No joiner reaches the terminal raw, and no lone surrogate is written even escaped.
    expect(json.stdout).not.toMatch(/[\u200d]/);
    expect(json.stdout).toContain('\\u200d');
    expect(json.stdout).not.toMatch(/\\ud83d"|\\ud83d\.\.\./);
    const text = run(['wiki', 'search', '修复', '--root', p.root]);
    expect(text.stdout).toContain('🚀🔥👨👩👧👦...');
    expect(text.stdout).not.toContain('?');
  });

  it('reports unreadable pages on stderr and still searches the rest', ({ project: p }) => {
    fs.writeFileSync(path.join(p.root, 'wiki', 'broken.md'), 'checkout without frontmatter');
    const r = run(['wiki', 'search', 'checkout', '--json', '--root', p.root]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(r.stderr).toMatch(/1 wiki page\(s\) not searched.*broken\.md \(no frontmatter/);
  });

  it('names a page whose file name is not UTF-8 by its bytes (\\xNN), each of two that decode alike', ({
    project: p,
  }) => {
    const wiki = path.join(p.root, 'wiki');
    for (const byte of [0xe9, 0xea])
      fs.writeFileSync(
        Buffer.concat([Buffer.from(`${wiki}/caf`), Buffer.from([byte]), Buffer.from('-notes.md')]),
        'x\n',
      );
    const r = run(['wiki', 'search', 'checkout', '--root', p.root]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /2 wiki page\(s\) not searched, as OMC skips them too: caf\\xe9-notes\.md \(file name is not valid UTF-8/,
    );
    expect(r.stderr).toContain('; caf\\xea-notes.md (');
    expect(r.stderr).not.toContain('\ufffd');
  });

  it('usage errors exit 2 with a reason; a missing .omc exits 2 and says where it looked', ({ emptyProject: p }) => {
    for (const [args, msg] of [
      [['wiki'], /needs a subcommand/],
      [['wiki', 'find', 'x'], /unknown wiki subcommand "find"/],
      [['wiki', 'search'], /needs a QUERY/],
      [['wiki', 'search', ''], /needs a QUERY \(a blank one matches nothing\)/],
      [['wiki', 'search', ' ', ''], /needs a QUERY/],
      [['wiki', 'search', 'x', '--limit', 'ten'], /--limit needs a whole number/],
      [
        ['wiki', 'search', 'x', '--limit', '99999999999999999999'],
        /--limit is at most 100,000, got "99999999999999999999"/,
      ],
      [['wiki', 'search', 'x', '--bogus'], /unknown option --bogus/],
    ] as const) {
      const r = run([...args, '--root', FIXTURE_TREE]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(msg);
    }
    const missing = run(['wiki', 'search', 'x', '--root', path.join(p.dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no \.omc directory found/);
  });
});
