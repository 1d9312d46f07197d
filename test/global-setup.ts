// The pty e2e tests run the real bundle (dist/omc-top.mjs), exactly what users run.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  // The real OMC packages (test/omc-packages, see test/helpers/omc-packages.mjs): `npm test` installs them
  // first; a bare `npx vitest` stops here, saying so, rather than failing in every interop test.
  execFileSync(process.execPath, [path.join(root, 'scripts', 'omc-packages.mjs'), '--check'], { stdio: 'inherit' });
}
