/**
 * The monitor's side of "whose registry": the config directory of the Claude that asked, which need not be the one
 * the monitor reads. A second Claude started in the project with `CLAUDE_CONFIG_DIR=~/.claude2` keeps its registry
 * entry there; looked for in the monitor's directory it is missing, and a missing entry read as "moved on" refused
 * every answer to a prompt Claude still showed. Known, in this order, from:
 *
 * - the request's transcript path: Claude Code names `<config dir>/projects/<cwd>/<session>.jsonl` in the hook's
 *   payload (seen with 2.1.332, with CLAUDE_CONFIG_DIR set and without); no read at all;
 * - the asking process's environment as it was started (CLAUDE_CONFIG_DIR, else its HOME: Claude Code's own rule),
 *   read once per process (claudes-here.ts), for a request whose payload named no transcript;
 * - else the directory the monitor reads, not known to be that Claude's (a missing entry there says nothing).
 *
 * (The hook needs none of this: Claude Code gives it its own environment, liveness.ts registryOfEnv.)
 */
import path from 'node:path';
import { configOfProcess } from '../claude/claudes-here.js';
import { findClaudeConfigDir } from '../claude/config-dir.js';
import type { AskerRegistry } from './liveness.js';
import type { PermissionRequestFile } from './protocol.js';

type Asker = Pick<PermissionRequestFile, 'transcript_path' | 'session_id' | 'claude_pid' | 'claude_start' | 'cwd'>;

/** `<dir>/projects/<encoded cwd>/<session id>.jsonl` → `<dir>`; null for any other shape. */
function configOfTranscript(transcript: string | null, sessionId: string): string | null {
  if (transcript === null || !path.isAbsolute(transcript)) return null;
  const t = path.resolve(transcript);
  const project = path.dirname(t);
  const projects = path.dirname(project);
  if (path.basename(t) !== `${sessionId}.jsonl` || path.basename(projects) !== 'projects') return null;
  return path.dirname(projects);
}

/** The registry that says whether the Claude that asked still waits; `monitorEnv`: the directory the monitor reads. */
export function askerRegistry(req: Asker, monitorEnv: NodeJS.ProcessEnv): AskerRegistry {
  const fromTranscript = configOfTranscript(req.transcript_path, req.session_id);
  if (fromTranscript !== null) return { dir: fromTranscript, its: true };
  if (req.claude_pid !== null && typeof req.claude_start === 'string') {
    const p = configOfProcess(req.claude_pid, req.claude_start, req.cwd, monitorEnv);
    if (p.config) return { dir: p.config.dir, its: true };
  }
  return { dir: findClaudeConfigDir(monitorEnv).dir, its: false };
}
