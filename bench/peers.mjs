// Side by side in one run: OMC's own `omc hud --watch` (the statusline in a
// loop, default interval 1 s) and omc-top --poll (the polling baseline) against
// omc-top watching, on the same change: a ralph iteration written the way OMC's
// Stop hook writes it. Prints one JSON line per contender.
//   node bench/peers.mjs [--changes 20] [--idle 20]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { spawn as ptySpawn } from '@lydell/node-pty';
import { REPO, now, omcWrite, pct, procStats, sleep, startMonitor } from './lib.mjs';
import { OMC55 } from '../test/helpers/omc-packages.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const CHANGES = Number(arg('changes', '20'));
const IDLE = Number(arg('idle', '20'));
const SID = '88727f43-cac5-4a42-a0b2-95e28cf65511';
const OMC_CLI = path.join(OMC55, 'bridge', 'cli.cjs');

/** A git project holding the real-OMC fixture, and a HUD stdin cache pointing at session SID. */
function project() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-peers-')));
  execFileSync('git', ['init', '-q', dir]);
  fs.cpSync(path.join(REPO, 'test', 'fixtures', 'real-omc', 'tree'), path.join(dir, '.omc'), { recursive: true });
  const home = path.join(dir, 'home');
  const transcript = path.join(home, '.claude', 'projects', 'x', `${SID}.jsonl`);
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.writeFileSync(transcript, '');
  // What Claude Code hands the statusline; `hud --watch` replays the last one it saw.
  fs.writeFileSync(
    path.join(dir, '.omc', 'state', 'hud-stdin-cache.json'),
    JSON.stringify({
      cwd: dir,
      transcript_path: transcript,
      model: { id: 'claude-sonnet-4', display_name: 'Sonnet 4' },
      context_window: { context_window_size: 200000, current_usage: { input_tokens: 1000 } },
    }),
  );
  const file = path.join(dir, '.omc', 'state', 'sessions', SID, 'ralph-state.json');
  const bump = (iteration) => {
    const s = JSON.parse(fs.readFileSync(file, 'utf8'));
    omcWrite(file, { ...s, iteration, max_iterations: 99999, last_checked_at: new Date().toISOString() });
  };
  bump(1);
  return { dir, home, bump, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function measure(label, proc, bump, textOf) {
  const out = { contender: label };
  await sleep(2500);
  const s0 = procStats(proc.pid);
  await sleep(IDLE * 1000);
  const s1 = procStats(proc.pid);
  out.idleCpuPct = +(((s1.cpuMs - s0.cpuMs) / (IDLE * 1000)) * 100).toFixed(2);
  out.rssMb = Math.round(s1.rssMb);
  const lat = [];
  for (let i = 0; i < CHANGES; i++) {
    const value = 50000 + i;
    const from = textOf().length;
    const t = now();
    bump(value);
    const deadline = t + 5000;
    while (now() < deadline) {
      if (textOf().slice(from).includes(`${value}/`)) {
        lat.push(now() - t);
        break;
      }
      await sleep(2);
    }
    await sleep(300 + Math.random() * 400);
  }
  out.missed = CHANGES - lat.length;
  out.changeToScreenMs = {
    p50: +pct(lat, 50).toFixed(0),
    p95: +pct(lat, 95).toFixed(0),
    max: +Math.max(...lat).toFixed(0),
  };
  return out;
}

async function omcHudWatch() {
  const p = project();
  const env = { PATH: process.env.PATH, HOME: p.home, OMC_NOTIFY: '0', TERM: 'xterm-256color', COLUMNS: '200' };
  // It needs a terminal (in watch mode stdin is a TTY and it replays the cached statusline input).
  const child = ptySpawn(process.execPath, [OMC_CLI, 'hud', '--watch'], {
    name: 'xterm-256color',
    cols: 200,
    rows: 40,
    cwd: p.dir,
    env,
  });
  let text = '';
  child.onData((d) => (text += d));
  try {
    const r = await measure('omc hud --watch (OMC 5.5.0, 1 s interval)', child, p.bump, () => text);
    r.bytesPerSecond = Math.round(text.length / ((IDLE + 3) * 1.0 + CHANGES * 0.7));
    return r;
  } finally {
    try {
      child.kill('SIGTERM');
    } catch {
      /* already gone */
    }
    p.cleanup();
  }
}

async function omcTop(extraArgs, label) {
  const p = project();
  const m = startMonitor({ args: ['--root', path.join(p.dir, '.omc'), ...extraArgs], cols: 200, rows: 40 });
  const textOf = () => m.chunks.map((c) => c.d).join('');
  try {
    await m.waitScreen(/ralph/);
    return await measure(label, { pid: m.pid }, p.bump, textOf);
  } finally {
    m.kill();
    p.cleanup();
  }
}

console.log(JSON.stringify(await omcHudWatch()));
console.log(JSON.stringify(await omcTop(['--poll'], 'omc-top --poll (polling baseline, 1 s)')));
console.log(JSON.stringify(await omcTop([], 'omc-top (watching)')));
