/**
 * Concurrent writers through OMC's lock protocols. Three processes at once:
 *
 *   OMC writers (test/helpers/fault-omc-writer.mjs, two processes): OMC's own
 *     dist code appending notepad entries under notepad.md.lock and updating
 *     hot paths through the learner under project-memory.json.lock; and, as
 *     fast as it can, rewriting ralph-state.json files (OMC's locked writer,
 *     and the Stop hook's unlocked temp+rename);
 *   OMC readers (test/helpers/fault-omc-reader.mjs): OMC's notepad section
 *     readers, loadProjectMemory and readModeState in a tight loop;
 *   omc-top (this process): a live OmcStore (real watcher) whose notepad and
 *     memory domains make 500 notepad edits and 500 directive edits.
 *
 * Then: zero lost entries from either side, no torn file ever read by OMC's
 * readers (every read parses, every checksummed entry is whole, no count
 * ever goes down), and omc-top itself never showed a problem line for the
 * files being rewritten under it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { refOf } from '../../src/panes/notepad/reducer.js';
import type { MemoryDomain } from '../../src/store/memory/domain.js';
import { directiveKey } from '../../src/store/memory/rules.js';
import type { NotepadDomain } from '../../src/store/notepad/domain.js';
import { OmcStore } from '../../src/store/store.js';
import type { Problem } from '../../src/store/types.js';
import { makeProject, REPO, type TempProject, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { omcMemoryStorage } from '../helpers/omc-knowledge.js';
import { loadOmcNotepad } from '../helpers/omc-notepad.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { scaled } from '../helpers/time-scale.js';

const EDITS = 500;
/** Between two of our saves: a fast user, and room for OMC's 50 ms lock retries (a tight loop would starve them). */
const PACE_MS = 8;
const SESSIONS = [
  '5e000000-0000-4000-8000-000000000001',
  '5e000000-0000-4000-8000-000000000002',
  '5e000000-0000-4000-8000-000000000003',
];

const sum = (s: string) => createHash('sha1').update(s).digest('hex').slice(0, 8);
const pace = () => new Promise((r) => setTimeout(r, PACE_MS));

let p: TempProject | null = null;
let store: OmcStore | null = null;
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await store?.close();
  store = null;
  p?.cleanup();
  p = null;
});

interface Child<T> {
  stop(): Promise<T>;
}

/** Starts a helper script; resolves once it printed "ready". `stop()` asks it to finish and returns its JSON report. */
async function startChild<T>(script: string, args: string[]): Promise<Child<T>> {
  const env = { ...process.env };
  // OMC would resolve its root elsewhere; these processes must share <project>/.omc.
  delete env.OMC_STATE_DIR;
  const c = spawn(process.execPath, [path.join(REPO, 'test', 'helpers', script), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  });
  children.push(c);
  let out = '';
  let err = '';
  c.stdout.on('data', (b: Buffer) => (out += b.toString()));
  c.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise<number>((r) => c.on('exit', (code) => r(code ?? -1)));
  await waitFor(() => out.includes('ready\n'), {
    timeoutMs: 20_000,
    what: `${script} to start${err ? `: ${err}` : ''}`,
  });
  return {
    async stop() {
      c.stdin.write('stop\n');
      const code = await exited;
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) throw new Error(`${script} exited ${code}: ${err}`);
      return JSON.parse(last) as T;
    },
  };
}

interface WriterReport {
  working: number;
  manual: number;
  notepadFailures: number;
  hot: Record<string, number>;
  stateWrites: Record<string, number>;
  stateLocked: number;
  stateUnlocked: number;
  stateFailures: number;
  ops: number;
  ms: number;
}
interface ReaderReport {
  notepadReads: number;
  memoryReads: number;
  stateReads: number;
  torn: string[];
  wentDown: string[];
}

