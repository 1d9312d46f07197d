// Writes N wiki pages the way OMC serialises them (frontmatter order and
// quoting of storage.ts serializePage), with a deterministic mix of sizes,
// categories, tags, cross-links and 5 % CJK / 2 % Korean titles.
import fs from 'node:fs';
import path from 'node:path';

const CATEGORIES = [
  'architecture',
  'decision',
  'pattern',
  'debugging',
  'environment',
  'session-log',
  'reference',
  'convention',
];
const TAGS = [
  'api',
  'auth',
  'cache',
  'checkout',
  'ci',
  'db',
  'deploy',
  'flaky',
  'i18n',
  'infra',
  'observability',
  'payments',
  'perf',
  'react',
  'release',
  'search',
  'security',
  'state',
  'testing',
  'ux',
  'vitest',
  'zod',
];
const SUBJECTS = [
  'the payments module',
  'the checkout flow',
  'feature flags',
  'snapshot tests',
  'the cart service',
  'database migrations',
  'the auth token refresh',
  'the release train',
  'the search index',
  'public API types',
  'the CI cache',
  'React class components',
];
const VERBS = [
  'replaces',
  'depends on',
  'wraps',
  'invalidates',
  'retries',
  'logs',
  'validates',
  'throttles',
  'serialises',
  'mocks',
];
const TAILS = [
  'behind a flag.',
  'for performance.',
  'in production only.',
  'since the v2 rewrite.',
  'when the queue is full.',
  'under load.',
  'on every deploy.',
  'with a 5 s timeout.',
];
const CJK_TITLES = ['認証フロー', '決済フロー設計', 'キャッシュ戦略', 'デプロイ手順', '検索インデックス'];
const KO_TITLES = ['인증 설계', '결제 흐름', '캐시 전략'];
const TOPICS = ['Design of', 'Debugging', 'Notes on', 'Decision:', 'Patterns for', 'Runbook:', 'Conventions for'];

/** mulberry32: small, fast, deterministic. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const esc = (s) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const list = (xs) => `[${xs.map((x) => `"${esc(x)}"`).join(', ')}]`;

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

/** Returns the page file names written. */
export function generateWiki(wikiDir, n, seed = 42) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  fs.mkdirSync(wikiDir, { recursive: true });
  const titles = [];
  for (let i = 0; i < n; i++) {
    const roll = r();
    const t =
      roll < 0.05
        ? `${pick(CJK_TITLES)} ${i}`
        : roll < 0.07
          ? `${pick(KO_TITLES)} ${i}`
          : `${pick(TOPICS)} ${pick(SUBJECTS)} #${i}`;
    titles.push(t);
  }
  const names = titles.map(slug);
  const base = Date.parse('2026-11-30T12:00:00.000Z');
  for (let i = 0; i < n; i++) {
    // Body size: mostly 0.3–3 KB, a tail up to ~24 KB (log-normal-ish).
    const sentences = Math.max(3, Math.round(Math.exp(2.2 + r() * 1.6 + (r() < 0.05 ? 2 : 0))));
    const lines = [];
    for (let s = 0; s < sentences; s++) {
      lines.push(`${pick(['This', 'Our', 'The'])} ${pick(SUBJECTS)} ${pick(VERBS)} ${pick(SUBJECTS)} ${pick(TAILS)}`);
      if (s % 6 === 5) lines.push('');
    }
    if (titles[i].match(/[\u3040-\u9fff]/))
      lines.push('', '本文は生成されたテキストです。金額は整数で扱う。認証トークンは五分ごとに更新する。');
    if (titles[i].match(/[\uac00-\ud7af]/))
      lines.push('', '본문은 생성된 텍스트입니다. 인증 토큰은 5분마다 갱신합니다.');
    const linkTo = [pick(titles), pick(titles)].filter((t) => t !== titles[i]);
    lines.push('', `Related: ${linkTo.map((t) => `[[${t}]]`).join(', ')}`);
    const tags = [...new Set(Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(TAGS)))];
    const when = new Date(base - Math.floor(r() * 60 * 86_400_000)).toISOString();
    const text = [
      '---',
      `title: "${esc(titles[i])}"`,
      `tags: ${list(tags)}`,
      `created: ${when}`,
      `updated: ${when}`,
      `sources: ${list([`session-${Math.floor(r() * 1e8).toString(16)}`])}`,
      `links: ${list(linkTo.map(slug))}`,
      `category: ${pick(CATEGORIES)}`,
      `confidence: ${pick(['high', 'medium', 'medium', 'low'])}`,
      'schemaVersion: 1',
      '---',
      `\n# ${titles[i]}\n\n${lines.join('\n')}\n`,
    ].join('\n');
    fs.writeFileSync(path.join(wikiDir, names[i]), text);
  }
  return names;
}
