// Project memory as OMC writes it: the SessionStart detector's file, then the
// PostToolUse learner (hot paths, learned notes) and project_memory_add_directive
// (case-insensitive de-duplication, at most 20 kept: high first, then newest).
// Writes take OMC's `project-memory.json.lock` and are atomic renames, so the
// monitor's own edits interleave with these safely.
import { every, withOmcLock } from '../lib.mjs';

export const name = 'memory';

const FILE = 'project-memory.json';

const DIRECTIVES = [
  [
    'Never commit directly to main; open a PR from a feat/* branch',
    'Branch protection is enforced on the remote',
    'high',
  ],
  ['All money amounts are integer cents, never floats', 'Rounding bugs in the v0.3 checkout', 'high'],
  ['Use pnpm, not npm or yarn', '', 'normal'],
  ['Prefer named exports over default exports', 'Consistency with existing components', 'normal'],
  ['Keep React components under 200 lines', '', 'normal'],
  ['Run pnpm typecheck before pushing', 'CI takes 12 minutes', 'high'],
  ['Do not modify generated files under src/api/generated/', 'Regenerated from the OpenAPI spec by CI', 'high'],
  ['Write a Vitest test for every bug fix', '', 'normal'],
  ['Prefer zod schemas at every API boundary', 'Runtime validation caught three prod bugs', 'normal'],
  ['Log with the structured logger, never console.log', '', 'normal'],
];
const HOT = [
  'src/api/checkout.ts',
  'src/components/CartSummary.tsx',
  'src/hooks',
  'src/store/cart.ts',
  'src/api/client.ts',
  'src/pages/Checkout.tsx',
];
const NOTES = [
  ['runtime', 'Node.js v20.11.1'],
  ['env', 'Missing env var: STRIPE_PUBLIC_KEY'],
  ['dependency', "Cannot find module '@tanstack/react-query'"],
  ['test', 'Vitest runs in jsdom; use --run for a single file'],
];

function initial(ctx) {
  const now = Date.now();
  return {
    version: '1.0.0',
    lastScanned: now,
    projectRoot: ctx.projectDir,
    techStack: {
      languages: [
        { name: 'TypeScript', version: null, confidence: 'high', markers: ['tsconfig.json', 'package.json'] },
      ],
      frameworks: [
        { name: 'react', version: '18.3.1', category: 'frontend' },
        { name: 'vite', version: '5.4.10', category: 'build' },
        { name: 'vitest', version: '2.1.4', category: 'testing' },
      ],
      packageManager: 'pnpm',
      runtime: 'Node.js 20',
    },
    build: {
      buildCommand: 'pnpm build',
      testCommand: 'pnpm test',
      lintCommand: 'pnpm lint',
      devCommand: 'pnpm dev',
      scripts: { build: 'tsc -b && vite build', test: 'vitest run' },
    },
    conventions: { namingStyle: null, importStyle: null, testPattern: null, fileOrganization: 'type-based' },
    structure: { isMonorepo: false, workspaces: [], mainDirectories: ['src', 'docs'], gitBranches: null },
    customNotes: [
      {
        timestamp: now,
        source: 'manual',
        category: 'build',
        content: 'pnpm build runs tsc -b first; a type error aborts the bundle step.',
      },
    ],
    directoryMap: {},
    hotPaths: [],
    userDirectives: DIRECTIVES.slice(0, 3).map(([directive, context, priority], i) => ({
      timestamp: now - (3 - i) * 60_000,
      directive,
      context,
      source: 'explicit',
      priority,
    })),
  };
}

/** Read-modify-write under the lock, as OMC's learner does. */
function update(ctx, fn) {
  withOmcLock(ctx, FILE, () => {
    const m = ctx.readJson(FILE);
    if (!m || !m.version) return;
    fn(m);
    ctx.writeJson(FILE, m);
  });
}

/** OMC's addDirective: skip a case-insensitive duplicate; over 20, keep high first, then newest. */
function addDirective(list, d) {
  if (list.some((x) => x.directive.toLowerCase() === d.directive.toLowerCase())) return list;
  list.push(d);
  if (list.length > 20) {
    list.sort((a, b) => (a.priority !== b.priority ? (a.priority === 'high' ? -1 : 1) : b.timestamp - a.timestamp));
    list.splice(20);
  }
  return list;
}

export function start(ctx) {
  if (!ctx.exists(FILE)) withOmcLock(ctx, FILE, () => ctx.writeJson(FILE, initial(ctx)));
  let d = 3;
  let n = 0;
  const stops = [];
  // The learner: every Read/Edit bumps a hot path (sorted by count, max 50).
  stops.push(
    every(ctx, 4000, () =>
      update(ctx, (m) => {
        const p = HOT[Math.floor(Math.random() * HOT.length)];
        m.hotPaths = Array.isArray(m.hotPaths) ? m.hotPaths : [];
        const hp = m.hotPaths.find((x) => x.path === p);
        if (hp) {
          hp.accessCount += 1;
          hp.lastAccessed = Date.now();
        } else
          m.hotPaths.push({
            path: p,
            accessCount: 1,
            lastAccessed: Date.now(),
            type: p.includes('.') ? 'file' : 'directory',
          });
        m.hotPaths.sort((a, b) => b.accessCount - a.accessCount).splice(50);
      }),
    ),
  );
  // Directives arrive now and then (the user says "always …" / "never …").
  stops.push(
    every(ctx, 15000, () => {
      if (d >= DIRECTIVES.length) return;
      const [directive, context, priority] = DIRECTIVES[d++];
      update(ctx, (m) => {
        m.userDirectives = addDirective(Array.isArray(m.userDirectives) ? m.userDirectives : [], {
          timestamp: Date.now(),
          directive,
          context,
          source: 'explicit',
          priority,
        });
      });
    }),
  );
  // Learned notes from Bash output (de-duplicated, the last 20 kept).
  stops.push(
    every(ctx, 20000, () => {
      const [category, content] = NOTES[n++ % NOTES.length];
      update(ctx, (m) => {
        m.customNotes = Array.isArray(m.customNotes) ? m.customNotes : [];
        if (m.customNotes.some((x) => x.category === category && x.content === content)) return;
        m.customNotes.push({ timestamp: Date.now(), source: 'learned', category, content });
        m.customNotes = m.customNotes.slice(-20);
      });
    }),
  );
  return () => stops.forEach((s) => s());
}
