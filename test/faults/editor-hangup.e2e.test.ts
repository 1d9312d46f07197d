/**
 * The text $EDITOR has written is kept when the session ends under it, in the ways a session really ends (a
 * tester found each losing it): the terminal itself closed (a killed tmux pane, a dropped ssh: reads give EOF,
 * writes EIO), and a SIGHUP that reaches omc-top and the editor but not the /bin/sh between them (dash does not
 * exec the editor and reports its death as status 129). Both from `A` (a new entry straight in $EDITOR) and from
 * Ctrl-O (the in-app editor's draft carried on in $EDITOR): the kept draft is what the editor wrote, not the text
 * from before it opened. The shipped bundle in a real pseudo-terminal; kept-drafts-editor.e2e covers a SIGHUP to
 * the whole process group.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { descendants, findOmcTop, omcTopCommand, PtyRun, shq } from '../helpers/fault-pty.js';
import { makeProject, waitFor, type TempProject } from '../helpers/fixtures.js';
import { KEY } from '../helpers/keys.js';

const WRITTEN = 'Written in the editor before the session ended';

let run: PtyRun | null = null;
let p: TempProject | null = null;
let scratch: string | null = null;
afterEach(() => {
  run?.dispose();
  run = null;
  p?.cleanup();
  p = null;
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

/** A project, a state directory, and an $EDITOR that writes its text, says so, then waits for a line of input. */
function setUp(): { stateHome: string; editor: string; notepad: string } {
  p = makeProject({ withFixture: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-editor-hup-'));
  const editor = path.join(scratch, 'slow-editor.sh');
  fs.writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' '${WRITTEN}' > "$1"\necho "EDITOR HOLDS THE TEXT"\nread -r _\n`, {
    mode: 0o755,
  });
  return { stateHome: path.join(scratch, 'state'), editor, notepad: path.join(p.root, 'notepad.md') };
}

/** omc-top leading its session in a pty (`exec`, as tmux starts a pane's command), on Working Memory. */
async function startOnNotepad(env: Record<string, string>): Promise<number> {
  run = new PtyRun({
    file: '/bin/sh',
    args: ['-c', `exec ${omcTopCommand([])} 2>${shq(path.join(scratch as string, 'stderr'))}`],
    cwd: (p as TempProject).dir,
    cols: 100,
    rows: 30,
    env: { ...env, VISUAL: undefined },
  });
  await run.waitForText('ralph 3/10');
  run.write('n');
  await run.waitForText(/Working Memory · 5 entries/);
  return findOmcTop(run.pid);
}

/** The text of the one Working Memory draft kept in the state directory. */
async function keptText(stateHome: string): Promise<string> {
  const dir = path.join(stateHome, 'omc-top');
  const files = await waitFor(
    () => {
      const names = fs.existsSync(dir)
        ? fs.readdirSync(dir).filter((n) => /^draft-.*-notepad-working\.[0-9]+-[0-9a-f]{8}\.json$/.test(n))
        : [];
      return names.length > 0 ? names : null;
    },
    { what: 'a kept Working Memory draft' },
  );
  expect(files).toHaveLength(1);
  return JSON.parse(fs.readFileSync(path.join(dir, files[0] as string), 'utf8')).fields.text;
}

/** The editor's own process (its script's shell), under omc-top's /bin/sh -c. */
function editorPid(omcTop: number, editor: string): number {
  const pid = descendants(omcTop).find((d) => {
    try {
      return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes(editor);
    } catch {
      return false;
    }
  });
  if (pid === undefined) throw new Error('the editor process was not found under omc-top');
  return pid;
}

const OPENS: Array<{ name: string; open: (r: PtyRun) => Promise<void> }> = [
  {
    name: 'A (a new entry in $EDITOR)',
    open: async (r) => r.write('A'),
  },
  {
    name: 'Ctrl-O (the in-app draft carried on in $EDITOR)',
    open: async (r) => {
      r.write('a');
      await r.waitForText(/New Working Memory entry/);
      r.write('typed in the app first');
      await r.waitForText('typed in the app first');
      r.write(KEY.ctrl('o'));
    },
  },
];

describe('the session ends while $EDITOR is open', () => {
  it.each(OPENS)('the terminal is closed under both, from $name: the text the editor wrote is kept', async (o) => {
    const s = setUp();
    const before = fs.readFileSync(s.notepad, 'utf8');
    await startOnNotepad({ XDG_STATE_HOME: s.stateHome, EDITOR: s.editor });
    await o.open(run as PtyRun);
    await (run as PtyRun).waitForText('EDITOR HOLDS THE TEXT');
    (run as PtyRun).closeMaster();
    expect((await (run as PtyRun).exited).exitCode).toBe(129);
    expect(await keptText(s.stateHome)).toBe(WRITTEN);
    expect(fs.readFileSync(s.notepad, 'utf8')).toBe(before);
  });

  it.each(OPENS)(
    'SIGHUP reaches omc-top and the editor, not the shell between them, from $name: the text is kept',
    async (o) => {
      const s = setUp();
      const pid = await startOnNotepad({ XDG_STATE_HOME: s.stateHome, EDITOR: s.editor });
      await o.open(run as PtyRun);
      await (run as PtyRun).waitForText('EDITOR HOLDS THE TEXT');
      const ed = editorPid(pid, s.editor);
      process.kill(pid, 'SIGHUP');
      process.kill(ed, 'SIGHUP');
      expect((await (run as PtyRun).exited).exitCode).toBe(129);
      expect(await keptText(s.stateHome)).toBe(WRITTEN);
    },
  );
});
