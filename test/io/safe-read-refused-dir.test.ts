/**
 * A file under a directory this user may not search (chmod 000 by its owner; OMC writes 0700 / 0600): it is there,
 * out of reach. Every safe read says so (permission denied), never "vanished": the sessions domain keeps what it
 * last read of such a file as unreadable, where "missing" dropped it and told the user its loop had stopped. The
 * refusal is injected as the kernel gives it (test/helpers/read-faults.ts); a fresh directory, so no resolution of
 * it is remembered from before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { refuseReads, type ReadFault } from '../helpers/read-faults.js';
import { listDirSync, readTextSync } from '../../src/io/safe-fs/index.js';

let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

describe('a file under a directory omc-top may not search', () => {
  it.for(['EACCES', 'EIO'] as const)('is refused (%s), not missing', (code, { tempDir }) => {
    const root = tempDir('omc-top-refused-');
    const dir = path.join(root, 'state', 'sessions');
    fs.mkdirSync(path.join(dir, 'x'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'x', 'ralph-state.json'), '{}');
    fault = refuseReads(code, (abs) => abs === dir || abs.startsWith(`${dir}/`));
    const r = readTextSync(root, 'state/sessions/x/ralph-state.json');
    expect(r).toMatchObject({ ok: false, code: code === 'EIO' ? 'io' : 'permission' });
    expect((r as { message: string }).message).toMatch(code === 'EIO' ? /read failed \(EIO\)/ : /permission denied/);
    expect(listDirSync(root, 'state/sessions/x')).toMatchObject({
      ok: false,
      code: code === 'EIO' ? 'io' : 'permission',
    });
    // One truly gone is still missing.
    fault.restore();
    fault = null;
    expect(readTextSync(root, 'state/sessions/y/ralph-state.json')).toMatchObject({ ok: false, code: 'missing' });
  });
});
