/**
 * What the README and the docs claim about keys, statuses, the wire and the
 * package is what the program does: the README's status table is generated
 * from the legend the app shows, every key it lists is a key the app
 * dispatches, the `mode-status` values of docs/scripting.md are the verdict's
 * words, and the packed size is what `npm pack` says.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';
import { GLOBAL_BINDINGS } from '../../src/input/router.js';
import { PANES } from '../../src/panes/registry.js';
import { keysLabel } from '../../src/kit/bindings.js';
import { STATUSES_END, STATUSES_START, statusTableMarkdown } from '../../src/panes/key-table.js';

const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');

/** Every key label the app dispatches, as the help writes it (`Ctrl-C`, `↓`, `q`). */
function dispatchedKeys(): Set<string> {
  const out = new Set<string>();
  const add = (keys: readonly string[]) => {
    for (const k of keysLabel(keys).split(', ')) out.add(k);
  };
  for (const g of GLOBAL_BINDINGS) add(g.keys);
  for (const p of PANES) {
    out.add(p.hotkey);
    for (const b of p.bindings) add(b.keys);
  }
  return out;
}

describe('README claims', () => {
  it('the status table is the legend the app shows (run node scripts/readme-keys.mjs)', () => {
    const a = readme.indexOf(STATUSES_START);
    const b = readme.indexOf(STATUSES_END);
    expect(a).toBeGreaterThan(-1);
    expect(readme.slice(a, b + STATUSES_END.length)).toBe(statusTableMarkdown());
  });

  it('every key in "The keys people use most" is one the app dispatches, and there are ten rows', () => {
    const at = readme.indexOf('<!-- top-keys');
    expect(at).toBeGreaterThan(-1);
    const rows = readme
      .slice(at)
      .split('\n')
      .slice(1)
      .filter((l) => l.startsWith('| `'));
    expect(rows).toHaveLength(10);
    const known = dispatchedKeys();
    for (const row of rows) {
      for (const m of row.matchAll(/`([^`]+)`/g)) {
        const key = m[1] as string;
        if (key.includes(' ') || key === '/cancel' || key === '.omc') continue;
        expect(known, `${key} (README: ${row})`).toContain(key);
      }
    }
  });

  it("docs/scripting.md's `mode-status` values are the verdict's words", () => {
    const doc = fs.readFileSync(path.join(REPO, 'docs', 'scripting.md'), 'utf8');
    const said = /`mode-status` the verdict\s*\(([^)]*)\)/.exec(doc)?.[1] ?? '';
    const documented = [...said.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    const source = fs.readFileSync(path.join(REPO, 'src', 'store', 'sessions', 'omc-rules.ts'), 'utf8');
    const union = /export type ModeStatus = ([^;]+);/.exec(source)?.[1] ?? '';
    const words = [...union.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
    expect(words.length).toBeGreaterThan(0);
    expect(documented).toEqual(words);
  });

  it('the packed size the README and docs/install.md give is what `npm pack` says (within 8 %)', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    const kB = (JSON.parse(out) as Array<{ size: number }>)[0]!.size / 1000;
    for (const file of ['README.md', path.join('docs', 'install.md')]) {
      const text = fs.readFileSync(path.join(REPO, file), 'utf8');
      const claimed = Number(/about (\d+) kB packed/.exec(text)?.[1]);
      expect(claimed, file).toBeGreaterThan(0);
      expect(
        Math.abs(claimed - kB) / kB,
        `${file}: ${claimed} kB said, npm pack says ${kB.toFixed(0)} kB`,
      ).toBeLessThan(0.08);
    }
  });

  it('the docs the program and the README point to ship in the package; the developer docs do not', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    const packed = new Set((JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path));
    const DEVELOPER = new Set(['docs/ARCHITECTURE.md', 'docs/TESTING.md', 'docs/benchmarks-history.md']);
    // What a user is sent to: the README's links, and the words of the shipped bundles (doctor, --help, the screens).
    const bundles = fs
      .readdirSync(path.join(REPO, 'dist'))
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => fs.readFileSync(path.join(REPO, 'dist', f), 'utf8'));
    const named = new Set([readme, ...bundles].flatMap((t) => t.match(/docs\/[A-Za-z-]+\.md/g) ?? []));
    const userDocs = [...named].filter((d) => !DEVELOPER.has(d)).sort();
    expect(userDocs).toEqual(expect.arrayContaining(['docs/answering.md', 'docs/keys.md', 'docs/reach.md']));
    expect(userDocs.filter((d) => !packed.has(d))).toEqual([]);
    expect([...DEVELOPER].filter((d) => packed.has(d))).toEqual([]);
  });
});
