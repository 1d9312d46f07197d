/**
 * `omc-top --json` of the real bundle (dist/omc-top.mjs, what users run) on
 * every hostile tree of the corpus, read from scratch: it exits 0, prints
 * valid JSON, no string in it carries a control character (a script piping
 * the output to a terminal would run them), no escape payload or text from
 * outside the root is in it, the case's problem is listed with its file, and
 * reading wrote nothing. Most cases go through the bundle's own main() in a
 * driver process (hostile-json-driver.mjs: one Node start for 40 trees); the
 * nastiest also through the plain command line.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';
import { controlStringsIn, rawControlBytes } from '../helpers/hostile-bytes.js';
import { allCases, type HostileCase } from '../helpers/hostile-corpus.js';
import { fingerprint, fingerprintDiff, makeSandbox, type Sandbox } from '../helpers/hostile-sandbox.js';
import { scaled } from '../helpers/time-scale.js';

const BIN = path.join(REPO, 'dist', 'omc-top.mjs');
/** The app bundle the bin loads (its main() is what the driver calls in one process for many roots). */
const APP = path.join(REPO, 'dist', 'omc-top-app.mjs');
const DRIVER = path.join(REPO, 'test', 'helpers', 'hostile-json-driver.mjs');
const BATCH = 40;

interface Run {
  root: string;
  code: number | null;
  error: string | null;
  out: string;
}

function check(c: HostileCase, out: string, code: number | null, error: string | null): void {
  expect(error, `${c.name}: main() threw`).toBeNull();
  expect(code, c.name).toBe(0);
  expect(rawControlBytes(out), `${c.name}: raw control bytes in the output`).toEqual([]);
  const doc = JSON.parse(out) as { problems: Array<{ path: string; message: string }>; sessions: unknown[] };
  expect(controlStringsIn(doc), `${c.name}: strings with control characters`).toEqual([]);
  for (const h of c.hidden ?? []) expect(out, `${c.name}: ${JSON.stringify(h)} in --json`).not.toContain(h);
  if (c.problem) {
    const want = c.problem;
    expect(
      doc.problems.some((p) => p.path === want.path && want.message.test(p.message)),
      `${c.name}: problem for ${want.path} matching ${want.message}; got ${JSON.stringify(doc.problems)}`,
    ).toBe(true);
  }
}

describe('--json of the real bundle on every hostile tree', () => {
  const cases = allCases().filter((c) => !c.intercept);
  const batches: HostileCase[][] = [];
  for (let i = 0; i < cases.length; i += BATCH) batches.push(cases.slice(i, i + BATCH));

  it.each(batches.map((b, i) => [`${i * BATCH + 1}–${i * BATCH + b.length} of ${cases.length}`, b] as const))(
    'cases %s',
    (_label, batch) => {
      const boxes: Array<{ c: HostileCase; s: Sandbox; before: ReturnType<typeof fingerprint> }> = [];
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-hostile-json-'));
      try {
        for (const c of batch) {
          const s = makeSandbox();
          c.apply(s);
          boxes.push({ c, s, before: fingerprint(s.dir) });
        }
        fs.writeFileSync(path.join(tmp, 'roots.json'), JSON.stringify(boxes.map((b) => b.s.root)));
        execFileSync(process.execPath, [DRIVER, APP, path.join(tmp, 'roots.json'), path.join(tmp, 'out.json')], {
          stdio: ['ignore', 'ignore', 'inherit'],
          timeout: scaled(120_000),
        });
        const runs = JSON.parse(fs.readFileSync(path.join(tmp, 'out.json'), 'utf8')) as Run[];
        expect(runs).toHaveLength(boxes.length);
        boxes.forEach((b, i) => {
          const r = runs[i] as Run;
          check(b.c, r.out, r.code, r.error);
          expect(fingerprintDiff(b.before, fingerprint(b.s.dir)), `${b.c.name}: files written`).toEqual([]);
        });
      } finally {
        for (const b of boxes) b.s.cleanup();
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },
    180_000,
  );

  const nastiest = [
    'state/sessions · symlink to a directory outside the root',
    'mode ralph (session) · escaped \\u0000 and every escape sequence in a displayed field',
    'team events.jsonl · 50 MB of events (only the tail is read)',
    'notepad.md · 50 MB of text',
    'session directory name · title escape sequence in the name',
  ];
  it.each(nastiest)('plain command line: %s', (name) => {
    const c = cases.find((x) => x.name === name);
    expect(c, name).toBeDefined();
    const s = makeSandbox();
    try {
      c!.apply(s);
      const before = fingerprint(s.dir);
      const out = execFileSync(process.execPath, [BIN, '--json', '--root', s.root], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1' },
      });
      check(c!, out, 0, null);
      expect(fingerprintDiff(before, fingerprint(s.dir))).toEqual([]);
    } finally {
      s.cleanup();
    }
  });
});
