// Key→frame in process, for profiles: the app rendered by Ink into a fake terminal (as bench/render.tsx does), keys
// handed to Ink's stdin, each timed from the key to the end of the frame Ink writes for it, and the CPU of the whole
// typing session. No pty and no second process, so a CPU profile (`--prof-out`) holds the keystrokes' work only.
// Built with the shipped bundle's Ink patches by bench/keys-inproc.mjs:
//   node bench/keys-inproc.mjs <root> wiki|sessions [cols] [rows] [--prof-out file.cpuprofile] [--short]
// --heap-prof-out: a sampling heap profile of the typing (every allocation, collected or not).
// --windows-out: each timed key's and page move's [start, end] in µs on the profile's clock (JSON), to split a profile by event.
// --short (wiki): type the one- and two-letter prefixes bench/keys.mjs times apart (each its own query), not whole
// queries. Also printed: bytes allocated per key and per page move (the JS heap and array buffers, from just before
// the key to just before the next one, over the keys no collection ran in: see allocated()).
// cpuMsPerTimedKey / cpuMsPerPageMove: the process's CPU from each timed key (page move) to just before the next.
import fs from 'node:fs';
import v8 from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';
import { EventEmitter } from 'node:events';
import { Session } from 'node:inspector/promises';
import { OmcStore } from '../src/store/store.js';
import { UiStore } from '../src/kit/ui-store.js';
import { fakeStdin, renderApp } from './in-process-app.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? null : (args.splice(i, 2)[1] ?? null);
};
const profOut = flag('prof-out');
const heapOut = flag('heap-prof-out');
const windowsOut = flag('windows-out');
const shortAt = args.indexOf('--short');
const short = shortAt !== -1 && args.splice(shortAt, 1).length > 0;
const [root, pane = 'wiki', cols = '80', rows = '24'] = args;
const END = '\u001b[?2026l';

class FakeTty extends EventEmitter {
  isTTY = true;
  columns = Number(cols);
  rows = Number(rows);
  waiting: (() => void) | null = null;
  /** Characters written so far: a frame's size is the difference across it. */
  written = 0;
  write(s: string) {
    this.written += s.length;
    if (this.waiting && s.includes(END)) {
      const w = this.waiting;
      this.waiting = null;
      w();
    }
    return true;
  }
}
const stdout = new FakeTty();
const queue: string[] = [];
const stdin = fakeStdin(() => queue.shift() ?? null);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes `key` to stdin and resolves with the ms until the end of the next frame (null: no frame in 2 s). */
function press(key: string): Promise<number | null> {
  return new Promise((resolve) => {
    const t = performance.now();
    const timer = setTimeout(() => {
      stdout.waiting = null;
      resolve(null);
    }, 2000);
    stdout.waiting = () => {
      clearTimeout(timer);
      resolve(performance.now() - t);
    };
    queue.push(key);
    stdin.emit('readable');
  });
}

const store = new OmcStore({ root: root!, watch: 'none' });
store.start({ progressive: true });
const ui = new UiStore();
renderApp(store, ui, stdout, stdin, {
  // As the app renders (src/terminal/full-screen.tsx); keys below come further apart than one frame at 30 fps.
  maxFps: 30,
});
await sleep(3000);
if (pane === 'wiki') await press('w');
await sleep(pane === 'wiki' ? 4000 : 1500);
// Then until this process is quiet (at most 10 ms of CPU in 0.5 s, up to 60 s), as bench/keys.mjs waits: on a loaded
// machine the 20,000-page search index is still being built after the fixed wait, and its slices land in the keys.
for (const start = performance.now(); performance.now() - start < 60_000;) {
  const before = process.cpuUsage();
  await sleep(500);
  const used = process.cpuUsage(before);
  if ((used.user + used.system) / 1000 <= 10) break;
}

// --short: bench/keys.mjs's two-letter queries and the first two letters of its long ones.
const SHORT = ['ch', 'be', 'pa', 'ev', 'fl', 'no', 'au', 'qu', 'da', 'zo', 're', 'ke', 'se', 'hi', 'in', 'ye', 'ob'];
const SHORT_MORE = ['ca', 'th', 'pu', 'vi', 'fe', 'wr', 'ap', 'lo', 'de', 'mo', 'ru', 'un', 'sn', 'ty', 'on'];
const QUERIES =
  pane === 'wiki'
    ? short
      ? [...SHORT, ...SHORT_MORE]
      : ['checkout flow', 'payments module', 'flaky test', 'auth token refresh', 'database migrations']
    : ['ralph 3', 'ultra', 'not enf', '4/10'];

