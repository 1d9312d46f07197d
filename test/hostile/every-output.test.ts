/**
 * Round three, class 3: every byte of text omc-top prints, on stdout and on
 * stderr, in every subcommand, passes the one sanitiser, and every JSON
 * output escapes the same characters. The real bundle, a child process, a
 * project directory named to retitle the terminal (`x ESC]0;TITLE BEL`) or
 * to reorder it (U+202E), wiki text with line separators; each output is
 * checked for any byte a terminal would act on, reorder or lay out in
 * dispute. Before the fix the cancel and wiki messages retitled the terminal,
 * `watch --json` left U+202E raw in `project`, and wiki text printed U+2028.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-file.js';
import { checkHostSpec } from '../../src/config/host-spec.js';
import { groupLine } from '../../src/panes/fleet/layout.js';
import { TERMINAL_UNSAFE, rawControlBytes } from '../helpers/hostile-bytes.js';
import { modeState } from '../helpers/hostile-corpus.js';
import { writeOmcJson } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

/** Retitles the terminal when printed raw; the second one reorders what follows it. */
const TITLE_NAME = 'x \u001b]0;TITLE\u0007';
const BIDI_NAME = 'proj \u202eevil\u202c \u2066iso\u2069';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A sandbox with a home of its own and a git project named `name` (with a `.omc` unless `omc` is false). */
function project(name: string, omc = true): { home: string; dir: string; root: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-outputs-'));
  dirs.push(base);
  const home = path.join(base, 'home');
  const dir = path.join(base, name);
  fs.mkdirSync(home);
  fs.mkdirSync(dir);
  execFileSync('git', ['init', '-q', dir]);
  const root = path.join(dir, '.omc');
  if (omc) fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
  return { home, dir, root };
}

function run(args: string[], cwd: string, home: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  delete env.OMC_STATE_DIR;
  delete env.CLAUDE_CONFIG_DIR;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: scaled(60_000) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every character of the text a terminal would act on, reorder or lay out in dispute, with context. */
const unsafe = (text: string) => rawControlBytes(text);

describe('every message of every subcommand passes the one sanitiser', () => {
  it('cancel: "no session … under <root>" with the root\'s directory named to retitle the terminal', () => {
    const p = project(TITLE_NAME);
    const r = run(['cancel', 'no-such-session'], p.dir, p.home);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^omc-top cancel: no session no-such-session under .*x .*\.omc/);
    expect(unsafe(r.stderr)).toEqual([]);
    // The directory by its real name, its title sequence as inert text (`\e]0;TITLE\x07`), never sent.
    expect(r.stderr).toContain('x \\e]0;TITLE\\x07');
  });

  it('cancel --json: the same message inside the document, escaped', () => {
    const p = project(TITLE_NAME);
    const r = run(['cancel', 'no-such-session', '--json'], p.dir, p.home);
    expect(unsafe(r.stdout)).toEqual([]);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: 'not-found' });
  });

  it('wiki search: "no .omc … looked in:" from a project directory named to retitle the terminal', () => {
    const p = project(TITLE_NAME, false);
    const r = run(['wiki', 'search', 'anything'], p.dir, p.home);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^omc-top: no \.omc directory found .*looked in: /);
    expect(unsafe(r.stderr)).toEqual([]);
    // The directory by its real name, its title sequence as inert text (`\e]0;TITLE\x07`), never sent.
    expect(r.stderr).toContain('x \\e]0;TITLE\\x07');
  });

  it('status, doctor and the monitor without a terminal: no raw byte from the directory name', () => {
    const p = project(BIDI_NAME);
    const status = run(['status', '--format', '{project} {loops}'], p.dir, p.home);
    expect(status.code).toBe(0);
    expect(unsafe(status.stdout + status.stderr)).toEqual([]);
    const doctor = run(['doctor'], p.dir, p.home);
    expect(unsafe(doctor.stdout + doctor.stderr)).toEqual([]);
    // The root it names is that directory, its bidi controls as the escapes of their bytes (not removed).
    expect(doctor.stdout).toContain('proj \\xe2\\x80\\xaeevil\\xe2\\x80\\xac \\xe2\\x81\\xa6iso\\xe2\\x81\\xa9/.omc');
    const doctorJson = run(['doctor', '--json'], p.dir, p.home);
    expect(unsafe(doctorJson.stdout)).toEqual([]);
    const none = project(TITLE_NAME, false);
    const json = run(['--json'], none.dir, none.home);
    expect(json.code).toBe(2);
    expect(unsafe(json.stderr)).toEqual([]);
  });

  it('wiki search text: U+2028 and U+2029 in a title and a snippet are not printed raw', () => {
    const p = project('wiki-separators');
    fs.mkdirSync(path.join(p.root, 'wiki'));
    fs.writeFileSync(
      path.join(p.root, 'wiki', 'sep.md'),
      `---\ntitle: "Line\u2028separated\u2029title"\ntags: [sep]\ncreated: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\nsources: []\nlinks: []\ncategory: reference\nconfidence: high\n---\n\n# Sep\n\nneedle before\u2028after\u2029end\n`,
    );
    const text = run(['wiki', 'search', 'needle'], p.dir, p.home);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('separated');
    expect(unsafe(text.stdout)).toEqual([]);
    const json = run(['wiki', 'search', 'needle', '--json'], p.dir, p.home);
    expect(unsafe(json.stdout)).toEqual([]);
    expect((JSON.parse(json.stdout) as Array<{ title: string }>)[0]?.title).toContain('\u2028');
  });
});

