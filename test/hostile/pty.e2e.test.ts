/**
 * The nastiest bad input through the real bundle in a real pty (headless
 * xterm): what a user's terminal would do with it. The screen never shows an
 * escape payload, the terminal title never changes, no OSC 52 clipboard write
 * and no cursor jump from a file is in the byte stream, and the monitor stays
 * alive, answers keys in every pane and exits cleanly with q.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION, writeOmcJson } from '../helpers/fixtures.js';
import { ALL_ESCAPES, ESCAPES, foreignTitles, withoutOwnTitle } from '../helpers/hostile-bytes.js';
import { DEEP_ARRAY, HUGE_BYTES, modeState, put } from '../helpers/hostile-corpus.js';
import { makeSandbox, OUTSIDE_SECRET, TEAM, type Sandbox } from '../helpers/hostile-sandbox.js';
import { TerminalHarness } from '../helpers/pty.js';
import { KEY } from '../helpers/keys.js';

let h: TerminalHarness | null = null;
let s: Sandbox | null = null;
let titles: string[] = [];
afterEach(() => {
  h?.dispose();
  s?.cleanup();
  h = null;
  s = null;
});

/** Payloads that must never be on screen, and sequences from files that must never be in the byte stream. */
const PAYLOADS = [
  ESCAPES.osc52.payload,
  ESCAPES.osc52st.payload,
  ESCAPES.title.payload,
  ESCAPES.title2.payload,
  ESCAPES.c1csi.payload,
  ESCAPES.dcs.payload,
];
const FILE_SEQUENCES = [
  '\u001b]52;',
  '\u001b]0;',
  '\u001b]2;',
  '\u001bP',
  '\u009b',
  '\u009d',
  '\u001b[10A',
  '\u001b[5;5H',
  '\u001bc',
];

function start(root: string, cols = 100, rows = 30): TerminalHarness {
  const t = new TerminalHarness({ args: ['--root', root], cols, rows });
  titles = [];
  t.term.onTitleChange((title) => titles.push(title));
  return t;
}

async function assertClean(t: TerminalHarness): Promise<void> {
  await t.settle();
  const screen = t.text();
  for (const p of [...PAYLOADS, OUTSIDE_SECRET]) expect(screen, `payload ${p} on screen`).not.toContain(p);
  const foreign = withoutOwnTitle(t.output);
  for (const seq of FILE_SEQUENCES)
    expect(foreign.includes(seq), `sequence ${JSON.stringify(seq)} in the byte stream`).toBe(false);
  expect(foreignTitles(titles, PAYLOADS), 'the terminal title was changed by a file').toEqual([]);
}

async function quit(t: TerminalHarness): Promise<void> {
  t.write('q');
  expect(await t.waitForExit()).toBe(0);
  await t.settle();
  expect(t.altScreen).toBe(false);
  expect(t.cursorVisible).toBe(true);
}

