/**
 * A CI variable in the user's shell (some containers and devcontainers export CI=true) put Ink in its CI mode,
 * which draws no frame until exit: the monitor showed a blank screen and looked hung. Ink is patched to always
 * draw (scripts/ink-patches/not-ci.mjs); the real bundle in a pty, with the variables set as a shell would.
 */
import { describe, expect, it } from '../helpers/it.js';

describe('a CI variable in the environment', () => {
  it.for([
    { name: 'CI=true', env: { CI: 'true' } },
    { name: 'CONTINUOUS_INTEGRATION=1', env: { CONTINUOUS_INTEGRATION: '1' } },
  ])(
    '$name: the monitor draws its frames while it runs, and answers a key with a new frame',
    async (c, { project: p, pty }) => {
      const h = pty({ cwd: p.dir, cols: 80, rows: 24, env: c.env });
      await h.waitForText('ralph 3/10');
      h.write('?');
      // The help overlay, a frame drawn after a key: not only the first one (CI mode drew the last frame at exit).
      await h.waitForText('omc-top keys');
      expect(h.exitCode).toBeNull();
    },
  );
});
