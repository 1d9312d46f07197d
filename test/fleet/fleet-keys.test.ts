/**
 * The fleet view's keys are a bindings table like every pane's: `?` shows the
 * help generated from it (Esc closes), `/` filters the rows by project,
 * session, host or modes, the footer's hints are the table's, `--readonly`
 * takes the remote writes out of the footer and says why they do nothing,
 * and `q` quits from the list and the help — but is a letter while a filter
 * is typed. All on the one rig (mountFleet) over a real LocalFleet.
 */
import { describe, expect, it } from 'vitest';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { waitFor } from '../helpers/fixtures.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();

/** Two projects, each with one live loop and one finished session: four rows. */
async function twoProjects(opts: { readonly?: boolean; rows?: number } = {}) {
  const m = rig.machine();
  m.project('alpha', 1);
  m.project('beta', 1);
  const fleet = rig.fleet(m, { watch: 'none' });
  fleet.start();
  const app = await mountFleet(fleet, { columns: 110, rows: opts.rows ?? 30, readonly: opts.readonly });
  await app.waitForText(/beta {2}\(2 sessions\)/);
  await app.waitForText(/alpha {2}\(2 sessions\)/);
  const footer = () => app.lines().filter(Boolean).at(-1) ?? '';
  return { app, footer };
}

/** Resizes the terminal and waits for a frame drawn after it (the last frame before is of the old size). */
async function resized(app: { resize(c: number, r: number): void; frames(): readonly string[] }, c: number, r: number) {
  const drawn = app.frames().length;
  app.resize(c, r);
  await waitFor(() => app.frames().length > drawn || null, { what: `a frame at ${c}x${r}` });
}

