// Bundles src/cli.tsx into one ESM file so the first frame does not pay for
// Node's module loader walking ~600 small files (BENCHMARKS.md: where the first frame's time goes).
import { build } from 'esbuild';
import { esbuildInkPatches } from './ink-patches/index.mjs';
import { readFile, chmod, mkdir, writeFile, rename } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const outfile = path.join(root, 'dist', 'omc-top.mjs');
/** The hook Claude Code runs (`omc-top hooks install`): its own small bundle, so it starts fast (no React, no Ink). */
export const hookOutfile = path.join(root, 'dist', 'omc-top-hook.mjs');

/** ink imports react-devtools-core statically; it is only used with DEV=true. */
const devtoolsStub = {
  name: 'devtools-stub',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'devtools-stub', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: 'export default {connectToDevTools(){}};',
      loader: 'js',
    }));
  },
};

/** The Ink patches (one table, shared with vitest: scripts/ink-patches/index.mjs) and the devtools stub. */
export const inkPlugins = [esbuildInkPatches, devtoolsStub];

/** Bundles `entry` into one minified ESM file, written atomically. */
export async function bundle(entry, out, { minify = true } = {}) {
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  await mkdir(path.dirname(out), { recursive: true });
  const result = await build({
    entryPoints: [entry],
    outfile: out,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify,
    legalComments: 'none',
    define: {
      'process.env.NODE_ENV': '"production"',
      __OMC_TOP_VERSION__: JSON.stringify(pkg.version),
    },
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __omcTopCreateRequire } from 'node:module'; const require = __omcTopCreateRequire(import.meta.url);",
    },
    plugins: inkPlugins,
    logLevel: 'warning',
  });
  // Write to a temp file and rename, so a test run reading the bundle never sees half of it.
  const tmp = `${out}.${process.pid}.tmp`;
  await writeFile(tmp, result.outputFiles[0].contents, { mode: 0o755 });
  await chmod(tmp, 0o755);
  await rename(tmp, out);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const minify = !process.argv.includes('--no-minify');
  await bundle(path.join(root, 'src', 'cli.tsx'), outfile, { minify });
  await bundle(path.join(root, 'src', 'commands', 'hook-main.ts'), hookOutfile, { minify });
}
