/**
 * The cancel keys in the real App (ink-testing-library, real OmcStore on a
 * fixture copy, keys on stdin): the dialog names the exact files, a session
 * whose plan changed while the dialog was open is re-read and re-asked (a loop
 * that only wrote its next iteration is ended without asking again), the row
 * then shows the countdown and the verdict, and --readonly writes nothing.
 */
import { makeOmcInstall } from '../../src/store/omc-install.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { mountStore } from '../helpers/mount-app.js';
import { liveRalph, makeProject, SESSION, type TempProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';

let p: TempProject | null = null;
let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
  p?.cleanup();
  p = null;
});

const S = SESSION.ralph;
const ralphRel = `state/sessions/${S}/ralph-state.json`;
const abs = (rel: string) => path.join((p as TempProject).root, rel);
const readJson = (rel: string) => JSON.parse(fs.readFileSync(abs(rel), 'utf8'));

/** The fixture with the ralph session made live (fresh, with the session_id the Stop hook needs), so it is the first (selected) row. */
function mount(opts: { readonly?: boolean; rules?: '5.5.0' | '4.4.4' } = {}) {
  p = makeProject({ withFixture: true });
  writeOmcJson(abs(ralphRel), { ...readJson(ralphRel), session_id: S, last_checked_at: new Date().toISOString() });
  const store = new OmcStore({
    root: p.root,
    watch: 'poll',
    readonly: opts.readonly ?? false,
    omc: opts.rules ? makeOmcInstall(opts.rules, '--omc-version') : undefined,
  });
  store.start();
  const app = mountStore(store, { columns: 100, rows: 24 });
  cleanup = app.unmount;
  const frame = app.text;
  const until = (what: string | RegExp) =>
    waitFor(() => (typeof what === 'string' ? frame().includes(what) : what.test(frame())) && frame(), {
      what: `${what} on screen`,
      timeoutMs: 8000,
    }).catch((e) => {
      throw new Error(`${(e as Error).message}\n${frame()}`);
    });
  return { app, frame, until: async (what: string | RegExp) => (await app.ready, until(what)), key: app.send };
}

