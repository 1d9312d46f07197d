/**
 * Where Claude Code keeps its session registry and transcripts: $CLAUDE_CONFIG_DIR
 * when set (the CLI's own rule, verified with 2.1.332), else $HOME/.claude.
 * omc-top only ever reads here; it never writes in Claude's directory.
 */
import path from 'node:path';
import { homeDir } from '../../io/home-dir.js';

export interface ClaudeConfigDir {
  dir: string;
  rule: 'CLAUDE_CONFIG_DIR' | 'HOME/.claude';
}

export function findClaudeConfigDir(env: NodeJS.ProcessEnv = process.env): ClaudeConfigDir {
  const set = env.CLAUDE_CONFIG_DIR;
  if (typeof set === 'string' && set.trim() !== '') return { dir: path.resolve(set), rule: 'CLAUDE_CONFIG_DIR' };
  const home = homeDir(env);
  return { dir: path.resolve(home, '.claude'), rule: 'HOME/.claude' };
}

/**
 * What Claude's config directory is called when a read under it is refused ("symlink points outside Claude's config
 * directory"): every read of Claude Code's files passes CLAUDE_DIR_READ, never the .omc root's words.
 */
export const CLAUDE_DIR_LABEL = "Claude's config directory";
export const CLAUDE_DIR_READ = { rootLabel: CLAUDE_DIR_LABEL } as const;

/** Claude Code's project folder name for a cwd: every character that is not a letter or digit becomes "-". */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/** The last cwd encoded: a project's sessions share one cwd, and the wanted transcripts are judged per publish. */
let lastCwd: { cwd: string; dir: string } | null = null;

/** The transcript of a session, relative to the config dir. */
export function transcriptRel(cwd: string, sessionId: string): string {
  if (lastCwd?.cwd !== cwd) lastCwd = { cwd, dir: encodeProjectDir(cwd) };
  return `projects/${lastCwd.dir}/${sessionId}.jsonl`;
}
