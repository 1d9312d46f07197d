/**
 * Class 1 of the second hardening round: every file omc-top opens (lock
 * files, the workspace marker, state) goes through the one safe open. A FIFO,
 * a socket, a device or a link to /dev/zero where a lock or marker belongs
 * must give a bounded answer in words, not a hang (which, being a blocked
 * read, ignored q, Ctrl-C and SIGTERM) or gigabytes of RSS. Each operation
 * runs in a child process with a bound, so a regression fails instead of
 * freezing the test run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const CHILD = path.join(REPO, 'test', 'helpers', 'hostile-child.ts');

interface ChildResult {
  value?: unknown;
  error?: string;
  name?: string;
  maxRssMb: number;
}

/** Runs one op in a child; a child still running after `boundMs` is a hang (killed, and the test fails). */
function runInChild(op: Record<string, unknown>, boundMs = 60_000, env: Record<string, string> = {}): ChildResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(op)], {
    cwd: REPO,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: boundMs,
    killSignal: 'SIGKILL',
  });
  if (r.signal) throw new Error(`hung: still running after ${boundMs} ms (killed)\n${r.stderr}`);
  try {
    return JSON.parse(r.stdout) as ChildResult;
  } catch {
    throw new Error(`child failed: ${r.stdout}\n${r.stderr}`);
  }
}

let dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-blocking-'));
  dirs.push(d);
  const root = path.join(d, '.omc');
  fs.mkdirSync(path.join(root, 'state', 'sessions', 's1'), { recursive: true });
  fs.writeFileSync(path.join(root, 'notepad.md'), '# Notepad\n');
  fs.writeFileSync(path.join(root, 'state', 'sessions', 's1', 'ralph-state.json'), '{"active":true}');
  return { dir: d, root };
};
const servers: net.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const mkfifo = (p: string) => execFileSync('mkfifo', [p]);
const socketAt = async (p: string) => {
  const s = net.createServer();
  servers.push(s);
  await new Promise<void>((r) => s.listen(p, r));
};

describe('a lock file that is not a file', () => {
  it('a FIFO as notepad.md.lock: the save gives up in bounded time and says what the lock is', () => {
    const { root } = tmp();
    mkfifo(path.join(root, 'notepad.md.lock'));
    const r = runInChild({ op: 'file-lock', root, rel: 'notepad.md' });
    expect(r.name).toBe('LockBusyError');
    expect(r.error).toMatch(/notepad\.md\.lock is not a regular file \(a FIFO, a named pipe\), not an OMC lock record/);
    expect(r.error).toMatch(/Nothing was changed\./);
    expect(r.error).not.toMatch(/OMC is writing this file right now/);
  });

  it('notepad.md.lock linked to /dev/zero: refused without reading it (RSS stays small)', () => {
    const { root } = tmp();
    fs.symlinkSync('/dev/zero', path.join(root, 'notepad.md.lock'));
    const r = runInChild({ op: 'file-lock', root, rel: 'notepad.md' });
    expect(r.error).toMatch(/notepad\.md\.lock is a symlink where a file was expected/);
    expect(r.maxRssMb).toBeLessThan(400);
  });

  it('a FIFO as the mutation lock: the cancel step fails in bounded time, "not a valid OMC lock record"', () => {
    const { root } = tmp();
    mkfifo(path.join(root, 'state', 'sessions', 's1', 'ralph-state.json.mutation.lock'));
    const r = runInChild({ op: 'state-lock', root, rel: 'state/sessions/s1/ralph-state.json' });
    expect(r.name).toBe('StateLockError');
    expect(r.error).toMatch(/is not a valid OMC lock record/);
  });

  it('the mutation lock linked to /dev/zero: refused, RSS stays small', () => {
    const { root } = tmp();
    fs.symlinkSync('/dev/zero', path.join(root, 'state', 'sessions', 's1', 'ralph-state.json.mutation.lock'));
    const r = runInChild({ op: 'state-lock', root, rel: 'state/sessions/s1/ralph-state.json' });
    expect(r.error).toMatch(/is not a valid OMC lock record/);
    expect(r.maxRssMb).toBeLessThan(400);
  });
});

