/**
 * Class 3 of the second hardening round: escape sequences in *names* (the
 * project directory, hence the root path in the header; a session directory)
 * and in *pastes* reach the terminal no more than escape sequences in file
 * content do. The real bundle in a real pty: the title never changes (it used
 * to, and stayed after quitting), no OSC 52 clipboard write is echoed from a
 * bracketed paste into the sessions filter, and `--json` carries every C0, C1
 * and bidi control as a \u escape while meaning the same value.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeOmcJson } from '../helpers/fixtures.js';
import { ESCAPES, foreignTitles, rawControlBytes, withoutOwnTitle } from '../helpers/hostile-bytes.js';
import { modeState } from '../helpers/hostile-corpus.js';
import { makeSandbox, type Sandbox } from '../helpers/hostile-sandbox.js';
import { BIN, TerminalHarness } from '../helpers/pty.js';
import { KEY } from '../helpers/keys.js';

let h: TerminalHarness | null = null;
let s: Sandbox | null = null;
afterEach(() => {
  h?.dispose();
  s?.cleanup();
  h = null;
  s = null;
});

const TITLE_DIR = `proj${ESCAPES.title.text}\u202e\u009b1m`;
const SESSION_DIR = `ab${ESCAPES.title2.text.replace(/ /g, '')}`;
const SEQUENCES = ['\u001b]0;', '\u001b]2;', '\u001b]52;', '\u009d', '\u202e'];

/** A sandbox whose project directory name and one session directory name carry title-setting sequences. */
function hostileNames(): { s: Sandbox; root: string } {
  const sb = makeSandbox();
  const project = path.join(sb.dir, TITLE_DIR);
  fs.renameSync(sb.project, project);
  const root = path.join(project, '.omc');
  writeOmcJson(path.join(root, 'state', 'sessions', SESSION_DIR, 'ralph-state.json'), {
    ...modeState('ralph', SESSION_DIR, `bidi ${ESCAPES.bidi.text} c1 ${ESCAPES.c1csi.text}`),
  });
  return { s: sb, root };
}

describe('names and pastes in a real terminal', () => {
  it("a project directory and a session directory named with OSC 0/2: no title but omc-top's own clean one, restored after quitting", async () => {
    const n = hostileNames();
    s = n.s;
    h = new TerminalHarness({ args: ['--root', n.root], cols: 120, rows: 30 });
    const titles: string[] = [];
    h.term.onTitleChange((t) => titles.push(t));
    await h.waitForText(/STATUS\s+SESSION/);
    // The root path in the header names the project directory by every byte, its sequences as inert escapes.
    await h.waitForText('\\e]0;PWNED-TITLE\\x07tail\\xe2\\x80\\xae\\xc2\\x9b1m/.omc');
    // The paste: OSC 52 (a clipboard write) and a title change, pasted into the sessions filter.
    h.write('/');
    h.write(`\u001b[200~${ESCAPES.osc52.text}${ESCAPES.title.text}\u001b[201~`);
    await h.waitForText(/copy/);
    h.write(KEY.esc);
    // q right behind Esc in the same read would be Alt-q: wait until the filter has closed.
    await h.waitForNoText('Esc clear');
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    await h.settle();
    // omc-top sets its own clean title ("needs you: N") and pops the saved one at exit; nothing else.
    const foreign = withoutOwnTitle(h.output);
    for (const seq of SEQUENCES)
      expect(foreign.includes(seq), `${JSON.stringify(seq)} reached the terminal`).toBe(false);
    expect(h.output).not.toContain('SGFja2VkIGNsaXBib2FyZA');
    expect(foreignTitles(titles, [ESCAPES.title.payload, ESCAPES.title2.payload])).toEqual([]);
    // The title names the project as the header does, by every byte (the sanitiser had left `projname tail1m`).
    expect(titles).toContain('omc-top projname \\e]0;PWNED-TITLE\\x07tail\\xe2\\x80\\xae\\xc2\\x9b1m');
    expect(h.output.lastIndexOf('\u001b[23;0t')).toBeGreaterThan(h.output.lastIndexOf('\u001b]2;'));
  });

  it('--json: names with C0, C1 and bidi controls come out as \\u escapes and parse back to the same names', () => {
    const n = hostileNames();
    s = n.s;
    const out = execFileSync(process.execPath, [BIN, '--json', '--root', n.root], { encoding: 'utf8' });
    expect(rawControlBytes(out)).toEqual([]);
    for (const seq of SEQUENCES) expect(out.includes(seq)).toBe(false);
    const doc = JSON.parse(out) as {
      root: string;
      sessions: Array<{ id?: string; session_id?: string }>;
      problems: Array<{ path: string }>;
    };
    expect(doc.root).toBe(n.root);
    // The session directory (not a valid OMC session id) is named in a problem line by every byte, its controls as
    // escapes (a display string: no control character in it, and not `abnameend`, a directory that does not exist).
    expect(doc.problems.map((p) => p.path)).toContain('state/sessions/abname\\e]2;OWNED-WINDOW\\e\\\\end');
  });
});
