// Bundles src/cli.tsx into one ESM file (dist/omc-top-app.mjs) so the first frame does not pay for
// Node's module loader walking ~600 small files (BENCHMARKS.md: where the first frame's time goes), and src/entry.ts into the
// bin (dist/omc-top.mjs): a few small modules that answer `status --tmux` (from a live monitor's cache)
// and `--version` without loading the 1.4 MB app bundle, and load it for everything else.
import { build } from 'esbuild';
import { esbuildInkPatches } from './ink-patches/index.mjs';
import { startupEdits } from './lazy-segmenter/index.mjs';
import { readFile, chmod, mkdir, writeFile, rename } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
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

/**
 * The Ink patches (one table, shared with vitest: scripts/ink-patches/index.mjs), the devtools stub, and the edits
 * that keep the start from loading what its first frame does not use (scripts/lazy-segmenter/index.mjs).
 */
export const inkPlugins = [esbuildInkPatches, devtoolsStub, startupEdits];

/**
 * The app bundle is one function the bin compiles itself (src/io/code-cache.ts), so V8 can keep its compiled code
 * between starts: Node 20 has no code cache for ES modules, only for scripts. The file stays an ES module
 * (`export default (async function (…) {…})`, which the hostile --json driver imports); the bin compiles the
 * function after APP_PREFIX. A script has no `import`, so Node's built-in modules come from `require` (each
 * through a small shim module with the names Node's ES-module facade would give), `import.meta.url` is a
 * parameter, and the module's exports are the function's return value.
 */
export const APP_PREFIX = 'export default ';
const APP_PARAMS = '__omcTopRequire, require, __omcTopUrl';
const nodeRequire = createRequire(import.meta.url);

/**
 * `node:fs` and the like as modules of the bundle, each `require`d once at its place in the evaluation order:
 * - imported (`import … from 'node:fs'`): a module with the names Node's ES-module facade would give, except the
 *   ones Node computes when first read (getters such as `crypto.webcrypto`, `process.report`, `net.BlockList`,
 *   which load more of Node: reading them all as the app loaded took 11 of Node's modules and a few ms before the
 *   first frame). Such a name imported by name fails the build ("No matching export"), read off a namespace too
 *   (`import-is-undefined` is an error), so none is ever silently missing; code reads them off the module object;
 * - required (`require('events')`, in the CommonJS dependencies): Node's own module object, as `require` gives it;
 * - imported dynamically: every name, getters too, as the facade gives them.
 */
export const builtinShims = {
  name: 'builtin-shims',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_][a-z0-9_/]*$/ }, (a) => {
      const name = a.path.replace(/^node:/, '');
      if (!builtinModules.includes(name)) return undefined;
      const namespace =
        a.kind === 'require-call' ? 'builtin-require' : a.kind === 'dynamic-import' ? 'builtin-all' : 'builtin-shim';
      return { path: name, namespace };
    });
    const req = (name) => `__omcTopRequire(${JSON.stringify(`node:${name}`)})`;
    b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (a) => ({
      contents: `module.exports = ${req(a.path)};\n`,
      loader: 'js',
    }));
    const esm = (a, getters) => {
      const m = nodeRequire(`node:${a.path}`);
      const names = Object.keys(m).filter(
        (k) =>
          /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default' && (getters || !Object.getOwnPropertyDescriptor(m, k)?.get),
      );
      const named = names.length ? `export const { ${names.join(', ')} } = m;\n` : '';
      return { contents: `const m = ${req(a.path)};\nexport default m;\n${named}`, loader: 'js' };
    };
    b.onLoad({ filter: /.*/, namespace: 'builtin-shim' }, (a) => esm(a, false));
    b.onLoad({ filter: /.*/, namespace: 'builtin-all' }, (a) => esm(a, true));
  },
};

/** `\u` escapes for the few non-ASCII characters esbuild leaves in regular expressions: a one-byte source decodes and parses faster. */
function asciiOnly(js) {
  return js.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The bundle's ES-module text as the app function (see APP_PREFIX); fails the build on anything it cannot carry over. */
function asAppFunction(js) {
  const exp = /export\s*\{([^}]*)\};?\s*$/.exec(js);
  if (!exp) throw new Error('app bundle: no export statement at its end');
  const body = js.slice(0, exp.index);
  if (/\bimport\.meta\b/.test(body)) throw new Error('app bundle: import.meta left in the script');
  if (/^\s*import[\s{*]/m.test(body) || /[;}]import[\s{*][^(]/.test(body))
    throw new Error('app bundle: a static import left in the script');
  const fields = exp[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [local, as = local] = s.split(/\s+as\s+/);
      return `${as}: ${local}`;
    });
  return `${APP_PREFIX}(async function (${APP_PARAMS}) {"use strict";\n${body}\nreturn { ${fields.join(', ')} };\n});\n`;
}

/** Bundles `entry` into one minified ESM file, written atomically (`app`: as the app function, see APP_PREFIX). */
export async function bundle(entry, out, { minify = true, app = false } = {}) {
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
      ...(app ? { 'import.meta.url': '__omcTopUrl' } : {}),
    },
    banner: app
      ? {}
      : {
          js: "#!/usr/bin/env node\nimport { createRequire as __omcTopCreateRequire } from 'node:module'; const require = __omcTopCreateRequire(import.meta.url);",
        },
    // A built-in imported by name that the shims do not give (see builtinShims) must fail here, not be undefined.
    logOverride: { 'import-is-undefined': 'error' },
    plugins: app ? [builtinShims, ...inkPlugins] : inkPlugins,
    logLevel: 'warning',
  });
  const text = result.outputFiles[0].text;
  const contents = app ? asAppFunction(asciiOnly(text)) : text;
  // Write to a temp file and rename, so a test run reading the bundle never sees half of it.
  const tmp = `${out}.${process.pid}.tmp`;
  await writeFile(tmp, contents, { mode: 0o755 });
  await chmod(tmp, 0o755);
  await rename(tmp, out);
}

/** Every file: the bundles the bin loads first, so a bin that exists always finds them. */
export async function buildAll({ minify = true } = {}) {
  await bundle(path.join(root, 'src', 'cli.tsx'), APP_OUT, { minify, app: true });
  await bundle(path.join(root, 'src', 'commands', 'status-main.ts'), STATUS_OUT, { minify });
  await bundle(path.join(root, 'src', 'commands', 'hook-main.ts'), hookOutfile, { minify });
  await bundle(path.join(root, 'src', 'entry.ts'), BIN_OUT, { minify });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll({ minify: !process.argv.includes('--no-minify') });
}
