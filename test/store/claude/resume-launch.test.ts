/**
 * `r` resumes a session the way it ran: the flags of its process's command line that decide what it loads
 * (launch-flags.ts), recorded while it lived, go into `claude … --resume`; `answers.claudeCommand` still wins;
 * with none recorded the words say OMC may not load. The real CLI end to end: test/agent/answering.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LaunchBook, launchFlagsIn } from '../../../src/store/claude/launch-flags.js';
import {
  planResume,
  resumeLoad,
  resumeLoadLine,
  resumeVerdictLine,
  type ResumeVerdict,
} from '../../../src/store/claude/resume.js';
import type { ProcessView } from '../../../src/store/claude/model.js';
import type { SessionView } from '../../../src/store/sessions/model.js';

const SID = '88727f43-1d2e-4c55-9a0b-1f2e3d4c5b6a';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('launchFlagsIn: what a command line says the session loads', () => {
  it('keeps the flags that decide plugins, settings, permissions and model, with their values, and nothing else', () => {
    const argv = [
      ...['--plugin-dir', 'omc', '--model', 'opus', '--name', 'mine', '--verbose'],
      ...['--allowedTools', 'Bash', 'Edit', '--permission-mode', 'acceptEdits', '--settings={"a":1}'],
      ...['--dangerously-skip-permissions', '--add-dir', '/x', '/y', '--debug', 'hooks', '-p', 'a prompt'],
    ];
    expect(launchFlagsIn(argv, '/work/proj')).toEqual([
      ...['--plugin-dir', '/work/proj/omc', '--model', 'opus'],
      ...['--allowedTools', 'Bash', 'Edit', '--permission-mode', 'acceptEdits', '--settings={"a":1}'],
      ...['--dangerously-skip-permissions', '--add-dir', '/x', '/y'],
    ]);
  });

  it('a flag without its value, and anything after --, is not carried', () => {
    expect(launchFlagsIn(['--plugin-dir'], null)).toEqual([]);
    expect(launchFlagsIn(['--model', '--bare'], null)).toEqual(['--bare']);
    expect(launchFlagsIn(['--', '--plugin-dir', '/omc'], null)).toEqual([]);
    expect(launchFlagsIn(['--plugin-dir=rel'], '/p')).toEqual(['--plugin-dir=/p/rel']);
  });
});

describe('LaunchBook: recorded while the process lives, kept once it is gone', () => {
  it('reads each process once, keeps its flags after it is gone, and forgets them for a process it cannot read', () => {
    const reads: number[] = [];
    const lines = new Map<number, string[] | null>([
      [10, ['claude', '--plugin-dir', '/omc', '--permission-mode', 'acceptEdits']],
      [11, null],
      [12, []],
    ]);
    const book = new LaunchBook((pid) => (reads.push(pid), lines.get(pid) ?? null));
    expect(book.of(SID)).toBeNull();
    book.noteLive(SID, 10, '5', '/p');
    book.noteLive(SID, 10, '5', '/p');
    expect(reads).toEqual([10]);
    lines.delete(10); // gone: /proc says nothing any more; the record stays
    expect(book.of(SID)).toEqual({ pid: 10, flags: ['--plugin-dir', '/omc', '--permission-mode', 'acceptEdits'] });
    book.noteLive(SID, 11, '6', '/p');
    expect(book.of(SID)).toBeNull();
    book.noteLive(SID, 12, '7', '/p'); // a zombie's empty command line
    expect(book.of(SID)).toBeNull();
  });
});

describe('planResume: the command the window runs', () => {
  const scene = () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-resume-'));
    dirs.push(cwd);
    const s = { kind: 'session', id: SID, cwd } as unknown as SessionView;
    const proc = { pid: 10, status: 'gone', cwd } as unknown as ProcessView;
    return { s, proc, env: { TMUX: '/tmp/tmux.sock,1,0' } };
  };
  const launch = { pid: 10, flags: ['--plugin-dir', '/o m c', '--allowedTools', 'Bash'] };

  it('carries the recorded flags before --resume, quoted for the shell', () => {
    const { s, proc, env } = scene();
    expect(planResume(s, proc, { env, launch })).toMatchObject({
      ok: true,
      command: `claude --plugin-dir '/o m c' --allowedTools Bash --resume ${SID} 'Continue where you left off.'`,
    });
    expect(planResume(s, proc, { env, launch: null })).toMatchObject({
      command: `claude --resume ${SID} 'Continue where you left off.'`,
    });
  });

  it('answers.claudeCommand wins: run as given, no flags added', () => {
    const { s, proc, env } = scene();
    expect(planResume(s, proc, { env, launch, claudeCommand: 'cl --x' })).toMatchObject({
      command: `cl --x --resume ${SID} 'Continue where you left off.'`,
    });
  });
});

describe('the words: what OMC would do, and whether OMC loads at all', () => {
  const v: ResumeVerdict = { continues: true, text: 'OMC would continue ralph (iteration 2/100) at its next Stop' };

  it('recorded flags or an enabled plugin: the verdict as it is', () => {
    const rec = resumeLoad({ pid: 10, flags: ['--plugin-dir', '/omc'] });
    expect(resumeVerdictLine(v, rec)).toBe(`If resumed: ${v.text}`);
    expect(resumeLoadLine(rec, 10)).toBe(
      'With the flags its Claude process (pid 10) ran with, as omc-top read them while it lived.',
    );
    expect(resumeLoadLine(resumeLoad({ pid: 10, flags: [] }), 10)).toBeNull();
    const plugin = resumeLoad(null, { omcSourceTag: 'plugin' });
    expect(resumeVerdictLine(v, plugin)).toBe(`If resumed: ${v.text}`);
    expect(resumeLoadLine(plugin, 10)).toMatch(/OMC loads as an enabled plugin/);
  });

  it('never seen, and OMC not an enabled plugin: no promise that OMC continues', () => {
    const unknown = resumeLoad(null, { omcSourceTag: 'npm' });
    expect(resumeVerdictLine(v, unknown)).toBe(`If resumed, and only if OMC loads: ${v.text}`);
    expect(resumeLoadLine(unknown, 10)).toBe(
      'omc-top never saw the command line of its Claude process (pid 10): if it loaded OMC with --plugin-dir (or ran with other flags), the resumed Claude runs without them and may not load OMC.',
    );
    expect(resumeLoadLine(resumeLoad(null, { claudeCommand: 'cl' }), 10)).toMatch(/^answers\.claudeCommand/);
  });
});
