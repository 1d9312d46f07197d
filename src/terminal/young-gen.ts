/**
 * Keeps V8's young generation at its starting size (and sets the other memory
 * flag of gc-flags.ts). Imported first by the entry point so it runs before
 * React, Ink and the store allocate anything.
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
 *
 * Tried and left out (2026-12-03): letting it grow (factor 2, capped at 2 × 2
 * or 2 × 4 MB) while the start-up read or the transcripts' catch-up runs, then
 * holding it again. Scavenges to live at 2,000 sessions + 5,000 pages fell
 * from ~300 to ~90 and time to live 17–27 % in two of three paired runs, but
 * V8 gives grown semi-spaces and the read's promoted garbage back only at a
 * later memory-reducing collection, and with fewer scavenges that came later:
 * RSS 12 s after live 153–157 against 128 MB (p50, in two of three runs), and
 * 60 s after a 2 GB transcript read 129 against 118.5 MB; with the catch-up
 * included, the collection fell into the idle after it (1.25 % of a core in
 * one 20 s round). A code cache taken while the factor is 2 is also rejected
 * by the next start (V8 stamps the flags into it).
 */
import v8 from 'node:v8';
import { applyGcFlags } from './gc-flags.js';

applyGcFlags([process.env.NODE_OPTIONS ?? '', ...process.execArgv], (flag) => v8.setFlagsFromString(flag));
