// In-process frame cost: how long Ink + React take to produce one frame of
// the sessions pane (no pty, no watcher), at a given size and tree.
//   npx tsx bench/render.tsx <root> [cols] [rows] [frames]
import { EventEmitter } from 'node:events';
import { OmcStore } from '../src/store/store.js';
import { UiStore } from '../src/kit/ui-store.js';
import { fakeStdin, renderApp } from './in-process-app.js';

const [root, cols = '80', rows = '24', frames = '200'] = process.argv.slice(2);
class FakeTty extends EventEmitter {
  isTTY = true;
  columns = Number(cols);
  rows = Number(rows);
  bytes = 0;
  write(s: string) {
    this.bytes += s.length;
    return true;
  }
}
const stdout = new FakeTty();
const stdin = fakeStdin(() => null);
const store = new OmcStore({ root: root!, watch: 'none' });
store.start();
const times: number[] = [];
const ui = new UiStore();
renderApp(store, ui, stdout, stdin, {
  maxFps: 1000,
  onRender: ({ renderTime }) => times.push(renderTime),
});
await new Promise((r) => setTimeout(r, 300));
times.length = 0;
const t0 = performance.now();
for (let i = 0; i < Number(frames); i++) {
  ui.flash(`frame ${i}`);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 2));
}
const wall = performance.now() - t0;
const s = [...times].sort((a, b) => a - b);
const q = (p: number) => s[Math.floor((p / 100) * (s.length - 1))]!.toFixed(2);
console.log(
  JSON.stringify({
    frames: times.length,
    renderTimeMs: { p50: q(50), p95: q(95) },
    wallPerFrameMs: (wall / Number(frames)).toFixed(2),
    cpuMs: (process.cpuUsage().user / 1000).toFixed(0),
  }),
);
process.exit(0);
