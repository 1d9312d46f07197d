// The pty e2e tests run the real bundle (dist/omc-top.mjs), exactly what users run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): () => void {
  // omc-top keeps its own files (acknowledgements, cancel records, samples) in $XDG_STATE_HOME/omc-top. A test's
  // in-process store that names no state directory of its own writes there: never into the user's, one run's own.
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-test-xdg-state-'));
  process.env.XDG_STATE_HOME = state;
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  // The real OMC packages (test/omc-packages, see test/helpers/omc-packages.mjs): `npm test` installs them
  // first; a bare `npx vitest` stops here, saying so, rather than failing in every interop test.
  execFileSync(process.execPath, [path.join(root, 'scripts', 'omc-packages.mjs'), '--check'], { stdio: 'inherit' });
  return () => fs.rmSync(state, { recursive: true, force: true });
}
