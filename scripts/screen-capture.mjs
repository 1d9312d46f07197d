// The README's screen capture, made from the real program: the built bundle
// runs in a pseudo-terminal on the demo (the simulator playing OMC and Claude
// Code), a headless xterm reads its output, and once the screen has settled its
// cells are written as HTML with their real colours and rendered to PNG by
// headless Chromium.
//
//   npm run build && node scripts/screen-capture.mjs [--out docs/screen-80x24.png] [--cols 80 --rows 24]
//
// Needs /usr/bin/chromium (Debian: apt-get install chromium) or CHROMIUM=<path>.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawn } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { startSimulator } from '../demo/simulate.mjs';
import { demoConfigDir } from '../demo/sim/claude.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: path.join(repo, 'docs', 'screen-80x24.png') },
    cols: { type: 'string', default: '80' },
    rows: { type: 'string', default: '24' },
    settle: { type: 'string', default: '6000' },
  },
});
const cols = Number(values.cols);
const rows = Number(values.rows);
const bin = path.join(repo, 'dist', 'omc-top.mjs');
if (!fs.existsSync(bin)) throw new Error('dist/omc-top.mjs is missing: run npm run build first');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium))
  throw new Error(`no Chromium at ${chromium} (apt-get install chromium, or CHROMIUM=<path>)`);

// xterm's default palette (the 16 ANSI colours as xterm.js draws them), then the 6x6x6 cube and the greys.
const ANSI = [
  '#2e3436',
  '#cd0000',
  '#00cd00',
  '#cdcd00',
  '#0000ee',
  '#cd00cd',
  '#00cdcd',
  '#e5e5e5',
  '#7f7f7f',
  '#ff0000',
  '#00ff00',
  '#ffff00',
  '#5c5cff',
  '#ff00ff',
  '#00ffff',
  '#ffffff',
];
const STEPS = [0, 95, 135, 175, 215, 255];
const hex = (n) => n.toString(16).padStart(2, '0');
function palette(i) {
  if (i < 16) return ANSI[i];
  if (i < 232) {
    const c = i - 16;
    return `#${hex(STEPS[Math.floor(c / 36)])}${hex(STEPS[Math.floor(c / 6) % 6])}${hex(STEPS[c % 6])}`;
  }
  const g = 8 + (i - 232) * 10;
  return `#${hex(g)}${hex(g)}${hex(g)}`;
}
const FG = '#d0d0d0';
const BG = '#1c1c1c';
function colour(cell, fg) {
  const isDefault = fg ? cell.isFgDefault() : cell.isBgDefault();
  if (isDefault) return null;
  const v = fg ? cell.getFgColor() : cell.getBgColor();
  if (fg ? cell.isFgRGB() : cell.isBgRGB()) return `#${hex((v >> 16) & 255)}${hex((v >> 8) & 255)}${hex(v & 255)}`;
  return palette(v);
}
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The screen as HTML: one span per run of cells with the same style. */
function screenHtml(term) {
  const buf = term.buffer.active;
  const lines = [];
  for (let y = 0; y < rows; y++) {
    const line = buf.getLine(y);
    let html = '';
    let run = '';
    let style = null;
    const flush = () => {
      if (run) html += style ? `<span style="${style}">${esc(run)}</span>` : esc(run);
      run = '';
    };
    for (let x = 0; x < cols; x++) {
      const cell = line?.getCell(x);
      if (!cell || cell.getWidth() === 0) continue;
      let fg = colour(cell, true);
      let bg = colour(cell, false);
      if (cell.isInverse()) [fg, bg] = [bg ?? BG, fg ?? FG];
      if (cell.isDim() && !fg) fg = '#8a8a8a';
      const parts = [];
      if (fg) parts.push(`color:${fg}`);
      if (bg) parts.push(`background:${bg}`);
      if (cell.isBold()) parts.push('font-weight:bold');
      if (cell.isUnderline()) parts.push('text-decoration:underline');
      if (cell.isDim()) parts.push('opacity:.75');
      const s = parts.join(';') || null;
      if (s !== style) {
        flush();
        style = s;
      }
      run += cell.getChars() || ' ';
    }
    flush();
    lines.push(html);
  }
  return `<!doctype html><meta charset="utf-8"><style>
html,body{margin:0;background:${BG}}
pre{margin:0;padding:8px 10px;color:${FG};font:15px/18px "DejaVu Sans Mono","Liberation Mono",monospace;white-space:pre}
</style><pre>${lines.join('\n')}</pre>`;
}

const projectDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-capture-'));
const root = path.join(projectDir, '.omc');
fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
const stop = await startSimulator(root, projectDir);
const env = { ...process.env, TERM: 'xterm-256color', CLAUDE_CONFIG_DIR: demoConfigDir(projectDir) };
delete env.CI;
delete env.NO_COLOR;
env.XDG_STATE_HOME = path.join(projectDir, 'state-home');
const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
const pty = spawn(process.execPath, [bin, '--root', root], {
  name: 'xterm-256color',
  cols,
  rows,
  cwd: projectDir,
  env,
});
let pending = Promise.resolve();
pty.onData((d) => {
  pending = pending.then(() => new Promise((r) => term.write(d, r)));
});
try {
  // The screen is ready once the first read is done (the footer says a bare `live`) and the simulator has
  // had time to move its loops; then the capture is taken between two frames.
  const until = Date.now() + 30_000;
  const screenText = () =>
    Array.from({ length: rows }, (_, y) => term.buffer.active.getLine(y)?.translateToString(true) ?? '').join('\n');
  while (!/\blive\b/.test(screenText()) || /reading/.test(screenText())) {
    if (Date.now() > until) throw new Error(`the screen never went live:\n${screenText()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, Number(values.settle)));
  await pending;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-capture-html-'));
  const html = path.join(dir, 'screen.html');
  fs.writeFileSync(html, screenHtml(term));
  const width = Math.ceil(cols * 9.05 + 20);
  const height = rows * 18 + 16;
  execFileSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      `--user-data-dir=${path.join(dir, 'profile')}`,
      `--window-size=${width},${height}`,
      `--screenshot=${path.resolve(values.out)}`,
      `file://${html}`,
    ],
    { stdio: 'ignore' },
  );
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`${path.relative(repo, path.resolve(values.out))}: ${cols}x${rows}\n${screenText()}`);
} finally {
  pty.kill();
  stop();
  fs.rmSync(projectDir, { recursive: true, force: true });
}
