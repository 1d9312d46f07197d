// Ink 6.8 limits its renders to `maxFps` with es-toolkit's lodash-compatible `throttle` (leading and trailing).
// That throttle restarts its wait at every call: a render asked for 20 ms after the last one is drawn a whole
// interval (34 ms at 30 fps) after the ask, not 14 ms later when the interval since the last render is over
// (es-toolkit issue #1611: its compat throttle does not time calls as lodash's does). A change that lands just
// after another redraw (a clock tick, a session crossing OMC's stale line, a key) waited up to twice as long as the
// frame rate needs. This keeps Ink's promise — at most one render per interval, the first at once, the last never
// lost — and draws a waiting render as soon as the interval since the previous render is over.

/**
 * `fn` at most once per `intervalMs`: at once when the last run is that long ago, else once when it will be
 * (calls in between share that run). `flush()` runs a waiting call now, `cancel()` drops it (Ink's unmount uses
 * both). `clock` and `timers` are for tests.
 */
export function frameThrottle(
  fn,
  intervalMs,
  clock = () => performance.now(),
  timers = { set: (cb, ms) => setTimeout(cb, ms), clear: (t) => clearTimeout(t) },
) {
  let lastRun = -Infinity;
  let waiting = false;
  let timer = null;
  const run = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
    if (!waiting) return;
    waiting = false;
    lastRun = clock();
    fn();
  };
  const throttled = () => {
    waiting = true;
    if (timer !== null) return;
    const wait = lastRun + intervalMs - clock();
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
