/**
 * `omc-top status` (the built bin) beside a monitor that still runs but is
 * stuck: its cache names a live process with the right start identity, yet
 * has shown no life (no write, no heartbeat on the file's time) for longer
 * than the bound, so the line comes from the files. A real monitor (`watch
 * --json`) on the root takes such a cache over within a heartbeat, and keeps
 * beating while nothing changes. The stuck monitor is a `sleep` process named in a cache written
 * here: it runs, and never rewrites anything.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { STATUS_CACHE_HEARTBEAT_MS, STATUS_CACHE_STALE_MS } from '../../src/feeds/attention/status-cache.js';
import { runningStartIdentity } from '../../src/io/process-start.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { NO_CLAUDE_DIR, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';

const SID = 'ffffffff-1111-4222-8333-444444444444';

describe('status beside a stuck monitor', () => {
  it('a cache whose writer showed no life for the bound is not used; a live monitor takes it over and beats', async ({
    emptyProject: p,
    tempDir,
  }) => {
    // No Claude Code data: nothing on this machine moves the count while the test holds the file.
    const env = { ...process.env, XDG_STATE_HOME: tempDir('omc-top-xdg-'), CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR };
    const dir = path.join(env.XDG_STATE_HOME, 'omc-top');
    const root = fs.realpathSync(p.root);
    const status = (...args: string[]) =>
      execFileSync(process.execPath, [BUNDLE, 'status', '--root', root, ...args], { env, encoding: 'utf8' });
    writeLiveRalph(p, { sessionId: SID, iteration: 3, max: 10 });
    const truth = 'ralph 3/10 · needs you: 0\n';
    expect(status('--fresh')).toBe(truth);

    // The stuck monitor: a process that runs (pid and start identity hold) and never rewrites its cache.
    const stuck = spawn('sleep', ['600'], { stdio: 'ignore' });
    onTestFinished(() => void stuck.kill('SIGKILL'));
    const start = await waitFor(() => {
      const s = runningStartIdentity(stuck.pid as number);
      return typeof s === 'string' && s !== 'absent' && s;
    });
    const cacheFile = () => fs.readdirSync(dir).find((f) => /^status-[0-9a-f]+\.json$/.test(f));
    /**
     * The stuck monitor's cache, saying the loop is at 2/10 (what it saw before it stuck), written `age` ms ago and
     * neither written nor touched since (the file's time says so too).
     */
    const stuckCache = (file: string, age: number) => {
      const at = Date.now() - age;
      const doc = { version: 1, root, pid: stuck.pid, start, at, acks: null, book: null };
      const values = { loops: 'ralph 2/10', active: 1, needs: 0, project: 'p' };
      fs.writeFileSync(path.join(dir, file), JSON.stringify({ ...doc, values }));
      fs.utimesSync(path.join(dir, file), at / 1000, at / 1000);
    };

    // A real monitor on the root: its cache names it; status answers from it.
    const watch: ChildProcess = spawn(process.execPath, [BUNDLE, 'watch', '--json', '--snapshot', '--root', root], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    onTestFinished(() => void watch.kill('SIGKILL'));
    const read = () => {
      const f = cacheFile();
      if (!f) return null;
      const doc = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { pid: number };
      return { pid: doc.pid, time: fs.statSync(path.join(dir, f)).mtimeMs };
    };
    const file = await waitFor(() => read()?.pid === watch.pid && cacheFile(), {
      timeoutMs: 30_000,
      what: "the monitor's cache",
    });
    expect(status('--tmux')).toBe(truth);

    // The file now says the stuck monitor wrote it, just now: its line is taken (its process runs, with the start
    // identity the file names; the live monitor leaves a cache its writer vouches for alone).
    stuckCache(file, 0);
    expect(status('--tmux')).toBe('ralph 2/10 · needs you: 0\n');

    // Written longer ago than the bound: not used, whoever holds the file now. The line comes from the files.
    stuckCache(file, STATUS_CACHE_STALE_MS + STATUS_CACHE_HEARTBEAT_MS);
    expect(status('--tmux')).toBe(truth);
    expect(status()).toBe(truth);

    // The running monitor takes the silent cache over at its next beat, and beats on while nothing changes.
    const took = await waitFor(() => read()?.pid === watch.pid && read(), {
      timeoutMs: 3 * STATUS_CACHE_HEARTBEAT_MS,
      what: 'the takeover',
    });
    expect(status('--tmux')).toBe(truth);
    await waitFor(() => (read()?.time ?? 0) > took.time, { timeoutMs: 3 * STATUS_CACHE_HEARTBEAT_MS, what: 'a beat' });
    expect(read()?.pid).toBe(watch.pid);
  });
});
