// OMC's readers in a tight loop while the storm runs, in their own process:
// readNotepad + getWorkingMemory + getManualSection (notepad), the project-
// memory loader, and readModeState for each session. Every read must parse;
// every checksummed entry must be whole; and counts OMC would notice going
// down (entries, hot-path accesses, iterations) must never go down: a lost
// update would show up as exactly that. Prints one JSON line when stopped.
//
// usage: node fault-omc-reader.mjs <project dir> <session ids, comma-separated>
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { OMC55 } from './omc-packages.mjs';

const OMC = OMC55;
const load = (rel) => import(pathToFileURL(path.join(OMC, rel)).href);

const [dir, sessionList] = process.argv.slice(2);
const sessions = sessionList.split(',');
const sum = (s) => createHash('sha1').update(s).digest('hex').slice(0, 8);

const notepad = await load('dist/hooks/notepad/index.js');
const storage = await load('dist/hooks/project-memory/storage.js');
const stateIo = await load('dist/lib/mode-state-io.js');

let stop = false;
process.stdin.on('data', (b) => {
  if (String(b).includes('stop')) stop = true;
});

const res = { notepadReads: 0, memoryReads: 0, stateReads: 0, torn: [], wentDown: [] };
const torn = (what) => {
  if (res.torn.length < 10) res.torn.push(what);
  else res.torn.push('…');
};
const last = new Map();
/** Records a count OMC relies on; it may only grow. */
const grows = (key, n) => {
  const prev = last.get(key) ?? -1;
  if (n < prev && res.wentDown.length < 10) res.wentDown.push(`${key}: ${prev} → ${n}`);
  last.set(key, Math.max(prev, n));
};

// An entry line written by the storm: "omc <section> <n> <sum>" or "top <id> <sum>[ v<k>]".
const ENTRY = /^(omc (?:working|manual) \d+|top [a-z]+ \d+(?: v\d+)?) ([0-9a-f]{8})$/;
function checkSection(name, text) {
  let omc = 0;
  let top = 0;
  for (const line of text.split('\n')) {
    if (!/^(omc|top) /.test(line)) continue;
    const m = ENTRY.exec(line);
    if (!m || sum(m[1]) !== m[2]) torn(`${name}: partial entry ${JSON.stringify(line)}`);
    else if (line.startsWith('omc ')) omc++;
    else top++;
  }
  grows(`${name} omc entries`, omc);
  grows(`${name} omc-top entries`, top);
}

process.stdout.write('ready\n');
while (!stop) {
  const whole = notepad.readNotepad(dir);
  if (
    whole === null ||
    !/^## Priority Context$/m.test(whole) ||
    !/^## Working Memory$/m.test(whole) ||
    !/^## MANUAL$/m.test(whole)
  ) {
    torn(`notepad.md: ${whole === null ? 'unreadable' : 'a section header is missing'}`);
  }
  const working = notepad.getWorkingMemory(dir);
  const manual = notepad.getManualSection(dir);
  if (working === null || manual === null) torn('notepad section unreadable');
  else {
    checkSection('Working Memory', working);
    checkSection('MANUAL', manual);
  }
  res.notepadReads++;

  const mem = await storage.loadProjectMemory(dir);
  if (mem === null) torn('project-memory.json: loadProjectMemory returned null (unparseable or invalid)');
  else {
    grows(
      'hot-path accesses',
      mem.hotPaths.filter((h) => h.path.startsWith('src/storm/')).reduce((n, h) => n + h.accessCount, 0),
    );
    for (const d of mem.userDirectives) {
      if (!/^top directive \d+$/.test(d.directive)) continue;
      const c = /^rev (\d+) ([0-9a-f]{8})$/.exec(typeof d.context === 'string' ? d.context : '');
      if (!c || sum(`${d.directive} ${c[1]}`) !== c[2])
        torn(`directive ${d.directive}: context ${JSON.stringify(d.context)}`);
    }
  }
  res.memoryReads++;

  for (const sid of sessions) {
    const s = stateIo.readModeState('ralph', dir, sid);
    if (s === null) {
      torn(`ralph-state.json of ${sid}: readModeState returned null`);
      continue;
    }
    if (s.prompt !== `storm ${s.iteration} ${sum(`${sid} ${s.iteration}`)}`)
      torn(`ralph-state.json of ${sid}: prompt does not match iteration ${s.iteration}`);
    grows(`${sid} iteration`, s.iteration);
    res.stateReads++;
  }
  await new Promise((r) => setImmediate(r));
}
process.stdout.write(`${JSON.stringify(res)}\n`);
process.exit(0);
