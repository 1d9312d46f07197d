/**
 * Where Claude Code keeps its per-user state: $CLAUDE_CONFIG_DIR when set and
 * non-empty, else $HOME/.claude. (Agreed shape; another branch owns this file.)
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
  const home = typeof env.HOME === 'string' && env.HOME.trim() !== '' ? env.HOME : os.homedir();
  return { dir: path.resolve(home, '.claude'), rule: 'HOME/.claude' };
}
