/**
 * The 4.15.10 book against OMC 4.15.10's own Stop hook. npm does not serve 4.15.10, so its verdicts
 * are committed as fixtures (test/fixtures/omc-4.15.10/, made by running the hook of OMC's source at
 * 94e71c36: see PROVENANCE there): 1,400 generated trees (omc-top's generator and one aimed at what
 * 4.15 adds) and 123 driven sequences (prompt → keyword detector → skill hooks → Stop calls, cancels
 * from omc-top and from OMC's state tools, legacy and session signals, two sessions). Each tree and
 * each sequence step is replayed here in memory, at the paths the hook saw (an autopilot signal's
 * digest covers the state's absolute project_path), and omc-top's verdict must give the hook's own
 * decision and blocking mode at every Stop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopVerdict, type HookTree } from '../../src/store/verdict/index.js';
import { transcriptPercent } from '../../src/store/verdict/payload.js';
import { SESSION_ID_RE } from '../../src/store/sessions/omc-rules.js';
import { REPO } from '../helpers/fixtures.js';

const DIR = path.join(REPO, 'test/fixtures/omc-4.15.10');
const load = (f: string) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as Fixture;

interface Fixture {
  provenance: Record<string, unknown> & { frozen_now?: string; t0?: string };
  texts: string[];
  cases?: TreeFixtureCase[];
  sequences?: SeqFixture[];
}
interface TreeFixtureCase {
  i: number;
  batch: string;
  files: Array<[string, number]>;
  payload: Record<string, unknown>;
  hook: { decision: 'block' | 'stop'; mode: string | null };
}
interface SeqStep {
  t: number;
  op: string;
  s: string | null;
  input: Record<string, unknown>;
  effect: { changed: Record<string, number | null>; removed: string[] };
  stop?: { decision: 'block' | 'stop'; mode: string | null };
}
interface SeqFixture {
  name: string;
  steps: SeqStep[];
}

/** A tree as OMC's readJsonFile sees it: JSON.parse of the text, null on failure (a BOM fails too). */
function memoryTree(files: Map<string, string>, globals: Map<string, string>): HookTree {
  const parse = (t: string | undefined): unknown => {
    if (t === undefined) return null;
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return null;
    }
  };
  return {
    read: (rel) => (rel.startsWith('~/.omc/') ? parse(globals.get(rel.slice(2))) : parse(files.get(rel))),
    findOwnedCopy(file, sid) {
      for (const [rel, text] of files) {
        const m = /^state\/sessions\/([^/]+)\/(.+)$/.exec(rel);
        if (!m || m[2] !== file) continue;
        const v = parse(text);
        if (v && (v as Record<string, unknown>).session_id === sid) return { rel, value: v };
      }
      return null;
    },
  };
}

const fill = (text: string, cwd: string, home: string) => text.split('<CWD>').join(cwd).split('<HOME>').join(home);

describe('the 4.15.10 book against the real 4.15.10 Stop hook (committed fixtures)', () => {
  for (const [file, batch] of [
    ['trees-4.15.10-arb.json', 'arb'],
    ['trees-4.15.10-415.json', '415'],
  ] as const) {
    it(`agrees on every generated tree (${file})`, () => {
      const fx = load(file);
      const now = Date.parse(String(fx.provenance.frozen_now));
      // The runner's fixed layout (provenance.layout): one repo of case directories, a HOME per case.
      const base = path.join('/tmp', 'omc415-trees', `4.15.10-${batch}`);
      const wrong: string[] = [];
      let sessionless = 0;
      for (const c of fx.cases ?? []) {
        // omc-top judges the sessions it found by their id; a payload with no valid session_id (which
        // the hook answers from legacy files alone) is never asked of the engine.
        if (typeof c.payload.session_id !== 'string' || !SESSION_ID_RE.test(c.payload.session_id)) {
          sessionless += 1;
          continue;
        }
        const cwd = path.join(base, 'repo', `c${c.i}`);
        const home = path.join(base, `h${c.i}`);
        const files = new Map<string, string>();
        const globals = new Map<string, string>();
        let transcript: string | null = null;
        for (const [rel, ti] of c.files) {
          const text = fill(fx.texts[ti] as string, cwd, home);
          if (rel.startsWith('~/.omc/')) globals.set(rel.slice(2), text);
          else if (rel.startsWith('~/')) transcript = text;
          else files.set(rel, text);
        }
        const payload = JSON.parse(fill(JSON.stringify(c.payload), cwd, home)) as Record<string, unknown>;
        const v = stopVerdict(memoryTree(files, globals), {
          rules: '4.15.10',
          sessionId: typeof payload.session_id === 'string' ? payload.session_id : '',
          cwd,
          now,
          flock: true,
          stop: { payload, transcriptPercent: transcript === null ? 0 : transcriptPercent(transcript.slice(-4096)) },
        });
        const mode = v.decision === 'block' ? v.mode : null;
        if (v.decision !== c.hook.decision || mode !== c.hook.mode)
          wrong.push(`case ${c.i}: hook ${c.hook.decision}/${c.hook.mode}, omc-top ${v.decision}/${mode} (${v.rule})`);
      }
      expect((fx.cases?.length ?? 0) - sessionless).toBeGreaterThanOrEqual(300);
      expect(wrong).toEqual([]);
    });
  }

  it('agrees at every Stop of the driven sequences (at least 100)', () => {
    const fx = load('seq-4.15.10.json');
    const t0 = Date.parse(String(fx.provenance.t0));
    const wrong: string[] = [];
    let stops = 0;
    for (const seq of fx.sequences ?? []) {
      // Where the sequence ran: the research runner's fixed layout, or the regenerating script's (seq_base).
      const seqBase = String(fx.provenance.seq_base ?? path.join('/tmp', 'omc415-seq', '4.15.10'));
      const base = path.join(seqBase, seq.name.replace(/[^A-Za-z0-9_.+-]+/g, '_'));
      const cwd = path.join(base, 'project');
      const home = path.join(base, 'home');
      const files = new Map<string, string>();
      const pct = new Map<string, number>();
      for (const st of seq.steps) {
        if (st.op === 'transcript' && st.s) pct.set(st.s, Number(st.input.pct));
        if (st.op === 'stop' && st.stop) {
          stops += 1;
          const payload = JSON.parse(fill(JSON.stringify(st.input.payload), cwd, home)) as Record<string, unknown>;
          const v = stopVerdict(memoryTree(files, new Map()), {
            rules: '4.15.10',
            sessionId: String(payload.session_id ?? ''),
            cwd,
            now: t0 + st.t,
            flock: true,
            stop: { payload, transcriptPercent: st.s ? (pct.get(st.s) ?? 0) : 0 },
          });
          const mode = v.decision === 'block' ? v.mode : null;
          if (v.decision !== st.stop.decision || mode !== st.stop.mode)
            wrong.push(
              `${seq.name} t=${st.t} ${st.s}: hook ${st.stop.decision}/${st.stop.mode}, omc-top ${v.decision}/${mode} (${v.rule})`,
            );
        }
        for (const [rel, ti] of Object.entries(st.effect.changed))
          if (ti === null) files.delete(rel);
          else files.set(rel, fill(fx.texts[ti] as string, cwd, home));
        for (const rel of st.effect.removed) files.delete(rel);
      }
    }
    expect(fx.sequences?.length).toBeGreaterThanOrEqual(100);
    expect(stops).toBeGreaterThanOrEqual(400);
    expect(wrong).toEqual([]);
  });
});
