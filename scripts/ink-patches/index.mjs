// The one table of build-time patches to Ink 6.8, applied by the esbuild bundle
// (scripts/build.mjs) and by vitest (vitest.config.ts) alike, so in-process tests
// run the Ink users run. Each patch wires a real module in this folder into one
// of Ink's files with exact-text edits; an edit whose text is gone fails loudly
// (the build or the test run), never silently leaving Ink unpatched.
// docs/ARCHITECTURE.md ("Ink patches") says why each exists and what to drop on Ink 7.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every Ink patch applied; a patched Ink file adds its name when it is evaluated. */
export const APPLIED_KEY = 'omc-top.ink-patches';

export const INK_PATCHES = [
  {
    name: 'incremental-fix',
    file: /[\\/]ink[\\/]build[\\/]log-update\.js$/,
    module: 'incremental-fix.mjs',
    edits: [
      {
        find: 'buffer.push(ansiEscapes.cursorUp(previousVisible - 1));',
        replace: 'buffer.push(ansiEscapes.cursorUp(__omcTop.cursorUpRows(previousVisible, previousOutput)));',
      },
    ],
    wiring: '',
  },
  {
    // cli-cursor's restore at exit writes to stderr, a file with `2>err`: shown again on Ink's own stream instead.
    name: 'cursor-on-stream',
    file: /[\\/]ink[\\/]build[\\/]log-update\.js$/,
    module: 'cursor-on-stream.mjs',
    binding: '__omcTopCursor',
    edits: [{ find: "import cliCursor from 'cli-cursor';", replace: 'const cliCursor = __omcTopCursor.cliCursor;' }],
    wiring: '',
  },
  {
    name: 'frame-caches',
    file: /[\\/]ink[\\/]build[\\/]output\.js$/,
    module: 'frame-caches.mjs',
    edits: [
      { find: 'caches = new OutputCaches();', replace: 'caches = __omcTopSharedCaches();' },
      {
        find: '    get() {\n',
        replace:
          '    get() {\n        return __omcTopFastGet(this) ?? this.__omcTopGeneralGet();\n    }\n    __omcTopGeneralGet() {\n',
      },
    ],
    wiring:
      'const __omcTopSharedCaches = __omcTop.createSharedCaches(OutputCaches);\n' +
      'const __omcTopFastGet = __omcTop.createFastGet({ styledCharsToString });\n',
  },
  {
    name: 'width-cache',
    file: /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/,
    module: 'width-cache.mjs',
    edits: [
      { find: 'const currentWidth = widestLine(text);', replace: 'const currentWidth = __omcTopWidestLine(text);' },
    ],
    wiring: 'const __omcTopWidestLine = __omcTop.createWidthCache(widestLine);\n',
  },
  {
    // Yoga's measure of a text node Ink has not measured before (it caches the rest itself).
    name: 'measure-width',
    file: /[\\/]ink[\\/]build[\\/]measure-text\.js$/,
    module: 'width-cache.mjs',
    edits: [{ find: 'const width = widestLine(text);', replace: 'const width = __omcTopFastWidth(text);' }],
    wiring: 'const __omcTopFastWidth = __omcTop.createFastWidth(widestLine);\n',
  },
  {
    name: 'sanitize-memo',
    file: /[\\/]ink[\\/]build[\\/]squash-text-nodes\.js$/,
    module: 'text-memo.mjs',
    edits: [{ find: 'return sanitizeAnsi(text);', replace: 'return __omcTopSanitize(text);' }],
    wiring: 'const __omcTopSanitize = __omcTop.createTextMemo(__omcTop.plainSgrPassesThrough(sanitizeAnsi));\n',
  },
  {
    // A text's Yoga node is marked dirty once per layout, not once per changed span (dirty-once.mjs).
    name: 'dirty-once',
    file: /[\\/]ink[\\/]build[\\/]dom\.js$/,
    module: 'dirty-once.mjs',
    edits: [{ find: 'yogaNode?.markDirty();', replace: '__omcTop.markDirtyOnce(yogaNode);' }],
    wiring: '',
  },
  {
    // …and every layout Ink computes (the app's and renderToString's) starts a new epoch.
    name: 'dirty-once-layout',
    file: /[\\/]ink[\\/]build[\\/](ink|render-to-string)\.js$/,
    module: 'dirty-once.mjs',
    edits: [
      {
        find: 'yogaNode.calculateLayout(undefined, undefined, Yoga.DIRECTION_LTR);',
        // The epoch moves as the layout's arguments are evaluated: just before Yoga runs it.
        replace: 'yogaNode.calculateLayout(undefined, undefined, __omcTop.layoutEpoch(Yoga.DIRECTION_LTR));',
      },
    ],
    wiring: '',
  },
  {
    // Renders at the frame rate, a waiting one as soon as the rate allows (frame-throttle.mjs).
    // ink.js also carries dirty-once-layout: a second patch of one file imports its module under its own binding.
    name: 'frame-throttle',
    file: /[\\/]ink[\\/]build[\\/]ink\.js$/,
    module: 'frame-throttle.mjs',
    binding: '__omcTopFrames',
    edits: [
      {
        find: 'const throttled = throttle(this.onRender, renderThrottleMs, {\n                leading: true,\n                trailing: true,\n            });',
        replace: 'const throttled = __omcTopFrames.frameThrottle(this.onRender, renderThrottleMs);',
      },
    ],
    wiring: '',
  },
  {
    // Ink draws no frame while it thinks it runs in CI (a CI variable in the user's shell): not-ci.mjs says why.
    name: 'not-ci',
    file: /[\\/]ink[\\/]build[\\/]ink\.js$/,
    module: 'not-ci.mjs',
    binding: '__omcTopCi',
    edits: [{ find: "import isInCi from 'is-in-ci';", replace: 'const isInCi = __omcTopCi.isInCi;' }],
    wiring: '',
  },
  {
    // …and writes frames without synchronized output for the same reason.
    name: 'not-ci-sync',
    file: /[\\/]ink[\\/]build[\\/]write-synchronized\.js$/,
    module: 'not-ci.mjs',
    edits: [{ find: "import isInCi from 'is-in-ci';", replace: 'const isInCi = __omcTop.isInCi;' }],
    wiring: '',
  },
];

