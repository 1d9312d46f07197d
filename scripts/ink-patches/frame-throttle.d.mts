export interface FrameThrottled {
  (): void;
  flush(): void;
  cancel(): void;
}
export function frameThrottle(
  fn: () => void,
  intervalMs: number,
  clock?: () => number,
  timers?: { set(cb: () => void, ms: number): unknown; clear(t: unknown): void },
): FrameThrottled;
