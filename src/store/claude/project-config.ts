/**
 * Which Claude config directory a project's Claudes use, and so which one omc-top reads for it: the registry and
 * transcripts (the join: status, peek, tokens, cost) and the OMC plugin enabled there (the book that judges). omc-top's
 * own $CLAUDE_CONFIG_DIR (or ~/.claude) is the answer unless the live Claudes in the project run with another one
 * (`CLAUDE_CONFIG_DIR=~/.claude-work claude`): their hooks run the OMC of their directory, whatever omc-top's shell
 * says. When they use several, the one most of them use reads (ties: omc-top's own, else the oldest process's), and
 * a note names the others with the command that reads them.
 */
import { shellArg, shownPath } from '../../io/shown-path.js';
import { claudesIn, type ClaudeHere } from './claudes-here.js';
import { findClaudeConfigDir, type ClaudeConfigDir } from './config-dir.js';

export interface ProjectClaudeConfig {
  config: ClaudeConfigDir;
  /** The Claude whose environment chose `config` when it is not omc-top's own (its pid). */
  chosenBy: number | null;
  /** One line per other config directory the project's Claudes use (empty: one, or none seen). */
  notes: string[];
  /** The Claudes seen in the project (for --plugin-dir and the hints). */
  claudes: ClaudeHere[];
}

/** `omc-top`'s own config directory, or the one the live Claudes of `projectDir` use (see above). */
export function projectClaudeConfig(
  projectDir: string | null,
  env: NodeJS.ProcessEnv,
  scan: (dir: string, env: NodeJS.ProcessEnv) => ClaudeHere[] = claudesIn,
): ProjectClaudeConfig {
  const own = findClaudeConfigDir(env);
  const claudes = projectDir === null ? [] : scan(projectDir, env);
  const byDir = new Map<string, { config: ClaudeConfigDir; pids: number[] }>();
  for (const c of claudes) {
    if (!c.config) continue;
    const at = byDir.get(c.config.dir) ?? { config: c.config, pids: [] };
    at.pids.push(c.pid);
    byDir.set(c.config.dir, at);
  }
  if (byDir.size === 0) return { config: own, chosenBy: null, notes: [], claudes };
  // Sorted: most Claudes first, then omc-top's own, then the one of the oldest (smallest start identity) process.
  const firstStart = (pids: number[]) =>
    Math.min(...pids.map((p) => Number(claudes.find((c) => c.pid === p)?.procStart ?? Infinity)));
  const ranked = [...byDir.values()].sort(
    (a, b) =>
      b.pids.length - a.pids.length ||
      Number(b.config.dir === own.dir) - Number(a.config.dir === own.dir) ||
      firstStart(a.pids) - firstStart(b.pids),
  );
  const chosen = ranked[0] as { config: ClaudeConfigDir; pids: number[] };
  const notes = ranked
    .slice(1)
    .map(
      (o) =>
        `Claude pid ${o.pids.join(', ')} here runs with ${configWords(o.config)} (this monitor reads ${shownPath(chosen.config.dir)}, as Claude pid ${chosen.pids.join(', ')} here): try ${commandFor(o.config)}`,
    );
  return {
    config: chosen.config.dir === own.dir ? own : chosen.config,
    chosenBy: chosen.config.dir === own.dir ? null : (chosen.pids[0] as number),
    notes,
    claudes,
  };
}

/** "CLAUDE_CONFIG_DIR=~/.claude-work", or "~/.claude (no CLAUDE_CONFIG_DIR)". */
export const configWords = (c: ClaudeConfigDir): string =>
  c.rule === 'CLAUDE_CONFIG_DIR'
    ? `CLAUDE_CONFIG_DIR=${shownPath(c.dir)}`
    : `${shownPath(c.dir)} (no CLAUDE_CONFIG_DIR)`;

/** The command that reads `c`: `CLAUDE_CONFIG_DIR=… omc-top`, or `env -u CLAUDE_CONFIG_DIR omc-top`. */
export const commandFor = (c: ClaudeConfigDir): string =>
  c.rule === 'CLAUDE_CONFIG_DIR'
    ? shellArg(c.dir, (w) => `CLAUDE_CONFIG_DIR=${w} omc-top`)
    : 'env -u CLAUDE_CONFIG_DIR omc-top';

/**
 * Which directory is read and why, when it is not omc-top's own: "Claude's config directory read:
 * CLAUDE_CONFIG_DIR=~/.claude-work, as Claude pid 7 here runs with it" (the start's notice, the look's line when a
 * running monitor switches); null when omc-top's own is read.
 */
export function configReadWords(pc: Pick<ProjectClaudeConfig, 'config' | 'chosenBy'>): string | null {
  if (pc.chosenBy === null) return null;
  return `Claude's config directory read: ${configWords(pc.config)}, as Claude pid ${pc.chosenBy} here runs with it`;
}

/** The environment whose config directory is `c` (what the store's Claude side and the OMC look read). */
export function envWithConfig(env: NodeJS.ProcessEnv, c: ClaudeConfigDir): NodeJS.ProcessEnv {
  if (findClaudeConfigDir(env).dir === c.dir) return env;
  return { ...env, CLAUDE_CONFIG_DIR: c.dir };
}
