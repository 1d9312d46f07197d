// The soak's change generator: a steady N changes per second (default 20)
// on a .omc tree, written the way OMC writes them, over every kind of file
// omc-top watches, with the tree's size kept bounded so that anything that
// grows in omc-top is omc-top's own doing:
//   8/20 ralph-state.json rewrites of existing sessions (temp + rename)
//   3/20 team worker heartbeats
//   3/20 wiki page edits (same page set, same size)
//   2/20 notepad Working Memory appends under notepad.md.lock (the notepad
//        goes back to its original text every 40 appends, under the lock)
//   2/20 a new session directory with its state; 2/20 the oldest of ours removed
//
// As a module: startDriver({ root, perSecond }) → { stop(): summary }.
// As a script: node bench/soak/driver.mjs <.omc root> [seconds] [per second]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeContext, withOmcLock } from '../../demo/lib.mjs';

const SCHEDULE = [
  'state',
  'heartbeat',
  'state',
  'wiki',
  'state',
  'notepad',
  'state',
  'session-add',
  'heartbeat',
  'state',
  'wiki',
  'state',
  'session-remove',
  'state',
  'heartbeat',
  'notepad',
  'state',
  'wiki',
  'session-add',
  'session-remove',
];
const POOL = 10;

/**
 * The changes themselves, one per call in SCHEDULE order, with no clock: the
 * leak test (bench/soak/leak.mjs) drives them in fixed-size cycles and waits
 * for the screen between cycles; startDriver paces them at a rate.
 */
export function makeChanger(root) {
  const ctx = makeContext(root, path.dirname(root));
  const sessionsDir = path.join(root, 'state', 'sessions');
  const hot = fs
    .readdirSync(sessionsDir)
    .filter((sid) => fs.existsSync(path.join(sessionsDir, sid, 'ralph-state.json')))
    .slice(0, 20);
  const heartbeats = [];
  const teamsDir = path.join(root, 'state', 'team');
  for (const team of fs.existsSync(teamsDir) ? fs.readdirSync(teamsDir) : []) {
    const workers = path.join(teamsDir, team, 'workers');
    for (const w of fs.existsSync(workers) ? fs.readdirSync(workers) : [])
      heartbeats.push(`state/team/${team}/workers/${w}/heartbeat.json`);
  }
  const pages = fs
    .readdirSync(path.join(root, 'wiki'))
    .filter((f) => f.endsWith('.md') && f !== 'index.md' && f !== 'log.md')
    .slice(0, 20)
    .map((f) => `wiki/${f}`);
  const originalPages = new Map(pages.map((rel) => [rel, fs.readFileSync(path.join(root, rel), 'utf8')]));
  const notepadOriginal = fs.existsSync(path.join(root, 'notepad.md'))
    ? fs.readFileSync(path.join(root, 'notepad.md'), 'utf8')
    : null;

  const counts = {};
  const ours = [];
  let n = 0;
  let appends = 0;

  const change = (kind) => {
    const now = new Date().toISOString();
    switch (kind) {
      case 'state': {
        const sid = hot[n % hot.length];
        const rel = `state/sessions/${sid}/ralph-state.json`;
        const cur = ctx.readJson(rel) ?? {};
        // Iterations only go up, as OMC's do: every rewrite is a row the screen has never shown.
        ctx.writeJson(rel, {
          ...cur,
          active: true,
          iteration: (cur.iteration ?? 0) + 1,
          max_iterations: 100_000,
          last_checked_at: now,
          session_id: sid,
        });
        break;
      }
      case 'heartbeat': {
        const rel = heartbeats[n % heartbeats.length];
        if (!rel) break;
        const cur = ctx.readJson(rel) ?? {};
        ctx.writeJson(rel, { ...cur, last_turn_at: now, turn_count: (cur.turn_count ?? 0) + 1, alive: true });
        break;
      }
      case 'wiki': {
        const rel = pages[n % pages.length];
        const text = originalPages.get(rel);
        // Same page, same length, a different revision marker each time.
        ctx.writeText(rel, text.replace(/^updated: .*$/m, `updated: ${now}`));
        break;
      }
      case 'notepad': {
        if (notepadOriginal === null) break;
        withOmcLock(ctx, 'notepad.md', () => {
          const file = path.join(root, 'notepad.md');
          appends++;
          if (appends % 40 === 0) {
            ctx.writeText('notepad.md', notepadOriginal);
            return;
          }
          const text = fs.readFileSync(file, 'utf8');
          const entry = `### ${now.slice(0, 16).replace('T', ' ')}\nsoak note ${appends}: ralph iteration done, tests green\n`;
          const at = text.indexOf('\n## MANUAL');
          ctx.writeText(
            'notepad.md',
            at === -1 ? `${text}\n${entry}` : `${text.slice(0, at)}\n${entry}${text.slice(at)}`,
          );
        });
        break;
      }
      case 'session-add': {
        const sid = `50a1c000-0000-4000-8000-${String(n).padStart(12, '0')}`;
        ctx.writeJson(`state/sessions/${sid}/ralph-state.json`, {
          active: true,
          iteration: 1,
          max_iterations: 10,
          started_at: now,
          last_checked_at: now,
          session_id: sid,
          prompt: `soak session ${n}`,
        });
        ours.push(sid);
        break;
      }
      case 'session-remove': {
        if (ours.length > POOL / 2) ctx.remove(`state/sessions/${ours.shift()}`);
        break;
      }
    }
    counts[kind] = (counts[kind] ?? 0) + 1;
  };

  return {
    counts,
    /** Makes the next scheduled change; returns its kind. */
    next() {
      const kind = SCHEDULE[n % SCHEDULE.length];
      try {
        change(kind);
      } finally {
        n++;
      }
      return kind;
    },
    get made() {
      return n;
    },
    /** Leaves the tree as big as it started (removes the sessions it added). */
    restore() {
      for (const sid of ours.splice(0)) ctx.remove(`state/sessions/${sid}`);
    },
  };
}

export function startDriver({ root, perSecond = 20 }) {
  const changer = makeChanger(root);
  const counts = changer.counts;
  let n = 0;
  let maxLagMs = 0;
  const errors = [];
  const t0 = Date.now();
  const interval = 1000 / perSecond;
  let timer = null;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const due = t0 + n * interval;
    maxLagMs = Math.max(maxLagMs, Date.now() - due);
    try {
      changer.next();
    } catch (e) {
      if (errors.length < 5) errors.push(String(e?.message ?? e));
    }
    n++;
    // Scheduled against the start, so the rate holds on average even when a tick is late.
    timer = setTimeout(tick, Math.max(0, t0 + n * interval - Date.now()));
  };
  timer = setTimeout(tick, 0);

  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      changer.restore();
      const seconds = (Date.now() - t0) / 1000;
      return {
        changes: n,
        seconds: +seconds.toFixed(1),
        perSecond: +(n / seconds).toFixed(1),
        counts,
        maxLagMs: Math.round(maxLagMs),
        errors,
      };
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [root, seconds = '120', perSecond = '20'] = process.argv.slice(2);
  if (!root) {
    process.stderr.write('usage: node bench/soak/driver.mjs <.omc root> [seconds] [changes per second]\n');
    process.exit(2);
  }
  const d = startDriver({ root, perSecond: Number(perSecond) });
  setTimeout(
    () => {
      process.stdout.write(`${JSON.stringify(d.stop())}\n`);
    },
    Number(seconds) * 1000,
  );
}