describe('hostile files in a real terminal', () => {
  it('escape sequences in a prompt, a wiki title, a notepad entry, a task subject and a directive: nothing reaches the terminal', async () => {
    s = makeSandbox();
    const sid = 'hx-pty-escapes';
    writeOmcJson(
      path.join(s.root, 'state/sessions', sid, 'ralph-state.json'),
      modeState('ralph', sid, `PROMPT ${ALL_ESCAPES}`),
    );
    put(
      s.root,
      'wiki/aaa-evil.md',
      `---\ntitle: "Evil ${ESCAPES.osc52.text} ${ESCAPES.title.text}"\ntags: []\ncreated: 2026-11-20T18:15:23.552Z\nupdated: 2026-11-20T18:15:23.552Z\nsources: []\nlinks: []\ncategory: reference\nconfidence: high\n---\n\n# Evil\n\n${ALL_ESCAPES}\n`,
    );
    const note = path.join(s.root, 'notepad.md');
    fs.writeFileSync(
      note,
      fs
        .readFileSync(note, 'utf8')
        .replace(
          '## MANUAL\n<!-- User content. Never auto-pruned. -->\n',
          `## MANUAL\n<!-- User content. Never auto-pruned. -->\n### 2026-11-30 18:14\nNOTE ${ALL_ESCAPES}\n`,
        ),
    );
    const task = path.join(s.root, `state/team/${TEAM}/tasks/task-1.json`);
    writeOmcJson(task, {
      ...JSON.parse(fs.readFileSync(task, 'utf8')),
      subject: `TASK ${ESCAPES.osc52.text}${ESCAPES.cursor.text}`,
    });
    const memPath = path.join(s.root, 'project-memory.json');
    const mem = JSON.parse(fs.readFileSync(memPath, 'utf8'));
    writeOmcJson(memPath, {
      ...mem,
      userDirectives: [
        { ...mem.userDirectives[0], directive: `DIRECTIVE ${ESCAPES.title2.text}` },
        ...mem.userDirectives.slice(1),
      ],
    });

    h = start(s.root);
    await h.waitForText(/STATUS\s+SESSION/);
    h.write('/');
    h.write(sid);
    h.write(KEY.enter);
    h.write(KEY.enter);
    await h.waitForText('PROMPT');
    await assertClean(h);
    h.write(KEY.esc);
    await h.waitForText(/STATUS\s+SESSION/);
    h.write(KEY.esc);
    await h.waitForText('legacy');
    h.write('w');
    await h.waitForText('Evil');
    h.write(KEY.enter);
    await h.waitForText('file: wiki/aaa-evil.md');
    await assertClean(h);
    h.write(KEY.esc);
    // A key right behind Esc in the same read would be Alt-<key>: wait for the list first.
    await h.waitForText(/SCORE/);
    h.write('n');
    await h.waitForText(/1 Priority/);
    h.write('3');
    await h.waitForText('NOTE');
    h.write('t');
    await h.waitForText(/TEAM\s+PHASE/);
    h.write(KEY.enter);
    h.write(']'); // next section (Tab switches panes)
    await h.waitForText('TASK');
    h.write(KEY.esc);
    await h.waitForText(/TEAM\s+PHASE/);
    h.write('m');
    await h.waitForText('DIRECTIVE name end');
    await assertClean(h);
    await quit(h);
  });

  it('a root full of traps: state/sessions symlinked out, a symlink whose target name sets the title, 50 MB files, 100,000-deep JSON, a FIFO', async () => {
    s = makeSandbox();
    const evil = path.join(s.outside, `evil${ESCAPES.title.text}`);
    fs.mkdirSync(evil);
    fs.writeFileSync(path.join(evil, 'x.json'), JSON.stringify({ active: true, prompt: OUTSIDE_SECRET }));
    fs.rmSync(path.join(s.root, 'state/cancel-signal-state.json'));
    fs.symlinkSync(path.join(evil, 'x.json'), path.join(s.root, 'state/cancel-signal-state.json'));
    fs.rmSync(path.join(s.root, 'state/sessions'), { recursive: true });
    fs.symlinkSync(path.join(s.outside, 'sessions-dir'), path.join(s.root, 'state/sessions'));
    put(s.root, 'notepad.md', Buffer.alloc(HUGE_BYTES, 'x\n'));
    put(s.root, 'ralph-state.json', DEEP_ARRAY);
    put(s.root, 'wiki/huge.md', Buffer.alloc(HUGE_BYTES, 'y'));
    execFileSync('mkfifo', [path.join(s.root, 'wiki', 'pipe.md')]);

    h = start(s.root);
    await h.waitForText(/STATUS\s+SESSION/);
    // One problem per trap, each named; ! lists them.
    h.write('!');
    await h.waitForText('Problems with files');
    await h.waitForText(/state\/sessions\s*\n?\s*directory is a symlink to outside the \.omc root/);
    // The list fills in as the progressive start reads each domain (notepad after sessions): wait for each.
    await h.waitForText(/notepad\.md/);
    await h.waitForText(/over the 16\.0 MB limit/);
    await h.waitForText(/ralph-state\.json/);
    await assertClean(h);
    h.write(KEY.esc);
    await h.waitForNoText('Problems with files');
    for (const [key, marker] of [
      ['t', /TEAM\s+PHASE/],
      ['n', /notepad/i],
      ['m', /DIRECTIVE/],
      ['w', /SCORE/],
      ['s', /STATUS\s+SESSION/],
    ] as const) {
      h.write(key);
      await h.waitForText(marker);
    }
    await assertClean(h);
    await quit(h);
  });

  it('hostile writes arriving while it runs (the watcher path): the screen follows, no payload shows', async () => {
    s = makeSandbox();
    h = start(s.root);
    await h.waitForText(/STATUS\s+SESSION/);
    const file = path.join(s.root, 'state/sessions', SESSION.ralph, 'ralph-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (let i = 4; i <= 8; i++) {
      writeOmcJson(file, {
        ...state,
        iteration: i,
        prompt: `${ESCAPES.osc52.text}${ESCAPES.title.text}${ESCAPES.cursor.text}`,
        last_checked_at: new Date().toISOString(),
      });
      await h.waitForText(`ralph ${i}/10`);
    }
    // A truncated write, then binary garbage: problem lines; the last good iteration stays.
    fs.writeFileSync(file, '{"active": true, "iteration": 9,');
    await h.waitForText(/truncated JSON/);
    expect(h.text()).toContain('ralph 8/10');
    fs.writeFileSync(file, Buffer.from([0x1b, 0x5d, 0x35, 0x32, 0x3b, 0x00, 0xff]));
    await h.waitForText(/contains NUL bytes/);
    expect(h.text()).toContain('ralph 8/10');
    await assertClean(h);
    await quit(h);
  });
});

describe('a FIFO as the run ledger, in a real terminal (round three, class 1)', () => {
  it('c y ends the loop and says the ledger line was not written; q still quits and the screen is restored', async () => {
    s = makeSandbox();
    const sid = 'hx-pty-ledger';
    writeOmcJson(path.join(s.root, 'state/sessions', sid, 'ralph-state.json'), {
      ...modeState('ralph', sid, 'ledger trap'),
      last_checked_at: new Date().toISOString(),
    });
    fs.mkdirSync(path.join(s.root, 'state/runs'), { recursive: true });
    execFileSync('mkfifo', [path.join(s.root, 'state/runs/ledger.jsonl')]);
    // Wide enough for the whole message line.
    h = start(s.root, 240, 30);
    await h.waitForText(/STATUS\s+SESSION/);
    h.write('/');
    h.write(sid);
    h.write(KEY.enter);
    await h.waitForText(/▸ .*hx-pty-l/);
    h.write('c');
    await h.waitForText('y: cancel the loop');
    h.write('y');
    // Before the fix the monitor froze here in open(2): no frame, no key, no signal answered.
    await h.waitForText(/ralph ended on disk.*the run ledger line was not written/);
    expect(fs.existsSync(path.join(s.root, 'state/sessions', sid, 'ralph-state.json'))).toBe(false);
    expect(fs.readdirSync(path.join(s.root, 'state/sessions', sid)).filter((n) => n.endsWith('.lock'))).toEqual([]);
    await quit(h);
  });
});
