/**
 * `--host` against a real OpenSSH server (test/fleet/sshd-harness.ts): sessions
 * of two hosts in one fleet view marked by host, a remote cancel confirmed and
 * verified there, a host without omc-top told how to install it, a killed sshd
 * shown as lost and retried until it is back, and a hostile stream turned into
 * problem lines with no control byte reaching the screen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { makeLive, sessionId, writeFinishedSessions } from '../helpers/sessions-gen.js';
import { waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { makeMachine, type Machine } from './fleet-tree.js';
import { sshSkipReason, startSshRig, type HostKey, type SshRig } from './sshd-harness.js';
import { execFileSync } from 'node:child_process';
import { TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const skip = sshSkipReason();
if (skip) console.warn(`remote-ssh tests skipped: ${skip}`);

let rig: SshRig | null = null;
let m: Machine | null = null;
let fleet: LocalFleet | null = null;
let remote: RemoteFleet | null = null;
afterEach(async () => {
  await remote?.stop();
  remote = null;
  await fleet?.close();
  fleet = null;
  await rig?.close();
  rig = null;
  m?.cleanup();
  m = null;
});

beforeAll(() => {
  // The remote omc-top is the bundle global-setup built.
  expect(fs.existsSync(path.resolve('dist/omc-top.mjs'))).toBe(true);
});

/** A git project on "the remote" (same disk, other namespace) with finished sessions and one live loop. */
function remoteProject(base: string, name: string, finished: number, live: string): string {
  const dir = path.join(base, name);
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  const root = path.join(dir, '.omc');
  fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
  writeFinishedSessions(root, finished);
  makeLive(root, live);
  return dir;
}

async function mountHosts(hosts: HostKey[], specs: string[], cols = 160) {
  rig = await startSshRig(hosts);
  await rig.startSshd();
  m = makeMachine();
  const f = new LocalFleet({ env: m.env, home: m.home, watch: 'none', local: false });
  fleet = f;
  const r = new RemoteFleet(
    specs.map((s) => parseHostSpec(s)!),
    () => f.changed(),
    { ssh: rig.ssh },
  );
  remote = r;
  f.setExtra(() => r.groups());
  f.start();
  r.start();
  const app = await mountFleet(f, { columns: cols, rows: 30, remote: r });
  return app;
}

