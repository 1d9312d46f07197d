/**
 * The flags of a Claude Code command line that decide what its session loads and may do, kept so that `r` resumes
 * the session the way it ran. `claude --resume <id>` alone starts with the defaults: a session started with
 * `--plugin-dir <OMC>` would come back without OMC (no Stop hook, so no loop), one started with
 * `--permission-mode acceptEdits --allowedTools Bash` would stop at the first prompt. Claude Code 2.1.332's `--help`:
 *
 * - what loads: `--plugin-dir`, `--plugin-url` (plugins for this session only), `--settings` (a settings file or
 *   JSON: hooks, enabled plugins, permissions), `--setting-sources` (which settings files load at all),
 *   `--mcp-config` and `--strict-mcp-config` (MCP servers), `--bare` and `--safe-mode` (skip hooks, plugins…);
 * - what it may do without asking: `--permission-mode`, `--dangerously-skip-permissions`,
 *   `--allow-dangerously-skip-permissions`, `--allowedTools`/`--disallowedTools`, `--tools`, `--add-dir`;
 * - `--model`: a resume on the default model would change what a long loop costs and how it works.
 *
 * Left out on purpose: the prompt, `-p` and its output flags (the resume is interactive), `--resume`/`--continue`/
 * `--session-id`/`--fork-session` (the resume names the session itself), the system-prompt flags (Claude Code
 * records the system prompt with the conversation and reuses it on resume), `--name`, `--debug*`, `--agents`.
 *
 * Only flags seen on the process's own command line are ever carried: nothing is guessed.
 */
import path from 'node:path';
import { commandLineOf } from './plugin-dir.js';

type Arity = 'none' | 'one' | 'many';

/** Each carried flag (every spelling Claude Code accepts) and how many values it takes. */
const CARRIED: ReadonlyMap<string, Arity> = new Map<string, Arity>([
  ['--plugin-dir', 'one'],
  ['--plugin-url', 'one'],
  ['--settings', 'one'],
  ['--setting-sources', 'one'],
  ['--mcp-config', 'many'],
  ['--strict-mcp-config', 'none'],
  ['--bare', 'none'],
  ['--safe-mode', 'none'],
  ['--permission-mode', 'one'],
  ['--dangerously-skip-permissions', 'none'],
  ['--allow-dangerously-skip-permissions', 'none'],
  ['--allowedTools', 'many'],
  ['--allowed-tools', 'many'],
  ['--disallowedTools', 'many'],
  ['--disallowed-tools', 'many'],
  ['--tools', 'many'],
  ['--add-dir', 'many'],
  ['--model', 'one'],
]);

/** An argument Claude Code's parser takes for an option, not a value (it ends a list of values). */
const looksLikeOption = (a: string) => a.length > 1 && a.startsWith('-');

/**
 * The carried flags of a command line (argv[0] included or not), in order, each with its values as given;
 * a relative `--plugin-dir` is made absolute against `cwd` (as omc-top judged the session by it).
 */
export function launchFlagsIn(argv: readonly string[], cwd: string | null): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') break;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const arity = CARRIED.get(name);
    if (!arity) continue;
    if (name !== a) {
      // `--flag=value`: one value, kept in that form (a list option given so takes no further values).
      out.push(name === '--plugin-dir' ? `${name}=${absolute(a.slice(eq + 1), cwd)}` : a);
      continue;
    }
    if (arity === 'none') {
      out.push(a);
      continue;
    }
    const values: string[] = [];
    while (i + 1 < argv.length && !looksLikeOption(argv[i + 1] as string) && argv[i + 1] !== '--') {
      values.push(argv[++i] as string);
      if (arity === 'one') break;
    }
    if (values.length === 0) continue;
    out.push(a, ...(a === '--plugin-dir' ? values.map((v) => absolute(v, cwd)) : values));
  }
  return out;
}

function absolute(d: string, cwd: string | null): string {
  return path.isAbsolute(d) || !cwd || d === '' ? d : path.resolve(cwd, d);
}

/** What omc-top recorded of a session's Claude process while it lived. */
export interface LaunchRecord {
  pid: number;
  /** The carried flags of its command line (launchFlagsIn); empty when it had none. */
  flags: readonly string[];
}

/** Sessions remembered at most (the oldest recorded is forgotten first). */
const MAX_SESSIONS = 2000;

/**
 * Each session's last Claude process's carried flags, read from its command line while it is alive (once per
 * process: a command line cannot change) and kept after it is gone, when /proc can no longer say (and its pid may
 * name another process): that is when `r` needs them.
 */
export class LaunchBook {
  private readonly bySession = new Map<string, { key: string; record: LaunchRecord | null }>();

  constructor(private readonly read: (pid: number) => string[] | null = commandLineOf) {}

  /** A live process of the session: its flags are read unless this process's were already. */
  noteLive(sessionId: string, pid: number, procStart: string | null, cwd: string | null): void {
    const key = `${pid}:${procStart ?? ''}`;
    if (this.bySession.get(sessionId)?.key === key) return;
    const argv = this.read(pid);
    // Unreadable (or empty: a zombie's): what an earlier process of the session ran with says nothing of this one.
    const record = argv && argv.length > 0 ? { pid, flags: launchFlagsIn(argv.slice(1), cwd) } : null;
    this.bySession.delete(sessionId);
    this.bySession.set(sessionId, { key, record });
    if (this.bySession.size > MAX_SESSIONS) this.bySession.delete(this.bySession.keys().next().value as string);
  }

  /** The session's last recorded process, or null when omc-top never read one's command line. */
  of(sessionId: string): LaunchRecord | null {
    return this.bySession.get(sessionId)?.record ?? null;
  }
}
