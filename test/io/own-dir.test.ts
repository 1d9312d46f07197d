/**
 * omc-top's own directories ($XDG_STATE_HOME/omc-top, $XDG_CACHE_HOME/omc-top) that cannot be made or written: the
 * error names the real path and the real reason (a file in the way, a read-only filesystem, a full disk), where
 * Node's recursive mkdir says ENOENT for a read-only mount and names the directory it wanted, not the file in the
 * way. The read-only and full cases run on real tmpfs mounts in a private user and mount namespace.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AckFile } from '../../src/feeds/attention/acks.js';
import { ensureOwnDir, ownDirFault, OwnDirError } from '../../src/io/safe-fs/index.js';
import { stateDirCheck } from '../../src/commands/doctor-state.js';
import { Actions } from '../../src/commands/serve/actions.js';
import type { ServeSource } from '../../src/commands/serve/source.js';
import { PermissionsDomain } from '../../src/store/permissions/domain.js';
import { OmcStore } from '../../src/store/store.js';
import { STATE_DIR_USERS } from '../../src/store/state-dir/health.js';
import { inUserNs, shq, userNsSupport } from '../helpers/fault-userns.js';
import { scaled } from '../helpers/time-scale.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-own-dir-'));
  dirs.push(d);
  return d;
}
function thrown(fn: () => void): OwnDirError {
  try {
    fn();
  } catch (e) {
    return e as OwnDirError;
  }
  throw new Error('did not throw');
}

describe('a file where the state directory should be', () => {
  it('ensureOwnDir and doctor name the file in the way, not a path under it', () => {
    const base = scratch();
    const file = path.join(base, 'afile');
    fs.writeFileSync(file, 'x');
    const dir = path.join(file, 'omc-top');
    const e = thrown(() => ensureOwnDir(dir));
    expect(e).toBeInstanceOf(OwnDirError);
    expect(e).toMatchObject({ code: 'ENOTDIR', path: file, dir });
    expect(e.message).toBe(`${file} is a file where a directory was expected, so ${dir} cannot be made`);
    expect(ownDirFault(dir)?.message).toBe(e.message);
    // The own directory itself a file.
    expect(thrown(() => ensureOwnDir(file)).message).toBe(`${file} is a file where a directory was expected`);
    // A directory that can be made is made (mode 0700), and is no fault.
    const ok = path.join(base, 'state', 'omc-top');
    expect(ownDirFault(ok)).toBeNull();
    ensureOwnDir(ok);
    expect(fs.statSync(ok).mode & 0o777).toBe(0o700);
  });

  it('a directory under /proc or /sys is a kernel filesystem to doctor, not a full disk', () => {
    // /sys only where it is mounted as sysfs (a container may leave it out).
    const sysfs = fs.existsSync('/sys') && fs.statfsSync('/sys').type === 0x62656572;
    for (const dir of ['/proc/omc-top-state', ...(sysfs ? ['/sys/omc-top-state/omc-top'] : [])]) {
      expect(ownDirFault(dir)?.message).toBe(
        `${dir.split('/').slice(0, 2).join('/')} is on a kernel filesystem (like /proc or /sys): it holds no files`,
      );
      expect(() => ensureOwnDir(dir)).toThrow();
    }
  });

  it('a symlink planted where the own directory should be is still refused, by ensureOwnDir and doctor', () => {
    const base = scratch();
    const elsewhere = path.join(base, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const dir = path.join(base, 'state', 'omc-top');
    fs.mkdirSync(path.dirname(dir));
    fs.symlinkSync(elsewhere, dir);
    expect(() => ensureOwnDir(dir)).toThrow(`${dir} is a symlink, not a directory`);
    expect(ownDirFault(dir)).toMatchObject({ code: 'ELOOP', path: dir });
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('doctor: a broken "state directory" line naming the file, and what stops working', () => {
    const base = scratch();
    const file = path.join(base, 'afile');
    fs.writeFileSync(file, 'x');
    const c = stateDirCheck({ HOME: base, XDG_STATE_HOME: file, XDG_CACHE_HOME: path.join(base, 'cache') });
    expect(c.status).toBe('broken');
    expect(c.summary).toBe(
      `${file} is a file where a directory was expected, so ${path.join(file, 'omc-top')} cannot be made`,
    );
    expect(c.details.join('\n')).toMatch(
      /acknowledgements .*cancel records.*push lease.*permission listener.*status cache/,
    );
    const fine = stateDirCheck({
      HOME: base,
      XDG_STATE_HOME: path.join(base, 's'),
      XDG_CACHE_HOME: path.join(base, 'c'),
    });
    expect(fine.status).toBe('ok');
  });

  it('an acknowledgement that cannot be kept says where, why, and that the item stays counted', async () => {
    const base = scratch();
    const file = path.join(base, 'afile');
    fs.writeFileSync(file, 'x');
    const acks = new AckFile(path.join(file, 'omc-top'), path.join(base, 'p', '.omc'));
    await expect(acks.ack(['orphaned:x@1'], 1)).rejects.toThrow(
      `not recorded: ${file} is a file where a directory was expected, so ${file}/omc-top cannot be made; the item stays in the count`,
    );
    expect(acks.has('orphaned:x@1')).toBe(false);
  });
});

describe("serve's acknowledge with a file where the state directory should be", () => {
  it('answers 500 with the same words as the TUI (was: a rejection nobody handled)', async () => {
    const base = scratch();
    const file = path.join(base, 'afile');
    fs.writeFileSync(file, 'x');
    const acks = new AckFile(path.join(file, 'omc-top'), path.join(base, 'p', '.omc'));
    const open = [{ id: 'orphaned:x@1', reason: 'orphaned loop' }];
    const source = {
      root: () => ({ monitor: { acks, view: { getSnapshot: () => ({ open }) } } }),
    } as unknown as ServeSource;
    const r = await new Actions(source, false).ack({ root: 'r', ids: ['orphaned:x@1'] });
    expect(r).toEqual({
      status: 500,
      body: {
        error: `not recorded: ${file} is a file where a directory was expected, so ${file}/omc-top cannot be made; the item stays in the count`,
      },
    });
  });
});

describe('the permission listener with a file where the state directory should be', () => {
  it('one problem line, on the file in the way (not on a permissions/requests that does not exist)', () => {
    const base = scratch();
    const file = path.join(base, 'afile');
    fs.writeFileSync(file, 'x');
    const stateDir = path.join(file, 'omc-top');
    const seen = (listen: boolean) => {
      const d = new PermissionsDomain({ stateDir, projectDir: base, live: false, listen });
      d.scan();
      const out = d.problems().map((p) => `${p.path}: ${p.message}`);
      d.dispose();
      return out;
    };
    const why = `is a file where a directory was expected, so ${stateDir} cannot be made`;
    expect(seen(true)).toEqual([
      `${file}: ${why}; cannot register as a listener: permission prompts stay in Claude’s terminal`,
    ]);
    // A monitor that does not listen (--readonly) still reads requests: the same file named.
    expect(seen(false)).toEqual([`${file}: ${why}: permission requests cannot be read`]);
  });
});

describe("the monitor's problems with a file where the state directory should be", () => {
  it('one line on the file in the way: the state directory says what stops working, the listener adds no second', () => {
    const base = scratch();
    const file = path.join(base, 'afile');
    fs.writeFileSync(file, 'x');
    const stateDir = path.join(file, 'omc-top');
    fs.mkdirSync(path.join(base, 'p', '.omc'), { recursive: true });
    const store = new OmcStore({
      root: path.join(base, 'p', '.omc'),
      watch: 'none',
      stateDir,
      answers: { stateDir, listen: true, live: false },
    });
    store.start();
    const onFile = store.problems.getSnapshot().filter((p) => p.path === file);
    void store.close();
    expect(onFile.map((p) => p.message)).toEqual([
      `is a file where a directory was expected, so ${stateDir} cannot be made; not kept: ${STATE_DIR_USERS}`,
    ]);
    // What it stops includes the listener, in the words the listener's own line used.
    expect(STATE_DIR_USERS).toContain('the permission listener (prompts stay in Claude’s terminal)');
  });
});

const support = userNsSupport().mounts;
if (!support.ok) console.warn(`own-dir: real read-only / full mounts skipped, ${support.why}`);

describe.skipIf(!support.ok)('on a real read-only or full filesystem', () => {
  it('read-only: EROFS named (Node alone says ENOENT); full: ENOSPC; doctor and an ack say the same', () => {
    const base = scratch();
    const ro = path.join(base, 'ro');
    const full = path.join(base, 'full');
    fs.mkdirSync(ro);
    fs.mkdirSync(full);
    const mod = (f: string) => JSON.stringify(path.resolve(f));
    const probe = `
      const [f, a, d] = await Promise.all([import(${mod('src/io/safe-fs/index.ts')}), import(${mod('src/feeds/attention/acks.ts')}), import(${mod('src/commands/doctor-state.ts')})]);
      const out = {};
      try { f.ensureOwnDir(${JSON.stringify(`${ro}/omc-top`)}); } catch (e) { out.ro = [e.code, e.message]; }
      try { (await import('node:fs')).mkdirSync(${JSON.stringify(`${ro}/omc-top`)}, { recursive: true }); } catch (e) { out.node = e.code; }
      out.roDoctor = d.stateDirCheck({ XDG_STATE_HOME: ${JSON.stringify(ro)}, XDG_CACHE_HOME: ${JSON.stringify(full)} });
      out.fullDoctor = d.stateDirCheck({ XDG_STATE_HOME: ${JSON.stringify(full)} }).summary;
      try { await new a.AckFile(${JSON.stringify(`${full}/omc-top`)}, '/p/.omc').ack(['orphaned:x@1', 'orphaned:y@1'], 1); } catch (e) { out.fullAck = e.message; }
      console.log(JSON.stringify(out));`;
    const script = [
      `mount -t tmpfs -o size=64k tmpfs ${shq(ro)}`,
      `mount -o remount,bind,ro ${shq(ro)}`,
      `mount -t tmpfs -o size=64k tmpfs ${shq(full)}`,
      `(dd if=/dev/zero of=${shq(`${full}/fill`)} bs=4k 2>/dev/null; true)`,
      `exec ${shq(process.execPath)} --import tsx --input-type=module -e ${shq(probe)}`,
    ].join(' && ');
    const { file, args } = inUserNs(script, { mount: true });
    const r = spawnSync(file, args, { encoding: 'utf8', timeout: scaled(60_000) });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as {
      ro: [string, string];
      node: string;
      roDoctor: { status: string; summary: string; details: string[] };
      fullDoctor: string;
      fullAck: string;
    };
    expect(out.node).toBe('ENOENT'); // why the real reason has to be found
    expect(out.ro).toEqual(['EROFS', `${ro}/omc-top cannot be made: read-only filesystem (EROFS)`]);
    expect(out.roDoctor.status).toBe('broken');
    expect(out.roDoctor.summary).toBe(out.ro[1]);
    expect(out.roDoctor.details.join('\n')).toContain(`code cache: ${full}: disk full (ENOSPC)`);
    expect(out.fullDoctor).toBe(`${full}: disk full (ENOSPC)`);
    expect(out.fullAck).toBe(`not recorded: ${full}/omc-top: disk full (ENOSPC); the items stay in the count`);
  });
});
