/**
 * omc-top's config file edited under a running `omc-top --all`: the fleet followed it only for its problem line and
 * said a valid change applied "when omc-top --all starts again". Now a valid edit applies: a host added to `hosts`
 * connects and its project appears, with a message line saying what was applied; a broken edit keeps the settings
 * in force (the host still shown) and a problem line naming the file and what is wrong; fixed, the line goes. The
 * host's ssh is the fleet tests' fake (test/fleet/fake-ssh.mjs), put on PATH as `ssh`: the bundle runs plain `ssh`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';
import { KEY } from '../helpers/keys.js';
import { makeMachine, type Machine } from './fleet-tree.js';
import { scaled } from '../helpers/time-scale.js';

const FAKE_SSH = path.join(import.meta.dirname, 'fake-ssh.mjs');
/** The host's project line (its one session comes with it, as the fake's stream says it). */
const HOST_ROW = '@me@devbox:/srv/shop  shop  (1 session)';

let m: Machine | null = null;
afterEach(() => {
  m?.cleanup();
  m = null;
});

/** A PATH whose `ssh` is the fake, logging into `dir` (its `starts` lists each ssh started). */
function fakeSshPath(base: string): { PATH: string; dir: string } {
  const bin = path.join(base, 'bin');
  const dir = path.join(base, 'fake-ssh');
  fs.mkdirSync(bin, { recursive: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(bin, 'ssh'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_SSH)} ${JSON.stringify(dir)} "$@"\n`,
    { mode: 0o755 },
  );
  return { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, dir };
}

describe('omc-top --all follows its config file', () => {
  it(
    'connects a host added to the file, keeps it through a broken edit with a problem line, and drops the line once fixed',
    async ({ pty }) => {
      m = makeMachine();
      m.project('alpha', 1);
      const file = path.join(m.home, '.config', 'omc-top', 'config.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '{"title": false}\n');
      const ssh = fakeSshPath(m.base);
      const h = pty({ args: ['--all'], cols: 160, rows: 30, cwd: m.base, env: { ...m.env, PATH: ssh.PATH } });
      await h.waitForText('alpha  (2 sessions)', 20_000);
      expect(h.text()).not.toContain(HOST_ROW);

      // A host added: it connects, its project's row appears, and the message line says what was applied.
      fs.writeFileSync(file, '{"title": false, "hosts": ["me@devbox:/srv/shop"]}\n');
      await h.waitForText('config file: applied (hosts +1)', 20_000);
      await h.waitForText(HOST_ROW, 20_000);
      expect(h.text()).toContain('alpha  (2 sessions)');

      // A field of the wrong type: left out as a start leaves it, the rest applies (the host stays), and the line
      // names the file, the field and what was left out.
      fs.writeFileSync(file, '{"title": 3, "hosts": ["me@devbox:/srv/shop"]}\n');
      await h.waitForText('config file: applied (title on)', 20_000);
      expect(h.text()).toContain(HOST_ROW);
      expect(h.text()).toContain('alpha  (2 sessions)');
      h.write('!');
      await h.waitForText(/title:\s+Invalid\s+input/, 20_000);
      await h.waitForText(/left\s+out:\s+title;\s+the\s+rest\s+of\s+the\s+file\s+applies/, 20_000);
      h.write(KEY.esc);
      await h.waitForText('alpha  (2 sessions)', 20_000);

      // Not JSON at all: not applied, said with where it breaks; still the host.
      fs.writeFileSync(file, '{"title": false,\n "hosts": [\n');
      await h.waitForText(`⚠ ${file}: config file: not valid JSON`, 20_000);
      expect(h.text()).toContain(HOST_ROW);
      h.write('!');
      await h.waitForText(/not\s+applied:\s+omc-top\s+goes\s+on\s+with\s+the\s+settings\s+it\s+had/, 20_000);
      h.write(KEY.esc);
      await h.waitForText('alpha  (2 sessions)', 20_000);

      // Fixed, the host taken out: the line goes, the host's row goes, and only one ssh was ever started for it.
      fs.writeFileSync(file, '{"title": false}\n');
      await waitFor(() => (!h.text().includes('config file: not valid JSON') && !h.text().includes(HOST_ROW)) || null, {
        timeoutMs: 20_000,
        what: `the problem line and the host gone\n${h.text()}`,
      });
      await h.waitForText('config file: applied (hosts -1, title off)', 20_000);
      const starts = fs.readFileSync(path.join(ssh.dir, 'starts'), 'utf8').split('\n').filter(Boolean);
      expect(starts.filter((l) => l.startsWith('watch '))).toHaveLength(1);
      h.write('!');
      await h.waitForText('Problems with files: none', 20_000);
      h.write(KEY.esc);
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    },
    scaled(120_000),
  );

  it(
    'says a push change waits for a restart, and says it is undone when taken out again; nothing "applied" unless something was',
    async ({ pty }) => {
      m = makeMachine();
      m.project('alpha', 1);
      const file = path.join(m.home, '.config', 'omc-top', 'config.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '{"title": false}\n');
      const h = pty({ args: ['--all'], cols: 160, rows: 30, cwd: m.base, env: m.env });
      await h.waitForText('alpha  (2 sessions)', 20_000);

      // A channel added (a loopback URL nothing listens on): push stays as it started, off, until a restart.
      fs.writeFileSync(
        file,
        '{"title": false, "push": {"channels": [{"type": "ntfy", "url": "http://127.0.0.1:9/x"}]}}\n',
      );
      await h.waitForText('config file: push: applies when omc-top --all starts again', 20_000);
      expect(h.text()).not.toContain('applied (');

      // Taken out again: the file is back to the push that runs, and the message says so, not "applies when…".
      fs.writeFileSync(file, '{"title": false}\n');
      await h.waitForText('config file: push: as it runs now (the earlier change undone)', 20_000);
      expect(h.text()).not.toContain('starts again');

      // With another change: what applied, then push.
      fs.writeFileSync(file, '{"push": {"channels": [{"type": "ntfy", "url": "http://127.0.0.1:9/y"}]}}\n');
      await h.waitForText('config file: applied (title on); push: applies when omc-top --all starts again', 20_000);
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    },
    scaled(120_000),
  );
});
