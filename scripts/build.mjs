// Bundles src/cli.tsx into one ESM file (dist/omc-top-app.mjs) so the first frame does not pay for
// Node's module loader walking ~600 small files (BENCHMARKS.md: where the first frame's time goes), and src/entry.ts into the
// bin (dist/omc-top.mjs): a few small modules that answer `status --tmux` (from a live monitor's cache)
// and `--version` without loading the 1.4 MB app bundle, and load it for everything else.
import { build } from 'esbuild';
import { esbuildInkPatches } from './ink-patches/index.mjs';
import { readFile, chmod, mkdir, writeFile, rename } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
/** The bin, and the app bundle it loads from beside itself (src/entry.ts). */
export const BIN_OUT = path.join(root, 'dist', 'omc-top.mjs');
export const APP_OUT = path.join(root, 'dist', 'omc-top-app.mjs');
/** `status` computed from the files (no live monitor's cache): the store's readers without React. */
export const STATUS_OUT = path.join(root, 'dist', 'omc-top-status.mjs');
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

/** Every file: the bundles the bin loads first, so a bin that exists always finds them. */
export async function buildAll({ minify = true } = {}) {
  await bundle(path.join(root, 'src', 'cli.tsx'), APP_OUT, { minify });
  await bundle(path.join(root, 'src', 'commands', 'status-main.ts'), STATUS_OUT, { minify });
  await bundle(path.join(root, 'src', 'commands', 'hook-main.ts'), hookOutfile, { minify });
  await bundle(path.join(root, 'src', 'entry.ts'), BIN_OUT, { minify });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll({ minify: !process.argv.includes('--no-minify') });
}
