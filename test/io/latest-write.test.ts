// The background atomic write (safe-fs atomicWrite) and the one-file writer on it (LatestFileWrite): on the real file
// system in a temp dir; every wait is on a write settling, never a sleep.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicWrite, LatestFileWrite } from '../../src/io/safe-fs/index.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-latest-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const temps = () => fs.readdirSync(dir).filter((n) => n.includes('.tmp.'));
const onDisk = () => fs.readFileSync(path.join(dir, 'f.json'), 'utf8');

/** The real background write, counting how many run at once and how many there were. */
function counted() {
  const seen = { running: 0, most: 0, calls: 0 };
  const write: typeof atomicWrite = async (...args) => {
    seen.calls++;
    seen.most = Math.max(seen.most, ++seen.running);
    try {
      return await atomicWrite(...args);
    } finally {
      seen.running--;
    }
  };
  return { seen, write };
}

describe('atomicWrite (in the background)', () => {
  it('replaces the file, mode 0600, and leaves no temp', async () => {
    fs.writeFileSync(path.join(dir, 'f.json'), 'old');
    await expect(atomicWrite(dir, 'f.json', 'new')).resolves.toBe(true);
    expect(onDisk()).toBe('new');
    expect(fs.statSync(path.join(dir, 'f.json')).mode & 0o777).toBe(0o600);
    expect(temps()).toEqual([]);
  });

  it('refuses a symlink or a directory at the target, as the synchronous one does, and leaves no temp', async () => {
    fs.writeFileSync(path.join(dir, 'elsewhere'), 'kept');
    fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'f.json'));
    await expect(atomicWrite(dir, 'f.json', 'x')).rejects.toThrow(/refusing to write f\.json: it is a symlink/);
    expect(fs.readFileSync(path.join(dir, 'elsewhere'), 'utf8')).toBe('kept');
    fs.mkdirSync(path.join(dir, 'd.json'));
    await expect(atomicWrite(dir, 'd.json', 'x')).rejects.toThrow(/it is a directory/);
    expect(temps()).toEqual([]);
  });

  it('stays inside the root', async () => {
    await expect(atomicWrite(dir, '../out.json', 'x')).rejects.toThrow();
    expect(fs.existsSync(path.join(path.dirname(dir), 'out.json'))).toBe(false);
  });

  it('a write told not to commit leaves the file as it was and no temp', async () => {
    fs.writeFileSync(path.join(dir, 'f.json'), 'old');
    await expect(atomicWrite(dir, 'f.json', 'new', { commit: () => false })).resolves.toBe(false);
    expect(onDisk()).toBe('old');
    expect(temps()).toEqual([]);
  });
});

describe('LatestFileWrite', () => {
  it('a burst: one write at a time, the newest content on disk at the end, no temp left', async () => {
    const { seen, write } = counted();
    const w = new LatestFileWrite(dir, 'f.json', undefined, write);
    for (let i = 1; i <= 50; i++) w.write(JSON.stringify({ i }));
    await w.idle();
    expect(JSON.parse(onDisk())).toEqual({ i: 50 });
    expect(seen.most).toBe(1);
    // The first started at once; the 49 handed in while it ran replaced each other: one more write, the newest.
    expect(seen.calls).toBe(2);
    expect(w.unconfirmed).toBe(false);
    expect(temps()).toEqual([]);
  });

  it('a failed write is reported, stays unconfirmed, and is written once the way is clear', async () => {
    const errors: string[] = [];
    fs.mkdirSync(path.join(dir, 'f.json')); // something that is not a file where the file goes
    const w = new LatestFileWrite(dir, 'f.json', (e) => errors.push((e as Error).message));
    w.write('one');
    w.write('two');
    await w.idle();
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatch(/it is a directory/);
    expect(w.unconfirmed).toBe(true);
    expect(temps()).toEqual([]);
    fs.rmdirSync(path.join(dir, 'f.json'));
    expect(w.flushSync()).toBe(true); // the exit's write carries it
    expect(onDisk()).toBe('two');
  });

  it('flushSync (an exit) writes the newest now; the write still in flight never lands over it', async () => {
    const w = new LatestFileWrite(dir, 'f.json');
    w.write('older');
    expect(w.flushSync('newest')).toBe(true);
    expect(onDisk()).toBe('newest'); // synchronously: nothing waited for
    await w.idle();
    expect(onDisk()).toBe('newest');
    expect(temps()).toEqual([]);
    expect(w.flushSync()).toBe(false); // nothing left unconfirmed
  });

  it('a write handed in after an exit flush still goes out', async () => {
    const w = new LatestFileWrite(dir, 'f.json');
    w.write('a');
    w.flushSync();
    w.write('b');
    await w.idle();
    expect(onDisk()).toBe('b');
    expect(temps()).toEqual([]);
  });

  it('drop (an owner about to remove the file): the write in flight never lands, nothing is left to write', async () => {
    const w = new LatestFileWrite(dir, 'f.json');
    w.write('first');
    await w.idle();
    w.write('second');
    w.drop();
    fs.rmSync(path.join(dir, 'f.json'));
    await w.idle();
    expect(fs.existsSync(path.join(dir, 'f.json'))).toBe(false);
    expect(w.unconfirmed).toBe(false);
    expect(temps()).toEqual([]);
  });
});

describe('LatestFileWrite: what a killed monitor left behind', () => {
  it('removes its own stale temps at the first write, keeps young ones, other files and what a symlink points at', async () => {
    const old = Date.now() / 1000 - 3600;
    const at = (n: string) => path.join(dir, n);
    fs.writeFileSync(at('.f.json.tmp.dead'), 'half');
    fs.utimesSync(at('.f.json.tmp.dead'), old, old);
    fs.writeFileSync(at('.f.json.tmp.young'), 'in flight elsewhere');
    fs.writeFileSync(at('.other.json.tmp.dead'), 'not ours');
    fs.utimesSync(at('.other.json.tmp.dead'), old, old);
    fs.writeFileSync(at('target'), 'kept');
    fs.symlinkSync(at('target'), at('.f.json.tmp.link'));
    fs.lutimesSync(at('.f.json.tmp.link'), old, old);

    const w = new LatestFileWrite(dir, 'f.json');
    w.write('new');
    await w.idle();

    expect(onDisk()).toBe('new');
    expect(temps().sort()).toEqual(['.f.json.tmp.link', '.f.json.tmp.young', '.other.json.tmp.dead']);
    expect(fs.readFileSync(at('target'), 'utf8')).toBe('kept');
  });

  it('a first write into a directory that is missing throws nothing from the sweep: the write reports its error', async () => {
    const errors: unknown[] = [];
    const w = new LatestFileWrite(dir, 'missing/f.json', (e) => errors.push(e));
    expect(() => w.write('x')).not.toThrow();
    await w.idle();
    expect(errors).toHaveLength(1);
    expect(w.unconfirmed).toBe(true);
  });
});
