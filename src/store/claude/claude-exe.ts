/**
 * Is this process the Claude Code CLI? Asked before omc-top signals a pid it read from a file: a registry entry
 * can name any process (its start time is readable by anyone in /proc), so what the process runs is checked too.
 * Two shapes are Claude Code (seen with 2.1.332 and its npm packages):
 * - the native binary: `@anthropic-ai/claude-code/bin/claude.exe` (npm; `.bin/claude` links to it), the same file
 *   as `@anthropic-ai/claude-code-linux-x64/claude`, or a version file under `…/claude/versions/` (the native
 *   installer) — its executable's name says so;
 * - node (or bun) running the JS CLI: the script is `@anthropic-ai/claude-code/cli.js`, or the `claude` link to it.
 * Linux reads /proc/<pid>/exe and /proc/<pid>/cmdline; macOS asks `ps` for the executable; elsewhere nothing is
 * proven, so nothing is signalled.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { SYNC_KILL } from '../../io/child-end.js';
import { readLinkSync, readTextSync } from '../../io/safe-fs/index.js';
import { cleanLine } from '../../io/sanitize.js';
import { shownPath } from '../../io/shown-path.js';

export type ClaudeExe = { ok: true; exe: string; how: string } | { ok: false; reason: string };

const CMDLINE_MAX_BYTES = 256 * 1024;
/** What the kernel appends to /proc/<pid>/exe when the file was replaced (an update) while it runs. */
const DELETED = ' (deleted)';

const NATIVE_NAMES = new Set(['claude', 'claude.exe']);
/** The native installer keeps each version as a file named by its version under …/claude/versions/. */
const INSTALLER_VERSION = /(^|\/)claude\/versions\/\d+\.\d+\.\d+[^/]*$/;
const JS_RUNTIME = /^(node|nodejs|bun)(\d+(\.\d+)*)?$/;
const JS_CLI = /(^|\/)@anthropic-ai\/claude-code\/cli\.m?js$/;
/** node options that take the next argument as their value (the script comes after them). */
const NODE_VALUE_OPTIONS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
]);

export function isNativeClaude(exe: string): boolean {
  return NATIVE_NAMES.has(path.basename(exe)) || INSTALLER_VERSION.test(exe);
}

/** The script a JS runtime was started with: its first argument that is not an option (or an option's value). */
export function scriptOf(argv: readonly string[]): string | null {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') return argv[i + 1] ?? null;
    if (NODE_VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return null;
}

export function isJsClaude(script: string): boolean {
  return JS_CLI.test(script) || path.basename(script) === 'claude';
}

const shown = (s: string) => JSON.stringify(cleanLine(s));

/** Decides from what was read; exported for tests of the shapes. */
export function judgeClaudeExe(pid: number, exe: string, argv: readonly string[] | null): ClaudeExe {
  const replaced = exe.endsWith(DELETED);
  const file = replaced ? exe.slice(0, -DELETED.length) : exe;
  const note = replaced ? ' (replaced on disk since it started)' : '';
  if (isNativeClaude(file)) return { ok: true, exe: file, how: `executable ${shownPath(file)}${note}` };
  if (JS_RUNTIME.test(path.basename(file))) {
    if (argv === null)
      return { ok: false, reason: `pid ${pid} runs ${shown(file)} and its command line cannot be read` };
    const script = scriptOf(argv);
    if (script !== null && isJsClaude(script))
      return { ok: true, exe: file, how: `${shownPath(path.basename(file))} running ${shownPath(script)}${note}` };
    return {
      ok: false,
      reason: `pid ${pid} runs ${shown(file)} with ${script === null ? 'no script' : shown(script)}, not Claude Code's cli.js`,
    };
  }
  return {
    ok: false,
    reason: `pid ${pid} runs ${shown(file)}, which is not Claude Code (neither its binary "claude" nor node running its cli.js)`,
  };
}

function argvOf(pid: number): string[] | null {
  const r = readTextSync('/proc', `${pid}/cmdline`, CMDLINE_MAX_BYTES, { keepNul: true });
  if (!r.ok) return null;
  const argv = r.text.split('\u0000');
  if (argv[argv.length - 1] === '') argv.pop();
  return argv;
}

/** What pid `pid` runs, judged now. */
export function claudeExeOf(pid: number, platform: NodeJS.Platform = process.platform): ClaudeExe {
  if (!Number.isSafeInteger(pid) || pid <= 0) return { ok: false, reason: `pid ${pid} is not a process id` };
  if (platform === 'linux') {
    const link = readLinkSync('/proc', `${pid}/exe`);
    if (!link.ok)
      return {
        ok: false,
        reason:
          link.code === 'missing'
            ? `pid ${pid} is not running`
            : `cannot read the executable of pid ${pid} (${link.message})`,
      };
    return judgeClaudeExe(pid, link.target, argvOf(pid));
  }
  if (platform === 'darwin') {
    // macOS's `comm` is the executable's full path; the arguments come with `args`.
    const ps = (field: string) =>
      spawnSync('ps', ['-p', String(pid), '-o', `${field}=`], {
        encoding: 'utf8',
        timeout: 2000,
        killSignal: SYNC_KILL,
        env: { ...process.env, LC_ALL: 'C' },
      });
    const comm = ps('comm');
    if (comm.status !== 0 || !comm.stdout.trim())
      return { ok: false, reason: `cannot read the executable of pid ${pid}` };
    const args = ps('args');
    const argv = args.status === 0 ? args.stdout.trim().split(/\s+/) : null;
    return judgeClaudeExe(pid, comm.stdout.trim(), argv);
  }
  return { ok: false, reason: `cannot tell what pid ${pid} runs on this system` };
}
