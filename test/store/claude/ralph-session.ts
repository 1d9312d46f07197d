/**
 * A project with one live ralph session and a Claude config dir beside it, for tests of what the Claude domain reads
 * for that session (its transcript and its subagent files): the set-up the subagent tests share.
 */
import path from 'node:path';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { writeOmcJson, type TempProject } from '../../helpers/fixtures.js';

export function writeLiveRalph(p: TempProject, sid: string, iteration: number): void {
  writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json'), {
    active: true,
    iteration,
    max_iterations: 10,
    started_at: new Date().toISOString(),
    last_checked_at: new Date().toISOString(),
    session_id: sid,
    project_path: p.dir,
    prompt: 'ralph: delegate',
  });
}

/** Where Claude Code keeps the session's transcript and its subagents' files under `cfg`. */
export function sessionFiles(cfg: string, projectDir: string, sid: string): { parent: string; subDir: string } {
  const rel = transcriptRel(projectDir, sid);
  return { parent: path.join(cfg, rel), subDir: path.join(cfg, rel.replace(/\.jsonl$/, ''), 'subagents') };
}
