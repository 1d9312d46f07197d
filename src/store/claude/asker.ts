/**
 * The Claude process that asked a permission prompt: the request names it (`claude_pid`, the hook's `CLAUDE_PID`).
 * When two terminals run one session (`claude --resume` beside the loop's Claude) the session's view stands for one
 * of them (choice.ts), which need not be the one asking: the prompt is credited to the asker, its name and tmux pane,
 * on every surface (the `!` list, needs you, `--json`, J). The session's process only when the request names none,
 * or one the registry does not list for that session.
 */
import type { ClaudeSnapshot, ProcessView } from './model.js';

export function askingProcess(
  claude: Pick<ClaudeSnapshot, 'bySession' | 'others'>,
  sessionId: string,
  pid: number | null,
): ProcessView | null {
  const chosen = claude.bySession.get(sessionId)?.process ?? null;
  if (pid === null || chosen?.pid === pid) return chosen;
  const other = claude.others?.get(pid);
  return other && other.sessionId === sessionId ? other : chosen;
}