/** Collections seen (start and end, performance.now()): a key's bytes count only when none ran in its span. */
const gcs: Array<[number, number]> = [];
new PerformanceObserver((l) => {
  for (const e of l.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
}).observe({ entryTypes: ['gc'] });
/** Bytes held now: the JS heap (where a scavenge's work comes from) and array buffers' backing stores, apart. */
const heldNow = (): [number, number] => [v8.getHeapStatistics().used_heap_size, process.memoryUsage().arrayBuffers];
/** [start, end, held at start, held at end]: one per key (or page move), up to just before the next. */
type Span = [number, number, [number, number], [number, number]];
const spanFrom = (): [number, [number, number]] => [performance.now(), heldNow()];
const medianKb = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return +((s[Math.floor(s.length / 2)] ?? NaN) / 1024).toFixed(1);
};
/** Median bytes allocated (JS heap, array buffers) over the spans no collection overlapped, and how many those were. */
function allocated(spans: Span[]): { heapKb: number; arrayBufferKb: number; spans: number } {
  const clean = spans.filter(([a, b]) => !gcs.some(([s, e]) => s < b && e > a));
  return {
    heapKb: medianKb(clean.map(([, , h0, h1]) => h1[0] - h0[0])),
    arrayBufferKb: medianKb(clean.map(([, , h0, h1]) => h1[1] - h0[1])),
    spans: clean.length,
  };
}
/** CPU (this process, all threads) from each timed key or page move to just before the next: its frame and effects. */
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const keyCpu: number[] = [];
const pageCpu: number[] = [];
const keySpans: Span[] = [];
const pageSpans: Span[] = [];
const session = profOut || heapOut ? new Session() : null;
if (session) session.connect();
if (session && heapOut) {
  // Every allocation of the typing, the young ones a scavenge frees included (they are the scavenges' work).
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}
if (session && profOut) {
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
// Each timed key's and page move's span on the profile's clock (V8 stamps samples with hrtime), for --windows-out.
const monoUs = () => Number(process.hrtime.bigint() / 1000n);
const keyWindows: Array<[number, number]> = [];
const pageWindows: Array<[number, number]> = [];
const cpu0 = process.cpuUsage();
const keys: number[] = [];
const keyChars: number[] = [];
let missed = 0;
for (let round = 0; round < 1; round++)
  for (const q of QUERIES) {
    await press('/');
    await sleep(60);
    for (const [k, ch] of [...q].entries()) {
      const [t0, h0] = spanFrom();
      const u0 = process.cpuUsage();
      const c0 = stdout.written;
      const w0 = monoUs();
      const ms = await press(ch);
      keyWindows.push([w0, monoUs()]);
      keyChars.push(stdout.written - c0);
      if (process.env.KEYS_DEBUG) console.error(JSON.stringify(q.slice(0, k + 1)), ms?.toFixed(1) ?? 'missed');
      if (ms === null) missed += 1;
      else keys.push(ms);
      await sleep(50);
      keyCpu.push(cpuMs(process.cpuUsage(u0)));
      const [t1, h1] = spanFrom();
      keySpans.push([t0, t1, h0, h1]);
    }
    await press('\u001b');
    await sleep(100);
  }
const cpu = process.cpuUsage(cpu0);
// The typing and the page moves apart on the profile's clock (V8 stamps samples with hrtime), printed with --prof-out.
const typedUntilUs = monoUs();
if (session && heapOut) {
  const { profile } = await session.post('HeapProfiler.stopSampling');
  fs.writeFileSync(heapOut, JSON.stringify(profile));
}
const pages: number[] = [];
const pageChars: number[] = [];
// Page moves that scroll, as bench/keys.mjs times them (see its header): an untimed PgDn takes the selection to the
// window's last row, then each timed PgDn scrolls a page (every row on screen new); likewise back up with PgUp.
for (const key of ['\u001b[6~', '\u001b[5~']) {
  await press(key);
  await sleep(50);
  for (let i = 0; i < 20; i++) {
    const [t0, h0] = spanFrom();
    const u0 = process.cpuUsage();
    const c0 = stdout.written;
    const w0 = monoUs();
    const ms = await press(key);
    pageWindows.push([w0, monoUs()]);
    if (ms !== null) pages.push(ms);
    pageChars.push(stdout.written - c0);
    await sleep(50);
    pageCpu.push(cpuMs(process.cpuUsage(u0)));
    const [t1, h1] = spanFrom();
    pageSpans.push([t0, t1, h0, h1]);
  }
}
if (windowsOut) fs.writeFileSync(windowsOut, JSON.stringify({ keys: keyWindows, pages: pageWindows }));
if (profOut) console.error(`phases: typing until ${typedUntilUs} µs, page moves until ${monoUs()} µs`);
if (session && profOut) {
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(profOut!, JSON.stringify(profile));
}
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN).toFixed(2);
};
console.log(
  JSON.stringify({
    pane,
    size: `${cols}x${rows}`,
    keys: keys.length,
    missed,
    keyMs: { p50: q(keys, 50), p95: q(keys, 95) },
    pageMs: { p50: q(pages, 50), p95: q(pages, 95) },
    // Characters written per frame (median): a page move redraws every row on screen, as a key's new results do.
    charsPerKeyFrame: q(keyChars, 50),
    charsPerPageFrame: q(pageChars, 50),
    cpuPerKeyMs: +((cpu.user + cpu.system) / 1000 / (keys.length + 2 * QUERIES.length)).toFixed(2),
    // Per timed key and per page move alone (cpuPerKeyMs above also counts each query's '/' and Esc).
    cpuMsPerTimedKey: { p50: q(keyCpu, 50), p95: q(keyCpu, 95) },
    cpuMsPerPageMove: { p50: q(pageCpu, 50), p95: q(pageCpu, 95) },
    allocatedPerKey: allocated(keySpans),
    allocatedPerPageMove: allocated(pageSpans),
    collections: gcs.length,
  }),
);
process.exit(0);
