import fs from 'node:fs';
import { defineConfig } from 'vitest/config';
import { viteInkPatches } from './scripts/ink-patches/index.mjs';
import { measureTimeScale, TIME_SCALE_ENV } from './test/helpers/time-scale.js';
import { localeIsUtf8 } from './src/io/glyphs.js';

/**
 * How long tests may wait, for this machine now (test/helpers/time-scale.ts): measured once here and
 * exported, so every worker and every helper uses the same factor.
 */
const time = measureTimeScale();
process.env[TIME_SCALE_ENV] = String(time.scale);
if (time.scale !== 1) console.log(`[omc-top tests] waits scaled x${time.scale}: ${time.why}`);

/**
 * omc-top draws ASCII where the locale is not UTF-8 (src/io/glyphs.ts). The suite's screens are the UTF-8 ones,
 * whatever locale the run was started in; a test of the ASCII screen sets its own locale.
 */
if (!localeIsUtf8(process.env)) process.env.LC_ALL = 'C.UTF-8';

/** Ink ships source maps that name sources it does not ship; inlined, each would print a warning. */
const dropShippedSourceMaps = {
  name: 'drop-shipped-source-maps',
  enforce: 'pre' as const,
  load(id: string) {
    if (!/[\\/]node_modules[\\/]ink(-testing-library)?[\\/]build[\\/].*\.js$/.test(id)) return null;
    return { code: fs.readFileSync(id, 'utf8').replace(/^\/\/# sourceMappingURL=.*$/m, ''), map: null };
  },
};

export default defineConfig({
  // In-process tests run the Ink the bundle ships: the same patch table (scripts/ink-patches/).
  plugins: [viteInkPatches, dropShippedSourceMaps],
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    globalSetup: ['test/global-setup.ts'],
    // node-pty and child processes are happier in forked workers than in threads.
    pool: 'forks',
    testTimeout: Math.round(30_000 * time.scale),
    hookTimeout: Math.round(60_000 * time.scale),
    // pty e2e tests are CPU-heavy on a 2-core box; keep a little headroom.
    maxWorkers: 2,
    // Vite transforms (so patches) only what it inlines. ink-testing-library goes
    // with ink: left to Node, it would load a second, unpatched Ink.
    server: { deps: { inline: [/[\\/]node_modules[\\/]ink[\\/]/, /[\\/]node_modules[\\/]ink-testing-library[\\/]/] } },
  },
});
