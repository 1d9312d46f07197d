/**
 * Push for `--host` projects, against a real OpenSSH server (test/fleet/sshd-harness.ts) and a loopback ntfy
 * server: a remote project's loop whose Claude process is gone (an orphaned loop, on that machine's disk) is
 * pushed once from the fleet, named by project, host, session and reason. The project's push lease lives on
 * the remote machine: the stream takes it there for the fleet (`watch --push-lease`); while a live omc-top
 * there holds it the fleet stays quiet for that project, and once that one is gone the fleet pushes.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { pushFromFleet } from '../../src/fleet/push.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { DEAD_PID, writeRegistry } from '../helpers/claude-files.js';
import { keepLeaseBeating } from '../helpers/lease-holder.js';
import { waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { loopbackServer, type LoopbackServer } from '../helpers/loopback-http.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { scaled } from '../helpers/time-scale.js';
import { sshSkipReason, startSshRig, type SshRig } from '../fleet/sshd-harness.js';

const skip = sshSkipReason();
if (skip) console.warn(`remote push tests skipped: ${skip}`);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

beforeAll(() => {
  // The remote omc-top is the bundle global-setup built.
  expect(fs.existsSync(path.resolve('dist/omc-top.mjs'))).toBe(true);
});

/** A git project "on the remote" (the same disk, the rig's namespace) with live ralph loops. */
function remoteProject(base: string, name: string, live: string[]): string {
  const dir = path.join(base, name);
  fs.mkdirSync(path.join(dir, '.omc', 'state', 'sessions'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  for (const id of live) makeLive(path.join(dir, '.omc'), id);
  return dir;
}

/** The fleet view's push, as run-fleet starts it: `--host boxa:<dir>` with an ntfy channel. */
async function fleetPushing(rig: SshRig, spec: string, ntfy: LoopbackServer, base: string) {
  const fleet = new LocalFleet({ watch: 'none', local: false, env: { XDG_STATE_HOME: path.join(base, 'local') } });
  const remote = new RemoteFleet([parseHostSpec(spec)!], () => fleet.changed(), { ssh: rig.ssh, pushLease: true });
  fleet.setExtra(() => remote.groups());
  fleet.start();
  remote.start();
  const problems: string[] = [];
  const stop = pushFromFleet(fleet, {
    config: { push: { channels: [{ type: 'ntfy', url: `${ntfy.base}/topic` }], retries: 0 } },
    readonly: false,
    env: { XDG_STATE_HOME: path.join(base, 'local') },
    remote,
    onProblem: (l) => problems.push(l),
  });
  cleanups.push(
    () => fleet.close(),
    () => remote.stop(),
    stop,
  );
  return { fleet, remote, host: remote.hostsList[0]!, problems };
}

/** The remote project's lease file (omc-top's state dir there: the rig's XDG_STATE_HOME). */
const leaseFile = (rig: SshRig, dir: string) =>
  path.join(rig.dir, 'state', 'omc-top', rootFileName('push-lease', fs.realpathSync(path.join(dir, '.omc'))));

describe.skipIf(skip !== null)('push for --host projects over a real sshd', { timeout: scaled(120_000) }, () => {
  it("one message for a remote project's orphaned loop; the lease there is held for the fleet", async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-push-'));
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const loop = sessionId(911);
    const dir = remoteProject(base, 'shop', [loop]);
    const rig = await startSshRig([{ alias: 'boxa' }]);
    cleanups.push(() => rig.close());
    await rig.startSshd();
    const ntfy = await loopbackServer(200);
    cleanups.push(() => ntfy.close());
    const { host, problems } = await fleetPushing(rig, `boxa:${dir}`, ntfy, base);

    await waitFor(() => host.phase === 'live' && host.pusher === 'fleet', {
      timeoutMs: 30_000,
      what: `the stream live, holding the lease (${host.phase} ${host.pusher} ${host.message})`,
    });
    // The lease there names the remote watch, not this process: an omc-top started there now stays quiet.
    const holder = JSON.parse(fs.readFileSync(leaseFile(rig, dir), 'utf8')) as { pid: number };
    expect(holder.pid).not.toBe(process.pid);
    expect(processStartIdentity(holder.pid)).not.toBe('absent');

    // The loop's Claude process is gone (its registry entry names a pid no process has): an orphaned loop there.
    writeRegistry(rig.remoteClaudeDir, DEAD_PID, loop, { status: 'busy', cwd: dir, procStart: '12345' });
    await waitFor(() => ntfy.received.length >= 1, { timeoutMs: 30_000, what: 'the push for the orphaned loop' });
    expect(ntfy.received[0]?.headers.title).toBe(`omc-top: shop @ boxa`);
    expect(ntfy.received[0]?.body).toBe(`shop @ boxa · ${loop.slice(0, 8)}: orphaned loop`);

    // The stream moves on (the loop's next iteration reaches the row): still the one message.
    const file = path.join(dir, '.omc', 'state', 'sessions', loop, 'ralph-state.json');
    writeOmcJson(file, { ...JSON.parse(fs.readFileSync(file, 'utf8')), iteration: 7 });
    await waitFor(() => host.group().rows.some((r) => r.session === loop && /7\/10/.test(r.modes)), {
      timeoutMs: 30_000,
      what: 'the next iteration in the remote row',
    });
    expect(ntfy.received).toHaveLength(1);
    expect(problems).toEqual([]);

    // The fleet gone, the watch there ends with its stdin and the lease is free for an omc-top there.
    await host.stop();
    await waitFor(() => processStartIdentity(holder.pid) === 'absent', {
      timeoutMs: 30_000,
      what: 'the remote watch to end with the fleet',
    });
  });

  it('an omc-top there from before --push-lease: streamed without it, its items pushed from here', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-push-'));
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const loop = sessionId(914);
    const dir = remoteProject(base, 'old', [loop]);
    // That omc-top refuses the flag as an older one does (its words and exit code), and runs anything else.
    const older =
      'case "$SSH_ORIGINAL_COMMAND" in *--push-lease*) echo "omc-top: unknown option --push-lease" >&2; exit 2;; esac; exec sh -c "$SSH_ORIGINAL_COMMAND"';
    const rig = await startSshRig([{ alias: 'boxa' }, { alias: 'oldbox', command: older }]);
    cleanups.push(() => rig.close());
    await rig.startSshd();
    const ntfy = await loopbackServer(200);
    cleanups.push(() => ntfy.close());
    const { host, problems } = await fleetPushing(rig, `oldbox:${dir}`, ntfy, base);
    await waitFor(() => host.phase === 'live', {
      timeoutMs: 30_000,
      what: `the stream live without --push-lease (${host.phase} ${host.message})`,
    });
    expect(host.pusher).toBe('unknown');
    expect(host.mayPush()).toBe(true);
    writeRegistry(rig.remoteClaudeDir, DEAD_PID, loop, { status: 'busy', cwd: dir, procStart: '12345' });
    await waitFor(() => ntfy.received.length >= 1, { timeoutMs: 30_000, what: 'the push for the orphaned loop' });
    expect(ntfy.received.map((r) => r.body)).toEqual([`old @ oldbox · ${loop.slice(0, 8)}: orphaned loop`]);
    expect(problems).toEqual([]);
  });

  it('stays quiet while a live omc-top there holds the lease; pushes once that one is gone', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-push-'));
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const first = sessionId(912);
    const second = sessionId(913);
    const dir = remoteProject(base, 'blog', [first, second]);
    const rig = await startSshRig([{ alias: 'boxa' }]);
    cleanups.push(() => rig.close());
    await rig.startSshd();
    // Another omc-top on that machine (a live process) pushes for the project: it holds the lease there.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    cleanups.push(() => void other.kill('SIGKILL'));
    const otherStart = await waitFor(() => {
      const s = processStartIdentity(other.pid as number);
      return typeof s === 'string' && s !== 'absent' ? s : null;
    });
    fs.mkdirSync(path.dirname(leaseFile(rig, dir)), { recursive: true });
    fs.writeFileSync(leaseFile(rig, dir), JSON.stringify({ pid: other.pid, start: otherStart, at: Date.now() }));
    // It beats as a live holder does: past the silence bound (a slow ssh start) the watch would take the lease.
    const stopBeating = keepLeaseBeating(leaseFile(rig, dir));
    cleanups.push(stopBeating);
    const ntfy = await loopbackServer(200);
    cleanups.push(() => ntfy.close());
    const { host } = await fleetPushing(rig, `boxa:${dir}`, ntfy, base);
    await waitFor(() => host.phase === 'live' && host.pusher === 'other', {
      timeoutMs: 30_000,
      what: `the stream saying another omc-top pushes there (${host.phase} ${host.pusher} ${host.message})`,
    });

    writeRegistry(rig.remoteClaudeDir, DEAD_PID, first, { status: 'busy', cwd: dir, procStart: '12345' });
    await waitFor(() => host.needs().open.some((n) => n.session === first), {
      timeoutMs: 30_000,
      what: 'the orphaned loop in the remote attention view',
    });

    // That omc-top is gone: the watch there takes the lease for the fleet, which pushes the next item.
    stopBeating();
    other.kill('SIGKILL');
    await waitFor(() => host.pusher === 'fleet', { timeoutMs: 30_000, what: 'the lease taken for the fleet' });
    writeRegistry(rig.remoteClaudeDir, DEAD_PID - 1, second, { status: 'busy', cwd: dir, procStart: '12346' });
    await waitFor(() => ntfy.received.length >= 1, { timeoutMs: 30_000, what: 'the push for the second loop' });
    expect(ntfy.received.map((r) => r.body)).toEqual([`blog @ boxa · ${second.slice(0, 8)}: orphaned loop`]);
  });
});