/** The patches for a file path, in table order (none: an empty list). */
export function inkPatchesFor(file) {
  return INK_PATCHES.filter((p) => p.file.test(file));
}

/** Ink's source `src` of `file` with its patches applied (unchanged when it has none). */
export function applyInkPatch(file, src) {
  let out = src;
  const bindings = new Set();
  for (const patch of inkPatchesFor(file)) {
    const binding = patch.binding ?? '__omcTop';
    if (bindings.has(binding))
      throw new Error(`two ink patches of ${path.basename(file)} share the binding ${binding}`);
    bindings.add(binding);
    for (const { find, replace } of patch.edits) {
      const at = out.indexOf(find);
      if (at === -1 || out.indexOf(find, at + 1) !== -1) {
        throw new Error(
          `${path.basename(file)} changed: the ink patch "${patch.name}" no longer applies (${JSON.stringify(find)})`,
        );
      }
      out = out.slice(0, at) + replace + out.slice(at + find.length);
    }
    const mod = JSON.stringify(path.join(here, patch.module));
    const mark = `(globalThis[Symbol.for(${JSON.stringify(APPLIED_KEY)})] ??= new Set()).add(${JSON.stringify(patch.name)});\n`;
    out = `import * as ${binding} from ${mod};\n${out}\n${patch.wiring}${mark}`;
  }
  return out;
}

/** esbuild plugin: the table above, at bundle time. */
export const esbuildInkPatches = {
  name: 'ink-patches',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/][a-z-]+\.js$/ }, async (args) => {
      if (inkPatchesFor(args.path).length === 0) return undefined;
      return { contents: applyInkPatch(args.path, await readFile(args.path, 'utf8')), loader: 'js' };
    });
  },
};

/** Vite plugin (vitest): the same table, for the Ink that in-process tests import. */
export const viteInkPatches = {
  name: 'ink-patches',
  enforce: 'pre',
  transform(code, id) {
    const file = id.split('?')[0];
    if (inkPatchesFor(file).length === 0) return null;
    return { code: applyInkPatch(file, code), map: null };
  },
};
