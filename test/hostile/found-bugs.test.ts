/**
 * Bugs the bad-input suite found, each pinned by the smallest test that
 * showed it (the corpus cases cover them too; these say what was wrong).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTextSync } from '../../src/store/fsx.js';
import { SESSION } from '../helpers/fixtures.js';
import { mountHostileApp, type HostileApp } from '../helpers/hostile-app.js';
import { terminalViolations } from '../helpers/hostile-bytes.js';
import { makeSandbox, NOW, type Sandbox } from '../helpers/hostile-sandbox.js';

let s: Sandbox | null = null;
let app: HostileApp | null = null;
afterEach(async () => {
  await app?.unmount();
  s?.cleanup();
  app = null;
  s = null;
});

describe('a symlink whose target path carries escape sequences', () => {
  it('is refused with a problem line that quotes the target without its control bytes', async () => {
    s = makeSandbox();
    // Directory names may hold any byte but "/" and NUL: this one sets the terminal title.
    const evil = path.join(s.outside, 'evil\u001b]0;PWNED\u0007dir');
    fs.mkdirSync(evil);
    fs.writeFileSync(path.join(evil, 'x.json'), '{}');
    const rel = `state/sessions/${SESSION.ralph}/ralph-state.json`;
    fs.rmSync(path.join(s.root, rel));
    fs.symlinkSync(path.join(evil, 'x.json'), path.join(s.root, rel));

    const r = readTextSync(s.root, rel);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^symlink points outside the \.omc root \(to .*evildir\/x\.json\); not read$/);

    app = await mountHostileApp({ root: s.root, clock: () => NOW });
    await app.press('!');
    await app.waitForText('symlink points outside the .omc root');
    for (const f of app.frames()) expect(terminalViolations(f)).toEqual([]);
    expect(app.frames().join('')).not.toContain('PWNED');
  });
});

describe('a directory that is a symlink to outside the root', () => {
  it('is not listed: no session from outside appears, one problem line says why', async () => {
    s = makeSandbox();
    fs.rmSync(path.join(s.root, 'state/sessions'), { recursive: true });
    fs.symlinkSync(path.join(s.outside, 'sessions-dir'), path.join(s.root, 'state/sessions'));
    app = await mountHostileApp({ root: s.root, clock: () => NOW });
    expect(app.store.sessions.getSnapshot().sessions.map((x) => x.id)).toEqual(['legacy']);
    expect(app.store.problems.getSnapshot().filter((p) => p.path.startsWith('state/sessions'))).toEqual([
      { path: 'state/sessions', message: expect.stringMatching(/^directory is a symlink to outside the \.omc root \(.*\/outside\/sessions-dir\); not listed$/), severity: 'error' },
    ]);
    // The names inside the outside directory never reach the screen.
    expect(app.frames().join('')).not.toContain('aaaaaaaa-outside');
  });
});
