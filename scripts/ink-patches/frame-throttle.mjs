// Ink 6.8 limits its renders to `maxFps` with es-toolkit's lodash-compatible `throttle` (leading and trailing).
// That throttle restarts its wait at every call: a render asked for 20 ms after the last one is drawn a whole
// interval (34 ms at 30 fps) after the ask, not 14 ms later when the interval since the last render is over
// (es-toolkit issue #1611: its compat throttle does not time calls as lodash's does). A change that lands just
// after another redraw (a clock tick, a session crossing OMC's stale line, a key) waited up to twice as long as the
// frame rate needs. This keeps Ink's rate — one render per interval over time, the first at once, the last never
// lost — and draws a waiting render as soon as that rate allows.
// A render may also come less than an interval after the last one when the one before that is two intervals old:
// a change that lands just after a lone redraw (at 10,000 generated sessions one crosses OMC's stale line every
// second and the header's count redraws) is drawn at once instead of waiting up to a frame (bench/flat.mjs, the
// change→screen tail at 10,000). Never more than two renders inside one interval nor three inside two; a stream of
// asks renders once per interval.

/**
 * `fn` at the frame rate: at once when the last run is `intervalMs` ago or the run before it twice that, else once
 * one of those holds (calls in between share that run). `flush()` runs a waiting call now, `cancel()` drops it
 * (Ink's unmount uses both). `clock` and `timers` are for tests.
 */
export function frameThrottle(
  fn,
  intervalMs,
  clock = () => performance.now(),
  timers = { set: (cb, ms) => setTimeout(cb, ms), clear: (t) => clearTimeout(t) },
) {
  let lastRun = -Infinity;
  let runBefore = -Infinity;
  let waiting = false;
  let timer = null;
  const run = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
    if (!waiting) return;
    waiting = false;
    runBefore = lastRun;
    lastRun = clock();
    fn();
  };
  const throttled = () => {
    waiting = true;
    if (timer !== null) return;
    const wait = Math.min(lastRun + intervalMs, runBefore + 2 * intervalMs) - clock();
    if (wait <= 0) run();
    else timer = timers.set(run, wait);
  };
  throttled.flush = run;
  throttled.cancel = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
    waiting = false;
  };
  return throttled;
}
