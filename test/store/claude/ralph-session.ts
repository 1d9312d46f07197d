/**
 * Where the Claude domain reads a session's transcript and its subagent files: the set-up the subagent tests share
 * (their live ralph is helpers/fixtures.ts's writeLiveRalph).
 */
import path from 'node:path';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';

/** Where Claude Code keeps the session's transcript and its subagents' files under `cfg`. */
export function sessionFiles(cfg: string, projectDir: string, sid: string): { parent: string; subDir: string } {
  const rel = transcriptRel(projectDir, sid);
  return { parent: path.join(cfg, rel), subDir: path.join(cfg, rel.replace(/\.jsonl$/, ''), 'subagents') };
}