/** 500 notepad edits: adds to Working Memory and MANUAL, and every fifth an in-place edit of one of our MANUAL entries. */
async function notepadStorm(
  d: NotepadDomain,
): Promise<{ expected: Map<string, string>; merged: number; outcomes: string[] }> {
  const expected = new Map<string, string>(); // "working 12" → body
  const manualIds: string[] = [];
  const outcomes: string[] = [];
  let merged = 0;
  let version = 0;
  for (let i = 0; i < EDITS; i++) {
    if (i % 5 === 4 && manualIds.length > 0) {
      const id = manualIds[Math.floor(i / 5) % manualIds.length]!;
      const current = expected.get(id)!;
      const entry = d.getSnapshot().sections.manual.entries.find((e) => e.body === current);
      if (!entry) throw new Error(`our entry ${id} is not in omc-top's reading of notepad.md`);
      const text = `top ${id} v${++version}`;
      const body = `${text} ${sum(text)}`;
      const out = await d.save({ kind: 'edit', target: refOf('manual', entry), body }, d.getSnapshot().revision);
      outcomes.push(out.kind);
      if (out.kind === 'saved') {
        expected.set(id, body);
        if (out.merged) merged++;
      }
    } else {
      const section = i % 2 === 0 ? 'working' : 'manual';
      const id = `${section} ${i}`;
      const body = `top ${id} ${sum(`top ${id}`)}`;
      const out = await d.save({ kind: 'add', section, body }, d.getSnapshot().revision);
      outcomes.push(out.kind);
      if (out.kind === 'saved') {
        expected.set(id, body);
        if (section === 'manual') manualIds.push(id);
        if (out.merged) merged++;
      }
    }
    await pace();
  }
  return { expected, merged, outcomes };
}

/** 500 directive edits, never more than 17 directives (OMC's cap of 20 must not decide anything): add, edit context, remove. */
async function directiveStorm(m: MemoryDomain): Promise<{ expected: Map<string, string>; failures: string[] }> {
  const ours = new Map<string, { key: string; context: string }>();
  const failures: string[] = [];
  for (let i = 0; i < EDITS; i++) {
    try {
      if (ours.size < 10) {
        const directive = `top directive ${i}`;
        const context = `rev ${i} ${sum(`${directive} ${i}`)}`;
        const res = await m.save({
          kind: 'add',
          input: { directive, context, priority: 'normal' },
          timestamp: Date.now(),
        });
        ours.set(directive, { key: directiveKey(res.changed!), context });
      } else if (i % 7 === 0) {
        const [directive, cur] = ours.entries().next().value as [string, { key: string }];
        await m.save({ kind: 'remove', target: cur.key });
        ours.delete(directive);
      } else {
        const [directive, cur] = [...ours.entries()][i % ours.size]!;
        const context = `rev ${i} ${sum(`${directive} ${i}`)}`;
        const res = await m.save({ kind: 'edit', target: cur.key, input: { directive, context, priority: 'normal' } });
        ours.set(directive, { key: directiveKey(res.changed!), context });
      }
    } catch (e) {
      failures.push(`#${i}: ${(e as Error).message}`);
    }
    await pace();
  }
  return { expected: new Map([...ours].map(([k, v]) => [k, v.context])), failures };
}

