import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    globalSetup: ['test/global-setup.ts'],
    // node-pty and child processes are happier in forked workers than in threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // pty e2e tests are CPU-heavy on a 2-core box; keep a little headroom.
    maxWorkers: 2,
  },
});
