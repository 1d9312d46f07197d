/**
 * Files vanishing between the directory listing and the read, and permission
 * denied, made deterministic by intercepting the store's fs calls (see
 * raceCases in hostile-corpus.ts), each through the whole App like every
 * corpus case. Plus real permission denial, without interception: mode-000
 * files read by an unprivileged user (as root, mode 000 does not stop a read,
 * so that path runs the real bundle as uid 65534 instead).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { REPO } from '../helpers/fixtures.js';
import { controlStringsIn } from '../helpers/hostile-bytes.js';
import { raceCases } from '../helpers/hostile-corpus.js';
import { runCase } from '../helpers/hostile-run.js';
import { makeSandbox, NOW } from '../helpers/hostile-sandbox.js';

const isRoot = process.getuid?.() === 0;
const DENIED = [
  'state/sessions/88727f43-cac5-4a42-a0b2-95e28cf65511/ralph-state.json',
  'notepad.md',
  'project-memory.json',
  'state/team/fix-ts-errors/tasks/task-2.json',
  'wiki/release-checklist.md',
];

describe('races and permissions (intercepted, deterministic)', () => {
  for (const c of raceCases()) it(c.name, () => runCase(c));
});

describe('real permission denial (mode 000)', () => {
  // As root, open() ignores mode bits: this sub-case can only run unprivileged.
  it.skipIf(isRoot)('as this (unprivileged) user: each mode-000 file is a "permission denied" problem line', () => {
    const s = makeSandbox();
    try {
      for (const rel of DENIED) fs.chmodSync(path.join(s.root, rel), 0o000);
      const store = new OmcStore({ root: s.root, clock: () => NOW, watch: 'none' });
      store.start();
      const problems = store.problems.getSnapshot();
      for (const rel of DENIED) expect(problems.find((p) => p.path === rel)?.message, rel).toMatch(/permission denied/);
      void store.close();
    } finally {
      for (const rel of DENIED) fs.chmodSync(path.join(s.root, rel), 0o600);
      s.cleanup();
    }
  });

  it.runIf(isRoot)(
    'as root: the real bundle run as uid 65534 gets EACCES on mode-000 files and lists each as a problem',
    () => {
      const s = makeSandbox();
      try {
        // The bin and the bundles it loads from beside itself: a copy beside the tree runs wherever the
        // checkout lives (a clone in a mode-0700 temp dir is out of the unprivileged user's reach).
        const bin = path.join(s.dir, 'omc-top.mjs');
        for (const f of fs.readdirSync(path.join(REPO, 'dist')).filter((x) => x.endsWith('.mjs')))
          fs.copyFileSync(path.join(REPO, 'dist', f), path.join(s.dir, f));
        // Let the unprivileged user walk the tree; deny only the chosen files.
        execFileSync('chmod', ['-R', 'a+rX', s.dir]);
        for (const rel of DENIED) fs.chmodSync(path.join(s.root, rel), 0o000);
        const out = execFileSync(process.execPath, [bin, '--json', '--root', s.root], {
          encoding: 'utf8',
          uid: 65534,
          gid: 65534,
          env: { PATH: process.env.PATH, HOME: '/nonexistent', NO_COLOR: '1' },
          maxBuffer: 16 * 1024 * 1024,
        });
        const doc = JSON.parse(out) as {
          problems: Array<{ path: string; message: string }>;
          sessions: Array<{ id: string }>;
        };
        for (const rel of DENIED)
          expect(doc.problems.find((p) => p.path === rel)?.message, rel).toMatch(/^permission denied/);
        expect(controlStringsIn(doc)).toEqual([]);
        // Every other session is still listed.
        expect(doc.sessions.length).toBeGreaterThanOrEqual(9);
      } finally {
        s.cleanup();
      }
    },
  );
});