describe('the workspace marker that is not a file', () => {
  for (const kind of ['fifo', 'dev-zero', 'device'] as const) {
    // The marker's id is read for the OMC_STATE_DIR layout (the project id comes from it).
    it(`a ${kind} as .omc-workspace: start-up resolves the root in bounded time`, () => {
      const { dir } = tmp();
      const project = path.join(dir, 'project');
      fs.mkdirSync(project);
      const marker = path.join(project, '.omc-workspace');
      if (kind === 'fifo') mkfifo(marker);
      else fs.symlinkSync(kind === 'dev-zero' ? '/dev/zero' : '/dev/tty', marker);
      const stateDir = path.join(dir, 'central');
      const r = runInChild({
        op: 'resolve-root',
        cwd: project,
        home: path.join(dir, 'home'),
        env: { OMC_STATE_DIR: stateDir },
      });
      expect(r.error).toBeUndefined();
      // An unreadable marker counts as one without an id, as OMC treats an unparseable one.
      expect(r.value).toMatchObject({
        rule: 'state-dir',
        root: expect.stringMatching(/^.*\/central\/project-[0-9a-f]{16}$/),
      });
      expect(r.maxRssMb).toBeLessThan(400);
    });
  }
});

describe('state files that are not files', () => {
  it('a Unix socket as a state file: "is a socket", not "read failed (ENXIO)"', async () => {
    const { root } = tmp();
    const sock = path.join(root, 'state', 'sessions', 's1', 'ultrawork-state.json');
    await socketAt(sock);
    const r = runInChild({ op: 'read', root, rel: 'state/sessions/s1/ultrawork-state.json' });
    expect(r.value).toEqual({ failed: 'is a socket or device, not a regular file; not read' });
  });

  it('a 46-link symlink chain is called a chain, a real loop a loop', () => {
    const { root } = tmp();
    const d = path.join(root, 'state');
    fs.writeFileSync(path.join(d, 'end.json'), '{}');
    for (let i = 0; i < 46; i++) fs.symlinkSync(i === 0 ? 'end.json' : `l${i - 1}.json`, path.join(d, `l${i}.json`));
    fs.symlinkSync('loop-b.json', path.join(d, 'loop-a.json'));
    fs.symlinkSync('loop-a.json', path.join(d, 'loop-b.json'));
    expect(runInChild({ op: 'read', root, rel: 'state/l45.json' }).value).toEqual({
      failed: 'a chain of 46 symlinks, more than the 40 the kernel follows; not read',
    });
    expect(runInChild({ op: 'read', root, rel: 'state/loop-a.json' }).value).toEqual({
      failed: 'symlink loop (the link leads back to itself); not read',
    });
  });
});

describe('git that cannot run (class 10)', () => {
  const isRoot = process.getuid?.() === 0;
  const repo = () => {
    const { dir } = tmp();
    const project = path.join(dir, 'repo');
    fs.mkdirSync(project);
    execFileSync('git', ['init', '-q', project]);
    fs.mkdirSync(path.join(project, '.omc'));
    return { dir, project };
  };

  it('git not on PATH: the root is the top level found by its .git entry (OMC 5.6), and the rule says why', () => {
    const { dir, project } = repo();
    const r = runInChild({ op: 'resolve-root', cwd: project, home: path.join(dir, 'home'), realGit: true }, 60_000, {
      PATH: '/nonexistent',
    });
    expect(r.value).toMatchObject({
      rule: 'git',
      explain: 'git is not on PATH: top level found by its .git entry (OMC 5.6)',
      root: path.join(project, '.omc'),
    });
  });

  it.skipIf(!isRoot)('a repository owned by another user (git refuses it): said in words, not "not a git repo"', () => {
    const { dir, project } = repo();
    execFileSync('chown', ['-R', '65534:65534', project]);
    const r = runInChild(
      {
        op: 'resolve-root',
        cwd: project,
        home: path.join(dir, 'home'),
        realGit: true,
      },
      60_000,
      { HOME: path.join(dir, 'home'), GIT_CONFIG_NOSYSTEM: '1' },
    );
    // OMC 5.6 then adopts the nearest ancestor that has a .omc/ directory: the repository's own.
    expect(r.value).toMatchObject({ rule: 'non-git-ancestor', root: path.join(project, '.omc') });
    expect((r.value as { notices: string[] }).notices.join('\n')).toMatch(/owned by another user/);
  });
});

