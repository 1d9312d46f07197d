// Bundles src/cli.tsx into one ESM file so the first frame does not pay for
// Node's module loader walking ~600 small files (research/perf-floor.md §5).
import { build } from 'esbuild';
import { readFile, chmod, mkdir, writeFile, rename } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const outfile = path.join(root, 'dist', 'omc-top.mjs');

/**
 * Ink 6.8's incremental renderer moves the cursor up one row too few when the
 * previous frame ended with a newline (every frame shorter than the terminal),
 * so each update after the first draws one row lower (fixed upstream in ink 7,
 * which needs Node 22). We patch the one expression at bundle time and fail the
 * build loudly if ink's source ever stops matching.
 */
const inkIncrementalFix = {
  name: 'ink-incremental-fix',
  setup(b) {
    b.onLoad({ filter: /ink[\\/]build[\\/]log-update\.js$/ }, async (args) => {
      const src = await readFile(args.path, 'utf8');
      const needle = 'buffer.push(ansiEscapes.cursorUp(previousVisible - 1));';
      if (!src.includes(needle)) {
        throw new Error('ink log-update.js changed: the incremental-rendering patch no longer applies');
      }
      const fixed = src.replace(
        needle,
        "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));",
      );
      return { contents: fixed, loader: 'js' };
    });
  },
};

/** ink imports react-devtools-core statically; it is only used with DEV=true. */
const devtoolsStub = {
  name: 'devtools-stub',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'devtools-stub', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default {connectToDevTools(){}};', loader: 'js' }));
  },
};

const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
await mkdir(path.dirname(outfile), { recursive: true });
const result = await build({
  entryPoints: [path.join(root, 'src', 'cli.tsx')],
  outfile,
  write: false,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: !process.argv.includes('--no-minify'),
  legalComments: 'none',
  define: {
    'process.env.NODE_ENV': '"production"',
    __OMC_TOP_VERSION__: JSON.stringify(pkg.version),
  },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __omcTopCreateRequire } from 'node:module'; const require = __omcTopCreateRequire(import.meta.url);",
  },
  plugins: [inkIncrementalFix, devtoolsStub],
  logLevel: 'warning',
});
// Write to a temp file and rename, so a test run reading the bundle never sees half of it.
const tmp = `${outfile}.${process.pid}.tmp`;
await writeFile(tmp, result.outputFiles[0].contents, { mode: 0o755 });
await chmod(tmp, 0o755);
await rename(tmp, outfile);
