/**
 * A doc omc-top names to the user is a file they can open from wherever they ran it: the installed bundle's own
 * docs/ (package.json "files" ships each), `~/…` under their home, never a bare `docs/x.md` that means nothing in
 * their project. Run on the real bundle (dist/): --help of each command that names one, and doctor's words.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { files: string[] };

function bundle(args: string[], env: NodeJS.ProcessEnv, cwd = REPO): string {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  return `${r.stdout}${r.stderr}`;
}

/** Every doc path in `text`: `…/docs/name.md` (the path's own start, or `~`). */
const named = (text: string): string[] =>
  [...text.matchAll(/(?:^|[\s(])((?:~|\/)?[^\s()]*docs\/[a-z-]+\.md)/g)].map((m) => m[1]!);

const HELPS = [
  ['watch', '--help'],
  ['hooks', '--help'],
  ['doctor', '--help'],
  ['serve', '--help'],
];

describe('docs named to the user', () => {
  it('each --help names the installed doc by its full path, a file that is there and that the package ships', () => {
    // A home the package is not under: the path is written whole.
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-docs-home-'));
    try {
      for (const args of HELPS) {
        const docs = named(bundle(args, { HOME: home }));
        expect(docs.length, args.join(' ')).toBeGreaterThan(0);
        for (const d of docs) {
          expect(d, `${args.join(' ')} names ${d}`).toMatch(
            new RegExp(`^${REPO.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/docs/`),
          );
          expect(fs.existsSync(d), d).toBe(true);
          expect(PKG.files).toContain(path.relative(REPO, d));
        }
      }
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('under $HOME the path is written from ~, and doctor names its doc the same way', () => {
    const home = path.dirname(REPO);
    const rel = path.relative(home, REPO);
    const help = named(bundle(['hooks', '--help'], { HOME: home }));
    expect(help).toEqual([`~/${rel}/docs/answering.md`]);
    // doctor in a project whose Claude settings have no omc-top hook: the hook check's words name answering.md.
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-docs-project-'));
    try {
      const doctor = bundle(
        ['doctor', '--cwd', project],
        { HOME: home, CLAUDE_CONFIG_DIR: path.join(project, 'claude') },
        project,
      );
      expect(named(doctor)).toContain(`~/${rel}/docs/answering.md`);
      // Nothing left that names a doc relative to where the user stands.
      expect(doctor).not.toMatch(/(^|[\s(])docs\//m);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  it("bundles loaded from outside omc-top's package name no path: the doc is said as omc-top's, not a wrong file", () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-docs-elsewhere-'));
    try {
      // The bundles copied together (fleet.md's manual install), once into a `dist/` of another package that has
      // a docs/answering.md of its own, once into a bare directory with no package above it.
      const other = path.join(scratch, 'other');
      fs.mkdirSync(path.join(other, 'docs'), { recursive: true });
      fs.writeFileSync(path.join(other, 'package.json'), JSON.stringify({ name: 'other', version: '1.0.0' }));
      fs.writeFileSync(path.join(other, 'docs', 'answering.md'), 'not omc-top\n');
      for (const dest of [path.join(other, 'dist'), path.join(scratch, 'bare')]) {
        fs.mkdirSync(dest);
        for (const f of fs.readdirSync(path.dirname(BIN)).filter((n) => n.endsWith('.mjs')))
          fs.copyFileSync(path.join(path.dirname(BIN), f), path.join(dest, f));
        const r = spawnSync(process.execPath, [path.join(dest, 'omc-top.mjs'), 'hooks', '--help'], {
          cwd: scratch,
          env: { ...process.env, NO_COLOR: '1', HOME: scratch },
          encoding: 'utf8',
          timeout: scaled(60_000),
        });
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout, dest).toContain("See omc-top's docs/answering.md.");
        // No path to a doc anywhere: neither the other package's docs/ nor one guessed from the bundle's place.
        expect(r.stdout, dest).not.toMatch(/\/docs\//);
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
