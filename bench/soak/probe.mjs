// An in-process probe for the soak, loaded before omc-top with
//   OMC_TOP_PROBE_FILE=<file> node --import bench/soak/probe.mjs dist/omc-top.mjs
// Nothing in omc-top knows about it. Every OMC_TOP_PROBE_MS (default 2000) it
// appends one JSON line: memory (rss, heap), every listener on every live
// EventEmitter (found by wrapping EventEmitter's add-listener methods and
// holding the emitters weakly), the listeners on `process`, and the active
// libuv resources by type (timers, fs watchers, …). A leak of any of them
// shows up as a count that keeps growing.
import fs from 'node:fs';
import { EventEmitter } from 'node:events';

const file = process.env.OMC_TOP_PROBE_FILE;
if (file) {
  const emitters = new Set();
  const known = new WeakSet();
  for (const method of ['on', 'addListener', 'prependListener', 'once', 'prependOnceListener']) {
    const original = EventEmitter.prototype[method];
    EventEmitter.prototype[method] = function (...args) {
      if (!known.has(this)) {
        known.add(this);
        emitters.add(new WeakRef(this));
      }
      return original.apply(this, args);
    };
  }

  const sample = () => {
    // With --expose-gc: measure what is still referenced, not what is merely uncollected.
    globalThis.gc?.();
    let listeners = 0;
    let live = 0;
    for (const ref of emitters) {
      const e = ref.deref();
      if (!e) {
        emitters.delete(ref);
        continue;
      }
      live++;
      for (const name of e.eventNames()) listeners += e.listenerCount(name);
    }
    const resources = {};
    for (const r of process.getActiveResourcesInfo()) resources[r] = (resources[r] ?? 0) + 1;
    const m = process.memoryUsage();
    const line = {
      t: Date.now(),
      rss: m.rss,
      heapUsed: m.heapUsed,
      external: m.external,
      emitters: live,
      listeners,
      processListeners: Object.fromEntries(process.eventNames().map((n) => [String(n), process.listenerCount(n)])),
      resources,
    };
    try {
      fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      /* the soak's directory went away: nothing to report to */
    }
  };
  // OMC_TOP_PROBE_MS=0: no clock, one sample per SIGUSR2 (the leak test samples at fixed points of its cycles).
  const every = Number(process.env.OMC_TOP_PROBE_MS ?? 2000);
  if (every > 0) setInterval(sample, every).unref();
  process.on('SIGUSR2', sample);

  // OMC_TOP_PROBE_LEAK=1: a deliberate leak, to prove the leak test catches one. Every file omc-top
  // opens keeps 8 KB alive, and every 25th open also keeps its descriptor and adds a process listener.
  if (process.env.OMC_TOP_PROBE_LEAK === '1') {
    const kept = [];
    let opens = 0;
    const openSync = fs.openSync;
    fs.openSync = function (...args) {
      const fd = openSync.apply(this, args);
      kept.push(new Array(1024).fill(opens));
      if (++opens % 25 === 0) {
        kept.push(openSync('/dev/null', 'r'));
        process.on('exit', () => kept.length);
      }
      return fd;
    };
  }
}
