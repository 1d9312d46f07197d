// Key→frame in process, for profiles: the app rendered by Ink into a fake terminal (as bench/render.tsx does), keys
// handed to Ink's stdin, each timed from the key to the end of the frame Ink writes for it, and the CPU of the whole
// typing session. No pty and no second process, so a CPU profile (`--prof-out`) holds the keystrokes' work only.
// Built with the shipped bundle's Ink patches by bench/keys-inproc.mjs:
//   node bench/keys-inproc.mjs <root> wiki|sessions [cols] [rows] [--prof-out file.cpuprofile]
import fs from 'node:fs';
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
const [root, pane = 'wiki', cols = '80', rows = '24'] = args;
const END = '\u001b[?2026l';

class FakeTty extends EventEmitter {
  isTTY = true;
  columns = Number(cols);
  rows = Number(rows);
  waiting: (() => void) | null = null;
  write(s: string) {
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

const QUERIES =
  pane === 'wiki'
    ? ['checkout flow', 'payments module', 'flaky test', 'auth token refresh', 'database migrations']
    : ['ralph 3', 'ultra', 'not enf', '4/10'];
const session = profOut ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
const cpu0 = process.cpuUsage();
const keys: number[] = [];
let missed = 0;
for (let round = 0; round < 1; round++)
  for (const q of QUERIES) {
    await press('/');
    await sleep(60);
    for (const [k, ch] of [...q].entries()) {
      const ms = await press(ch);
      if (process.env.KEYS_DEBUG) console.error(JSON.stringify(q.slice(0, k + 1)), ms?.toFixed(1) ?? 'missed');
      if (ms === null) missed += 1;
      else keys.push(ms);
      await sleep(50);
    }
    await press('\u001b');
    await sleep(100);
  }
const cpu = process.cpuUsage(cpu0);
const pages: number[] = [];
for (let i = 0; i < 40; i++) {
  const ms = await press(i % 2 === 0 ? '\u001b[6~' : '\u001b[5~');
  if (ms !== null) pages.push(ms);
  await sleep(50);
}
if (session) {
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
    cpuPerKeyMs: +((cpu.user + cpu.system) / 1000 / (keys.length + 2 * QUERIES.length)).toFixed(2),
  }),
);
process.exit(0);
