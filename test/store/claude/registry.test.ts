import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findClaudeConfigDir, encodeProjectDir } from '../../../src/store/claude/config-dir.js';
import { judgeProcess, ownPidDomain, systemProbe } from '../../../src/store/claude/process-status.js';
import { readRegistry } from '../../../src/store/claude/registry.js';
import { processStartIdentity } from '../../../src/io/process-start.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-registry-'));
  fs.mkdirSync(path.join(dir, 'sessions'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const SID = '123513ef-7c26-4836-9c7c-1a231f989fe3';
const entry = (pid: number, extra: object = {}) => ({
  pid,
  sessionId: SID,
  cwd: '/p',
  startedAt: 1796116100201,
  procStart: processStartIdentity(pid),
  version: '2.1.332',
  kind: 'interactive',
  entrypoint: 'cli',
  pidDomain: ownPidDomain(),
  status: 'busy',
  updatedAt: 1796116119433,
  statusUpdatedAt: 1796116119433,
  ...extra,
});
const put = (pid: number, v: unknown) =>
  fs.writeFileSync(path.join(dir, 'sessions', `${pid}.json`), typeof v === 'string' ? v : JSON.stringify(v));

describe('config dir', () => {
  it('is $CLAUDE_CONFIG_DIR when set, else $HOME/.claude', () => {
    expect(findClaudeConfigDir({ CLAUDE_CONFIG_DIR: '/x/cfg', HOME: '/h' })).toEqual({
      dir: '/x/cfg',
      rule: 'CLAUDE_CONFIG_DIR',
    });
    expect(findClaudeConfigDir({ HOME: '/h' })).toEqual({ dir: '/h/.claude', rule: 'HOME/.claude' });
    expect(encodeProjectDir('/tmp/run8/my_proj.v2 x')).toBe('-tmp-run8-my-proj-v2-x');
  });
});

describe('registry and process status', () => {
  it('a live pid with its own procStart shows the status it wrote', () => {
    put(process.pid, entry(process.pid, { status: 'waiting', waitingFor: 'permission prompt' }));
    const r = readRegistry(dir);
    expect(r.problems).toEqual([]);
    const v = judgeProcess(r.entries[0]!, systemProbe());
    expect(v).toEqual({ status: 'waiting', reason: 'waiting for you (permission prompt)' });
  });

  it('a dead pid, or a pid reused by another process, is gone', () => {
    put(process.pid, entry(process.pid, { procStart: '1' }));
    const probe = systemProbe();
    expect(judgeProcess(readRegistry(dir).entries[0]!, probe).status).toBe('gone');
    const dead = { ...probe, startIdentity: () => 'absent' as const };
    expect(judgeProcess(readRegistry(dir).entries[0]!, dead).reason).toMatch(/not running/);
  });

  it('never guesses: no status yet, an unknown status, another pid namespace → unknown', () => {
    const probe = systemProbe();
    put(process.pid, entry(process.pid, { status: undefined }));
    expect(judgeProcess(readRegistry(dir).entries[0]!, probe)).toMatchObject({ status: 'unknown', reason: /starting/ });
    put(process.pid, entry(process.pid, { status: 'shell' }));
    expect(judgeProcess(readRegistry(dir).entries[0]!, probe).status).toBe('unknown');
    put(process.pid, entry(process.pid, { pidDomain: 'linux:other:pid:[1]' }));
    expect(judgeProcess(readRegistry(dir).entries[0]!, probe).reason).toMatch(/another pid namespace/);
  });

  it('bad files are problem lines; key files and strangers are ignored', () => {
    put(11, '{"pid":11,');
    put(12, entry(13));
    put(14, { pid: 14, sessionId: '../../etc' });
    put(15, '[]');
    fs.writeFileSync(path.join(dir, 'sessions', '16.abc.key'), 'secret');
    const r = readRegistry(dir);
    expect(r.entries).toEqual([]);
    expect(r.problems.map((p) => [p.rel, p.message.split(' (')[0]])).toEqual([
      ['sessions/11.json', 'truncated JSON'],
      ['sessions/12.json', '"pid" 13 does not match the file name'],
      ['sessions/14.json', '"sessionId" is missing or not a valid session id'],
      ['sessions/15.json', 'is not a JSON object'],
    ]);
  });

  it('strings are sanitised and a tmux field must look like one', () => {
    put(process.pid, entry(process.pid, { name: 'evil\u001b]52;c;AAAA\u0007name', tmux: 'x; rm -rf /' }));
    const e = readRegistry(dir).entries[0]!;
    expect(e.name).toBe('evilname');
    expect(e.tmux).toBeNull();
  });

  it('a sessions/ that is a symlink out of the config dir is not listed; an entry that is a symlink or FIFO is a problem', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-outside-'));
    try {
      fs.writeFileSync(path.join(outside, `${process.pid}.json`), JSON.stringify(entry(process.pid)));
      fs.rmSync(path.join(dir, 'sessions'), { recursive: true });
      fs.symlinkSync(outside, path.join(dir, 'sessions'));
      const r = readRegistry(dir);
      expect(r.entries).toEqual([]);
      expect(r.problems[0]?.message).toMatch(/symlink to outside/);
      fs.unlinkSync(path.join(dir, 'sessions'));
      fs.mkdirSync(path.join(dir, 'sessions'));
      fs.symlinkSync(path.join(outside, `${process.pid}.json`), path.join(dir, 'sessions', `${process.pid}.json`));
      execFileSync('mkfifo', [path.join(dir, 'sessions', '77.json')]);
      const r2 = readRegistry(dir);
      expect(r2.entries).toEqual([]);
      expect(r2.problems.map((x) => x.rel).sort()).toEqual(['sessions/77.json', `sessions/${process.pid}.json`].sort());
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