describe('every JSON output escapes the same characters', () => {
  it('watch --json: U+202E and the isolates in every line\'s "project" are \\u escapes that parse back', async () => {
    const p = project(BIDI_NAME);
    writeOmcJson(
      path.join(p.root, 'state', 'sessions', 'sid-bidi', 'ralph-state.json'),
      modeState('ralph', 'sid-bidi', 'prompt'),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: p.home };
    delete env.OMC_STATE_DIR;
    const child = spawn(process.execPath, [BIN, 'watch', '--json', '--snapshot', '--rows', '--poll'], {
      cwd: p.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const deadline = Date.now() + scaled(60_000);
    while (!/"type":"ready"/.test(out)) {
      if (Date.now() > deadline) throw new Error(`no ready line: ${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(unsafe(out)).toEqual([]);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { project?: string });
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.project).toBe(BIDI_NAME);
  });
});

describe('a host spec whose directory holds bidi controls or disputed-width characters', () => {
  const BAD = [
    ['U+202E', 'box:/srv/\u202eved'],
    ['U+2066', 'box:/srv/\u2066x\u2069'],
    ['a Hangul filler U+115F', 'box:/srv/a\u115fb'],
    ['a Hangul filler U+1160', 'box:/srv/a\u1160b'],
    ['a Hangul filler U+3164', 'box:/srv/a\u3164b'],
    ['a Hangul filler U+FFA0', 'box:/srv/a\uffa0b'],
    ['U+2028', 'box:/srv/a\u2028b'],
  ] as const;
  it.each(BAD)('%s: refused with the reason, on the command line and in the config file', (_what, spec) => {
    expect(checkHostSpec(spec)).toMatch(/bidi controls, line separators or characters whose width terminals dispute/);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-hosts-'));
    dirs.push(home);
    const r = run(['--host', spec], home, home);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--host needs user@box or user@box:\/dir, not ".*": the directory holds bidi controls/);
    expect(unsafe(r.stderr)).toEqual([]);
    const file = path.join(home, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ hosts: ['devbox', spec] }));
    const loaded = loadConfig(file);
    expect(loaded.config.hosts).toEqual(['devbox']);
    expect(loaded.error).toMatch(/hosts\.1: the directory holds bidi controls, line separators/);
    expect(loaded.error).not.toMatch(TERMINAL_UNSAFE);
  });

  it('a group header fitted from any label carries none of them (the sanitiser sits in fit)', () => {
    const line = groupLine(
      {
        key: 'k',
        label: 'proj\u202eevil\u3164',
        host: 'box:/srv/\u202ex\u115f',
        notes: [],
        tone: 'normal',
        detail: null,
        rows: [],
        needsYou: 0,
      },
      80,
      false,
    );
    expect(line).not.toMatch(TERMINAL_UNSAFE);
    expect(line).toContain('@box:/srv/x');
  });
});
