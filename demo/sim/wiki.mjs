// The wiki as OMC writes it (storage.ts / ingest.ts): pages named by OMC's
// slug rule, frontmatter in OMC's order and quoting, `[[links]]` stored as
// slugs, merges that append an "Update" section, index.md regenerated and a
// log.md entry after every write, all under `wiki/.wiki-lock.lock`.
import fs from 'node:fs';
import { every } from '../lib.mjs';
import { withOmcLock } from '../lib.mjs';

export const name = 'wiki';

const LOCK = 'wiki/.wiki-lock';

function slug(title) {
  const base = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 64);
  if (base) return `${base}.md`;
  let h = 0;
  for (let i = 0; i < title.length; i++) h = (Math.imul(h, 31) + title.charCodeAt(i)) | 0;
  return `page-${Math.abs(h).toString(16).padStart(8, '0')}.md`;
}
const esc = (s) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const list = (xs) => `[${xs.map((x) => `"${esc(x)}"`).join(', ')}]`;
const links = (content) => [...new Set([...content.matchAll(/\[\[([^\]]+)\]\]/g)].map((m) => slug(m[1].trim())))];

function serialize(fm, content) {
  return [
    '---',
    `title: "${esc(fm.title)}"`,
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

/** Just enough of OMC's reader to merge and to build index.md. */
function read(ctx, file) {
  let raw;
  try {
    raw = fs.readFileSync(ctx.abs(`wiki/${file}`), 'utf8').replace(/\r\n/g, '\n');
  } catch {
    return null;
  }
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(raw);
  if (!m) return null;
  const y = {};
  for (const line of m[1].split('\n')) {
    const i = line.indexOf(':');
    if (i === -1) continue;
    let v = line.slice(i + 1).trim();
    if (v.startsWith('"') && v.endsWith('"'))
      v = v.slice(1, -1).replace(/\\(\\|"|n|r)/g, (_, c) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
    y[line.slice(0, i).trim()] = v;
  }
  const arr = (v) =>
    v && v.startsWith('[')
      ? v
          .slice(1, -1)
          .split(',')
          .map((s) => s.trim().replace(/^["']|["']$/g, ''))
          .filter(Boolean)
      : v
        ? [v]
        : [];
  return {
    fm: {
      title: y.title || '',
      tags: arr(y.tags),
      created: y.created,
      updated: y.updated,
      sources: arr(y.sources),
      links: arr(y.links),
      category: y.category || 'reference',
      confidence: y.confidence || 'medium',
      schemaVersion: Number(y.schemaVersion) || 1,
    },
    content: m[2],
  };
}

function pages(ctx) {
  return fs
    .readdirSync(ctx.abs('wiki'))
    .filter((f) => f.endsWith('.md') && !['index.md', 'log.md', 'environment.md'].includes(f))
    .sort();
}

function writeIndex(ctx) {
  const byCat = new Map();
  let count = 0;
  for (const f of pages(ctx)) {
    const p = read(ctx, f);
    if (!p) continue;
    count++;
    if (!byCat.has(p.fm.category)) byCat.set(p.fm.category, []);
    const first =
      p.content
        .split('\n')
        .find((l) => l.trim())
        ?.trim() ?? '';
    byCat
      .get(p.fm.category)
      .push(`- [${p.fm.title}](${f}) — ${first.length > 80 ? first.slice(0, 77) + '...' : first}`);
  }
  const lines = ['# Wiki Index', '', `> ${count} pages | Last updated: ${ctx.iso()}`, ''];
  for (const cat of [...byCat.keys()].sort()) lines.push(`## ${cat}`, '', ...byCat.get(cat), '');
  ctx.writeText('wiki/index.md', lines.join('\n'));
}

function appendLog(ctx, operation, affected, summary) {
  const prev = ctx.exists('wiki/log.md') ? fs.readFileSync(ctx.abs('wiki/log.md'), 'utf8') : '# Wiki Log\n\n';
  ctx.writeText(
    'wiki/log.md',
    prev +
      `## [${ctx.iso()}] ${operation}\n- **Pages:** ${affected.join(', ') || 'none'}\n- **Summary:** ${summary}\n\n`,
  );
}

function ensureWiki(ctx) {
  fs.mkdirSync(ctx.abs('wiki'), { recursive: true, mode: 0o700 });
  const gi = ctx.exists('.gitignore') ? fs.readFileSync(ctx.abs('.gitignore'), 'utf8') : null;
  if (gi === null) ctx.writeText('.gitignore', 'wiki/\n');
  else if (!gi.includes('wiki/')) ctx.writeText('.gitignore', gi.trimEnd() + '\nwiki/\n');
}

/** wiki_ingest: create, or merge into the page with the same slug. */
function ingest(ctx, { title, content, tags, category, confidence = 'medium' }) {
  ensureWiki(ctx);
  withOmcLock(ctx, LOCK, () => {
    const file = slug(title);
    const now = ctx.iso();
    const existing = read(ctx, file);
    if (existing) {
      const fm = existing.fm;
      const rank = { high: 3, medium: 2, low: 1 };
      ctx.writeText(
        `wiki/${file}`,
        serialize(
          {
            ...fm,
            tags: [...new Set([...fm.tags, ...tags])],
            updated: now,
            links: [...new Set([...fm.links, ...links(content)])],
            confidence: (rank[confidence] ?? 2) >= (rank[fm.confidence] ?? 2) ? confidence : fm.confidence,
          },
          existing.content.trimEnd() + `\n\n---\n\n## Update (${now})\n\n${content}\n`,
        ),
      );
    } else {
      ctx.writeText(
        `wiki/${file}`,
        serialize(
          {
            title,
            tags: [...new Set(tags)],
            created: now,
            updated: now,
            sources: [ctx.uuid()],
            links: links(content),
            category,
            confidence,
            schemaVersion: 1,
          },
          `\n# ${title}\n\n${content}\n`,
        ),
      );
    }
    writeIndex(ctx);
    appendLog(ctx, 'ingest', [file], existing ? `Updated "${title}" with new content` : `Created new page "${title}"`);
  });
}

const SEED = [
  {
    title: 'Checkout Flow Architecture',
    category: 'architecture',
    tags: ['checkout', 'architecture', 'react'],
    confidence: 'high',
    content:
      'The checkout flow has three steps: cart review, address, payment. State lives in [[Cart State Management]]; HTTP goes through [[API Client Conventions]].',
  },
  {
    title: 'Cart State Management',
    category: 'pattern',
    tags: ['cart', 'state'],
    content:
      'Cart data is server state: fetch it with TanStack Query. Totals are integer cents. Used by [[Checkout Flow Architecture]].',
  },
  {
    title: 'API Client Conventions',
    category: 'convention',
    tags: ['api', 'fetch'],
    content: 'Every request goes through getJson in src/api/client.ts. Errors follow [[Error Handling Strategy]].',
  },
  {
    title: 'Vitest Flaky Test Debugging',
    category: 'debugging',
    tags: ['vitest', 'flaky'],
    confidence: 'low',
    content: 'App.test.tsx flakes 1 in 20 runs with threads; a shared fetch mock leaks. Workaround: --pool=forks.',
  },
  {
    title: '決済フロー設計',
    category: 'architecture',
    tags: ['決済', 'checkout'],
    content:
      '決済フローは三段階で構成される。金額は整数の「セント」で扱う。英語版は [[Checkout Flow Architecture]] を参照。',
  },
  {
    title: 'Release Checklist',
    category: 'reference',
    tags: ['release'],
    confidence: 'high',
    content: '1. pnpm typecheck\n2. pnpm test\n3. bump the version',
  },
];
const LATER = [
  {
    title: 'Feature Flags',
    category: 'pattern',
    tags: ['flags', 'release'],
    content: 'Flags live in LaunchDarkly; wrap new checkout steps in [[Checkout Flow Architecture]] behind one.',
  },
  {
    title: 'Release Checklist',
    category: 'reference',
    tags: ['release', 'staging'],
    content: '4. verify the staging preview\n5. announce in #releases',
  },
  {
    title: 'Database Migrations',
    category: 'decision',
    tags: ['db', 'migrations'],
    content: 'Migrations run with the deploy, never by hand. Rollbacks are forward fixes.',
  },
  {
    title: 'Local Dev Environment',
    category: 'environment',
    tags: ['setup', 'pnpm'],
    content: 'Node 20, pnpm 9, `pnpm dev` on port 5173. See [[Release Checklist]].',
  },
  {
    title: '인증 설계',
    category: 'decision',
    tags: ['auth', '보안'],
    content: '토큰 갱신은 5분마다 한다. 인증 서버는 별도로 운영한다.',
  },
  {
    title: 'Vitest Flaky Test Debugging',
    category: 'debugging',
    tags: ['vitest', 'timers'],
    confidence: 'medium',
    content: 'Fake timers were the second cause: restore them in afterEach.',
  },
  {
    title: 'Observability',
    category: 'reference',
    tags: ['observability', 'grafana'],
    content: 'Dashboards per service; alerts page the on-call rotation.',
  },
];

export function start(ctx) {
  ensureWiki(ctx);
  if (pages(ctx).length === 0) for (const p of SEED) ingest(ctx, p);
  let i = 0;
  return every(ctx, 9000, () => {
    if (i < LATER.length) ingest(ctx, LATER[i++]);
    else if (i++ % 3 === 0) {
      // wiki_delete then wiki_add of a scratch page, as sessions do with temporary notes.
      const file = 'scratch-notes.md';
      if (ctx.exists(`wiki/${file}`)) {
        withOmcLock(ctx, LOCK, () => {
          ctx.remove(`wiki/${file}`);
          writeIndex(ctx);
          appendLog(ctx, 'delete', [file], `Deleted page "${file}"`);
        });
      } else
        ingest(ctx, {
          title: 'Scratch Notes',
          category: 'session-log',
          tags: ['scratch'],
          content: `Notes from a session at ${ctx.iso()}.`,
        });
    }
  });
}
