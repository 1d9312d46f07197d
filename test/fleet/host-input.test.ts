/**
 * What reaches a command line from --host or the config file is strictly
 * shaped (no ssh option, no shell syntax), and the stream reader bounds lines.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHostSpec, remoteCwdArgs, uniqueHostSpecs } from '../../src/config/host-spec.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { LineSplitter, MAX_REMOTE_ITEMS, parseRemoteLine } from '../../src/fleet/remote-lines.js';
import { LEGACY_KEY } from '../../src/store/sessions/model.js';
import { loadConfig } from '../../src/config/config-file.js';
import { waitFor } from '../helpers/fixtures.js';

describe('--host specs', () => {
  it('takes user@box, an ssh alias and an absolute or ~ dir; refuses options and shell syntax', () => {
    expect(parseHostSpec('me@box.example:/srv/app')).toEqual({
      label: 'me@box.example:/srv/app',
      destination: 'me@box.example',
      dir: '/srv/app',
    });
    expect(parseHostSpec('devbox')).toMatchObject({ destination: 'devbox', dir: null });
    expect(parseHostSpec('devbox:~/src/it')).toMatchObject({ dir: '~/src/it' });
    for (const bad of [
      '-oProxyCommand=touch /tmp/x',
      'box;id',
      'me@box:rel/dir',
      'me@box:',
      'a b',
      'box:/x\u001b[2J',
      '$(id)@box',
      '',
    ])
      expect(parseHostSpec(bad), bad).toBeNull();
    // The dir reaches the remote shell single-quoted, whatever it holds.
    expect(remoteCwdArgs(parseHostSpec("box:/srv/it's $(id)")!)).toBe(` --cwd '/srv/it'\\''s $(id)'`);
    expect(remoteCwdArgs(parseHostSpec('box:~/a b')!)).toBe(` --cwd ~/'a b'`);
  });

  it('one project given twice (a trailing /, . and .. segments, a config entry after --host) is one host, said once', () => {
    const specs = (...raw: string[]) => raw.map((r) => parseHostSpec(r)!);
    const once = uniqueHostSpecs(
      specs(
        'root@box:/r/shop',
        'root@box:/r/shop/',
        'root@box:/r/./x/../shop',
        'root@box://r//shop//',
        'root@box:/r/shop',
        'box:/r/shop',
        'root@box:/r/shopping',
        'root@box',
        'root@box:~',
        'root@box:~/',
        'root@box:~/src/',
        'root@box:~/src',
        'root@box:~/..',
        'root@box:/',
        'root@box://',
      ),
    );
    // `box` is kept apart from `root@box`: which user it logs in as is ssh's to say. `~/..` is not the home.
    expect(once.specs.map((s) => s.label)).toEqual([
      'root@box:/r/shop',
      'box:/r/shop',
      'root@box:/r/shopping',
      'root@box',
      'root@box:~/src/',
      'root@box:~/..',
      'root@box:/',
    ]);
    expect(once.twice).toBe(
      '--host given twice: root@box:/r/shop/ (the same as root@box:/r/shop), root@box:/r/./x/../shop (the same as ' +
        'root@box:/r/shop), root@box://r//shop// (the same as root@box:/r/shop), root@box:/r/shop, root@box:~ (the same ' +
        'as root@box), root@box:~/ (the same as root@box), root@box:~/src (the same as root@box:~/src/), root@box:// ' +
        '(the same as root@box:/): shown once',
    );
    expect(uniqueHostSpecs(specs('a:/x', 'b:/x')).twice).toBeNull();

    // The fleet's hosts: one per project, so its rows and what needs you there are counted once.
    const fleet = new RemoteFleet(specs('root@box:/r/shop', 'root@box:/r/shop/', 'me@gpu1'), () => undefined);
    expect(fleet.hosts()).toBe(2);
    expect(fleet.hostsList.map((h) => h.spec.label)).toEqual(['root@box:/r/shop', 'me@gpu1']);
    expect(fleet.groups()).toHaveLength(2);
  });

  it('reads hosts from the config file; a bad entry names the field and is left out', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cfg-'));
    try {
      const f = path.join(dir, 'config.json');
      fs.writeFileSync(f, JSON.stringify({ hosts: ['me@a:/srv', 'b'] }));
      expect(loadConfig(f).config.hosts).toEqual(['me@a:/srv', 'b']);
      fs.writeFileSync(f, JSON.stringify({ hosts: ['-oProxyCommand=x', 'b'] }));
      const r = loadConfig(f);
      expect(r.config).toEqual({ hosts: ['b'] });
      expect(r.error).toMatch(/hosts\.0: not user@box/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** One item of a remote's attention line, as `watch --json` writes it. */
