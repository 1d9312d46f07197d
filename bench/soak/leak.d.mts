// Types for bench/soak/leak.mjs (used by test/faults/leak.e2e.test.ts).
export interface LeakCounts {
  listeners: number;
  emitters: number;
  processListeners: number;
  timers: number;
  fsWatchers: number;
  fds: number;
  inotifyWatches: number;
}
export interface LeakResult {
  cycles: number;
  changes: number;
  heapBeforeMb: number;
  heapAfterMb: number;
  before: LeakCounts;
  after: LeakCounts;
}
export const LEAK_LIMITS: { heapMb: number; timerSlack: number };
export function runLeakCheck(opts?: {
  cycles?: number;
  perCycle?: number;
  leak?: boolean;
  log?: (line: string) => void;
}): Promise<LeakResult>;
export function leakVerdict(r: LeakResult): string[];
