/** The script-facing surface of the bundle: --json, --help, --version, errors. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { FIXTURE, SESSION, waitFor, writeFreshUltrawork, type TempProject } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';

const run = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });

describe('omc-top CLI', () => {
  it('a first start writes a code cache, a second start from it reads the same sessions; --readonly writes none', ({
    project: p,
    tempDir,
  }) => {
    const cacheHome = tempDir('xdg-cache-');
    const env = { XDG_CACHE_HOME: cacheHome, OMC_TOP_CODE_CACHE: '' };
    const caches = () =>
      fs.existsSync(path.join(cacheHome, 'omc-top')) ? fs.readdirSync(path.join(cacheHome, 'omc-top')) : [];
    const readonly = run(['--json', '--readonly'], p.dir, env);
    expect(readonly.status).toBe(0);
    expect(caches()).toEqual([]);
    const first = run(['--json'], p.dir, env);
    expect(first.status).toBe(0);
    expect(caches()).toEqual([expect.stringMatching(/^app-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+\.v8cache$/)]);
    const second = run(['--json'], p.dir, env);
    expect(second.status).toBe(0);
    // What the tree holds (a judgement that ages with the clock may differ between two runs a moment apart).
    const held = (out: string) =>
      (
        JSON.parse(out) as { sessions: { id: string; modes: { mode: string; iteration: number | null }[] }[] }
      ).sessions.map((x) => [x.id, x.modes.map((m) => [m.mode, m.iteration])]);
    expect(held(second.stdout)).toEqual(held(first.stdout));
    expect(held(first.stdout).length).toBeGreaterThan(0);
  });

  it('--json prints one document with the fixed field names and exits 0', ({ project: p }) => {
    const r = run(['--json'], p.dir);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.root).toBe(path.join(fs.realpathSync(p.dir), '.omc'));
    const ralph = doc.sessions.find((s: any) => s.id === SESSION.ralph);
    expect(ralph.modes[0]).toMatchObject({
      mode: 'ralph',
      active: true,
      iteration: 3,
      max_iterations: 10,
      phase: 'execution',
      path: `state/sessions/${SESSION.ralph}/ralph-state.json`,
    });
    expect(['enforced', 'not-enforced', 'pending', 'stale', 'finished']).toContain(ralph.modes[0].status);
    expect(ralph.modes[0]).toMatchObject({ enforced: false, verdict: { rule: expect.any(String) } });
    expect(doc.omc_version).toMatchObject({ source: expect.any(String), rules: expect.stringMatching(/^\d/) });
    expect(Array.isArray(doc.problems)).toBe(true);
  });

  it('--omc-version picks the rules: a 4.x ultrawork is retired under 5.5.0 and judged (stale) under 4.4.4', ({
    project: p,
  }) => {
    const env = { CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude'), CLAUDE_PLUGIN_ROOT: '' };
    const at = (v: string) => JSON.parse(run(['--json', '--omc-version', v], p.dir, env).stdout);
    const d55 = at('5.5.0');
    const d444 = at('4.4.4');
    expect(d444.omc_version).toMatchObject({
      version: '4.4.4',
      source: '--omc-version',
      rules: '4.4.4',
      assumed: false,
    });
    const uw = (d: any) => d.sessions.find((s: any) => s.id === SESSION.stale).modes[0];
    expect([uw(d55).status, uw(d55).verdict.rule]).toEqual(['not-enforced', 'retired']);
    expect([uw(d444).status, uw(d444).verdict.rule]).toEqual(['stale', 'stale']);
    const bad = run(['--json', '--omc-version', 'latest'], p.dir, env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--omc-version needs a version like 5.5.0');
  });

  it('the fleet (--all, --host, serve --all) refuses the flags that pick or judge one project, saying why', ({
    project: p,
  }) => {
    const env = {
      HOME: p.dir,
      XDG_STATE_HOME: path.join(p.dir, 'xdg'),
      CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude'),
    };
    const cases: Array<[string[], string]> = [
      [
        ['--all', '--omc-version', '4.4.4'],
        '--omc-version cannot be used with --all: the fleet judges each project by the OMC that runs its hooks',
      ],
      [
        ['--all', '--root', p.root],
        '--root cannot be used with --all: the fleet reads each project from the root its own OMC finds',
      ],
      [['--host', 'me@box', '--cwd', p.dir], '--cwd cannot be used with --host: the fleet finds its projects itself'],
      [['--all', '--json'], '--json cannot be used with --all: the fleet is a screen'],
      [['serve', '--all', '--port', '0', '--root', p.root], '--root cannot be used with --all'],
    ];
    for (const [args, said] of cases) {
      // Bounded: a serve that took the flag silently would run until killed.
      const r = spawnSync(process.execPath, [BIN, ...args], {
        cwd: p.dir,
        encoding: 'utf8',
        env: { ...process.env, ...env },
        timeout: 20_000,
      });
      expect({ args: args.join(' '), status: r.status }).toEqual({ args: args.join(' '), status: 2 });
      const first = r.stderr.split('\n')[0] ?? '';
      expect(first.slice(0, `omc-top: ${said}`.length)).toBe(`omc-top: ${said}`);
    }
  });

  it('with no OMC install found, --json says which rules it assumed', ({ project: p }) => {
    const env = { CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude'), CLAUDE_PLUGIN_ROOT: '', NPM_CONFIG_PREFIX: p.dir };
    const doc = JSON.parse(run(['--json'], p.dir, env).stdout);
    expect(doc.omc_version).toMatchObject({ version: null, assumed: true, rules: '5.5.0' });
  });

  it('--json on the 200-session real-OMC load tree is complete through a pipe (no truncation at exit)', ({
    emptyProject: p,
  }) => {
    fs.rmSync(p.root, { recursive: true });
    spawnSync('tar', ['-xzf', path.join(FIXTURE, 'large-tree.tar.gz'), '-C', p.dir]);
    const r = run(['--json', '--root', p.root], '/');
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(65_536);
    const doc = JSON.parse(r.stdout);
    expect(doc.sessions.filter((s: any) => s.kind === 'session')).toHaveLength(200);
  });

  it('--json --cwd from elsewhere finds the same root; a subdirectory resolves to the git top-level', ({
    project: p,
  }) => {
    fs.mkdirSync(path.join(p.dir, 'src', 'deep'), { recursive: true });
    const a = JSON.parse(run(['--json', '--cwd', p.dir], '/').stdout);
    const b = JSON.parse(run(['--json'], path.join(p.dir, 'src', 'deep')).stdout);
    expect(a.root).toBe(b.root);
  });

  it('no .omc: a clear message saying where it looked, exit 2', ({ emptyProject: p }) => {
    fs.rmSync(p.root, { recursive: true });
    const r = run(['--json'], p.dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no \.omc directory found/);
    expect(r.stderr).toContain(path.join(p.dir, '.omc'));
  });

  it('no .omc in a directory whose name holds a newline: each place looked in is one line, naming it', ({
    tempDir,
  }) => {
    const dir = path.join(fs.realpathSync(tempDir('omc-top-nl-')), 'two\nlines');
    fs.mkdirSync(dir);
    // A workspace marker there, which OMC 5.5.0 ignores under the temp dir: the note saying so names the directory.
    fs.writeFileSync(path.join(dir, '.omc-workspace'), '');
    // Under OMC 4.15.10's rules the marker is honoured, and the first line's explanation names it.
    for (const args of [['--json'], ['--json', '--omc-version', '4.15.10'], ['wiki', 'search', 'x']]) {
      const r = run(args, dir);
      expect(r.status).toBe(2);
      // The newline as `\n`: the directory's real name (`two lines` names no directory), on one line.
      expect(r.stderr).toContain(`${path.dirname(dir)}/two\\nlines/.omc`);
      expect(r.stderr).not.toMatch(/two\n/);
    }
  });

  it('HOME set but empty: every place looked in is absolute ($HOME/.omc is the account home), and nothing lands in the directory it ran in', ({
    tempDir,
  }) => {
    const dir = fs.realpathSync(tempDir('omc-top-nohome-'));
    const r = run(['--json'], dir, { HOME: '', XDG_STATE_HOME: tempDir('xdg-state-'), OMC_TOP_CODE_CACHE: '0' });
    expect(r.status).toBe(2);
    const looked = r.stderr
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l))
      .map((l) => l.trim());
    expect(looked).toContain(path.join(os.userInfo().homedir, '.omc'));
    for (const p of looked) expect(path.isAbsolute(p)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('--root <dir>/.omc judges a session of <dir> the same from any directory (its project_path is <dir>)', ({
    tempDir,
  }) => {
    const dir = fs.realpathSync(tempDir('omc-top-rootproj-'));
    const sid = 'aaaaaaaa-aaaa-4aaa-aaaa-aaaaaaaaaaaa';
    const now = new Date().toISOString();
    fs.mkdirSync(path.join(dir, '.omc', 'state', 'sessions', sid), { recursive: true });
    fs.writeFileSync(
      path.join(dir, '.omc', 'state', 'sessions', sid, 'ralph-state.json'),
      JSON.stringify({
        active: true,
        iteration: 3,
        max_iterations: 10,
        session_id: sid,
        project_path: dir,
        started_at: now,
        last_checked_at: now,
      }),
    );
    const env = { XDG_STATE_HOME: tempDir('xdg-state-') };
    const judged = (cwd: string) => {
      const r = run(['--json', '--root', path.join(dir, '.omc'), '--omc-version', '5.5.0'], cwd, env);
      expect(r.status).toBe(0);
      const s = (JSON.parse(r.stdout) as { sessions: { status: string; modes: { verdict: { rule: string } }[] }[] })
        .sessions[0]!;
      return [s.status, s.modes[0]!.verdict.rule];
    };
    expect(judged(dir)).toEqual(['enforced', 'iteration']);
    expect(judged('/')).toEqual(['enforced', 'iteration']);
    expect(judged(tempDir('elsewhere-'))).toEqual(['enforced', 'iteration']);
    const line = run(['status', '--tmux', '--fresh', '--root', path.join(dir, '.omc')], '/', env);
    expect(line.stdout).toMatch(/^ralph 3\/10/);
  });

  it('--help and --version', () => {
    const h = run(['--help'], '/');
    expect(h.status).toBe(0);
    expect(h.stdout).toMatch(/Usage:/);
    expect(h.stdout).toMatch(/OMC_STATE_DIR/);
    const v = run(['--version'], '/');
    expect(v.stdout).toMatch(/^omc-top \d+\.\d+\.\d+/);
  });

  it('an unknown option is an error, not silently ignored', () => {
    const r = run(['--jsno'], '/');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown option --jsno/);
  });

  it('without a terminal the monitor refuses politely and points at --json', ({ project: p }) => {
    const r = run([], p.dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/needs a terminal.*--json/);
  });
});

describe('nested .omc roots (hooks started in a subdirectory)', () => {
  it('--json lists them with a --root hint and a notice; a missing top-level .omc says where state is', ({
    emptyProject: p,
  }) => {
    const sub = path.join(
      p.dir,
      'packages',
      'api',
      '.omc',
      'state',
      'sessions',
      'a1b2c3d4-0000-4000-8000-000000000001',
    );
    fs.mkdirSync(sub, { recursive: true });
    fs.mkdirSync(path.join(p.dir, 'node_modules', 'x', '.omc', 'state'), { recursive: true });
    const doc = JSON.parse(run(['--json'], p.dir).stdout);
    expect(doc.nested_roots).toEqual([
      {
        path: path.join(fs.realpathSync(p.dir), 'packages', 'api', '.omc'),
        relative: 'packages/api/.omc',
        sessions: 1,
        hint: `--root ${path.join(fs.realpathSync(p.dir), 'packages', 'api', '.omc')}`,
      },
    ]);
    expect(doc.notices[0]).toContain('OMC state also in packages/api/.omc (1 session)');
    // Run from a subdirectory of the project, the hint is a path from there (the project-relative one would name
    // src/packages/api/.omc), and it leads to the nested root's own sessions.
    const inSrc = path.join(p.dir, 'src');
    fs.mkdirSync(inSrc);
    const fromSrc = JSON.parse(run(['--json'], inSrc).stdout);
    expect(fromSrc.notices[0]).toContain('see it with --root ../packages/api/.omc');
    const followed = JSON.parse(run(['--json', '--root', '../packages/api/.omc'], inSrc).stdout);
    expect(followed.root).toBe(path.join(fs.realpathSync(p.dir), 'packages', 'api', '.omc'));
    expect(followed.sessions.map((s: { id: string }) => s.id)).toEqual(['a1b2c3d4-0000-4000-8000-000000000001']);
    fs.rmSync(p.root, { recursive: true });
    const r = run(['--json'], p.dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('see it with --root packages/api/.omc');
  });

  it('run from a subdirectory with its own .omc, --json says so once; another nested root is still named', ({
    emptyProject: p,
  }) => {
    const sub = path.join(fs.realpathSync(p.dir), 'sub');
    fs.mkdirSync(path.join(sub, '.omc', 'state', 'sessions', 'a1b2c3d4-0000-4000-8000-000000000004'), {
      recursive: true,
    });
    const aboutSub = (notices: string[]) => notices.filter((n) => n.includes('sub/.omc'));
    const doc = JSON.parse(run(['--json'], sub).stdout);
    expect(aboutSub(doc.notices)).toEqual([
      `${path.join(sub, '.omc')} also exists: OMC hooks started in this subdirectory keep state there (use --root to view it)`,
    ]);
    expect(doc.nested_roots.map((r: { relative: string }) => r.relative)).toEqual(['sub/.omc']);
    // Another one, not where omc-top runs: named by the search's notice, the subdirectory's own still said once.
    fs.mkdirSync(path.join(p.dir, 'api', '.omc', 'state', 'sessions'), { recursive: true });
    const two = JSON.parse(run(['--json'], sub).stdout);
    expect(aboutSub(two.notices)).toHaveLength(1);
    expect(two.notices.filter((n: string) => n.includes('api/.omc'))).toEqual([
      expect.stringMatching(/^OMC state also in api\/\.omc \(0 sessions\): .*see it with --root \.\.\/api\/\.omc$/),
    ]);
  });

  it('a missing root names a nested one holding control bytes by every byte, and its --root pastes into a shell', ({
    tempDir,
  }) => {
    // The report's case: --root at a missing directory, run from a directory where another tree's name holds an
    // escape sequence and a newline. The note said `see it with --root hz/ared x/.omc`, a path that does not exist.
    const where = fs.realpathSync(tempDir('omc-top-missing-'));
    const rel = 'hz/a\u001b[31mred\nx/.omc';
    const sid = 'a1b2c3d4-0000-4000-8000-000000000003';
    fs.mkdirSync(path.join(where, rel, 'state', 'sessions', sid), { recursive: true });
    const r = run(['--json', '--root', 'nonexist'], where);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.stderr).toContain('OMC state also in hz/a\\e[31mred\\nx/.omc (1 session)');
    expect(r.stderr).toContain(`see it with --root "$(printf 'hz/a\\033[31mred\\012x/.omc')"`);
    // Pasted as it is into a shell, dash (sh on Debian and Ubuntu) or bash, the suggestion reaches that root.
    const arg = /see it with --root ("\$\(printf '[^']*'\)")/.exec(r.stderr)?.[1] as string;
    for (const shell of ['/bin/dash', '/bin/bash']) {
      const followed = spawnSync(shell, ['-c', `"$0" "$1" --json --root ${arg}`, process.execPath, BIN], {
        cwd: where,
        encoding: 'utf8',
      });
      expect(followed.status, `${shell}: ${followed.stderr}`).toBe(0);
      expect(JSON.parse(followed.stdout).root).toBe(path.join(where, rel));
    }
  });

  it('given --root <project>/.omc, they are looked for in that project, not where omc-top was started', ({
    tempDir,
  }) => {
    // Started from a directory of several projects (as /tmp is): another project's .omc is not nested in this one.
    const where = fs.realpathSync(tempDir('omc-top-started-'));
    const proj = path.join(where, 'proj');
    const sid = 'a1b2c3d4-0000-4000-8000-000000000002';
    fs.mkdirSync(path.join(proj, '.omc', 'state', 'sessions'), { recursive: true });
    fs.mkdirSync(path.join(proj, 'packages', 'api', '.omc', 'state', 'sessions', sid), { recursive: true });
    fs.mkdirSync(path.join(where, 'other', '.omc', 'state', 'sessions', sid), { recursive: true });
    const doc = JSON.parse(run(['--json', '--root', 'proj/.omc'], where).stdout);
    expect(doc.nested_roots.map((r: { relative: string }) => r.relative)).toEqual(['packages/api/.omc']);
    // Named from the project; the --root to give is a path from where omc-top runs.
    expect(doc.notices[0]).toContain('OMC state also in packages/api/.omc (1 session)');
    expect(doc.notices[0]).toContain('see it with --root proj/packages/api/.omc');
  });
});

describe('--omc-version: one book on every surface', () => {
  const SID = 'dddddddd-dddd-4ddd-addd-dddddddddddd';
  const ultrawork = (p: TempProject) => writeFreshUltrawork(p, SID);
  /** No OMC install to find and no monitor's status cache: only the flag decides. */
  const isolated = (p: TempProject) => ({
    CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude'),
    CLAUDE_PLUGIN_ROOT: '',
    XDG_STATE_HOME: path.join(p.dir, 'xdg-state'),
  });

  /** `watch --json --snapshot …` up to its "ready" line, then stopped: every line it printed. */
  async function watchSnapshot(args: string[], cwd: string, env: Record<string, string>) {
    const child = spawn(process.execPath, [BIN, 'watch', '--json', '--snapshot', ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await waitFor(() => out.includes('"type":"ready"') || child.exitCode !== null, { what: "watch's ready line" });
      expect(child.exitCode, `watch exited: ${err}`).toBeNull();
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    return out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
  }

  it('watch --json judges with the pinned book as --json does; its rows tag a mode retired only under 5.5', async ({
    emptyProject: p,
  }) => {
    ultrawork(p);
    const env = isolated(p);
    for (const [version, status, tag] of [
      ['4.15.10', 'enforced', false],
      ['5.5.0', 'not-enforced', true],
    ] as const) {
      const doc = JSON.parse(run(['--json', '--root', p.root, '--omc-version', version], p.dir, env).stdout);
      expect(doc.sessions[0].modes[0].status).toBe(status);
      const lines = await watchSnapshot(['--rows', '--root', p.root, '--omc-version', version], p.dir, env);
      const fact = lines.find((l) => l.type === 'snapshot' && l.kind === 'mode-status');
      expect(fact?.value, version).toBe(status);
      const row = lines.find((l) => l.type === 'row' && l.session === SID)?.row;
      expect(row?.modes, version).toBe(tag ? 'ultrawork 7/50 (retired)' : 'ultrawork 7/50');
    }
  });

  it('a project whose name holds an escape sequence: status names it by its bytes, watch --json holds the name', async ({
    tempDir,
  }) => {
    // The sanitiser drops an OSC with the text inside it: `p\e]0;PWN\aend` read as `pend`, a name no directory has.
    const dir = path.join(fs.realpathSync(tempDir('omc-top-name-')), 'p\u001b]0;PWN\u0007end');
    fs.mkdirSync(path.join(dir, '.omc', 'state', 'sessions', SID), { recursive: true });
    const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'no-claude'), XDG_STATE_HOME: path.join(dir, 'xdg-state') };
    const shown = 'p\\e]0;PWN\\x07end';
    for (const form of [[], ['--fresh']]) {
      const r = run(['status', ...form, '--format', '{project}'], dir, env);
      expect([r.status, r.stdout], form.join(' ')).toEqual([0, `${shown}\n`]);
    }
    // watch --json is data, as --json's paths are: the name itself, which JSON escapes and a script parses back.
    const ready = (await watchSnapshot([], dir, env)).find((l) => l.type === 'ready');
    expect(ready?.project).toBe(path.basename(dir));
  });

  it('status in every form (plain, --tmux, --format, --fresh) judges with the pinned book', ({ emptyProject: p }) => {
    ultrawork(p);
    const env = isolated(p);
    const status = (version: string, ...form: string[]) => {
      const r = run(['status', ...form, '--root', p.root, '--omc-version', version], p.dir, env);
      expect([r.status, r.stderr]).toEqual([0, '']);
      return r.stdout;
    };
    for (const form of [[], ['--tmux'], ['--fresh'], ['--tmux', '--fresh']]) {
      expect(status('4.15.10', ...form), form.join(' ')).toBe('ultrawork 7/50 · needs you: 0\n');
      expect(status('5.5.0', ...form), form.join(' ')).toBe('no loops · needs you: 0\n');
    }
    expect(status('4.15.10', '--format', '{active} {loops}')).toBe('1 ultrawork 7/50\n');
    expect(status('5.5.0', '--format', '{active} {loops}')).toBe('0 no loops\n');
  });

  it("status --tmux does not take a monitor's line judged by another book", async ({ emptyProject: p }) => {
    ultrawork(p);
    const env = isolated(p);
    const cacheDir = path.join(env.XDG_STATE_HOME, 'omc-top');
    // A monitor pinned to 5.5.0 keeps the status cache for this root.
    const monitor = spawn(process.execPath, [BIN, 'watch', '--json', '--root', p.root, '--omc-version', '5.5.0'], {
      cwd: p.dir,
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    const exited = new Promise((r) => monitor.once('exit', r));
    try {
      const cached = () => fs.existsSync(cacheDir) && fs.readdirSync(cacheDir).some((f) => f.startsWith('status-'));
      await waitFor(() => cached() || monitor.exitCode !== null, { what: "the monitor's status cache" });
      expect(monitor.exitCode, 'the monitor exited').toBeNull();
      const tmux = (...more: string[]) => run(['status', '--tmux', '--root', p.root, ...more], p.dir, env).stdout;
      expect(tmux()).toBe('no loops · needs you: 0\n');
      expect(tmux('--omc-version', '5.5.0')).toBe('no loops · needs you: 0\n');
      // Not the monitor's 5.5 answer: 4.15's Stop hook enforces this ultrawork.
      expect(tmux('--omc-version', '4.15.10')).toBe('ultrawork 7/50 · needs you: 0\n');
    } finally {
      monitor.kill('SIGTERM');
      await exited;
    }
  });

  it('an unknown version is refused by watch and status with the message --json gives', ({ emptyProject: p }) => {
    const env = isolated(p);
    const refused = (...args: string[]) => {
      const r = run([...args, '--root', p.root, '--omc-version', 'latest'], p.dir, env);
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const json = refused('--json');
    expect(json).toMatchObject({ status: 2, stdout: '' });
    expect(json.stderr).toContain('--omc-version needs a version like 5.5.0 or 4.4.4, not "latest"');
    // The same refusal; its last line points at the help of the command given.
    const sameAs = (cmd: string) => ({
      ...json,
      stderr: json.stderr.replace('omc-top --help', `omc-top ${cmd} --help`),
    });
    expect(json.stderr).toContain('Try omc-top --help.');
    expect(refused('watch', '--json', '--snapshot')).toEqual(sameAs('watch'));
    for (const form of [[], ['--tmux'], ['--format', '{needs}'], ['--fresh']])
      expect(refused('status', ...form), form.join(' ')).toEqual(sameAs('status'));
  });
});
