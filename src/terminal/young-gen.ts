/**
 * Keeps V8's young generation at its starting size. Imported first by the
 * entry point so it runs before React, Ink and the store allocate anything.
 *
 * Why: a monitor lives for days and allocates in small bursts (a re-read, a
 * frame). Node 20 lets each young-generation semi-space grow to 16 MB and
 * collects it lazily, so RSS sat 25–35 MB above what omc-top actually holds
 * (127–141 MB at 2,000 sessions against a live heap of 25–44 MB; 215–241 MB
 * under sustained change storms). With the growth factor at 1 the semi-spaces
 * stay at V8's initial size: RSS 100–119 MB in the same runs, with no
 * measurable change in CPU or change→screen latency (BENCHMARKS.md).
 *
 * `--max-semi-space-size` would be the documented knob, but V8 reads it only
 * when the heap is set up; the growth factor is read each time the young
 * generation would grow, so it takes effect from here. Anyone who sets their
 * own semi-space flags (NODE_OPTIONS or node's command line) keeps them.
 */
import v8 from 'node:v8';

const own = [process.env.NODE_OPTIONS ?? '', ...process.execArgv].some((a) => /semi[-_]space/.test(a));
if (!own) {
  try {
    v8.setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    /* an engine without the flag: default memory behaviour, nothing else changes */
  }
}
