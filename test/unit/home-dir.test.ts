/** The home directory every path under it is built on is absolute, whatever $HOME holds. */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeDir } from '../../src/io/home-dir.js';
import { ownStateDir } from '../../src/io/state-dir.js';
import { codeCacheDir } from '../../src/io/code-cache.js';

const account = os.userInfo().homedir;

describe('homeDir', () => {
  it('takes an absolute $HOME as it is', () => {
    expect(homeDir({ HOME: '/home/someone' })).toBe('/home/someone');
  });

  it('takes a $HOME set but empty, or relative, as unset: the account home, never a path under the current directory', () => {
    for (const HOME of ['', 'rel', './x', ' ']) {
      const h = homeDir({ HOME });
      expect(path.isAbsolute(h)).toBe(true);
      expect(h).toBe(account);
    }
  });

  it("without HOME in the env it gives, this process's own home", () => {
    expect(homeDir({})).toBe(os.homedir());
  });

  it('the state and cache directories follow it (an empty HOME and no XDG variables)', () => {
    expect(ownStateDir({ HOME: '' })).toBe(path.join(account, '.local', 'state', 'omc-top'));
    expect(codeCacheDir({ HOME: '' })).toBe(path.join(account, '.cache', 'omc-top'));
  });
});