describe.skipIf(skip !== null)('--host over a real sshd', { timeout: scaled(120_000) }, () => {
  it('shows the sessions of two hosts marked by host; a remote cancel is confirmed and verified there', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-'));
    try {
      const liveA = sessionId(901);
      const liveB = sessionId(902);
      const a = remoteProject(base, 'shop', 2, liveA);
      const b = remoteProject(base, 'blog', 1, liveB);
      const app = await mountHosts([{ alias: 'boxa' }, { alias: 'boxb' }], [`boxa:${a}`, `boxb:${b}`]);
      const t = await waitFor(
        () => {
          const x = app.text();
          return x.includes(`@boxa:${a}  shop  (3 sessions)`) && x.includes(`@boxb:${b}  blog  (2 sessions)`)
            ? x
            : null;
        },
        { timeoutMs: 30_000, what: `both hosts live\n${app.text()}` },
      );
      expect(t).toContain('2 hosts');
      const rowA = app.lines().find((l) => l.includes(liveA.slice(0, 8)))!;
      expect(rowA).toMatch(/enforced\s+@boxa/);
      // `/` over the fleet rows matches the host too: only boxb's rows stay, Esc brings boxa's back.
      await app.press('/', 'b', 'o', 'x', 'b');
      const onlyB = await app.waitForText(/\/boxb .*2 of 5 match/);
      expect(onlyB).toContain(`@boxb:${b}  blog`);
      expect(onlyB).not.toContain(liveA.slice(0, 8));
      await app.press(KEY.esc, 'g');
      await app.waitForText(liveA.slice(0, 8));

      // Select boxa's live loop and cancel it: the confirmation names the command, y runs it there.
      for (let i = 0; i < 10 && !(app.lines().find((l) => l.startsWith('▸')) ?? '').includes(liveA.slice(0, 8)); i++)
        await app.press('j');
      expect(app.lines().find((l) => l.startsWith('▸'))).toContain(liveA.slice(0, 8));
      await app.press('c');
      await app.waitForText(`Runs: ssh boxa omc-top cancel session:${liveA}`);
      await app.press('y');
      await app.waitForText(/cancel on boxa:\S+ took effect \(checked there\)/, 'the cancel verdict');
      // On that machine's disk the loop is gone, and the row the stream sends says so.
      expect(fs.existsSync(path.join(a, '.omc', 'state', 'sessions', liveA, 'ralph-state.json'))).toBe(false);
      await waitFor(
        () => !/enforced\s+@boxa/.test(app.lines().find((l) => l.includes(liveA.slice(0, 8))) ?? 'enforced @boxa'),
        {
          timeoutMs: 30_000,
          what: `the cancelled row to change\n${app.text()}`,
        },
      );
      app.unmountOnly();
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('tells how to install omc-top on a host that lacks it; a killed sshd is shown lost and retried until it is back', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-'));
    try {
      const a = remoteProject(base, 'shop', 1, sessionId(903));
      const oldReady = { v: 1, type: 'ready', at: new Date().toISOString(), project: 'shop', needsYou: 0 };
      fs.writeFileSync(path.join(base, 'old.jsonl'), JSON.stringify(oldReady) + '\n');
      const app = await mountHosts(
        [
          { alias: 'boxa' },
          { alias: 'nobox', omcTop: false },
          // An omc-top from before --rows: its ready line has no version.
          { alias: 'oldbox', command: `cat ${path.join(base, 'old.jsonl')}; exec sleep 100000` },
        ],
        [`boxa:${a}`, `nobox:${a}`, 'oldbox'],
        220,
      );
      await waitFor(
        () =>
          /omc-top is not installed on nobox .*install it there: npm install -g .*, or copy \S+\/\*\.mjs to nobox together/.test(
            app.text(),
          ),
        {
          timeoutMs: 30_000,
          what: `the missing message\n${app.text()}`,
        },
      );
      expect(app.text()).toMatch(/@nobox:\S+ .*omc-top missing there/);
      await waitFor(
        () =>
          /@oldbox .*omc-top too old there/.test(app.text()) &&
          /omc-top without a version on oldbox is too old/.test(app.text()),
        { timeoutMs: 30_000, what: `the too-old message\n${app.text()}` },
      );
      await waitFor(() => app.text().includes(`@boxa:${a}  shop  (2 sessions)`), {
        timeoutMs: 30_000,
        what: `boxa live\n${app.text()}`,
      });

      await rig!.killSshd();
      await waitFor(() => /@boxa:\S+ {2}shop {2}\(2 sessions · lost \d+ s ago, retrying in \d+ s/.test(app.text()), {
        timeoutMs: 30_000,
        what: `lost shown\n${app.text()}`,
      });
      // The rows stay on screen, under a header that says they are not live.
      expect(app.text()).toContain(sessionId(903).slice(0, 8));
      await rig!.startSshd();
      await waitFor(
        () => {
          const line = app.lines().find((l) => l.includes(`@boxa:${a}`)) ?? '';
          return line.includes('(2 sessions)') && !line.includes('lost');
        },
        { timeoutMs: 60_000, what: `live again\n${app.text()}` },
      );
      app.unmountOnly();
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it("after a reconnect the host's rows are exactly what it reports now: a session gone meanwhile leaves", async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-'));
    try {
      const live = sessionId(904);
      const a = remoteProject(base, 'shop', 2, live);
      const app = await mountHosts([{ alias: 'boxa' }], [`boxa:${a}`]);
      const header = () => app.lines().find((l) => l.includes(`@boxa:${a}`)) ?? '';
      await waitFor(() => header().includes('shop  (3 sessions)') || null, {
        timeoutMs: 30_000,
        what: `boxa live with 3 sessions\n${app.text()}`,
      });
      const gone = sessionId(1);
      expect(app.text()).toContain(gone.slice(0, 8));
      await rig!.killSshd();
      await waitFor(() => header().includes('lost') || null, { timeoutMs: 30_000, what: `lost\n${app.text()}` });
      // While the connection is down a finished session is removed there and a new loop starts.
      fs.rmSync(path.join(a, '.omc', 'state', 'sessions', gone), { recursive: true, force: true });
      const fresh = sessionId(905);
      makeLive(path.join(a, '.omc'), fresh);
      await rig!.startSshd();
      await waitFor(
        () =>
          (/\(\d+ sessions\)/.test(header()) && !header().includes('lost') && app.text().includes(fresh.slice(0, 8))) ||
          null,
        { timeoutMs: 60_000, what: `live again with the new loop\n${app.text()}` },
      );
      // The removed session's row went with the connection that reported it: not kept beside the new ones.
      expect(header()).toContain('shop  (3 sessions)');
      expect(app.text()).not.toContain(gone.slice(0, 8));
      expect(
        remote!
          .groups()[0]
          ?.rows.map((r) => r.session)
          .sort(),
      ).toEqual([sessionId(2), live, fresh].sort());
      app.unmountOnly();
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('a host whose project has no .omc yet says it waits for one, then shows the loop OMC starts there', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-'));
    try {
      const a = path.join(base, 'shop');
      fs.mkdirSync(a, { recursive: true });
      execFileSync('git', ['init', '-q', a]);
      const app = await mountHosts([{ alias: 'boxa' }], [`boxa:${a}`]);
      const header = () => app.lines().find((l) => l.includes(`@boxa:${a}`)) ?? '';
      // omc-top there waits for OMC's root (it no longer exits): the group says why it has no rows.
      await waitFor(() => header().includes('waiting for .omc there') || null, {
        timeoutMs: 30_000,
        what: `boxa waiting for its .omc\n${app.text()}`,
      });
      expect(header()).not.toContain('lost');
      expect(remote!.groups()[0]?.detail).toBe(`${a}/.omc does not exist; waiting for it`);
      const live = sessionId(906);
      makeLive(path.join(a, '.omc'), live);
      await waitFor(() => (app.text().includes(live.slice(0, 8)) && !header().includes('waiting')) || null, {
        timeoutMs: 30_000,
        what: `the loop there, and no waiting note\n${app.text()}`,
      });
      app.unmountOnly();
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('shows the session-less state and a session directory named legacy as two rows; each cancel lands on its own file', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-'));
    try {
      const dir = remoteProject(base, 'shop', 1, sessionId(907));
      const root = path.join(dir, '.omc');
      const now = new Date().toISOString();
      const ralph = (sid: string | null) => ({
        active: true,
        iteration: 2,
        max_iterations: 10,
        started_at: now,
        last_checked_at: now,
        prompt: sid ? 'the directory named legacy' : 'the session-less loop',
        ...(sid ? { session_id: sid } : {}),
      });
      const dirFile = path.join(root, 'state', 'sessions', 'legacy', 'ralph-state.json');
      const stateFile = path.join(root, 'state', 'ralph-state.json');
      writeOmcJson(dirFile, ralph('legacy'));
      writeOmcJson(stateFile, ralph(null));
      const active = (f: string) => fs.existsSync(f) && JSON.parse(fs.readFileSync(f, 'utf8')).active === true;

      const app = await mountHosts([{ alias: 'boxa' }], [`boxa:${dir}`]);
      await app.waitForText(`@boxa:${dir}  shop  (4 sessions)`, 'every remote row');
      // Two rows with two identities: the session-less state reads "(legacy)", the directory "legacy".
      const rows = fleet!.getSnapshot().groups.flatMap((g) => g.rows);
      const legacyRows = rows.filter((r) => r.session === 'legacy');
      expect(legacyRows.map((r) => r.sessionless).sort()).toEqual([false, true]);
      expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
      const lineOf = (dirRow: boolean) =>
        app.lines().find((l) => (dirRow ? /\slegacy\s/.test(l) && !l.includes('(legacy)') : l.includes('(legacy)')));
      expect(lineOf(true), app.text()).toBeTruthy();
      expect(lineOf(false), app.text()).toBeTruthy();

      const select = async (dirRow: boolean) => {
        await app.press('g');
        const want = lineOf(dirRow);
        for (let i = 0; i < 10 && app.lines().find((l) => l.startsWith('▸')) !== want?.replace(/^ {2}/, '▸ '); i++)
          await app.press('j');
        expect(app.lines().find((l) => l.startsWith('▸'))).toBe(want?.replace(/^ {2}/, '▸ '));
      };

      // The directory: `session:legacy` there, so the session-less state is left alone.
      await select(true);
      await app.press('c');
      await app.waitForText('Runs: ssh boxa omc-top cancel session:legacy');
      await app.press('y');
      await app.waitForText(/cancel on boxa:\S+ took effect \(checked there\)/, 'the directory cancel verdict');
      expect(active(dirFile)).toBe(false);
      expect(active(stateFile)).toBe(true);

      // The session-less state: `legacy` there.
      await select(false);
      await app.press('c');
      await app.waitForText('The session-less (legacy) state');
      await app.waitForText(/Runs: ssh boxa omc-top cancel legacy --cwd/);
      await app.press('y');
      await waitFor(() => !active(stateFile), { timeoutMs: 30_000, what: `the session-less cancel\n${app.text()}` });
      await app.waitForText(/cancel on boxa:\S+ took effect \(checked there\)/, 'the session-less cancel verdict');
      app.unmountOnly();
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('an older omc-top there (no sessionless on the wire): its one "legacy" row is cancelled as its session-less state, and the dialog says so', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-'));
    try {
      const at = new Date().toISOString();
      const oldRow = {
        v: 1,
        type: 'row',
        at,
        project: 'old-shop',
        session: 'legacy',
        row: {
          session: 'legacy',
          status: 'enforced',
          cancelUntilMs: null,
          modes: 'ralph 2/10',
          prompt: 'x',
          updatedMs: Date.now(),
          rank: 1,
          process: null,
          processWhy: null,
        },
      };
      const ready = { v: 1, type: 'ready', at, project: 'old-shop', needsYou: 0, version: '0.1.0' };
      const file = path.join(base, 'old.jsonl');
      fs.writeFileSync(file, [JSON.stringify(oldRow), JSON.stringify(ready)].join('\n') + '\n');
      const app = await mountHosts(
        [{ alias: 'boxa' }, { alias: 'old', command: `cat ${file}; exec sleep 100000` }],
        ['old'],
      );
      await app.waitForText('old-shop  (1 session)', 'the older host live');
      const row = fleet!.getSnapshot().groups.flatMap((g) => g.rows)[0];
      expect(row?.sessionless).toBeUndefined();
      expect(row?.key).toBe('remote|old|legacy');
      await app.press('g', 'j');
      await app.press('c');
      await app.waitForText('does not say whether this row is its session-less state');
      await app.waitForText('Runs: ssh old omc-top cancel legacy');
      await app.press(KEY.esc);
      app.unmountOnly();
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('turns a hostile stream into problem lines; no control byte reaches the screen', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-'));
    try {
      const good = sessionId(904);
      const row = (session: string, extra: Record<string, unknown> = {}) => ({
        v: 1,
        type: 'row',
        at: new Date().toISOString(),
        project: 'evil\u001b]0;owned\u0007proj',
        session,
        row: {
          session,
          status: 'enforced',
          cancelUntilMs: null,
          modes: 'ralph 1/9 \u001b[31mred\u001b[0m \u009b2J \u202eevil',
          prompt: 'x',
          updatedMs: Date.now(),
          rank: 1,
          process: 'busy',
          processWhy: 'ok\u0007',
          ...extra,
        },
      });
      const lines = [
        JSON.stringify(row(good)),
        'not json \u001b[2J\u001b]52;c;aGk=\u0007',
        'x'.repeat(100 * 1024),
        JSON.stringify(row('a; rm -rf ~')),
        JSON.stringify({ ...row(sessionId(905)), v: 2 }),
        JSON.stringify(row(sessionId(906), { status: 'exploded' })),
        JSON.stringify({ v: 1, type: 'future-kind', at: 'now' }),
        JSON.stringify({
          v: 1,
          type: 'ready',
          at: new Date().toISOString(),
          project: 'evil',
          needsYou: 0,
          version: '9.9.9',
        }),
      ];
      const file = path.join(base, 'hostile.jsonl');
      fs.writeFileSync(
        file,
        lines.join('\n') + '\n' + Buffer.from([0xff, 0xfe, 0x1b, 0x5b, 0x48]).toString('latin1') + '\n',
      );
      const app = await mountHosts(
        [{ alias: 'boxa' }, { alias: 'evil', command: `cat ${file}; exec sleep 100000` }],
        ['evil'],
      );
      const t = await waitFor(() => (/6 bad lines skipped/.test(app.text()) ? app.text() : null), {
        timeoutMs: 30_000,
        what: `problem lines\n${app.text()}`,
      });
      expect(t).toContain(good.slice(0, 8));
      expect(t).toContain('ralph 1/9');
      expect(t).not.toContain('rm -rf');
      const raw = app.raw();
      // Ink's own SGR / cursor codes are the only escapes; nothing from the stream.
      const stripped = raw.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      expect(
        /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/.test(stripped),
        JSON.stringify(stripped.slice(0, 400)),
      ).toBe(false);
      expect(raw).not.toContain('\u001b]');
      app.unmountOnly();
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});

describe.skipIf(skip !== null)('omc-top --host in a real terminal', { timeout: scaled(120_000) }, () => {
  it('runs the user’s ssh from PATH, shows the host live (given twice: once), and q restores the terminal', async () => {
    const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-remote-'));
    let h: TerminalHarness | null = null;
    try {
      const live = sessionId(907);
      const a = remoteProject(base, 'shop', 1, live);
      rig = await startSshRig([{ alias: 'boxa' }]);
      await rig.startSshd();
      h = new TerminalHarness({
        // The same project given twice (a trailing /): one host, one group, said once on the message line.
        args: ['--host', `boxa:${a}`, '--host', `boxa:${a}/`],
        cols: 140,
        rows: 24,
        cwd: base,
        wrap: rig.nsWrap,
        env: { PATH: rig.clientPath, HOME: base, CLAUDE_CONFIG_DIR: path.join(base, 'no-claude') },
      });
      await h.waitForText(`@boxa:${a}  shop  (2 sessions)`, 60_000);
      await h.waitForText(/1 host(?! \()/, 60_000);
      expect(h.screen().find((l) => l.includes(live.slice(0, 8)))).toMatch(/enforced\s+@boxa/);
      expect(h.screen().filter((l) => l.includes(live.slice(0, 8)))).toHaveLength(1);
      expect(h.screen().join('\n')).toContain(`--host given twice: boxa:${a}/ (the same as boxa:${a}): shown once`);
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
      await h.settle();
      expect(h.altScreen).toBe(false);
    } finally {
      h?.dispose();
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
