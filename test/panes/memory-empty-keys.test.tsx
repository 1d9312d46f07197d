/**
 * The Memory pane's footer offers e (edit), p (priority) and d (remove) only while a directive is selected: with no
 * project-memory.json yet, with one that holds no directives, and under a `/` filter that matches none, they are
 * left out (a add stays). Pressed anyway, each says "no directive selected" and nothing opens or asks; `?` still
 * lists them, saying why not now. With a directive on screen they are offered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, KEY } from '../helpers/it.js';
import { READERS_CAPTURED_AT, writeOmcJson } from '../helpers/fixtures.js';
import { footerShows, offersNone, refusesEach } from '../helpers/empty-keys.js';
import type { MountedApp } from '../helpers/mount-app.js';

const NOW = READERS_CAPTURED_AT;
const ROW_HINTS = ['e edit', 'p priority', 'd remove'];
const NONE = 'no directive selected';

async function refusesWithHelp(a: MountedApp, stays: RegExp): Promise<void> {
  await footerShows(a, ['a add', '/ filter'], "the list's footer");
  offersNone(a, ROW_HINTS);
  await refusesEach(a, ['e', KEY.enter, 'p', 'd'], NONE, stays);
  await a.press('?');
  await a.waitForText(`(not now: ${NONE})`);
  await a.press(KEY.esc);
  await a.waitForText(stays);
}

describe('the Memory footer with no directive selected', () => {
  it('with no project-memory.json leaves e, p and d out and says why when pressed', async ({ emptyProject, app }) => {
    const a = await app({ root: emptyProject.root, pane: 'memory', clock: () => NOW, columns: 200, rows: 40 });
    await a.waitForText('No project memory yet');
    await refusesWithHelp(a, /No project memory yet/);
  });

  it('with no directives leaves them out, and offers them once a directive is there', async ({ project, app }) => {
    const file = path.join(project.root, 'project-memory.json');
    const memory = JSON.parse(fs.readFileSync(file, 'utf8'));
    writeOmcJson(file, { ...memory, userDirectives: [] });
    const a = await app({ pane: 'memory', watch: 'auto', clock: () => NOW, columns: 200, rows: 40 });
    await a.waitForText('Directives 0');
    await refusesWithHelp(a, /Directives 0/);

    writeOmcJson(file, memory);
    await a.waitForText('strict TypeScript types, never use any');
    await footerShows(a, ROW_HINTS, 'the directive keys back in the footer');
    await a.press('d');
    await a.waitForText('y yes');
  });

  it('under a / filter that matches no directive leaves them out, and offers them again when it is cleared', async ({
    app,
  }) => {
    const a = await app({ pane: 'memory', clock: () => NOW, columns: 200, rows: 40 });
    await a.waitForText('strict TypeScript types, never use any');
    await footerShows(a, ROW_HINTS, 'the footer with directives');

    await a.press('/', 'z', 'z', 'q', 'x', KEY.enter);
    await a.waitForText(/zzqx/);
    expect(a.text()).not.toContain('strict TypeScript types, never use any');
    await refusesWithHelp(a, /zzqx/);

    await a.press(KEY.esc);
    await a.waitForText('strict TypeScript types, never use any');
    await footerShows(a, ROW_HINTS, 'the directive keys back in the footer');
  });
});
