/**
 * What the Notepad pane offers is what works. A notepad.md with CRLF line endings is refused for edits (OMC's
 * reader finds no section in it, so anything written there would be invisible to OMC: test/interop's reader says
 * so below); its empty sections said "a adds one" and the footer offered `a add`, and `a` was then refused (a
 * tester's find). Now neither is offered, the empty state points at the line saying why, and `a` says the same.
 * The same holds for --readonly. An LF notepad still offers them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { READERS_CAPTURED_AT, waitFor } from '../helpers/fixtures.js';
import type { MountedApp } from '../helpers/mount-app.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

const footer = (a: MountedApp) => a.lines().at(-1) ?? '';
const CRLF_WHY = "notepad.md has Windows (CRLF) line endings; OMC's reader sees no sections in it";

describe('a notepad.md with CRLF line endings', () => {
  it('offers no a: the empty state and the footer say nothing of adding, and a says why', async ({ app, project }) => {
    const notepad = path.join(project.root, 'notepad.md');
    fs.writeFileSync(notepad, fs.readFileSync(notepad, 'utf8').replace(/\n/g, '\r\n'));
    // OMC's own reader: nothing in it, so an entry added there would not be read either.
    expect(omc.getWorkingMemory(project.dir)).toBeNull();
    const a = await app({ pane: 'notepad', clock: () => READERS_CAPTURED_AT, columns: 120, rows: 24 });
    await a.waitForText(CRLF_WHY);
    await a.press('2');
    const t = await a.waitForText('No entries (nothing can be written here: the line above says why).');
    expect(t).not.toContain('a adds one');
    expect(footer(a)).not.toMatch(/\badd\b/);
    await a.press('1');
    expect(await a.waitForText('(empty; nothing can be written here')).not.toContain('i or Enter writes it');
    await a.press('2');
    const before = a.ui.state.log.length;
    await a.press('a');
    await waitFor(() => a.ui.state.log.length > before || null, { what: 'what a says' });
    expect(a.ui.state.log.at(-1)?.text).toContain(CRLF_WHY);
    expect(a.ui.state.panes.notepad).not.toHaveProperty('editor.kind');
  });

  it('the same notepad with LF endings offers a in the footer and in an empty section', async ({ app, project }) => {
    const notepad = path.join(project.root, 'notepad.md');
    fs.writeFileSync(
      notepad,
      fs.readFileSync(notepad, 'utf8').replace(/(## Working Memory\n.*\n)[^]*?(?=## MANUAL)/, '$1\n'),
    );
    const a = await app({ pane: 'notepad', clock: () => READERS_CAPTURED_AT, columns: 120, rows: 24 });
    await a.press('2');
    await a.waitForText('No entries. a adds one');
    expect(footer(a)).toMatch(/\badd\b/);
  });

  it('under --readonly an empty section says nothing is written, not "a adds one"', async ({ app, project }) => {
    const notepad = path.join(project.root, 'notepad.md');
    fs.writeFileSync(
      notepad,
      fs.readFileSync(notepad, 'utf8').replace(/(## Working Memory\n.*\n)[^]*?(?=## MANUAL)/, '$1\n'),
    );
    const a = await app({ pane: 'notepad', clock: () => READERS_CAPTURED_AT, columns: 120, rows: 24, readonly: true });
    await a.press('2');
    await a.waitForText('No entries (--readonly: nothing is written).');
    expect(footer(a)).not.toMatch(/\badd\b/);
  });
});
