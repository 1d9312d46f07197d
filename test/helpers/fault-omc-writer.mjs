// OMC's side of the concurrent-writers storm, as a separate process running
// OMC's own compiled code (oh-my-claude-sisyphus dist), at a high rate until
// it reads "stop" on stdin:
//   - notepad: addWorkingMemoryEntry / addManualEntry (notepad.md.lock, 5 s);
//   - project memory: the learner's hot-path update (project-memory.json.lock);
//   - mode state: ralph-state.json rewrites, alternately OMC's locked writer
//     (writeStateFileLocked: <file>.mutation.lock) and the Stop hook's
//     unlocked write-back (scripts/lib atomicWriteFileSync: temp + rename).
// Every entry carries a checksum so a reader can tell a whole entry from a
// torn one. Prints one JSON line with what it wrote when it stops.
//
// usage: node fault-omc-writer.mjs <project dir> <session ids, comma-separated> [pause ms] [kinds]
// kinds: a comma-separated subset of notepad,state,memory (default: all three, in turn).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { OMC55 } from './omc-packages.mjs';

const OMC = OMC55;
const load = (rel) => import(pathToFileURL(path.join(OMC, rel)).href);

const [dir, sessionList, pauseArg, kindsArg] = process.argv.slice(2);
const sessions = sessionList.split(',');
const pauseMs = Number(pauseArg ?? 2);
const kinds = (kindsArg ?? 'notepad,state,memory').split(',');

export const sum = (s) => createHash('sha1').update(s).digest('hex').slice(0, 8);

const notepad = await load('dist/hooks/notepad/index.js');
const learner = await load('dist/hooks/project-memory/learner.js');
const stateIo = await load('dist/lib/mode-state-io.js');
const scriptsWrite = await load('scripts/lib/atomic-write.mjs');

let stop = false;
process.stdin.on('data', (b) => {
  if (String(b).includes('stop')) stop = true;
});

const out = {
  working: 0,
  manual: 0,
  notepadFailures: 0,
  hot: {},
  stateWrites: {},
  stateLocked: 0,
  stateUnlocked: 0,
  stateFailures: 0,
  ops: 0,
  ms: 0,
};
const pause = new Int32Array(new SharedArrayBuffer(4));
const t0 = Date.now();
process.stdout.write('ready\n');

for (let i = 0; !stop; i++) {
  const kind = kinds[i % kinds.length];
  if (kind === 'notepad') {
    const section = out.working <= out.manual ? 'working' : 'manual';
    const n = out[section] + 1;
    const text = `omc ${section} ${n}`;
    const ok = (section === 'working' ? notepad.addWorkingMemoryEntry : notepad.addManualEntry)(
      dir,
      `${text} ${sum(text)}`,
    );
    if (ok) out[section] = n;
    else out.notepadFailures++;
  } else if (kind === 'state') {
    const sid = sessions[i % sessions.length];
    const iteration = (out.stateWrites[sid] ?? 0) + 1;
    const file = path.join(dir, '.omc', 'state', 'sessions', sid, 'ralph-state.json');
    const now = new Date().toISOString();
    const state = {
      active: true,
      iteration,
      max_iterations: 1_000_000,
      started_at: now,
      last_checked_at: now,
      session_id: sid,
      prompt: `storm ${iteration} ${sum(`${sid} ${iteration}`)}`,
    };
    let ok;
    if (iteration % 2 === 0) {
      ok = stateIo.writeStateFileLocked(file, state);
      if (ok) out.stateLocked++;
    } else {
      // The Stop hook's write-back: no lock, a plain temp + rename of the object it read.
      scriptsWrite.atomicWriteFileSync(file, JSON.stringify(state, null, 2));
      ok = true;
      out.stateUnlocked++;
    }
    if (ok) out.stateWrites[sid] = iteration;
    else out.stateFailures++;
  } else if (kind === 'memory') {
    const p = `src/storm/hot-${i % 30}.ts`;
    await learner.learnFromToolOutput('Read', { file_path: p }, '', dir);
    out.hot[p] = (out.hot[p] ?? 0) + 1;
  }
  out.ops++;
  if (pauseMs > 0) Atomics.wait(pause, 0, 0, pauseMs);
  // Let "stop" on stdin through.
  if (i % 4 === 3) await new Promise((r) => setImmediate(r));
}
out.ms = Date.now() - t0;
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
