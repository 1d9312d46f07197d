// `npm run demo`: omc-top on a temporary project while the simulator plays OMC.
// Cleans up the temporary project however omc-top exits.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSimulator } from './simulate.mjs';
import { demoConfigDir } from './sim/claude.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'dist', 'omc-top.mjs');

const projectDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-demo-'));
// omc-top's own config, state and cache for the demo: yours would push the simulated "waiting for you" items to your
// real channels (your config's `push`) and leave files for the demo's deleted project in your state directory.
const ownDirs = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-demo-dirs-'));
const root = path.join(projectDir, '.omc');
fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
try {
  execFileSync('git', ['init', '-q', projectDir], { stdio: 'ignore' });
} catch {
  // Without git, --root below still points omc-top at the right place.
}
const cleanup = () => {
  fs.rmSync(projectDir, { recursive: true, force: true });
  fs.rmSync(ownDirs, { recursive: true, force: true });
};

const stop = await startSimulator(root, projectDir);
const env = { ...process.env };
delete env.CI; // Ink draws nothing when CI is set.
env.CLAUDE_CONFIG_DIR = demoConfigDir(projectDir); // the demo's simulated Claude Code, not yours
for (const [name, dir] of [
  ['XDG_CONFIG_HOME', 'config'],
  ['XDG_STATE_HOME', 'state'],
  ['XDG_CACHE_HOME', 'cache'],
]) {
  env[name] = path.join(ownDirs, dir);
  fs.mkdirSync(env[name]);
}
delete env.OMC_STATE_DIR; // the demo's root is given with --root; OMC's central state of yours is not the demo's
const child = spawn(process.execPath, [bin, '--root', root, ...process.argv.slice(2)], { stdio: 'inherit', env });
// The child owns the terminal; Ctrl-C and friends are its to handle.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => {
  stop();
  cleanup();
  process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 0));
});
