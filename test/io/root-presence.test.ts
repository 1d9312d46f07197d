/**
 * The root's presence: removed, back, or replaced by another directory at the
 * same path — including one made at once that reuses the old inode (ext4 does).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rootIdentity, watchRootPresence, type RootChange } from '../../src/io/watch/root-presence.js';
import { waitFor } from '../helpers/fixtures.js';

let dir: string | null = null;
let close: (() => void) | null = null;
afterEach(() => {
  close?.();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = close = null;
});
const tmpRoot = () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-presence-'));
  const root = path.join(dir, '.omc');
  fs.mkdirSync(root);
  return root;
};

describe('root presence', () => {
  it('a directory removed and made again at once has another identity, whatever its inode', () => {
    const root = tmpRoot();
    for (let i = 0; i < 5; i++) {
      const before = rootIdentity(root);
      fs.rmSync(root, { recursive: true });
      fs.mkdirSync(root);
      expect(rootIdentity(root)).not.toBe(before);
    }
    fs.rmSync(root, { recursive: true });
    fs.writeFileSync(root, 'not a directory');
    expect(rootIdentity(root)).toBeNull();
  });

  it('reports gone, back, and a replacement made at once', async () => {
    const root = tmpRoot();
    const seen: RootChange[] = [];
    const p = watchRootPresence({ root, onChange: (c) => seen.push(c), checkMs: 60_000 });
    close = p.close;
    fs.rmSync(root, { recursive: true });
    await waitFor(() => seen.includes('gone'), { what: 'gone' });
    expect(p.present).toBe(false);
    fs.mkdirSync(root);
    await waitFor(() => seen.includes('back'), { what: 'back' });
    fs.rmSync(root, { recursive: true });
    fs.mkdirSync(root);
    await waitFor(() => seen.includes('replaced'), { what: 'replaced (the parent named the root)' });
    expect(p.present).toBe(true);
  });

  it('a file put where the root was is said as such (another "gone"), and the directory back again is "back"', async () => {
    const root = tmpRoot();
    const seen: string[] = [];
    const p = watchRootPresence({
      root,
      onChange: (c) => seen.push(`${c} ${p.absence?.code ?? 'here'}`),
      checkMs: 60_000,
    });
    close = p.close;
    const aside = `${root}.aside`;
    fs.renameSync(root, aside);
    await waitFor(() => seen.includes('gone missing'), { what: 'gone' });
    fs.writeFileSync(root, 'not a directory');
    await waitFor(() => seen.includes('gone not-a-directory'), { what: 'a file in its place' });
    expect(p.absence).toEqual({ code: 'not-a-directory', kind: 'a file' });
    fs.rmSync(root);
    fs.renameSync(aside, root);
    await waitFor(() => seen.includes('back here'), { what: 'back' });
    expect(p.absence).toBeNull();
  });
});
