/**
 * Claude asking permission through omc-top's hook, its logic run in process as Claude Code would run it: the hook
 * hands the request to a monitor listening for the project and waits for its answer. What a test asserts is what
 * the hook tells Claude (`outcome`, `replies`).
 */
import { runPermissionHook, type HookDeps } from '../../src/commands/hook-permission.js';
import path from 'node:path';
import { processStartIdentity } from '../../src/io/process-start.js';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import type { TempProject } from './fixtures.js';

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

/** `echo start; step01 && … stepNN && echo HIDDEN-TAIL`: a long command whose tail is what a cut would hide. */
export const longCommand = (steps: number): string =>
  `echo start; ${Array.from({ length: steps }, (_, i) => `step${String(i + 1).padStart(2, '0')} && `).join('')}echo HIDDEN-TAIL`;

/**
 * A started store over `project` listening for permission prompts (its own state, config and Claude directories in
 * the project's directory), and `ask`: a prompt of `session` for a Bash command, through omc-top's hook.
 */
export function askingScene(
  project: TempProject,
  newStore: (o: OmcStoreOptions) => OmcStore,
  session: string,
): { store: OmcStore; ask: (command: string) => Promise<Asked> } {
  const env: NodeJS.ProcessEnv = {
    XDG_STATE_HOME: path.join(project.dir, 'xdg-state'),
    XDG_CONFIG_HOME: path.join(project.dir, 'xdg-config'),
    CLAUDE_CONFIG_DIR: path.join(project.dir, 'claude'),
    HOME: project.dir,
    PATH: process.env.PATH,
  };
  const store = newStore({
    root: project.root,
    watch: 'poll',
    projectDir: project.dir,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR } },
    answers: { stateDir: path.join(project.dir, 'xdg-state', 'omc-top'), listen: true, live: true },
  });
  store.start();
  return { store, ask: (command) => askPermission({ env, session, cwd: project.dir, command }) };
}
