import fs from 'node:fs';
import { defineConfig } from 'vitest/config';
import { viteInkPatches } from './scripts/ink-patches/index.mjs';

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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // pty e2e tests are CPU-heavy on a 2-core box; keep a little headroom.
    maxWorkers: 2,
    // Vite transforms (so patches) only what it inlines. ink-testing-library goes
    // with ink: left to Node, it would load a second, unpatched Ink.
    server: { deps: { inline: [/[\\/]node_modules[\\/]ink[\\/]/, /[\\/]node_modules[\\/]ink-testing-library[\\/]/] } },
  },
});
