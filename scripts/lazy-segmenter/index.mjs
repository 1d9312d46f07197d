// Bundle-time edits that keep a start from loading what its first frame does not use (scripts/build.mjs):
// the Intl.Segmenters four dependencies make as they load (runtime.mjs says why), and string-width's RGI emoji
// set (about 30 ms: V8 expands the property of strings when the expression is made; the first frame measures
// no emoji). Each edit is exact text; a file whose text changed fails the build, never ships unedited.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNTIME = path.join(path.dirname(fileURLToPath(import.meta.url)), 'runtime.mjs');
const YOGA_EARLY = fileURLToPath(new URL('../../src/terminal/yoga-early.ts', import.meta.url));
const IMPORT = `import { lazySegmenter as __omcTopLazySegmenter } from ${JSON.stringify(RUNTIME)};\n`;

const lazy = (find, { asciiFast = false } = {}) => ({
  find,
  replace: `${find.slice(0, find.indexOf('new Intl.Segmenter'))}__omcTopLazySegmenter(() => ${find
    .slice(find.indexOf('new Intl.Segmenter'))
    .replace(/;$/, '')}${asciiFast ? ', { asciiFast: true }' : ''});`,
  needsRuntime: true,
});

const EMOJI = {
  find: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
  replace:
    "let rgiEmojiSet;\nconst rgiEmojiRegex = { test: (s) => (rgiEmojiSet ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(s) };",
  // Older string-width (wrap-ansi's own) has no such set.
  optional: true,
};

/** Per file: the edits, each found exactly once (an `optional` one may be absent), and a `header` put first. */
export const STARTUP_EDITS = [
  {
    file: /[\\/]node_modules[\\/]signal-exit[\\/]index\.js$/,
    edits: [
      { find: "  var assert = require('assert')\n", replace: '' },
      {
        find: "    assert.equal(typeof cb, 'function', 'a callback must be provided for exit handler')",
        replace:
          "    if (typeof cb !== 'function') require('assert').equal(typeof cb, 'function', 'a callback must be provided for exit handler')",
      },
    ],
  },
  {
    // Yoga's loader is handed the wasm module the bin compiled from the bundle's bytes (src/terminal/yoga-early.ts).
    file: /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/,
    header: `import { yogaLoadOptions as __omcTopYogaOptions } from ${JSON.stringify(YOGA_EARLY)};\n`,
    edits: [
      {
        find: 'const Yoga = wrapAssembly(await loadYoga());',
        replace: 'const Yoga = wrapAssembly(await loadYoga(__omcTopYogaOptions()));',
      },
    ],
  },
  {
    file: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/,
    edits: [lazy('const segmenter = new Intl.Segmenter();'), EMOJI],
  },
  {
    file: /[\\/]node_modules[\\/]slice-ansi[\\/]tokenize-ansi\.js$/,
    edits: [lazy("const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});")],
  },
  {
    file: /[\\/]node_modules[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
    edits: [lazy('const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });', { asciiFast: true })],
  },
];

/** `src` with `edits` applied; throws when a required edit's text is not there exactly once. */
export function applyEdits(file, src, edits) {
  let out = src;
  let runtime = false;
  for (const e of edits) {
    const n = out.split(e.find).length - 1;
    if (n === 0 && e.optional) continue;
    if (n !== 1) throw new Error(`${file} changed: ${e.find} found ${n} times, not once`);
    // A function, so `$'` in the replacement is text, not a replacement pattern.
    out = out.replace(e.find, () => e.replace);
    runtime ||= e.needsRuntime === true;
  }
  return runtime ? IMPORT + out : out;
}

export const startupEdits = {
  name: 'startup-edits',
  setup(b) {
    for (const { file, edits, header = '' } of STARTUP_EDITS)
      b.onLoad({ filter: file }, async (args) => ({
        contents: header + applyEdits(args.path, await readFile(args.path, 'utf8'), edits),
        loader: 'js',
      }));
  },
};
