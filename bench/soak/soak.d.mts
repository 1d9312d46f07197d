// Types for bench/soak/soak.mjs (bench/soak/soak.mjs; the judge is unit-tested by test/faults/soak-judge.test.ts).
export interface Flatness {
  samples: number;
  first: number;
  median: number;
  max: number;
  last: number;
  aboveTrend: number;
  slopePerMin: number;
  growth: number;
  floorGrowth: number;
}

export interface LeakView {
  listeners: number;
  emitters: number;
  processListeners: number;
  timers: number;
  fsWatchers: number;
  fds: number;
  inotifyWatches: number;
}

export interface SoakResult {
  machine: Record<string, unknown>;
  seconds: number;
  driver: {
    changes: number;
    seconds: number;
    perSecond: number;
    counts: Record<string, number>;
    maxLagMs: number;
    errors: string[];
  };
  cpuPctDuringStorm: number;
  directories: number;
  maxInotifyWatches: number;
  watchesOverDirs: number;
  stillLive: boolean;
  rss: Flatness;
  rssAfterGc: Flatness | null;
  heapAfterGc: Flatness | null;
  listenersDuringStorm: { min: number; max: number };
  timersDuringStorm: { firstThirdMax: number; lastThirdMax: number; max: number };
  before: LeakView;
  after: LeakView;
}

export const LIMITS: {
  warmupFraction: number;
  rssGrowthMb: number;
  heapGrowthMb: number;
  rssAboveTrendMb: number;
};

export function fit(points: Array<{ x: number; y: number }>): {
  slopePerMin: number;
  growth: number;
  at(x: number): number;
};
export function flatness(series: Array<{ t: number; v: number }>, warmupFraction?: number): Flatness | null;
export function runSoak(opts?: {
  seconds?: number;
  perSecond?: number;
  sampleMs?: number;
  cols?: number;
  rows?: number;
  log?: (line: string) => void;
}): Promise<SoakResult>;
export function verdict(r: SoakResult): string[];