describe('omc-top --all: the fleet keys are a bindings table', () => {
  it('? shows the help generated from the table, scrolls like every overlay, Esc closes it', async () => {
    const { app, footer } = await twoProjects({ rows: 24 });
    expect(footer()).toContain('? help');
    await app.step('?');
    const help = await app.waitForText('Fleet (--all) keys');
    if (process.env.SHOW) console.log(help);
    expect(help).toContain(
      'filter rows: every word must be in the row, hidden columns included (CLAUDE and needs you too)',
    );
    expect(help).toContain('this help, with the legend of statuses and symbols');
    expect(help).not.toContain('STATUS');
    expect(footer()).toContain('Esc close');
    await app.step(KEY.pagedown);
    await app.waitForText('reconnect to the selected row');
    // The help is longer than the screen: G reaches the legend's end, as in the app's help.
    await app.step('G');
    await app.waitForText('footer: the file watcher works');
    await app.step(KEY.esc);
    const back = await app.waitForText('STATUS');
    expect(back).not.toContain('Fleet (--all) keys');
    expect(app.exited()).toBe(false);
    app.unmountOnly();
  });

  it('the help re-anchors on a resize: at its end it stays at the end, else the entry at its top stays on top', async () => {
    const { app } = await twoProjects({ rows: 24 });
    await resized(app, 80, 24);
    await app.step('?');
    await app.waitForText('Fleet (--all) keys');
    await app.step('G');
    // The last entry of the help (the header section's last line, wrapped as the width wraps it).
    const end = /gives up the counts\s*first, then the quota/;
    const joined = () => app.lines().join(' ').replace(/\s+/g, ' ');
    await waitFor(() => end.test(joined()) || null, { what: 'the help at its end' });
    for (const [columns, rows] of [
      [60, 24],
      [100, 30],
    ] as const) {
      await resized(app, columns, rows);
      await waitFor(() => (end.test(joined()) && !/more below/.test(app.text())) || null, {
        what: `the help still at its end at ${columns}x${rows}`,
      });
    }
    // Back at the top, a few lines down: after a resize the entry that was at the top is at the top again.
    await resized(app, 80, 24);
    await app.step('g', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j');
    await waitFor(() => /↑ 8 more above/.test(app.text()) || null, { what: 'scrolled eight lines' });
    const ls = app.lines();
    const top = ls[ls.findIndex((l) => /more above/.test(l)) + 1] ?? '';
    const firstWords = top.trim().split(/\s+/).slice(0, 2).join(' ');
    expect(firstWords).not.toBe('');
    for (const [columns, rows] of [
      [60, 24],
      [100, 30],
    ] as const) {
      await resized(app, columns, rows);
      await waitFor(
        () => {
          const now = app.lines();
          const i = now.findIndex((l) => /more above/.test(l));
          return i >= 0 && (now[i + 1] ?? '').trim().startsWith(firstWords) ? true : null;
        },
        { what: `${firstWords} still at the top at ${columns}x${rows}` },
      );
    }
    app.unmountOnly();
  });

  it('a click on a row selects it: Enter then opens that project', async () => {
    const { app } = await twoProjects();
    const first = app.lines().findIndex((l) => /(alpha|beta) {2}\(2 sessions\)/.test(l));
    const other = (app.lines()[first] ?? '').includes('alpha') ? 'beta' : 'alpha';
    const y = app.lines().findIndex((l) => l.includes(`${other}  (2 sessions)`));
    await app.step(KEY.click(10, y + 1), KEY.enter);
    const opened = await app.waitForText('Esc back to the fleet');
    expect(opened).toContain(`/${other}/`);
    app.unmountOnly();
  });

  it('/ narrows the rows to every word typed; q is a letter there; Enter keeps it, Esc clears it', async () => {
    const { app, footer } = await twoProjects();
    await app.step('/');
    expect(footer()).toMatch(/Enter keep {2}Esc clear/);
    await app.step('b', 'e', 't', 'a');
    let t = await app.waitForText(/\/beta .*2 of 4 match/);
    expect(t).toMatch(/beta {2}\(2 sessions\)/);
    expect(t).not.toContain('alpha');
    // A second word narrows further: the live loop of beta only.
    await app.step(' ', 'e', 'n', 'f');
    t = await app.waitForText(/\/beta enf .*1 of 4 match/);
    expect(t.split('\n').filter((l) => l.includes('enforced'))).toHaveLength(1);
    await app.step('q');
    await app.waitForText(/\/beta enfq .*0 of 4 match/);
    expect(app.exited()).toBe(false);
    await app.step(KEY.backspace, KEY.enter);
    await app.waitForText(/\/beta enf .*1 of 4 match {2}\(Esc clears\)/);
    // The kept filter's rows are the list: Enter on the row opens beta's panes.
    await app.step('G', KEY.enter);
    const opened = await app.waitForText('Esc back to the fleet');
    expect(opened).toContain('/beta/');
    expect(opened).not.toContain('/alpha/');
    await app.step(KEY.esc, KEY.esc);
    await app.waitForText(/\/beta enf .*1 of 4 match/);
    await app.step(KEY.esc);
    t = await app.waitForText(/alpha {2}\(2 sessions\)/);
    expect(t).not.toContain('match');
    await app.step('q');
    expect(app.exited()).toBe(true);
    app.unmountOnly();
  });

  it('--readonly: the footer leaves cancel and pause out, c says why, the help marks them', async () => {
    const { app, footer } = await twoProjects({ readonly: true });
    expect(footer()).toContain('Enter open');
    expect(footer()).not.toContain('c cancel');
    await app.step('c');
    await app.waitForText('--readonly: remote cancel and pause are disabled (nothing is written)');
    await app.step('?');
    await app.waitForText(/cancel the remote session .*\(disabled: read-only/s);
    // q quits from the help, as it does from the app's.
    await app.step('q');
    expect(app.exited()).toBe(true);
    app.unmountOnly();
  });

  it('a narrow footer keeps ? help and q quit; Ctrl-C quits while a filter is typed', async () => {
    const { app, footer } = await twoProjects();
    app.resize(56, 30);
    await waitFor(() => footer().length <= 56 && !footer().includes('reconnect'), { what: 'a narrow footer' });
    expect(footer()).toContain('? help  q quit');
    await app.step('/', 'x');
    await app.waitForText(/\/x .*0 of 4 match/);
    await app.step(KEY.ctrl('c'));
    expect(app.exited()).toBe(true);
    app.unmountOnly();
  });
});
