/**
 * Class 2 of the second hardening round: containment holds at the moment of
 * each mkdir, create, rename, link and unlink, not only at a check before
 * it. Another process swaps a session directory for a symlink to a directory
 * outside the root (and back) as fast as it can, while every write-side
 * primitive omc-top has — the atomic write (the cancel signal, a state
 * rewrite), the unlink (a state_clear), mkdir -p (a team request) and OMC's
 * mutation lock (create, link, release) — works on that directory, over and
 * over. Nothing may be created, left or deleted outside the root.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireStateLock } from '../../src/store/cancel/mutation-lock.js';
import { atomicWriteSync, ensureDirUnder, unlinkUnder } from '../../src/io/safe-fs/index.js';
import { scaled } from '../helpers/time-scale.js';

const TRIALS = 1_000;
const SID = '6d3c2f1a-0000-4000-8000-000000000001';

// The swapper: real directory ⇄ symlink to outside, until told to stop (or 120 s, whichever first).
const SWAPPER = `
const fs = require('node:fs');
const [dir, aside, outside, stop] = process.argv.slice(1);
const end = Date.now() + 120000;
let swaps = 0;
fs.writeFileSync(stop + '.started', '');
while (!fs.existsSync(stop) && Date.now() < end) {
  try { fs.renameSync(dir, aside); fs.symlinkSync(outside, dir); } catch {}
  try { fs.unlinkSync(dir); fs.renameSync(aside, dir); } catch {}
  swaps++;
}
try { fs.unlinkSync(dir); } catch {}
try { fs.renameSync(aside, dir); } catch {}
process.stdout.write(String(swaps));
`;

let base: string | null = null;
let swapper: ChildProcess | null = null;
afterEach(() => {
  swapper?.kill('SIGKILL');
  swapper = null;
  if (base) fs.rmSync(base, { recursive: true, force: true });
  base = null;
});

function listAll(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      out.push(path.join(rel, e.name));
      if (e.isDirectory()) walk(path.join(d, e.name), path.join(rel, e.name));
    }
  };
  walk(dir, '');
  return out.sort();
}

describe('a session directory swapped for a symlink to outside, in a loop, by another process', () => {
  it(
    `${TRIALS} trials of write, unlink, mkdir -p and the mutation lock: 0 writes or deletes outside the root`,
    { timeout: scaled(240_000) },
    async () => {
      base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-swapper-'));
      const root = path.join(base, '.omc');
      const sessions = path.join(root, 'state', 'sessions');
      const dir = path.join(sessions, SID);
      const outside = path.join(base, 'outside');
      fs.mkdirSync(dir, { recursive: true });
      fs.mkdirSync(outside);
      // The same names outside: what a write or a delete through the symlink would hit.
      for (const name of ['ralph-state.json', 'cancel-signal-state.json', 'victim.json'])
        fs.writeFileSync(path.join(outside, name), 'outside, must not change\n');
      const outsideBefore = listAll(outside);
      const stop = path.join(base, 'stop');
      let swaps = '';
      swapper = spawn(process.execPath, ['-e', SWAPPER, dir, path.join(sessions, '.aside'), outside, stop]);
      swapper.stdout!.on('data', (d: Buffer) => (swaps += d.toString()));
      const exited = new Promise<void>((r) => swapper!.on('exit', () => r()));
      // Race only once the swapper is swapping (on a loaded machine its start can lag well behind ours).
      const startBy = Date.now() + scaled(60_000);
      while (!fs.existsSync(`${stop}.started`)) {
        if (Date.now() > startBy) throw new Error('the swapper never started');
        await new Promise((r) => setTimeout(r, 10));
      }

      const rel = (name: string) => `state/sessions/${SID}/${name}`;
      let done = 0;
      let refused = 0;
      const attempt = async (fn: () => unknown) => {
        try {
          await fn();
          done++;
        } catch {
          refused++; // refused (outside the root), or the directory was away at that moment
        }
      };
      // At least TRIALS rounds, and on until both outcomes were seen (a write that landed, one refused): how the
      // two processes interleave is the scheduler's choice, so the count of rounds is not fixed (bounded: 90 s).
      const until = Date.now() + 90_000;
      for (let i = 0; i < TRIALS || ((done === 0 || refused === 0) && Date.now() < until); i++) {
        await attempt(() => atomicWriteSync(root, rel('cancel-signal-state.json'), `{"trial":${i}}\n`));
        await attempt(() => atomicWriteSync(root, rel('victim.json'), `{"trial":${i}}\n`));
        await attempt(() => unlinkUnder(root, rel('victim.json')));
        await attempt(() => ensureDirUnder(root, rel(`workers/w${i % 3}`), 'shared'));
        await attempt(async () =>
          (await acquireStateLock(root, rel('ralph-state.json'), { attempts: 2, retryMs: 1 })).release(),
        );
      }
      fs.writeFileSync(stop, '');
      await exited;

      // The swapper really raced us, and both outcomes happened.
      expect(Number(swaps)).toBeGreaterThan(0);
      expect(done).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
      // Outside: exactly the files it started with, byte for byte; no temp, lock or directory of ours.
      expect(listAll(outside)).toEqual(outsideBefore);
      for (const name of outsideBefore)
        expect(fs.readFileSync(path.join(outside, name), 'utf8')).toBe('outside, must not change\n');
      // Inside: no temp file or lock record left behind either.
      expect(listAll(dir).filter((f) => /\.tmp|\.lock|reclaim/.test(f))).toEqual([]);
    },
  );
});
