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

/**
 * Ink 6 rebuilds every frame from scratch: it tokenises each line's ANSI text
 * into styled cells (a cache that lives for one frame only) and measures every
 * text node with string-width. In a monitor almost every line is the same as
 * in the previous frame, so keeping those caches across frames (bounded)
 * cuts the cost of a frame several times at 200x60. Same results, computed once.
 */
const inkFrameCaches = {
  name: 'ink-frame-caches',
  setup(b) {
    b.onLoad({ filter: /ink[\\/]build[\\/]output\.js$/ }, async (args) => {
      const src = await readFile(args.path, 'utf8');
      const needle = 'caches = new OutputCaches();';
      if (!src.includes(needle)) throw new Error('ink output.js changed: the frame-cache patch no longer applies');
      const getNeedle = '    get() {\n';
      if (!src.includes(getNeedle)) throw new Error('ink output.js changed: the fast-frame patch no longer applies');
      const fastPath = JSON.stringify(path.join(here, 'ink-patches', 'fast-output.mjs'));
      const header = `import { createFastGet as __omcTopCreateFastGet } from ${fastPath};\n`;
      const fast = '\nconst __omcTopFastGet = __omcTopCreateFastGet({ styledCharsToString });\n';
      // Styled cells are costly to keep: ansi-tokenize's cell objects take ~330 bytes per
      // character in V8 (measured), ~40 KB per 120-column line. Rows already rendered live
      // in fast-output's row cache, so this cache only needs the last few frames' lines:
      // 250 lines is ~10 MB at 120 columns. (At 20,000 a day of new rows grew the heap
      // ~16 MB a minute toward ~0.7 GB: test/faults/soak.e2e.test.ts.)
      const shared =
        '\nlet __omcTopShared;\nfunction __omcTopSharedCaches() {\n' +
        '  if (!__omcTopShared || __omcTopShared.styledChars.size > 250 || __omcTopShared.widths.size > 40000) __omcTopShared = new OutputCaches();\n' +
        '  return __omcTopShared;\n}\n';
      const patched = src
        .replace(needle, 'caches = __omcTopSharedCaches();')
        .replace(
          getNeedle,
          '    get() {\n        return __omcTopFastGet(this) ?? this.__omcTopGeneralGet();\n    }\n    __omcTopGeneralGet() {\n',
        );
      return { contents: header + patched + shared + fast, loader: 'js' };
    });
    b.onLoad({ filter: /ink[\\/]build[\\/]render-node-to-output\.js$/ }, async (args) => {
      const src = await readFile(args.path, 'utf8');
      const needle = 'const currentWidth = widestLine(text);';
      if (!src.includes(needle))
        throw new Error('ink render-node-to-output.js changed: the width-cache patch no longer applies');
      const cached =
        '\nconst __omcTopWidths = new Map();\nfunction __omcTopWidestLine(text) {\n' +
        '  let w = __omcTopWidths.get(text);\n  if (w === undefined) {\n    if (__omcTopWidths.size > 20000) __omcTopWidths.clear();\n' +
        '    w = widestLine(text);\n    __omcTopWidths.set(text, w);\n  }\n  return w;\n}\n';
      return { contents: src.replace(needle, 'const currentWidth = __omcTopWidestLine(text);') + cached, loader: 'js' };
    });
  },
};

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

export const inkPlugins = [inkIncrementalFix, inkFrameCaches, devtoolsStub];

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
  await bundle(path.join(root, 'src', 'cli.tsx'), outfile, { minify: !process.argv.includes('--no-minify') });
}
