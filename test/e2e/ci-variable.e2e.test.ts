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
    '$name: the monitor draws its frames while it runs, and answers keys on screen',
    async (c, { project: p, pty }) => {
      const h = pty({ cwd: p.dir, cols: 80, rows: 24, env: c.env });
      await h.waitForText('ralph 3/10');
      h.write('?');
      await h.waitForText(/help/i);
      expect(h.exitCode).toBeNull();
    },
  );
});
