/** The shape of `omc-top doctor`'s answer (its --json document) and what it is asked with. */
export type CheckStatus = 'ok' | 'warn' | 'broken' | 'info';

export interface DoctorCheck {
  id: 'node' | 'root' | 'omc' | 'claude' | 'config' | 'push' | 'watch' | 'tmux' | 'terminal' | 'hooks' | 'state';
  title: string;
  status: CheckStatus;
  /** One line: the answer. */
  summary: string;
  /** Further lines: candidates, limits, what to do. */
  details: string[];
  data: Record<string, unknown>;
}

export interface DoctorReport {
  ok: boolean;
  omcTop: string;
  checks: DoctorCheck[];
}

export interface TerminalFacts {
  isTTY: boolean;
  columns: number | null;
  rows: number | null;
  colorDepth: number | null;
}

export interface DoctorOptions {
  cwd: string;
  rootOverride?: string;
  env: NodeJS.ProcessEnv;
  poll: boolean;
  version: string;
  nodeVersion: string;
  terminal: TerminalFacts;
  /** Where the kernel's limits are read (/proc); tests point it at a copy. */
  procRoot?: string;
  /** How long to wait for the watcher to settle on a mode. */
  watchTimeoutMs?: number;
  /** `--test-push`: send a test message to every push channel. */
  testPush?: boolean;
}
