// The core monitor benchmark (issue 2): startup, idle CPU, RSS, change→screen
// latency, bytes per single-row update, bursts and keystroke→frame, for a
// given tree and viewport. Prints one JSON line of results.
import fs from 'node:fs';
import path from 'node:path';
import { now, omcWrite, pct, procStats, sleep, startMonitor } from './lib.mjs';

const ID_RE = /\b([0-9a-f]{8})\b/g;

function visibleSessionDirs(root, screen) {
  const dirs = fs.readdirSync(path.join(root, 'state', 'sessions'));
  const out = [];
  for (const m of screen.matchAll(ID_RE)) {
    const d = dirs.find((x) => x.startsWith(m[1]));
    if (d && !out.includes(d)) out.push(d);
  }
  return out;
}

function bumpRalph(root, sid, iteration) {
  const file = path.join(root, 'state', 'sessions', sid, 'ralph-state.json');
  let s = {};
  try {
    s = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    s = { max_iterations: 10, started_at: new Date().toISOString(), session_id: sid };
  }
  const t = new Date().toISOString();
  omcWrite(file, {
    ...s,
    active: true,
    iteration,
    max_iterations: 10,
    last_checked_at: t,
    completed_at: undefined,
    current_phase: undefined,
  });
}

export async function benchMonitor({
  root,
  label,
  cols,
  rows,
  changes = 100,
  idleSeconds = 20,
  keys = 40,
  nodeArgs = [],
  sustainSeconds = 10,
}) {
  const m = startMonitor({ args: ['--root', root], cols, rows, nodeArgs });
  const result = { tree: label, viewport: `${cols}x${rows}` };
  try {
    result.firstFrameMs = Math.round((await m.waitScreen(/STATUS\s+SESSION[\s\S]*[0-9a-f]{8}/)) - m.spawnedAt);
    result.liveMs = Math.round((await m.waitScreen(/ live\s*$/m, 180_000)) - m.spawnedAt);
    await sleep(1500);
    const start = procStats(m.pid);
    result.rssAfterStartMb = Math.round(start.rssMb);
    result.inotifyWatches = start.watches;

    // Idle: nothing changes on disk.
    const idle0 = procStats(m.pid);
    const idleChunk0 = m.chunks.length;
    await sleep(idleSeconds * 1000);
    const idle1 = procStats(m.pid);
    result.idleCpuPct = +(((idle1.cpuMs - idle0.cpuMs) / (idleSeconds * 1000)) * 100).toFixed(3);
    result.idleBytesPerSec = Math.round(m.chunks.slice(idleChunk0).reduce((n, c) => n + c.d.length, 0) / idleSeconds);

    // Make a handful of visible sessions active once, so later writes change one row each and rows stay put.
    await m.settle();
    const targets = visibleSessionDirs(root, m.screen()).slice(0, Math.max(3, Math.min(8, rows - 8)));
    let marker = 800000;
    for (const sid of targets) {
      const mark = m.chunks.length;
      bumpRalph(root, sid, ++marker);
      await m.waitOutput(`${marker}/`, mark);
    }
    await sleep(300);

    // Isolated changes: change → bytes on the pty that show it.
    const lat = [];
    const bytes = [];
    const cpu0 = procStats(m.pid);
    const t0 = now();
    for (let i = 0; i < changes; i++) {
      const sid = targets[i % targets.length];
      const value = 900000 + i;
      const mark = m.chunks.length;
      const tw = now();
      bumpRalph(root, sid, value);
      const r = await m.waitOutput(`${value}/`, mark, 5000);
      if (r) {
        lat.push(r.t - tw);
        bytes.push(r.bytes);
      }
      await sleep(50 + Math.random() * 100);
    }
    const cpu1 = procStats(m.pid);
    result.changes = changes;
    result.missed = changes - lat.length;
    result.changeToScreenMs = {
      p50: +pct(lat, 50).toFixed(1),
      p95: +pct(lat, 95).toFixed(1),
      p99: +pct(lat, 99).toFixed(1),
      max: +Math.max(...lat).toFixed(1),
    };
    result.bytesPerRowUpdate = { p50: pct(bytes, 50), p95: pct(bytes, 95) };
    result.cpuPctDuringChanges = +(((cpu1.cpuMs - cpu0.cpuMs) / (now() - t0)) * 100).toFixed(1);
    result.changesPerSec = +((changes / (now() - t0)) * 1000).toFixed(1);

    // Sustained load: 20 changes per second for `sustainSeconds`, spread over the visible sessions.
    {
      const c0 = procStats(m.pid);
      const tS = now();
      const n = sustainSeconds * 20;
      let last = 0;
      let mark = m.chunks.length;
      for (let i = 0; i < n; i++) {
        last = 600000 + i;
        mark = m.chunks.length;
        bumpRalph(root, targets[i % targets.length], last);
        const due = tS + ((i + 1) * 1000) / 20;
        while (now() < due) await sleep(Math.max(1, due - now()));
      }
      const c1 = procStats(m.pid);
      const r = await m.waitOutput(`${last}/`, mark, 5000);
      result.sustained20PerSec = {
        seconds: sustainSeconds,
        cpuPct: +(((c1.cpuMs - c0.cpuMs) / (now() - tS)) * 100).toFixed(1),
        lastChangeShown: r !== null,
        rssMb: Math.round(c1.rssMb),
      };
    }
    await sleep(300);

    // Bursts: 5 sessions written ~2 ms apart; time to the last one on screen.
    const burst = [];
    for (let b = 0; b < 20; b++) {
      const mark = m.chunks.length;
      let last = 0;
      let tStart = 0;
      for (let k = 0; k < 5; k++) {
        last = 700000 + b * 10 + k;
        if (k === 4) tStart = now();
        bumpRalph(root, targets[k % targets.length], last);
        const t = now();
        while (now() - t < 2) {
          /* 2 ms apart */
        }
      }
      const r = await m.waitOutput(`${last}/`, mark, 5000);
      if (r) burst.push(r.t - tStart);
      await sleep(150);
    }
    result.burstLastMs = { p50: +pct(burst, 50).toFixed(1), p95: +pct(burst, 95).toFixed(1) };

    // Keystrokes: j / k moves the selection; time to the frame that shows it.
    const keyLat = [];
    for (let i = 0; i < keys; i++) {
      const mark = m.chunks.length;
      const tk = now();
      m.pty.write(i % 2 === 0 ? 'j' : 'k');
      const r = await m.waitOutput('▸', mark, 3000);
      if (r) keyLat.push(r.t - tk);
      await sleep(60 + Math.random() * 60);
    }
    result.keyToFrameMs = { p50: +pct(keyLat, 50).toFixed(1), p95: +pct(keyLat, 95).toFixed(1) };
    result.rssAfterRunMb = Math.round(procStats(m.pid).rssMb);
  } finally {
    m.kill();
  }
  return result;
}