const remoteItem = (over: Record<string, unknown>) => ({
  id: 'orphaned:88727f43-0000-4000-8000-000000000001/ralph@exit',
  kind: 'orphaned',
  reason: 'orphaned loop',
  text: 'its Claude is gone',
  since: null,
  session: '88727f43-0000-4000-8000-000000000001',
  name: null,
  tmux: null,
  mode: 'ralph',
  team: null,
  worker: null,
  path: null,
  waiting_on: null,
  action: 'cancel',
  acknowledged: false,
  ...over,
});

describe('the remote stream reader', () => {
  it('splits lines across chunks and skips an oversize one once, up to its newline', () => {
    const lines: string[] = [];
    let over = 0;
    const s = new LineSplitter(
      (l) => lines.push(l),
      () => over++,
      16,
    );
    s.push(Buffer.from('{"a":1}\n{"b"'));
    s.push(Buffer.from(':2}\n' + 'x'.repeat(40)));
    s.push(Buffer.from('y'.repeat(40) + '\nlast\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', 'last']);
    expect(over).toBe(1);
  });

  it("reads the ready line's alive period and the alive line; an alive period that is not one is a bad line", () => {
    const ready = (extra: Record<string, unknown>) =>
      parseRemoteLine(JSON.stringify({ v: 1, type: 'ready', project: 'shop', version: '0.1.0', ...extra }));
    expect(ready({ aliveMs: 5000 })).toMatchObject({ kind: 'ready', aliveMs: 5000 });
    // null: that stream writes no alive lines; absent: an omc-top from before them.
    expect(ready({ aliveMs: null })).toMatchObject({ kind: 'ready', aliveMs: null });
    expect(ready({})).toMatchObject({ kind: 'ready', aliveMs: null });
    for (const bad of [0, -5, 1.5, 'soon', 3_600_000]) expect(ready({ aliveMs: bad }).kind, String(bad)).toBe('bad');
    expect(parseRemoteLine('{"v":1,"type":"alive","project":"shop"}')).toEqual({ kind: 'alive' });
  });

  it('gives a problem, never an exception, for every kind of bad line', () => {
    for (const bad of [
      'nope',
      '[]',
      'null',
      '{"v":1}',
      '{"v":"1","type":"row"}',
      '{"v":1,"type":"row","project":"p","session":"x;y","row":null}',
    ])
      expect(parseRemoteLine(bad).kind, bad).toBe('bad');
    expect(parseRemoteLine('{"v":1,"type":"transition"}').kind).toBe('skip');
  });

  it("reads a host's attention items cleaned: no control byte, no session id that is not one, unknown kinds skipped", () => {
    const item = (over: Record<string, unknown>) => remoteItem({ since: '2026-01-01T00:00:00.000Z', ...over });
    const line = JSON.stringify({
      v: 1,
      type: 'attention',
      project: 'shop',
      needsYou: 2,
      items: [
        item({ name: 'fix\u001b]0;owned\u0007-login', waiting_on: 'Bash \u009b2J rm' }),
        item({ id: 'waiting:x@1', kind: 'waiting', session: '; rm -rf ~', acknowledged: true }),
        item({ id: 'new-kind:x@1', kind: 'new-kind' }),
      ],
    });
    const r = parseRemoteLine(line);
    if (r.kind !== 'attention') throw new Error(`not read: ${JSON.stringify(r)}`);
    expect(r.open).toHaveLength(1);
    expect(r.open[0]?.name).toBe('fix-login');
    expect(r.open[0]?.waitingOn).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(r.open[0]?.since).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(r.acked.map((n) => n.session)).toEqual([null]);
    expect(parseRemoteLine('{"v":1,"type":"push-lease","project":"shop","pusher":"fleet"}')).toEqual({
      kind: 'push-lease',
      project: 'shop',
      pusher: 'fleet',
    });
    expect(parseRemoteLine('{"v":1,"type":"push-lease","project":"shop","pusher":"me"}').kind).toBe('bad');
    expect(
      parseRemoteLine(JSON.stringify({ v: 1, type: 'attention', project: 'p', needsYou: 1, items: [{}] })).kind,
    ).toBe('bad');
  });

  it('reads a busy host whole: an attention line of 600 items (~250 KB) is read, its first 500 items kept', () => {
    const items = Array.from({ length: 600 }, (_, i) =>
      remoteItem({
        id: `orphaned:s${i}/ralph@exit`,
        text: `its Claude is gone ${'·'.repeat(100)}`,
        session: `s${i}`,
        sessionless: false,
        name: `fix-${i}`,
        path: `state/sessions/s${i}/ralph-state.json`,
      }),
    );
    const line = JSON.stringify({ v: 1, type: 'attention', project: 'shop', needsYou: 600, items });
    expect(Buffer.byteLength(line)).toBeGreaterThan(200_000);
    const got: string[] = [];
    let over = 0;
    const split = new LineSplitter(
      (l) => got.push(l),
      () => over++,
    );
    split.push(Buffer.from(line + '\n'));
    expect(over).toBe(0);
    const r = parseRemoteLine(got[0]!);
    if (r.kind !== 'attention') throw new Error(`not read: ${JSON.stringify(r).slice(0, 300)}`);
    expect(r.open).toHaveLength(MAX_REMOTE_ITEMS);
    expect(r.open[0]?.session).toBe('s0');
  });

  it("tells a host's session-less items from those of a session directory named legacy", () => {
    const item = (id: string, over: Record<string, unknown>) =>
      remoteItem({ id, kind: 'cancel-not-taken', reason: 'cancel did not take', session: 'legacy', ...over });
    const r = parseRemoteLine(
      JSON.stringify({
        v: 1,
        type: 'attention',
        project: 'shop',
        needsYou: 3,
        items: [item('a', { sessionless: true }), item('b', { sessionless: false }), item('c', {})],
      }),
    );
    if (r.kind !== 'attention') throw new Error(`not read: ${JSON.stringify(r)}`);
    // The session-less one takes the sessions domain's key, as a local item does; an older sender's stays `legacy`.
    expect(r.open.map((n) => n.session)).toEqual([LEGACY_KEY, 'legacy', 'legacy']);
  });
});

