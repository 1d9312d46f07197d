/**
 * The differential check shared by the per-version test files: generated trees → the real
 * Stop hook of that version (run as Claude Code runs it, clock frozen) and omc-top's verdict
 * engine on the same tree; the decision (block / let stop) and the mode that blocks must agree
 * on every case. fast-check shrinks a failure and prints the smallest tree that disagrees.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { stopVerdict } from '../../src/store/verdict/index.js';
import { diskTree } from '../../src/store/verdict/disk-tree.js';
import { HookRunner, gitInit, hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';
import { NOW, S, caseArb, caseFiles, type GenCase } from '../helpers/verdict-arb.js';

export const SEED = Number(process.env.OMC_TOP_VERDICT_SEED ?? 20261201);

export class Bench {
  readonly base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-verdict-'));
  readonly home = path.join(this.base, 'home');
  /** One git repo; each case is a subdirectory of it (5.5.0 puts .omc at the hook's cwd there). */
  readonly repo = path.join(this.base, 'repo');
  private n = 0;
  constructor() {
    fs.mkdirSync(this.home);
    fs.mkdirSync(this.repo);
    gitInit(this.repo);
  }
  /** A fresh case directory, the case's files written as OMC writes them. */
  lay(c: GenCase): string {
    this.n += 1;
    const cwd = path.join(this.repo, `c${this.n}`);
    for (const [rel, text] of caseFiles(c)) {
      const abs = path.join(cwd, '.omc', rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, text);
    }
    return cwd;
  }
  /** The cwd the generator wrote project_path values for: the next case directory. */
  nextCwd(): string {
    return path.join(this.repo, `c${this.n + 1}`);
  }
  cleanup(): void {
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}

export function engineSays(version: HookVersion, cwd: string) {
  const v = stopVerdict(diskTree(path.join(cwd, '.omc')), { rules: version, sessionId: S, cwd, now: NOW });
  return { decision: v.decision, mode: v.decision === 'block' ? v.mode : null, rule: v.rule };
}

/**
 * project_path values must name the case's own directory, which is only known when it is laid
 * out: the generator writes a placeholder that is rewritten here.
 */
export const CWD_TOKEN = '/__CASE_CWD__';
export function withCwd(c: GenCase, cwd: string): GenCase {
  const fix = (v: unknown): unknown =>
    typeof v === 'string' && v.startsWith(CWD_TOKEN) ? cwd + v.slice(CWD_TOKEN.length) : v;
  return {
    ...c,
    states: c.states
      .map((s) => ({ ...s, value: { ...s.value, project_path: fix(s.value.project_path) } }))
      .map((s) => {
        if (s.value.project_path === undefined) delete s.value.project_path;
        return s;
      }),
  };
}

export async function runDifferential(version: HookVersion, numRuns: number): Promise<{ ms: number; blocks: number }> {
  const bench = new Bench();
  const runner = new HookRunner(version);
  let blocks = 0;
  const t0 = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(caseArb(CWD_TOKEN), async (generated) => {
        const cwd = bench.nextCwd();
        const c = withCwd(generated, cwd);
        bench.lay(c);
        const ours = engineSays(version, cwd);
        const hook = hookDecision(await runner.run({ cwd, sessionId: S, home: bench.home, now: NOW }));
        if (hook.decision === 'block') blocks += 1;
        expect(
          { decision: ours.decision, mode: ours.mode },
          `engine rule ${ours.rule}; hook said ${hook.raw.slice(0, 160)}`,
        ).toEqual({
          decision: hook.decision,
          mode: hook.mode,
        });
      }),
      { seed: SEED, numRuns },
    );
  } finally {
    runner.close();
    bench.cleanup();
  }
  return { ms: performance.now() - t0, blocks };
}

/** The long-lived runner must decide exactly as real hook processes do (a sample, each via run.cjs). */
export async function runnerMatchesSpawn(version: HookVersion, numRuns: number): Promise<void> {
  const bench = new Bench();
  const runner = new HookRunner(version);
  try {
    const samples = fc.sample(caseArb(CWD_TOKEN), { seed: SEED + 1, numRuns });
    for (const g of samples) {
      // Each run mutates its tree (iterations, reinforcements): two identical copies.
      const a = bench.nextCwd();
      bench.lay(withCwd(g, a));
      const b = bench.nextCwd();
      bench.lay(withCwd(g, b));
      const inProcess = hookDecision(await runner.run({ cwd: a, sessionId: S, home: bench.home, now: NOW }));
      const spawned = hookDecision(spawnStopHook(version, { cwd: b, sessionId: S, home: bench.home, now: NOW }));
      expect({ decision: inProcess.decision, mode: inProcess.mode }).toEqual({
        decision: spawned.decision,
        mode: spawned.mode,
      });
    }
  } finally {
    runner.close();
    bench.cleanup();
  }
}