describe('a team events.jsonl that is not a plain growing file', () => {
  const REL = 'state/team/alpha/events.jsonl';
  const at = (root: string) => {
    fs.mkdirSync(path.join(root, 'state', 'team', 'alpha'), { recursive: true });
    return path.join(root, REL);
  };
  const event = (reason: string) =>
    JSON.stringify({ type: 'task_completed', created_at: '2026-11-30T18:00:00Z', reason }) + '\n';

  it('a FIFO (swapped in after the listing said "file"): the tail answers at once and names the problem', () => {
    const { root } = tmp();
    mkfifo(at(root));
    const r = runInChild({ op: 'events-tail', root, rel: REL });
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ events: [], seen: 0, problem: 'is not a regular file' });
  });

  it('a link to /dev/zero: refused without reading it (RSS stays small)', () => {
    const { root } = tmp();
    fs.symlinkSync('/dev/zero', at(root));
    const r = runInChild({ op: 'events-tail', root, rel: REL });
    expect(r.value).toMatchObject({ events: [], problem: expect.stringMatching(/symlink/) });
    expect(r.maxRssMb).toBeLessThan(400);
  });

  it('a 4 GB file (sparse, then events): only its tail is read, in bounded time and memory', () => {
    const { root } = tmp();
    const file = at(root);
    fs.writeFileSync(file, event('first, long ago'));
    fs.truncateSync(file, 4 * 1024 ** 3);
    fs.appendFileSync(file, '\n' + event('the newest event'));
    const r = runInChild({ op: 'events-tail', root, rel: REL });
    expect(r.value).toMatchObject({ events: ['the newest event'] });
    expect(r.maxRssMb).toBeLessThan(400);
  });
});

describe('the run ledger that is not a file (round three, class 1)', () => {
  const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
  const SID = 'hx-ledger-1';
  const STATE = `state/sessions/${SID}/ralph-state.json`;
  /** A project with one live ralph and OMC 5.6's ledger directory; `ledger` puts something at ledger.jsonl. */
  const project = (ledger: (abs: string) => void | Promise<void>) => {
    const { dir, root } = tmp();
    execFileSync('git', ['init', '-q', dir]);
    fs.mkdirSync(path.join(root, 'state', 'sessions', SID), { recursive: true });
    fs.mkdirSync(path.join(root, 'state', 'runs'));
    fs.writeFileSync(
      path.join(root, STATE),
      JSON.stringify({
        active: true,
        iteration: 2,
        max_iterations: 10,
        session_id: SID,
        started_at: '2026-01-01T00:00:00Z',
      }),
    );
    return { dir, root, ledger: path.join(root, 'state', 'runs', 'ledger.jsonl'), done: ledger };
  };
  /** `omc-top cancel` through the real bundle, bounded: a run still going after the bound is the hang. */
  const cancel = (root: string) => {
    const r = spawnSync(process.execPath, [BUNDLE, 'cancel', SID, '--root', root], {
      encoding: 'utf8',
      timeout: scaled(30_000),
      killSignal: 'SIGKILL',
    });
    if (r.signal) throw new Error(`omc-top cancel hung: still running after 30 s (killed)\n${r.stderr}`);
    return r;
  };
  const leftLocks = (root: string) =>
    fs.readdirSync(path.join(root, 'state', 'sessions', SID)).filter((n) => n.endsWith('.lock'));

  const kinds: Array<[string, (abs: string) => void | Promise<void>, RegExp]> = [
    ['a FIFO with no reader', (abs) => mkfifo(abs), /not a regular file/],
    ['a symlink to /dev/zero', (abs) => fs.symlinkSync('/dev/zero', abs), /it is a symlink/],
    ['a Unix socket', (abs) => socketAt(abs), /not a regular file/],
    ['a directory', (abs) => fs.mkdirSync(abs), /it is a directory/],
  ];
  for (const [kind, make, why] of kinds) {
    it(`${kind} as state/runs/ledger.jsonl: the cancel finishes, says the ledger line was not written, leaves no lock`, async () => {
      const p = project(make);
      await make(p.ledger);
      const r = cancel(p.root);
      expect(r.status, r.stderr).toBe(0);
      expect(fs.existsSync(path.join(p.root, STATE))).toBe(false);
      expect(leftLocks(p.root)).toEqual([]);
      expect(r.stdout).toMatch(
        new RegExp(`run ledger line not written: refusing to append to state/runs/ledger\\.jsonl: ${why.source}`),
      );
    });
  }

  it('a FIFO that has a reader: refused on the descriptor, nothing is written into the pipe', async () => {
    const p = project(() => undefined);
    mkfifo(p.ledger);
    // A reader holding the FIFO open: an O_NONBLOCK open for writing then succeeds, and only the
    // descriptor check stands between the append and the pipe.
    const reader = fs.openSync(p.ledger, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const r = cancel(p.root);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/run ledger line not written: .*not a regular file \(a FIFO, a named pipe\)/);
      const buf = Buffer.alloc(4096);
      let n = 0;
      try {
        n = fs.readSync(reader, buf, 0, buf.length, null);
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).toBe('EAGAIN');
      }
      expect(n).toBe(0);
    } finally {
      fs.closeSync(reader);
    }
  });
});
