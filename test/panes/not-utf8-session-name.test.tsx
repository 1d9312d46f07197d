/**
 * Two session directories whose names are not UTF-8 and decode alike (`bad\xff\xfebytes`, `bad\xfd\xfcbytes`: Node
 * gives both as `bad��bytes`) are two problems, each naming its own directory with its bad bytes as `\xNN`, in the
 * monitor's `!` list and in the store's problems (`--json`'s); they were one problem naming neither (U+FFFD).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { terminalViolations } from '../helpers/hostile-bytes.js';

describe('a session directory whose name is not UTF-8', () => {
  it('is named by its bytes, each bad one as \\xNN, one problem per directory', async ({ app, project }) => {
    const sessions = path.join(project.root, 'state/sessions');
    for (const bytes of [
      [0xff, 0xfe],
      [0xfd, 0xfc],
    ])
      fs.mkdirSync(Buffer.concat([Buffer.from(`${sessions}/bad`), Buffer.from(bytes), Buffer.from('bytes')]));
    const a = await app({ columns: 120, rows: 40, watch: 'poll' });
    const paths = () => a.store.problems.getSnapshot().map((p) => p.path);
    await a.waitForText(/▸ /);
    expect(paths()).toContain('state/sessions/bad\\xff\\xfebytes');
    expect(paths()).toContain('state/sessions/bad\\xfd\\xfcbytes');
    expect(paths().some((p) => p.includes('\ufffd'))).toBe(false);
    await a.press('!');
    const t = await a.waitForText('bad\\xfd\\xfcbytes');
    expect(t).toContain('state/sessions/bad\\xff\\xfebytes');
    expect(t).not.toContain('\ufffd');
    expect(terminalViolations(a.raw())).toEqual([]);
  });
});