describe('concurrent writers through OMC locks', () => {
  it(
    `OMC appends and rewrites at a high rate while omc-top makes ${EDITS} notepad and ${EDITS} directive edits: nothing lost, nothing torn`,
    { timeout: scaled(90_000) },
    async () => {
      p = makeProject({ withFixture: true });
      const dir = p.dir;
      for (const sid of SESSIONS) {
        const now = new Date().toISOString();
        writeLiveRalph(p, {
          sessionId: sid,
          iteration: 0,
          max: 1_000_000,
          startedAt: now,
          checkedAt: now,
          prompt: `storm 0 ${sum(`${sid} 0`)}`,
        });
      }
      const omc = await loadOmcNotepad();
      const originalDirectives = JSON.parse(
        fs.readFileSync(path.join(p.root, 'project-memory.json'), 'utf8'),
      ).userDirectives;

      store = new OmcStore({ root: p.root, watch: 'auto' });
      store.start();
      await waitFor(() => store!.status.getSnapshot().watchMode === 'events', { what: 'live watcher' });
      const notepad = store.notepad;
      const memory = store.memory;
      // Every problem line omc-top shows while the storm runs (the fixture's own are the baseline).
      const key = (x: Problem) => `${x.path}: ${x.message}`;
      const baseline = new Set(store.problems.getSnapshot().map(key));
      const shown = new Set<string>();
      const unsubscribe = store.problems.subscribe(() => {
        for (const x of store!.problems.getSnapshot()) if (!baseline.has(key(x))) shown.add(key(x));
      });

      const reader = await startChild<ReaderReport>('fault-omc-reader.mjs', [dir, SESSIONS.join(',')]);
      const writer = await startChild<WriterReport>('fault-omc-writer.mjs', [
        dir,
        SESSIONS.join(','),
        '1',
        'notepad,memory',
      ]);
      const stateWriter = await startChild<WriterReport>('fault-omc-writer.mjs', [
        dir,
        SESSIONS.join(','),
        '0',
        'state',
      ]);
      const t0 = Date.now();
      const [np, dm] = await Promise.all([notepadStorm(notepad), directiveStorm(memory)]);
      const stormMs = Date.now() - t0;
      const w = await writer.stop();
      const sw = await stateWriter.stop();
      const r = await reader.stop();
      unsubscribe();
      console.log(
        `storm ${stormMs} ms: omc-top ${EDITS} notepad + ${EDITS} directive edits (${np.merged} merged over OMC writes); ` +
          `OMC ${w.ops} ops in ${w.ms} ms (${w.working} + ${w.manual} notepad entries, ${Object.values(w.hot).reduce((a, b) => a + b, 0)} hot-path updates, ` +
          `${sw.stateLocked} locked + ${sw.stateUnlocked} unlocked state rewrites); OMC readers: ${r.notepadReads} notepad, ${r.memoryReads} memory, ${r.stateReads} state reads`,
      );

      // Both sides really raced: OMC wrote a lot, and many of our saves landed on top of its writes.
      expect(w.working + w.manual).toBeGreaterThan(200);
      expect(np.merged).toBeGreaterThan(50);
      expect(r.notepadReads).toBeGreaterThan(100);

      // Every save went through on both sides: no lock timeouts, no refusals.
      expect(np.outcomes.filter((o) => o !== 'saved')).toEqual([]);
      expect(dm.failures).toEqual([]);
      expect(w.notepadFailures).toBe(0);
      expect(sw.stateFailures).toBe(0);
      expect(sw.stateLocked + sw.stateUnlocked).toBeGreaterThan(500);

      // No torn file was ever read by OMC's readers, and nothing they count ever went down.
      expect(r.torn).toEqual([]);
      expect(r.wentDown).toEqual([]);

      // Zero lost entries, as OMC's own readers see the final files.
      const entries = (section: string | null) =>
        new Set((section ?? '').split('\n').filter((l) => /^(omc|top) /.test(l)));
      const working = entries(omc.getWorkingMemory(dir));
      const manual = entries(omc.getManualSection(dir));
      const omcLines = (section: string, n: number) =>
        Array.from({ length: n }, (_, i) => `omc ${section} ${i + 1} ${sum(`omc ${section} ${i + 1}`)}`);
      const ourLines = (section: string) =>
        [...np.expected].filter(([id]) => id.startsWith(section)).map(([, body]) => body);
      expect(working).toEqual(new Set([...omcLines('working', w.working), ...ourLines('working')]));
      expect(manual).toEqual(new Set([...omcLines('manual', w.manual), ...ourLines('manual')]));
      // …each exactly once (a Set hides duplicates; the raw section must not have any).
      const raw = `${omc.getWorkingMemory(dir)}\n${omc.getManualSection(dir)}`
        .split('\n')
        .filter((l) => /^(omc|top) /.test(l));
      expect(raw.length).toBe(working.size + manual.size);

      const mem = await (await omcMemoryStorage()).loadProjectMemory(dir);
      const hot = Object.fromEntries(
        mem.hotPaths
          .filter((h: { path: string }) => h.path.startsWith('src/storm/'))
          .map((h: { path: string; accessCount: number }) => [h.path, h.accessCount]),
      );
      expect(hot).toEqual(w.hot);
      const ourDirectives = new Map(
        mem.userDirectives
          .filter((d: { directive: string }) => d.directive.startsWith('top directive '))
          .map((d: { directive: string; context: string }) => [d.directive, d.context]),
      );
      expect(ourDirectives).toEqual(dm.expected);
      expect(
        mem.userDirectives.filter((d: { directive: string }) => !d.directive.startsWith('top directive ')),
      ).toEqual(originalDirectives);

      const stateIo = await import(path.join(OMC55, 'dist', 'lib', 'mode-state-io.js'));
      for (const sid of SESSIONS)
        expect(stateIo.readModeState('ralph', dir, sid)?.iteration).toBe(sw.stateWrites[sid] ?? 0);

      // omc-top's own view caught up with the last write, and it never flagged a file being rewritten under it.
      await waitFor(
        () =>
          SESSIONS.every(
            (sid) =>
              store!.sessions.getSnapshot().sessions.find((s) => s.id === sid)?.modes[0]?.iteration ===
              (sw.stateWrites[sid] ?? 0),
          ),
        {
          what: 'omc-top showing the final iterations',
        },
      );
      expect([...shown]).toEqual([]);
    },
  );
});
