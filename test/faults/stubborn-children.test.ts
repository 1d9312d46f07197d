/**
 * Round three, class 6: children that ignore SIGTERM. Before the fix an ssh (or a wrapper around it)
 * that trapped TERM outlived omc-top's `q` (the fleet sent TERM and forgot it), and a git that ignored
 * the TERM its 5 s timeout sends kept execFileSync, and so the whole monitor, waiting for good. Now every
 * child is ended for good: TERM, then KILL after a bound, and the exit waits for it.
 *
 * The stubborn children are real processes: /bin/sh with `trap '' TERM`, in place of ssh and of git.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { RemoteHost } from '../../src/fleet/remote.js';
import { waitFor } from '../helpers/fixtures.js';
import { alive } from '../helpers/fault-pty.js';
import { STUBBORN_CHILD } from '../helpers/hostile-corpus.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let dirs: string[] = [];
const pids: number[] = [];
const savedPath = process.env.PATH;
afterEach(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone, as it should be */
    }
  }
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-stubborn-'));
  dirs.push(d);
  return d;
};

describe('a child that ignores SIGTERM is ended for good', () => {
  it('the fleet: stop() (what q runs before exiting) ends an ssh that traps TERM, and waits for it', async () => {
    const dir = tmp();
    const pidFile = path.join(dir, 'pid');
    // sh -c SCRIPT ssh -T -o BatchMode=yes -- box CMD: the script is the "ssh"; it records its pid and traps TERM.
    const host = new RemoteHost({
      spec: parseHostSpec('box')!,
      ssh: { bin: '/bin/sh', args: ['-c', STUBBORN_CHILD(pidFile), 'ssh'] },
      onChange: () => undefined,
    });
    host.start();
    const pid = await waitFor(() => fs.existsSync(pidFile) && Number(fs.readFileSync(pidFile, 'utf8')), {
      timeoutMs: 10_000,
      what: 'the stubborn ssh to start',
    });
    pids.push(pid);
    await host.stop();
    // Before the fix stop() returned at once and the child was still there for good.
    await waitFor(() => !alive(pid), { timeoutMs: 5_000, what: `the stubborn ssh (pid ${pid}) to be gone` });
  });

  it('git: one that ignores the TERM of its timeout does not keep omc-top waiting; the reason is said', async () => {
    const bin = tmp();
    const pidFile = path.join(bin, 'pid');
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\n${STUBBORN_CHILD(pidFile)}\n`, { mode: 0o755 });
    const project = tmp();
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${savedPath}`, HOME: project };
    delete env.OMC_STATE_DIR;
    // The real bundle in a child, so that the hang this was (execFileSync waiting for good) fails here, not hangs.
    const child = spawn(process.execPath, [BIN, 'status', '--cwd', project], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const pid = await waitFor(() => fs.existsSync(pidFile) && Number(fs.readFileSync(pidFile, 'utf8')), {
      timeoutMs: 10_000,
      what: 'the stubborn git to start',
    });
    pids.push(pid);
    // git gets 5 s; before the fix omc-top was still waiting when this ceiling came.
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), scaled(15_000)))]);
    if (code === 'hung') child.kill('SIGKILL');
    expect(code, `omc-top status still waiting on a git that ignores SIGTERM; stderr: ${stderr}`).toBe(2);
    expect(stderr).toMatch(/no \.omc directory found \(git did not answer within 5 s/);
    expect(alive(pid)).toBe(false);
  });
});
