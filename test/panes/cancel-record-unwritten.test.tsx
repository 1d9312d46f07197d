/**
 * A cancel whose record for other omc-top processes (cancels-<root>.json in omc-top's state directory) cannot be
 * written: the cancel on .omc happened all the same, and its own message says the record was not written, where
 * and why, in the monitor (c y) and in `omc-top cancel`, human and --json. The state directory here sits under a
 * regular file (ENOTDIR), a real condition that needs no privileges.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { OmcStore } from '../../src/store/store.js';
import { mountStore } from '../helpers/mount-app.js';
import { makeProject, SESSION, type TempProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const S = SESSION.ralph;
const ralphRel = `state/sessions/${S}/ralph-state.json`;

/** The fixture with the ralph session live, and a state directory that cannot be made (a file is in the way). */
function world(): { p: TempProject; file: string; stateDir: string } {
  const p = makeProject({ withFixture: true });
  cleanups.push(() => p.cleanup());
  const abs = path.join(p.root, ralphRel);
  writeOmcJson(abs, {
    ...(JSON.parse(fs.readFileSync(abs, 'utf8')) as object),
    session_id: S,
    last_checked_at: new Date().toISOString(),
  });
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-unrecorded-'));
  cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
  const file = path.join(base, 'afile');
  fs.writeFileSync(file, 'x');
  return { p, file, stateDir: path.join(file, 'omc-top') };
}

describe('a cancel whose record cannot be written', () => {
  it('the monitor: the loop is ended, and the message says the record was not written, where and why', async () => {
    const { p, file, stateDir } = world();
    const store = new OmcStore({ root: p.root, watch: 'poll', stateDir });
    store.start();
    const app = mountStore(store, { columns: 400, rows: 24 });
    cleanups.push(app.unmount);
    await app.ready;
    const until = (re: RegExp) =>
      waitFor(() => re.test(app.text()) || null, { what: `${re} on screen`, timeoutMs: 8000 }).catch((e) => {
        throw new Error(`${(e as Error).message}\n${app.text()}`);
      });
    await until(/▸ enforced\s+88727f43\S* ralph 3\/10/);
    app.send('c');
    await until(/y: cancel the loop/);
    app.send('y');
    await until(/its cancel record was not written/);
    expect(fs.existsSync(path.join(p.root, ralphRel))).toBe(false);
    expect(app.text()).toContain(`ralph, ultrawork ended on disk in ${S}: no targeted mode is active;`);
    expect(app.text()).toContain(
      `; its cancel record was not written (${file} is a file where a directory was expected, so ${stateDir} cannot be made)`,
    );
  });

  it('omc-top cancel: the same words, human and --json; the cancel itself succeeded', async () => {
    const { p, file, stateDir } = world();
    const cancel = async (...args: string[]) => {
      let out = '';
      const code = await runCancelCommand([S, '--cwd', p.dir, '--omc-version', '5.5.0', ...args], {
        out: (t) => void (out += t),
        err: (t) => void (out += t),
        cwd: p.dir,
        now: Date.now,
        env: { HOME: path.dirname(file), XDG_STATE_HOME: file, CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude') },
      });
      return { code, out };
    };
    const why = `${file} is a file where a directory was expected, so ${stateDir} cannot be made`;
    const human = await cancel();
    expect(human.code).toBe(0);
    expect(human.out).toContain(
      `  cancel record: not written (${why}): other omc-tops will not say if it does not take\n`,
    );
    expect(fs.existsSync(path.join(p.root, ralphRel))).toBe(false);

    fs.rmSync(path.join(p.root, 'state', 'sessions', S, 'cancel-signal-state.json'), { force: true });
    writeOmcJson(path.join(p.root, ralphRel), {
      active: true,
      iteration: 3,
      max_iterations: 10,
      session_id: S,
      started_at: new Date(Date.now() - 60_000).toISOString(),
      last_checked_at: new Date().toISOString(),
      prompt: 'again',
    });
    const json = await cancel('--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ ok: true, cancel_record_problem: why });
  });
});
