/**
 * Claude asking permission through omc-top's hook, its logic run in process as Claude Code would run it: the hook
 * hands the request to a monitor listening for the project and waits for its answer. What a test asserts is what
 * the hook tells Claude (`outcome`, `replies`).
 */
import { runPermissionHook, type HookDeps } from '../../src/commands/hook-permission.js';
import { processStartIdentity } from '../../src/io/process-start.js';

export interface Asked {
  outcome: string;
  replies: Array<{ hookSpecificOutput: { decision: Record<string, unknown> } }>;
}

export function askPermission(opts: {
  /** The hook's environment: the state and config directories (and `CLAUDE_PID`, the Claude that asks). */
  env: NodeJS.ProcessEnv;
  session: string;
  cwd: string;
  command: string;
  transcriptPath?: string;
}): Promise<Asked> {
  const printed: string[] = [];
  const deps: HookDeps = {
    env: opts.env,
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    print: (t) => void printed.push(t),
    startIdentity: processStartIdentity,
    stopped: () => false,
    pollMs: 20,
  };
  const payload = JSON.stringify({
    session_id: opts.session,
    transcript_path: opts.transcriptPath ?? '/tmp/t.jsonl',
    cwd: opts.cwd,
    prompt_id: 'p-1',
    permission_mode: 'default',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command: opts.command, description: 'a command' },
    permission_suggestions: [],
  });
  return runPermissionHook(payload, deps).then((r) => ({
    outcome: r.outcome,
    replies: printed.map((x) => JSON.parse(x) as Asked['replies'][number]),
  }));
}