describe('sessions pane: cancel and pause keys', () => {
  it('c asks with the exact files, then counts down on the row; a loop that moved on meanwhile is still ended', async () => {
    const { until, key, frame } = mount();
    await until(/▸ enforced\s+88727f43 ralph 3\/10/);
    key('c');
    await until(`Cancel ralph + ultrawork of session ${S}?`);
    expect(frame()).toContain(`In state/sessions/${S}/:`);
    expect(frame()).toContain('write cancel-signal-state.json  (generic signal, mode ralph, source omc-top, 30 s)');
    expect(frame()).toContain('remove ralph-state.json  (3/10, phase execution)');
    expect(frame()).toContain('remove ultrawork-state.json');
    expect(frame()).toContain('y: cancel the loop   n/Esc: keep it');

    // A Stop event writes the next iteration while the user reads the dialog: same files, same loop.
    writeOmcJson(abs(ralphRel), { ...readJson(ralphRel), iteration: 4 });
    key('y');
    // No Claude process can be seen here: the loop ended on disk, and nothing claims Claude stopped. The MODES cell
    // says what the disk holds, as for a cancel another omc-top made; the detail tells this monitor's own story.
    await until(/ended \d+s\s+88727f43 no modes left \(cancel signal/);
    expect(frame()).not.toContain('Changed on disk');
    expect(frame()).toContain(`ralph, ultrawork ended on disk in ${S}: no targeted mode is active`);
    expect(frame()).not.toContain('✓');
    expect(fs.existsSync(abs(ralphRel))).toBe(false);
    expect(readJson(`state/sessions/${S}/cancel-signal-state.json`)).toMatchObject({
      source: 'omc-top',
      mode: 'ralph',
    });
  });

  it('the message follows the verdict: a loop re-armed inside the window turns "cancelled" into "not ended yet"', async () => {
    const { until, key, frame } = mount();
    await until(/▸ enforced\s+88727f43 ralph 3\/10/);
    const startedAt = readJson(ralphRel).started_at as string;
    key('c');
    await until('y: cancel the loop');
    key('y');
    await until(`ralph, ultrawork ended on disk in ${S}: no targeted mode is active`);
    // Issue 11, observed: a Stop event already under way writes ralph back, fresh and owned (the same run: its
    // started_at kept; a loop started after the cancel would be a new one, not the cancel failing).
    writeOmcJson(abs(ralphRel), liveRalph({ sessionId: S, iteration: 5, max: 10, startedAt }));
    // The row shows the loop back on disk under the signal's countdown (the word every surface says); the message
    // line says why, and no longer claims the cancel was verified.
    await until(/cancel \d+s\s+88727f43 ralph 5\/10[^]*not ended yet: ralph active again/);
    expect(frame()).not.toContain('verified on disk');
  });

  it('on OMC 4.4.4 p is refused with the reason (its Stop hook never reads signals); nothing is written', async () => {
    const { until, key } = mount({ rules: '4.4.4' });
    await until(/▸ enforced\s+88727f43 ralph 3\/10/);
    key('p');
    await until(/its Stop hook never reads cancel\s+signals, so a pause would pause nothing/);
    expect(fs.existsSync(abs(`state/sessions/${S}/cancel-signal-state.json`))).toBe(false);
    key('c');
    await until("Judged with OMC 4.4.4's Stop-hook rules (OMC 4.4.4 from --omc-version).");
  });

  it('re-asks, with the fresh list, when what would be done changed while the dialog was open', async () => {
    const { until, key, frame } = mount();
    await until(/▸ enforced\s+88727f43 ralph 3\/10/);
    key('c');
    await until(`Cancel ralph + ultrawork of session ${S}?`);
    // A new loop starts in the session: the user never agreed to end it.
    const qaRel = `state/sessions/${S}/ultraqa-state.json`;
    const qa = readJson(`state/sessions/${SESSION.ultraqa}/ultraqa-state.json`);
    writeOmcJson(abs(qaRel), {
      ...qa,
      session_id: S,
      _meta: { ...qa._meta, sessionId: S },
      last_checked_at: new Date().toISOString(),
    });
    key('y');
    await until('Changed on disk. Cancel');
    expect(frame().replace(/[│\s]+/g, '')).toContain(`(${qaRel}isnew)`);
    expect(frame()).toContain('remove ultraqa-state.json');
    expect(fs.existsSync(abs(`state/sessions/${S}/cancel-signal-state.json`))).toBe(false);
    expect(fs.existsSync(abs(ralphRel))).toBe(true);

    key('y');
    await until(/ended \d+s\s+88727f43 no modes left[^]*ralph, ultraqa, ultrawork ended on disk in /);
    expect(fs.existsSync(abs(qaRel))).toBe(false);
    expect(fs.existsSync(abs(ralphRel))).toBe(false);
  });

  it('version unknown: the pause dialog says which OMC versions honour it', async () => {
    const { until, key, frame } = mount();
    await until(/▸ enforced\s+88727f43/);
    key('p');
    await until('y: pause');
    expect(frame().replace(/[│\s]+/g, ' ')).toContain(
      'The OMC version was not found: OMC 4.6.1 and later honour this pause',
    );
    key('n');
    await until('pause not confirmed: nothing was written');
  });

  it('n keeps everything and says so', async () => {
    const { until, key } = mount();
    await until(/▸ enforced\s+88727f43/);
    key('c');
    await until('y: cancel the loop');
    key('n');
    await until('cancel not confirmed: nothing was written');
    expect(fs.existsSync(abs(ralphRel))).toBe(true);
  });

  it('in the detail view ] picks one mode, and p pauses only that one', async () => {
    const { until, key, frame } = mount({ rules: '5.5.0' });
    await until(/▸ enforced\s+88727f43/);
    key('\r');
    await until('▌ralph');
    key(']');
    key('p');
    await until(`Pause ultrawork of session ${S}?`);
    expect(frame()).toContain('Nothing is removed: ultrawork keeps its state for a later resume.');
    key('y');
    await until(/omc-top pause: paused ultrawork · Claude's stop not observed\s+\(\d+s of signal left\)/);
    // A pause is not the loop ending: once the watcher sees the signal, the status says paused, never "cancelling".
    await until(/status: paused \(cancel signal in force/);
    expect(frame()).not.toContain('cancelling');
    expect(readJson(ralphRel).active).toBe(true);
  });

  it('--readonly: c and p write nothing and say why', async () => {
    const { until, key, frame } = mount({ readonly: true });
    await until(/▸ enforced\s+88727f43/);
    key('c');
    await until('--readonly: cancel is disabled (nothing is written)');
    expect(frame()).not.toContain('y: cancel the loop');
    expect(fs.existsSync(abs(`state/sessions/${S}/cancel-signal-state.json`))).toBe(false);
  });

  it('a session with nothing active gets a specific message instead of a dialog', async () => {
    const { until, key } = mount();
    await until(/▸ enforced\s+88727f43/);
    key('/');
    for (const ch of SESSION.finished.slice(0, 8)) key(ch);
    key('\r');
    await until(/▸ finished\s+8e17b2c5/);
    key('c');
    await until(`cancel: no active mode in ${SESSION.finished}: nothing to cancel`);
  });
});
