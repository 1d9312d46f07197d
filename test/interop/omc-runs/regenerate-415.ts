/**
 * Regenerates test/fixtures/omc-4.15.10/seq-4.15.10.json from a checkout of OMC 4.15.10's source
 * (npm does not serve 4.15.10): every driven sequence of sequence-defs.ts through the real hooks and
 * state tools of that checkout, recorded as the replay test (verdict-415.test.ts) reads them.
 *
 *   npx tsx test/interop/omc-runs/regenerate-415.ts <path to the 4.15.10 checkout> [out.json]
 *
 * The checkout needs its dependencies for the MCP state tools (`npm ci --omit=dev --ignore-scripts`).
 * Only data made by OMC's code is written; none of its code or text.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../../helpers/fixtures.js';

const checkout = process.argv[2];
if (!checkout || !fs.existsSync(path.join(checkout, 'scripts', 'persistent-mode.mjs'))) {
  console.error('usage: regenerate-415.ts <OMC 4.15.10 checkout> [out.json]');
  process.exit(2);
}
process.env.OMC_TOP_OMC_415 = path.resolve(checkout);
const out = process.argv[3] ?? path.join(REPO, 'test', 'fixtures', 'omc-4.15.10', 'seq-4.15.10.json');

const { OmcRunner } = await import('./omc.js');
const { buildSequences, T0, SESSIONS } = await import('./sequence-defs.js');
const { runSequence, placeholders, sequenceBase } = await import('./sequences.js');

const git = (args: string[], cwd: string) => {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const pkg = JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { version: string };
const texts: string[] = [];
const index = new Map<string, number>();
const textId = (t: string) => {
  let i = index.get(t);
  if (i === undefined) index.set(t, (i = texts.push(t) - 1));
  return i;
};

const runner = new OmcRunner();
const sequences: unknown[] = [];
const t0 = Date.now();
try {
  for (const seq of buildSequences()) {
    const base = sequenceBase('4.15.10', seq.name);
    const cwd = path.join(base, 'project');
    const home = path.join(base, 'home');
    const records = await runSequence('4.15.10', seq, runner);
    const ph = (s: string) => placeholders(s, cwd, home, path.resolve(checkout));
    sequences.push({
      name: seq.name,
      family: seq.family,
      steps: records.map((r) => {
        const changed: Record<string, number> = {};
        const removed: string[] = [];
        // .omc only: the replay reads transcripts from the steps' inputs.
        for (const [k, v] of Object.entries(r.effect)) {
          if (!k.startsWith('omc/')) continue;
          if (v === null) removed.push(k.slice(4));
          else changed[k.slice(4)] = textId(ph(v));
        }
        return {
          t: r.t,
          op: r.op,
          s: r.s ?? null,
          // A Stop's whole payload, as the hook got it (the runner records only the step's own fields).
          input: JSON.parse(
            ph(
              JSON.stringify(
                r.op === 'stop' && r.s
                  ? {
                      payload: {
                        session_id: SESSIONS[r.s] ?? r.s,
                        cwd,
                        hook_event_name: 'Stop',
                        stop_hook_active: false,
                        ...((r.input.payload as Record<string, unknown> | undefined) ?? {}),
                      },
                    }
                  : r.input,
              ),
            ),
          ) as unknown,
          effect: { changed, removed },
          ...(r.stop ? { stop: { decision: r.stop.decision, mode: r.stop.mode } } : {}),
        };
      }),
    });
    process.stderr.write('.');
  }
} finally {
  runner.close();
}
fs.writeFileSync(
  out,
  JSON.stringify({
    provenance: {
      generator: 'omc-top test/interop/omc-runs/regenerate-415.ts (data produced by running OMC code)',
      omc_version: '4.15.10',
      omc_package_version: pkg.version,
      omc_commit: git(['rev-parse', 'HEAD'], checkout),
      omc_top_commit: git(['rev-parse', 'HEAD'], REPO),
      node: process.version,
      date: new Date().toISOString().slice(0, 10),
      t0: new Date(T0).toISOString(),
      sessions: SESSIONS,
      // Where each sequence ran (<seq_base>/<name>/project): an autopilot signal's digest covers the path.
      seq_base: path.join(os.tmpdir(), 'omc-top-seq', '4.15.10'),
      wall_seconds: Math.round((Date.now() - t0) / 1000),
    },
    texts,
    sequences,
  }),
);
console.error(`\nwrote ${out}`);
