/**
 * The same promise as save-errors.test.tsx, on a real filesystem with the
 * real bundle: the project lives on a 2 MB tmpfs mounted in a private mount
 * namespace (no root needed), which we then fill to the last page (ENOSPC) or
 * remount read-only (EROFS) while omc-top runs in a pty. The user's draft
 * must stay on screen with the specific reason, the files must be
 * byte-for-byte unchanged with no temp or lock file left, and once there is
 * space again the same key saves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { omcTopCommand, PtyRun, shq } from '../helpers/fault-pty.js';
import { inUserNs, nsExec, userNsSupport } from '../helpers/fault-userns.js';
import { FIXTURE_TREE } from '../helpers/fixtures.js';
import { KEY } from '../helpers/keys.js';

const CTRL_S = '\u0013';
const support = userNsSupport().mounts;
if (!support.ok) console.warn(`save-errors-real: skipped, ${support.why}`);

let run: PtyRun | null = null;
let mnt: string | null = null;
afterEach(() => {
  run?.dispose();
  run = null;
  // The tmpfs lives only in the (now dead) namespace; the mount point is an empty host directory.
  if (mnt) fs.rmSync(mnt, { recursive: true, force: true });
  mnt = null;
});

/** omc-top on a copy of the fixture on a fresh 2 MB tmpfs; `sh(script)` runs inside its namespaces. */
async function start(): Promise<{ r: PtyRun; sh: (script: string) => string; root: string }> {
  mnt = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-tmpfs-'));
  const root = path.join(mnt, '.omc');
  const script = [
    `mount -t tmpfs -o size=2m,mode=0700 tmpfs ${shq(mnt)}`,
    `cp -a ${shq(FIXTURE_TREE)} ${shq(root)}`,
    `cd ${shq(mnt)}`,
    `exec ${omcTopCommand(['--root', root])}`,
  ].join(' && ');
  const { file, args } = inUserNs(script, { mount: true });
  const r = new PtyRun({ file, args, cols: 100, rows: 30 });
  run = r;
  await r.waitForText('ralph 3/10');
  return { r, root, sh: (s: string) => nsExec(r.pid, s, { mount: true }) };
}

/** Every file under the root with its checksum, and any temp or lock file (seen from inside the namespace). */
function state(sh: (s: string) => string, root: string): { sums: string; strays: string } {
  return {
    sums: sh(
      `cd ${shq(root)} && find . -type f ! -name '*.lock' ! -name '*.tmp.*' -print0 | sort -z | xargs -0 sha256sum`,
    ),
    strays: sh(`cd ${shq(root)} && find . -name '*.tmp.*' -o -name '*.lock' -o -name '*.lock.*.tmp'`).trim(),
  };
}

describe.skipIf(!support.ok)('saving onto a real full / read-only filesystem', () => {
  it('disk full (a real tmpfs, filled to the last page): notepad and directive drafts kept, nothing written; after freeing space Ctrl-S saves', async () => {
    const { r, sh, root } = await start();
    r.write('n');
    await r.waitForText('Working');
    r.write('a');
    await r.waitForText('New Working Memory entry');
    r.write('typed while the disk filled up');
    await r.waitForText('typed while the disk filled up');

    sh(`dd if=/dev/zero of=${shq(`${mnt}/filler`)} bs=64k 2>/dev/null; df -k ${shq(mnt!)} | tail -1`);
    expect(sh(`df -k ${shq(mnt!)} | tail -1`)).toMatch(/\s0\s+100%/);
    const before = state(sh, root);
    expect(before.strays).toBe('');

    r.write(CTRL_S);
    await r.waitForText(/disk full \(ENOSPC\) \(your draft is kept\)/);
    expect(r.text()).toContain('New Working Memory entry');
    expect(r.text()).toContain('typed while the disk filled up');
    expect(state(sh, root)).toEqual(before);

    // Leave the draft in the editor, try a directive too: same story.
    r.write(KEY.esc);
    await r.waitForText('Discard your draft?');
    r.write('n');
    await r.waitForText('New Working Memory entry');

    // Space comes back: the same Ctrl-S saves the same draft (no lock was left behind to wait on).
    sh(`rm ${shq(`${mnt}/filler`)}`);
    r.write(CTRL_S);
    await r.waitForText('added Working Memory entry');
    expect(sh(`cat ${shq(`${root}/notepad.md`)}`)).toMatch(
      /### \d{4}-\d\d-\d\d \d\d:\d\d\ntyped while the disk filled up\n/,
    );
    expect(state(sh, root).strays).toBe('');

    r.write('m');
    await r.waitForText('PRIORITY');
    r.write('a');
    r.write('Never lose a draft');
    await r.waitForText('Never lose a draft');
    sh(`dd if=/dev/zero of=${shq(`${mnt}/filler`)} bs=64k 2>/dev/null; true`);
    const full = state(sh, root);
    r.write(KEY.enter);
    await r.waitForText(/save directive: disk full \(ENOSPC\)/);
    expect(r.text()).toContain('Never lose a draft');
    expect(state(sh, root)).toEqual(full);
    sh(`rm ${shq(`${mnt}/filler`)}`);
    r.write(KEY.enter);
    await r.waitForText('directive added');
    expect(
      JSON.parse(sh(`cat ${shq(`${root}/project-memory.json`)}`)).userDirectives.map(
        (d: { directive: string }) => d.directive,
      ),
    ).toContain('Never lose a draft');
  });

  it('read-only filesystem (a real ro remount): notepad and directive drafts kept with the EROFS reason, nothing written', async () => {
    const { r, sh, root } = await start();
    sh(`mount -o remount,bind,ro ${shq(mnt!)}`);
    expect(() => sh(`touch ${shq(`${root}/probe`)}`)).toThrow(/Read-only file system/);
    const before = state(sh, root);

    r.write('n');
    await r.waitForText('Working');
    r.write('3');
    r.write('a');
    await r.waitForText('New MANUAL entry');
    r.write('written on a read-only mount');
    r.write(CTRL_S);
    await r.waitForText(/read-only filesystem \(EROFS\) \(your draft is kept\)/);
    expect(r.text()).toContain('written on a read-only mount');

    r.write(KEY.esc);
    await r.waitForText('Discard your draft?');
    r.write('y');
    r.write('m');
    await r.waitForText('PRIORITY');
    r.write('a');
    r.write('Directive on a read-only mount');
    r.write(KEY.enter);
    await r.waitForText(/save directive: read-only filesystem \(EROFS\)/);
    expect(r.text()).toContain('Directive on a read-only mount');
    expect(state(sh, root)).toEqual(before);
  });
});
