/**
 * The serve page in headless Chromium, as a user reads it: with no OMC install found every status is a guess, and
 * the page says so at the top of the project in the monitor header's words (sweep 9 §11); a right-to-left phase
 * from `.omc` keeps to its own run, so the age after it ("0 s ago") is drawn after it, not inside it (§13).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { startServer } from '../../src/commands/serve/server.js';
import { singleSource } from '../../src/commands/serve/source.js';
import { liveRalph, makeProject, ralphStateFile, writeOmcJson } from '../helpers/fixtures.js';
import { CHROMIUM, launchChromium, type Browser } from '../helpers/chromium.js';
import { scaled } from '../helpers/time-scale.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const RTL = 'rtl-0004';
const PHASE = 'שלב ביצוע';

async function serve(version: string | null) {
  const p = makeProject({ prefix: 'omc-top-serve-guess-' });
  cleanups.push(() => p.cleanup());
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-guess-state-'));
  cleanups.push(() => fs.rmSync(state, { recursive: true, force: true }));
  const now = Date.now();
  writeOmcJson(ralphStateFile(p.root, RTL), {
    ...liveRalph({ sessionId: RTL, iteration: 2, startedAt: now, checkedAt: now }),
    current_phase: PHASE,
  });
  const omc = version === null ? makeOmcInstall(null, 'not found: assuming the newest rules', 'assumed') : undefined;
  const store = new OmcStore({
    root: p.root,
    readonly: false,
    watch: 'auto',
    projectDir: p.dir,
    omc: omc ?? makeOmcInstall(version, 'plugin', 'plugin'),
  });
  store.start();
  const source = singleSource(store, 'shop', { XDG_STATE_HOME: state });
  const token = 'test-token-0123456789';
  const served = await startServer({ source, token, listen: '127.0.0.1', port: 0, readonly: true });
  cleanups.push(
    () => source.close(),
    () => served.close(),
  );
  return { source, url: `http://127.0.0.1:${served.port}/#${token}` };
}

async function pageWait<T>(browser: Browser, expression: string, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + scaled(15_000);
  let v = await browser.evaluate<T>(expression);
  while (!ok(v)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the page showed: ${JSON.stringify(v)}`);
    v = await browser.evaluate<T>(expression);
  }
  return v;
}

/**
 * Where each character of the row's modes cell is drawn: the left edge of every character of the phase and of
 * the age's digits (the text after the last character of the phase in the DOM), in pixels.
 */
const GEOMETRY = `(() => {
  const cell = document.querySelector('[data-session="${RTL}"] .modes');
  if (!cell) return null;
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  const chars = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    for (let i = 0; i < n.data.length; i++) {
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      const box = r.getBoundingClientRect();
      chars.push({ ch: n.data[i], left: box.left, right: box.right, top: box.top });
    }
  const text = chars.map((c) => c.ch).join('');
  const phaseEnd = text.indexOf(${JSON.stringify(PHASE)}) + ${PHASE.length};
  const hebrew = chars.filter((c) => /[\\u0590-\\u05ff]/.test(c.ch));
  const digits = chars.slice(phaseEnd).filter((c) => /[0-9]/.test(c.ch));
  return { text, hebrewRight: Math.max(...hebrew.map((c) => c.right)), digitsLeft: Math.min(...digits.map((c) => c.left)),
    oneLine: new Set(chars.map((c) => Math.round(c.top))).size === 1 };
})()`;

describe.skipIf(!fs.existsSync(CHROMIUM))('serve page: the OMC guess and right-to-left text', () => {
  it('no OMC found: the page says the guess at the top of the project, in the header’s words', async () => {
    const { url } = await serve(null);
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(url);
    const guess = await pageWait<string>(
      browser,
      `(() => { const s = document.querySelector('section.root'); const g = s && s.querySelector('h2 + .guess'); return g ? g.textContent : ''; })()`,
      (t) => t !== '',
      'the guess line',
    );
    expect(guess).toMatch(/^OMC \? \(5\.5\.0 rules, assumed\): no OMC install was found/);
  });

  it('a known OMC: no guess line', async () => {
    const { source } = await serve('5.5.0');
    expect(source.picture(Date.now()).roots[0]?.omcGuess).toBeNull();
  });

  it("a Hebrew phase: the row's age is drawn after the phase, not inside its run", async () => {
    const { url } = await serve(null);
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(url);
    const g = await pageWait<{ text: string; hebrewRight: number; digitsLeft: number; oneLine: boolean } | null>(
      browser,
      GEOMETRY,
      (v) => v !== null && /s ago$/.test(v.text),
      'the row',
    );
    expect(g!.text).toMatch(new RegExp(`^ralph 2/10 ${PHASE} \\d+ s ago$`));
    expect(g!.oneLine).toBe(true);
    // Left to right: ralph 2/10, the phase (its letters right to left), then the age.
    expect(g!.digitsLeft).toBeGreaterThanOrEqual(g!.hebrewRight);
  });
});
