/**
 * The plugin directories a running Claude Code process was started with: `claude --plugin-dir <dir>`
 * (or `--plugin-dir=<dir>`, repeatable) loads a plugin from a directory without installing it, so no
 * settings file names it: only the process's own command line does. Read from /proc/<pid>/cmdline
 * (Linux) through the one safe read path; elsewhere nothing is found, and nothing is guessed.
 */
import path from 'node:path';
import { readTextSync } from '../../io/safe-fs/index.js';

/** A command line is a few KiB; a longer one is cut (its plugin dirs are near the start anyway). */
const CMDLINE_MAX_BYTES = 256 * 1024;

/** The arguments of `--plugin-dir`, as given (relative ones resolved against `cwd` when known). */
export function pluginDirsIn(argv: readonly string[], cwd: string | null): string[] {
  const out: string[] = [];
  const add = (d: string) => {
    if (d === '') return;
    const abs = path.isAbsolute(d) ? path.normalize(d) : cwd ? path.resolve(cwd, d) : null;
    if (abs && !out.includes(abs)) out.push(abs);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') break;
    if (a === '--plugin-dir' && i + 1 < argv.length) add(argv[++i] as string);
    else if (a.startsWith('--plugin-dir=')) add(a.slice('--plugin-dir='.length));
  }
  return out;
}

/** `--plugin-dir` values of a live process (null: its command line cannot be read here). */
export function pluginDirsOf(pid: number, cwd: string | null): string[] | null {
  const argv = commandLineOf(pid);
  return argv && pluginDirsIn(argv, cwd);
}

/** A live process's command line, argv[0] first (null: it cannot be read here). */
export function commandLineOf(pid: number): string[] | null {
  if (process.platform !== 'linux' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  const r = readTextSync('/proc', `${pid}/cmdline`, CMDLINE_MAX_BYTES, { keepNul: true });
  if (!r.ok) return null;
  const argv = r.text.split('\u0000');
  if (argv[argv.length - 1] === '') argv.pop();
  return argv;
}