describe('a remote host (its "ssh" a shell printing a stream)', () => {
  it('keeps at most maxRows sessions and counts the rest as problems', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-stream-'));
    const { RemoteHost } = await import('../../src/fleet/remote.js');
    const row = (n: number) => {
      const session = `s${n}`;
      return JSON.stringify({
        v: 1,
        type: 'row',
        at: 'now',
        project: 'p',
        session,
        row: {
          session,
          status: 'enforced',
          cancelUntilMs: null,
          modes: 'ralph',
          prompt: '',
          updatedMs: 1,
          rank: 1,
          process: null,
          processWhy: null,
        },
      });
    };
    const file = path.join(dir, 'stream.jsonl');
    fs.writeFileSync(file, [1, 2, 3, 4, 5].map(row).join('\n') + '\n');
    let changes = 0;
    // sh -c 'cat FILE; sleep' x -T -o BatchMode=yes -- dest cmd: everything after the script is $0, $1…
    const host = new RemoteHost({
      spec: parseHostSpec('box')!,
      ssh: { bin: '/bin/sh', args: ['-c', `cat '${file}'; exec sleep 100000`, 'ssh'] },
      maxRows: 3,
      onChange: () => changes++,
    });
    try {
      host.start();
      await waitFor(() => host.problemLines().length === 2, { timeoutMs: 20_000, what: 'two rows over the cap' });
      expect(host.group().rows.map((r) => r.session)).toEqual(['s1', 's2', 's3']);
      expect(host.problemLines()[0]).toBe('more than 3 sessions: the rest are not shown');
      expect(changes).toBeGreaterThan(0);
    } finally {
      await host.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
