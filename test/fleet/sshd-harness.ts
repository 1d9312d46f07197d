/**
 * A real OpenSSH server for fleet tests, on 127.0.0.1 inside a network
 * namespace of the test's own (only loopback; held by a sleeping process):
 * host and user keys generated per test in a temp dir, sshd in the
 * foreground with its own config, and a client config (`ssh -F`) with its
 * own known_hosts and keys. Nothing of the machine's ssh setup is read or
 * written. The remote `omc-top` is this checkout's bundle, put on PATH by the
 * key's authorized_keys `environment=` (so another key can lack it).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO, waitFor } from '../helpers/fixtures.js';
import { inOwnNamespace, pinNamespace } from '../helpers/netns.js';
import { scaled } from '../helpers/time-scale.js';

export const SSHD = '/usr/sbin/sshd';
const PORT = 2222;

/** Why these tests cannot run here, or null. */
export function sshSkipReason(): string | null {
  if (process.platform !== 'linux') return 'needs Linux network namespaces';
  if (!fs.existsSync(SSHD)) return `${SSHD} is missing: apt-get install -y openssh-server (.ci/run installs it)`;
  for (const tool of ['ssh', 'ssh-keygen', 'unshare', 'nsenter', 'ip'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  const probe = spawnSync('unshare', ['--net', '--', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' });
  if (probe.status !== 0)
    return `cannot create a network namespace (needs root or CAP_SYS_ADMIN): ${probe.stderr.trim()}`;
  return null;
}

export interface HostKey {
  /** The Host alias in the client config. */
  alias: string;
  /** Put this checkout's omc-top on the remote PATH (false: a machine without omc-top). */
  omcTop?: boolean;
  /** A forced command instead of what the client asks (hostile-stream tests). */
  command?: string;
}

export interface SshRig {
  dir: string;
  /** For RemoteHost's `ssh` option: ssh run inside the namespace with the rig's client config. */
  ssh: { bin: string; args: string[] };
  /** A PATH whose `ssh` is the real one with the rig's `-F` config (for the bundle, which runs plain `ssh`). */
  clientPath: string;
  /** Runs a command inside the namespace (prefix for spawn: nsenter --net=… --). */
  nsWrap: string[];
  /** Env the remote commands get (CLAUDE_CONFIG_DIR of the rig, never the machine's). */
  remoteClaudeDir: string;
  startSshd(): Promise<void>;
  /** (The first host must be a plain one: it is how the rig knows sshd answers.) */
  /** Kills sshd and every connection it serves (every sshd in the namespace). */
  killSshd(): Promise<void>;
  close(): Promise<void>;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export async function startSshRig(hosts: HostKey[]): Promise<SshRig> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-ssh-'));
  fs.chmodSync(dir, 0o700);
  // sshd's privilege separation directory (Debian's service creates it at boot; a container may lack it).
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const keygen = (file: string) =>
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'omc-top-test', '-f', file]);
  keygen(path.join(dir, 'host_key'));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'omc-top'),
    `#!/bin/sh\nexec ${q(process.execPath)} ${q(path.join(REPO, 'dist', 'omc-top.mjs'))} "$@"\n`,
    {
      mode: 0o755,
    },
  );
  const remoteClaudeDir = path.join(dir, 'remote-claude');
  fs.mkdirSync(path.join(remoteClaudeDir, 'sessions'), { recursive: true });
  const sysPath = '/usr/local/bin:/usr/bin:/bin';
  const authorized: string[] = [];
  const client: string[] = [];
  for (const h of hosts) {
    const key = path.join(dir, `id_${h.alias}`);
    keygen(key);
    const opts = [
      `environment="PATH=${h.omcTop === false ? sysPath : `${bin}:${sysPath}`}"`,
      `environment="CLAUDE_CONFIG_DIR=${remoteClaudeDir}"`,
      `environment="XDG_STATE_HOME=${path.join(dir, 'state')}"`,
      ...(h.command ? [`command=${JSON.stringify(h.command)}`] : []),
      'no-pty',
      'no-port-forwarding',
      'no-agent-forwarding',
    ];
    authorized.push(`${opts.join(',')} ${fs.readFileSync(`${key}.pub`, 'utf8').trim()}`);
    client.push(
      `Host ${h.alias}`,
      '  HostName 127.0.0.1',
      `  Port ${PORT}`,
      `  User ${os.userInfo().username}`,
      `  IdentityFile ${key}`,
      '  IdentitiesOnly yes',
      '  IdentityAgent none',
      `  UserKnownHostsFile ${path.join(dir, 'known_hosts')}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '  ControlMaster no',
      '  ControlPath none',
      '  ConnectTimeout 5',
      '  ServerAliveInterval 1',
      '  ServerAliveCountMax 3',
      '  LogLevel ERROR',
    );
  }
  fs.writeFileSync(path.join(dir, 'authorized_keys'), authorized.join('\n') + '\n', { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'ssh_config'), client.join('\n') + '\n', { mode: 0o600 });
  fs.writeFileSync(
    path.join(dir, 'known_hosts'),
    `[127.0.0.1]:${PORT} ${fs.readFileSync(path.join(dir, 'host_key.pub'), 'utf8').trim()}\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'sshd_config'),
    [
      `Port ${PORT}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'PermitUserEnvironment yes',
      'PidFile none',
      'Subsystem sftp internal-sftp',
      'LogLevel ERROR',
    ].join('\n') + '\n',
  );

  // The namespace: a sleeping holder that brought loopback up.
  const holder = spawn('unshare', ['--net', '--', 'sh', '-c', 'ip link set lo up && exec sleep 100000'], {
    stdio: 'ignore',
  });
  const holderPid = holder.pid as number;
  const ns = `--net=/proc/${holderPid}/ns/net`;
  await waitFor(
    () => {
      // Before the holder is through `unshare`, nsenter would look at this machine's loopback, which is up too.
      if (!inOwnNamespace(holderPid)) return false;
      const r = spawnSync('nsenter', [ns, '--', 'ip', '-o', 'link', 'show', 'lo'], { encoding: 'utf8' });
      return r.status === 0 && /[<,]UP[,>]/.test(r.stdout);
    },
    { timeoutMs: 30_000, what: 'loopback up in the namespace' },
  );
  // Pinned until close() has seen it empty, so its number cannot pass to another test's namespace meanwhile.
  const netns = pinNamespace(holderPid);

  const clientBin = path.join(dir, 'client-bin');
  fs.mkdirSync(clientBin);
  fs.writeFileSync(
    path.join(clientBin, 'ssh'),
    `#!/bin/sh\nexec /usr/bin/ssh -F ${q(path.join(dir, 'ssh_config'))} "$@"\n`,
    {
      mode: 0o755,
    },
  );
  let sshd: ChildProcess | null = null;
  let sshdErr = '';
  const rig: SshRig = {
    dir,
    remoteClaudeDir,
    clientPath: `${clientBin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    nsWrap: ['nsenter', ns, '--'],
    ssh: { bin: 'nsenter', args: [ns, '--', 'ssh', '-F', path.join(dir, 'ssh_config')] },
    async startSshd() {
      sshd = spawn('nsenter', [ns, '--', SSHD, '-D', '-e', '-f', path.join(dir, 'sshd_config')], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      sshd.stderr?.on('data', (d: Buffer) => (sshdErr = (sshdErr + d.toString()).slice(-4000)));
      // Listening = a client can log in (a real round trip, no fixed wait).
      await waitFor(
        () => {
          if (sshd?.exitCode !== null) throw new Error(`sshd exited: ${sshdErr}`);
          const nc = spawnSync(
            'nsenter',
            [ns, '--', 'ssh', '-F', path.join(dir, 'ssh_config'), '-T', '-o', 'BatchMode=yes', hosts[0]!.alias, 'true'],
            {
              encoding: 'utf8',
              timeout: scaled(10_000),
            },
          );
          return nc.status === 0;
        },
        { timeoutMs: 30_000, what: `sshd listening (${sshdErr})` },
      );
    },
    async killSshd() {
      netns.killAll('sshd');
      sshd = null;
      await waitFor(() => netns.members('sshd').length === 0, { timeoutMs: 30_000, what: 'sshd gone' });
    },
    async close() {
      // The holder goes with the rest; repeated until empty (a process may fork while its siblings are killed).
      await waitFor(
        () => {
          netns.killAll();
          return netns.members().length === 0 && (holder.exitCode !== null || holder.signalCode !== null);
        },
        { timeoutMs: 30_000, what: 'the namespace to empty' },
      );
      netns.release();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return rig;
}
