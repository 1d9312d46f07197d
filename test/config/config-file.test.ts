import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAnswersConfig } from '../../src/config/answers-config.js';
import { configPath, loadConfig } from '../../src/config/config-file.js';
import { resolveChannel } from '../../src/feeds/notify/push/channel.js';
import { readTextSync } from '../../src/io/safe-fs/index.js';
import { TERMINAL_UNSAFE } from '../helpers/hostile-bytes.js';

let base: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cfg-')));
  env = { XDG_CONFIG_HOME: path.join(base, 'xdg'), HOME: base };
  fs.mkdirSync(path.join(base, 'xdg', 'omc-top'), { recursive: true });
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const write = (value: unknown) => fs.writeFileSync(configPath(env), JSON.stringify(value));
const load = () => loadConfig(configPath(env));

const NTFY = { type: 'ntfy', url: 'http://127.0.0.1:18999/topic-secret' };

describe('a config file that is a symlink to a file elsewhere (home-manager, stow)', () => {
  it('is followed: its settings apply', () => {
    const real = path.join(base, 'dotfiles', 'omc-top.json');
    fs.mkdirSync(path.dirname(real));
    fs.writeFileSync(real, JSON.stringify({ title: false, answers: { permissionWaitSeconds: 30 } }));
    fs.symlinkSync(real, configPath(env));
    expect(load()).toMatchObject({ config: { title: false }, error: null });
    // The permission hook's own reader of the same file.
    expect(readAnswersConfig(env)).toEqual({ permissionWaitSeconds: 30 });
  });

  it('a link to a FIFO, a device or a directory is refused unopened, by what it is; one to nothing is named', () => {
    const fifo = path.join(base, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const cases: Array<[string, RegExp]> = [
      [
        fifo,
        /is a symlink to a FIFO, a named pipe \(.*fifo\), not a regular file; not read \(using the defaults; push is OFF\)$/,
      ],
      ['/dev/zero', /is a symlink to a device \(\/dev\/zero\), not a regular file/],
      [base, /is a symlink to a directory \(.*\) where a file was expected/],
      [path.join(base, 'gone.json'), /is a symlink to .*gone\.json, which does not exist; not read/],
    ];
    for (const [target, words] of cases) {
      fs.rmSync(configPath(env), { force: true });
      fs.symlinkSync(target, configPath(env));
      const r = load();
      expect(r.config).toEqual({});
      expect(r.error).toMatch(words);
      expect(readAnswersConfig(env)).toEqual({});
    }
  });

  it('the .omc containment rule still holds for every other read', () => {
    const omc = path.join(base, 'p', '.omc');
    fs.mkdirSync(omc, { recursive: true });
    fs.writeFileSync(path.join(base, 'secret.json'), '{}');
    fs.symlinkSync(path.join(base, 'secret.json'), path.join(omc, 'x.json'));
    expect(readTextSync(omc, 'x.json')).toMatchObject({ ok: false, code: 'outside-root' });
  });
});

describe('a bad field is left out; the rest of the file applies', () => {
  it('a typo in title keeps push, prices, hosts and answers, and the line names the field', () => {
    const prices = { 'claude-x': { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1 } };
    write({ title: 'no', push: { channels: [NTFY] }, prices, hosts: ['me@box'], answers: { claudeCommand: 'cl' } });
    const r = load();
    expect(r.config).toEqual({
      push: { channels: [NTFY] },
      prices,
      hosts: ['me@box'],
      answers: { claudeCommand: 'cl' },
    });
    expect(r.dropped).toEqual(['title']);
    expect(r.error).toBe(
      `${configPath(env)}: title: Invalid input: expected boolean, received string (left out: title; the rest of the file applies)`,
    );
  });

  it('one bad push channel, host or price drops that entry only; indices name the entries as written', () => {
    write({
      push: { channels: [{ type: 'ntfy', url: 'nope' }, NTFY, { type: 'pager' }] },
      hosts: ['a', '-oProxyCommand=x', 'b'],
      prices: { bad: { input: -1 }, good: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 } },
    });
    const r = load();
    expect(r.config.push?.channels).toEqual([NTFY]);
    expect(r.config.hosts).toEqual(['a', 'b']);
    expect(Object.keys(r.config.prices ?? {})).toEqual(['good']);
    expect(r.dropped).toEqual(['push.channels.0', 'push.channels.2', 'prices.bad', 'hosts.1']);
    expect(r.error).toMatch(/: push\.channels\.0\.url: not an http\(s\) URL .*; and 1 more \(left out: /);
    expect(r.error).not.toMatch(/push is OFF/);
  });

  it('says push is OFF when the bad fields took every channel with them', () => {
    write({ title: true, push: { channels: [{ type: 'ntfy', url: 'ftp://x/y' }] } });
    const r = load();
    expect(r.config.title).toBe(true);
    expect(r.error).toMatch(
      /\(left out: push\.channels\.0; push is OFF \(no channel left\); the rest of the file applies\)$/,
    );
  });

  it('a file that is not an object, or not JSON, means the defaults, and says push is off', () => {
    write([NTFY]);
    expect(load()).toMatchObject({ config: {}, dropped: ['(the whole file)'] });
    expect(load().error).toMatch(/: \(top level\): .* \(using the defaults; push is OFF\)$/);
    fs.writeFileSync(configPath(env), '{"push":');
    expect(load().error).toMatch(/not valid JSON: .*\(using the defaults; push is OFF\)$/);
  });

  it('a file that is not JSON is said by line and column, never by the text around the fault (a token without quotes)', () => {
    const secret = 'tk_7Hq2ZNTFYSECRET0123456789';
    fs.writeFileSync(
      configPath(env),
      `{\n  "push": {\n    "channels": [{ "type": "ntfy", "url": "http://127.0.0.1:1/topic", "token": ${secret} }]\n  }\n}\n`,
    );
    const r = load();
    expect(r.error).toMatch(/: not valid JSON: line 3, column \d+: a value was expected .*push is OFF\)$/);
    for (let i = 0; i + 4 <= secret.length; i++) expect(r.error).not.toContain(secret.slice(i, i + 4));
    // Nested past any stack: still one line, still no text.
    fs.writeFileSync(configPath(env), '['.repeat(60_000));
    expect(load().error).toMatch(/not valid JSON: (nested too deeply|line 1, column \d+: the text ends)/);
  });

  it('a file of a thousand unknown keys is still one short line, and its good setting applies', () => {
    write({ ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])), title: false });
    const r = load();
    expect(r.config).toEqual({ title: false });
    expect(r.dropped).toHaveLength(1000);
    expect(r.error).toMatch(/unknown key "k2"; and 997 more \(left out: k0, k1, k2, k3, k4, k5, k6, k7 and 992 more;/);
    expect(r.error!.length).toBeLessThan(400);
  });

  it('the permission hook reads the answers fields as the monitor does, each on its own', () => {
    const files: unknown[] = [
      { title: 'x', answers: { permissionWaitSeconds: 30, alwaysDestination: 'localSettings' } },
      { answers: { permissionWaitSeconds: 3, alwaysDestination: 'localSettings' } },
      { answers: { permissionWaitSeconds: 60, alwaysDestination: 'nowhere', bogus: 1 } },
      { answers: [1] },
      { answers: { permissionWaitSeconds: 60.5 } },
      [],
    ];
    for (const f of files) {
      write(f);
      const { claudeCommand: _, ...monitor } = load().config.answers ?? {};
      expect(readAnswersConfig(env)).toEqual(monitor);
    }
    write(files[0]);
    expect(readAnswersConfig(env)).toEqual({ permissionWaitSeconds: 30, alwaysDestination: 'localSettings' });
  });
});

