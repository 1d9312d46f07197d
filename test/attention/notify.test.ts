/**
 * Notifications: once per new occurrence of what needs you (never one already
 * acknowledged), news only when the config asks for it, batched, per-reason
 * choices from a validated config file, and `tmux display-message` read back
 * from a private `tmux -L` server with a real attached client.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn as ptySpawn, type IPty } from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transition } from '../../src/feeds/attention/engine.js';
import type { NeedItem } from '../../src/feeds/attention/needs.js';
import { loadConfig, parseChannels } from '../../src/config/config-file.js';
import { Notifier, oscSequence } from '../../src/feeds/notify/notifier.js';
import { waitFor } from '../helpers/fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A transition that is news (or nothing). */
const T = (news: string | null, key = 's1/ralph', kind = 'iteration'): Transition => ({
  kind,
  key,
  from: '9',
  to: '10',
  needs: null,
  news,
  fact: {
    value: '10',
    session: 'sess-1',
    mode: 'ralph',
    team: null,
    worker: null,
    path: 'state/x.json',
    need: null,
    needs: null,
    news,
  },
});

/** A transition that raises a need. */
const N = (reason: string, over: Partial<NeedItem> = {}, key = 'sess-1', kind = 'agent'): Transition => {
  const need: NeedItem = {
    id: `${kind}:${key}@1`,
    kind: 'waiting',
    reason,
    text: reason,
    since: 1,
    session: 'sess-1',
    mode: 'ralph',
    team: null,
    worker: null,
    path: 'state/sessions/sess-1/',
    waitingOn: null,
    name: null,
    tmux: null,
    action: 'jump',
    ...over,
  };
  return {
    kind,
    key,
    from: 'busy',
    to: 'waiting',
    needs: reason,
    news: null,
    fact: {
      value: 'waiting',
      session: 'sess-1',
      mode: 'ralph',
      team: null,
      worker: null,
      path: null,
      need,
      needs: reason,
      news: null,
    },
  };
};

function notifier(extra: Partial<ConstructorParameters<typeof Notifier>[0]> = {}) {
  let out = '';
  const n = new Notifier({
    channels: ['bell', 'osc'],
    project: 'shop',
    write: (s) => void (out += s),
    env: {},
    config: { notify: { debounceMs: 0 } },
    ...extra,
  });
  cleanups.push(() => n.dispose());
  return { n, out: () => out };
}

describe('notifier', () => {
  it('what needs you: one bell and one OSC 9 naming the session, its tmux window, what it waits for and the key', () => {
    const { n, out } = notifier();
    const waiting = N('waiting for you', {
      name: 'fix-login',
      tmux: 'main:@3',
      waitingOn: 'permission prompt: Bash rm -rf ./cache',
    });
    n.handle([T(null), waiting]);
    n.flush();
    expect(out()).toBe(
      '\x07\x1b]9;shop fix-login (main:@3) ralph: waiting for you: permission prompt: Bash rm -rf ./cache · ! then J jumps there\x07',
    );
    n.handle([waiting]);
    n.flush();
    expect(n.sent).toHaveLength(1);
  });

  it('an occurrence already acknowledged (in another omc-top) does not notify', () => {
    const { n } = notifier();
    n.handle([N('orphaned loop', { action: 'cancel' })], (id) => id === 'agent:sess-1@1');
    n.flush();
    expect(n.sent).toEqual([]);
  });

  it('news is quiet unless the config asks for its reason', () => {
    const quiet = notifier();
    quiet.n.handle([T('max iterations reached'), T('loop finished', 'a/ralph')]);
    quiet.n.flush();
    expect(quiet.n.sent).toEqual([]);
    const asked = notifier({ config: { notify: { debounceMs: 0, reasons: { 'loop finished': true } } } });
    asked.n.handle([T('max iterations reached'), T('loop finished', 'a/ralph')]);
    asked.n.flush();
    expect(asked.n.sent).toEqual(['shop sess-1 ralph: loop finished']);
  });

  it('a burst is one notification; a reason turned off in the config is silent', () => {
    const { n } = notifier({ config: { notify: { debounceMs: 0, reasons: { 'dead worker': false } } } });
    n.handle([
      N('orphaned loop', { action: 'cancel' }, 'a'),
      N('dead worker', { action: 'detail', session: null, mode: null, team: 't', worker: 'w1' }, 't/w1', 'worker'),
      N('waiting for you', {}, 'b'),
    ]);
    n.flush();
    expect(n.sent).toEqual(['shop sess-1 ralph: orphaned loop · ! then c cleans it up (+1 more)']);
  });

  it('control bytes in names never reach the terminal; OSC 777 on VTE, wrapped inside tmux', () => {
    const { n, out } = notifier();
    const t = N('waiting for you', { name: 'x\x1b]2;pwn\x07y' });
    n.handle([{ ...t, fact: { ...t.fact, session: 'x\x1b]2;pwn\x07y' } }]);
    n.flush();
    expect(out().slice(1, -1)).not.toMatch(/\x07|\x1b\]2/);
    expect(oscSequence('a;b', { VTE_VERSION: '7000' })).toBe('\x1b]777;notify;omc-top;a,b\x07');
    expect(oscSequence('a', { TMUX: '/tmp/x,1,0' })).toBe('\x1bPtmux;\x1b\x1b]9;a\x07\x1b\\');
  });
});

