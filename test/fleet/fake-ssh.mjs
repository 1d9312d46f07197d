#!/usr/bin/env node
/**
 * A fake ssh for fleet tests (run as `node fake-ssh.mjs DIR -T -o BatchMode=yes -- box CMD`, DIR its control
 * folder): it answers the remote command itself and misbehaves as DIR/mode says, read afresh at every start.
 * Every start is logged to DIR/starts (`watch`, `cancel …`, `ack …`) with its pid.
 *
 * watch, mode `alive`: one row and `ready` (announcing DIR/alive-ms), then an `alive` line every DIR/alive-ms,
 *   each counted in DIR/alives, until DIR/mode says `stall`: from then it stays connected and says nothing
 *   (a laptop that slept, a NAT that dropped the flow).
 * watch, mode `stall`: the row and `ready`, then nothing, connected.
 * watch, any mode but `mute`: DIR/row (JSON) overrides fields of the row it sends.
 * watch, any mode but `mute`: with DIR/quota (the JSON of a quota line's `quota`), that line before `ready`.
 * watch, any mode but `mute`: with DIR/problem (`path: message`), a problem snapshot line before `ready`.
 * watch, mode `mute`: nothing at all, connected (an ssh or a remote that hangs before its first line); a process it
 *   starts (pid in DIR/held) holds its stdout and stderr, as a wrapper's pipeline or a ProxyCommand may after ssh is
 *   gone.
 * cancel / ack: exit 0 with a line, or with DIR/command-mode `hang` never answer (a hung sshd or remote), `on-go`
 *   answer once DIR/go exists (a slow one), or with
 *   `exit2` exit 2 with DIR/command-said on stderr (a refusal in the command's own words).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const cmd = process.argv[process.argv.length - 1];
const read = (name, dflt) => {
  try {
    return fs.readFileSync(path.join(dir, name), 'utf8').trim();
  } catch {
    return dflt;
  }
};
const what = cmd.split(' ')[1] ?? '?';
fs.appendFileSync(path.join(dir, 'starts'), `${what} ${process.pid}\n`);
const keepConnected = () => setInterval(() => undefined, 60_000);

if (what === 'watch' && read('mode', 'alive') === 'mute') {
  const held = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 60_000)'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  fs.appendFileSync(path.join(dir, 'held'), `${held.pid}\n`);
  keepConnected();
} else if (what === 'watch') {
  const aliveMs = Number(read('alive-ms', '5000'));
  const at = () => new Date().toISOString();
  const line = (o) => process.stdout.write(JSON.stringify({ v: 1, at: at(), project: 'shop', ...o }) + '\n');
  const session = read('session', '66666666-0000-4000-8000-000000000001');
  line({
    type: 'row',
    session,
    sessionless: false,
    row: {
      session,
      sessionless: false,
      status: 'enforced',
      cancelUntilMs: null,
      modes: 'ralph 2/100',
      prompt: 'fix tests',
      updatedMs: Date.now(),
      rank: 1,
      process: null,
      processWhy: null,
      needs: null,
      ...JSON.parse(read('row', '{}')),
    },
  });
  const quota = read('quota', null);
  if (quota !== null) line({ type: 'quota', quota: JSON.parse(quota) });
  // DIR/problem: one problem line of the project there (`path: message`), as a snapshot lists it.
  const problem = read('problem', null);
  if (problem !== null) {
    const [path, ...rest] = problem.split(': ');
    line({ type: 'snapshot', kind: 'problem', key: `${path}\u0000${rest.join(': ')}`, value: 'error', path });
  }
  line({ type: 'ready', needsYou: 0, version: 'dev', aliveMs });
  keepConnected();
  if (read('mode', 'alive') === 'alive') {
    const beat = setInterval(() => {
      if (read('mode', 'alive') !== 'alive') return clearInterval(beat);
      line({ type: 'alive' });
      fs.appendFileSync(path.join(dir, 'alives'), 'a\n');
    }, aliveMs);
  }
} else if (read('command-mode', 'answer') === 'hang') {
  keepConnected();
} else if (read('command-mode', 'answer') === 'on-go') {
  // Answers once DIR/go exists (a slow remote whose answer the test lets come when it wants).
  const wait = setInterval(() => {
    if (read('go', null) === null) return;
    clearInterval(wait);
    process.stdout.write(`${what} done there\n`);
  }, 20);
} else if (read('command-mode', 'answer') === 'exit2') {
  process.stderr.write(`${read('command-said', '')}\n`);
  process.exitCode = 2;
} else {
  process.stdout.write(`${what} done there\n`);
}