describe('what the file holds is shown by every character', () => {
  it('an unknown key keeps the text around an escape sequence', () => {
    write({ 'bogusKey\u001b[31mRED': 1, title: false });
    const r = load();
    expect(r.config).toEqual({ title: false });
    expect(r.error).toContain('(top level): unknown key "bogusKey␛[31mRED" (left out: bogusKey␛[31mRED;');
    expect(r.error).not.toMatch(TERMINAL_UNSAFE);
  });

  it("a push channel's name with an OSC and a bidi control reads as written", () => {
    write({ push: { channels: [{ ...NTFY, name: 'ph\u001b]0;PWN\u0007one\u202eevil' }] } });
    const c = load().config.push?.channels?.[0];
    const label = resolveChannel(c!).label;
    expect(label).toBe('ntfy "ph␛]0;PWN␇one<U+202E>evil"');
    expect(label).not.toMatch(TERMINAL_UNSAFE);
  });

  it('answers.claudeCommand holding a control byte or a bidi control is refused with its reason', () => {
    write({ answers: { claudeCommand: 'claude\u001b]0;x\u0007', permissionWaitSeconds: 30 } });
    const r = load();
    expect(r.config.answers).toEqual({ permissionWaitSeconds: 30 });
    expect(r.error).toMatch(/answers\.claudeCommand: holds a control character .*it is typed into a terminal/);
    write({ answers: { claudeCommand: 'claude --x\tmore' } });
    expect(load().config.answers).toEqual({});
    write({ answers: { claudeCommand: 'claude \u202e--resume' } });
    expect(load().error).toMatch(/answers\.claudeCommand: holds bidi controls/);
    write({ answers: { claudeCommand: 'claude --model opus' } });
    expect(load()).toMatchObject({ config: { answers: { claudeCommand: 'claude --model opus' } }, error: null });
  });
});