describe('config file', () => {
  function file(text: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-config-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.mkdirSync(path.join(dir, 'omc-top'));
    const f = path.join(dir, 'omc-top', 'config.json');
    fs.writeFileSync(f, text);
    return f;
  }
  it('a good file gives its choices; a missing one the defaults', () => {
    const f = file('{"notify":{"channels":["tmux"],"reasons":{"problem":["bell"]}},"title":false}');
    expect(loadConfig(f)).toEqual({
      config: { notify: { channels: ['tmux'], reasons: { problem: ['bell'] } }, title: false },
      path: f,
      error: null,
      reason: null,
      fault: null,
      dropped: [],
    });
    expect(loadConfig(path.join(os.tmpdir(), 'omc-top-no-such-dir', 'config.json')).error).toBeNull();
  });
  it('a bad field is named with the file, and left out (the rest applies)', () => {
    const f = file('{"notify":{"channels":["bell","beep"],"debounceMs":10},"title":false}');
    const r = loadConfig(f);
    expect(r.config).toEqual({ notify: { debounceMs: 10 }, title: false });
    expect(r.error).toContain(`${f}: notify.channels.1:`);
    expect(loadConfig(file('{"notfy":{}}')).error).toMatch(/notfy/);
    expect(loadConfig(file('{"notify":')).error).toMatch(/not valid JSON/);
    expect(parseChannels('bell,beep')).toMatch(/unknown channel "beep"/);
  });
});

describe('tmux display-message', () => {
  it('shows the notification once in the status line of the attached client', async () => {
    const sock = `omc-top-test-${process.pid}-${Date.now()}`;
    const tmux = (...a: string[]) => execFileSync('tmux', ['-L', sock, '-f', '/dev/null', ...a], { encoding: 'utf8' });
    tmux('new-session', '-d', '-x', '80', '-y', '24', 'sleep 600');
    cleanups.push(() => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      fs.rmSync(path.join(os.tmpdir(), `tmux-${process.getuid?.() ?? 0}`, sock), { force: true });
    });
    const client: IPty = ptySpawn('tmux', ['-L', sock, 'attach'], {
      name: 'xterm-256color',
      cols: 80,
      rows: 24,
      env: { ...process.env, TMUX: '' } as Record<string, string>,
    });
    cleanups.push(() => client.kill());
    const name = await waitFor(() => tmux('list-clients', '-F', '#{client_name}').trim(), {
      timeoutMs: 20_000,
      what: 'attached tmux client',
    });
    const pane = tmux('list-panes', '-F', '#{pane_id}').trim();
    const { n, out } = notifier({
      channels: ['tmux'],
      tmux: ['tmux', '-L', sock],
      env: { TMUX: `/tmp/${sock},1,0`, TMUX_PANE: pane },
    });
    const t = N('cancel did not take', { kind: 'cancel-not-taken', action: 'cancel' }, 's1', 'cancel-verdict');
    n.handle([t]);
    n.flush();
    n.handle([t]);
    n.flush();
    const messages = () =>
      tmux('show-messages', '-t', name)
        .split('\n')
        .filter((l) => l.includes(' message: omc-top:'));
    await waitFor(() => messages().length > 0, { timeoutMs: 20_000, what: 'display-message in the log' });
    expect(messages()).toHaveLength(1);
    expect(messages()[0]).toContain('message: omc-top: shop sess-1 ralph: cancel did not take · ! then c cleans it up');
    expect(out()).toBe('');
  });
});

describe('--notify', () => {
  it('an unknown channel is a usage error before anything starts', async () => {
    const { main } = await import('../../src/cli.js');
    const { UsageError } = await import('../../src/commands/args.js');
    await expect(main(['--notify=bell,beep', '--root', os.tmpdir()])).rejects.toThrow(UsageError);
  });
});
