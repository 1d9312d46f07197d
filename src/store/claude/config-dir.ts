/**
 * Where Claude Code keeps its per-user configuration: `CLAUDE_CONFIG_DIR`
 * when set (and non-empty), else `~/.claude` (observed with the real CLI,
 * claude-code-offline.md §4).
 */
import os from 'node:os';
import path from 'node:path';

export interface ClaudeConfigDir {
  dir: string;
  rule: 'CLAUDE_CONFIG_DIR' | 'HOME/.claude';
}

export function findClaudeConfigDir(env: NodeJS.ProcessEnv = process.env): ClaudeConfigDir {
  const set = env.CLAUDE_CONFIG_DIR;
  if (typeof set === 'string' && set.trim() !== '') return { dir: path.resolve(set), rule: 'CLAUDE_CONFIG_DIR' };
  const home = typeof env.HOME === 'string' && env.HOME !== '' ? env.HOME : os.homedir();
  return { dir: path.join(home, '.claude'), rule: 'HOME/.claude' };
}
