export function twoGateDescriptor(runId: string): Record<string, unknown>;
export function startTwoGateRun(o: {
  runsRoot: string;
  runId: string;
  pollIntervalMs?: number;
  timeoutMs?: number;
  timeoutPolicy?: 'approved' | 'denied';
}): {
  runDir: string;
  done: Promise<{ terminal: string; exit_code: number; [k: string]: unknown }>;
  pendingPath(act: string): string;
};
export function listPending(runsRoot: string): Array<{ run_id: string; activation_id: string; prompt_text: string }>;
export function parseDecision(raw: string): { decision: string; decided_at?: string; decided_by?: string } | null;
export function writeDecision(runsRoot: string, runId: string, act: string, decision: string, by?: string): void;
export const OMC_CLI: string;
