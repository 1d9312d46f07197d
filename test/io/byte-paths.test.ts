/**
 * A directory whose name is not UTF-8, held open by its bytes (io/safe-fs/byte-paths.ts) and reached as
 * /proc/self/fd/N: the safe read and contained write paths keep that prefix (their realpath checks would otherwise
 * resolve it back to a lossy text that names nothing), so the notepad and project-memory saves of such a project
 * land inside it, under OMC's locks; its parent is its real parent; it is shown with the byte as \xff.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { describe, it } from '../helpers/it.js';
import { parentPath, pathForBytes, realpathText, showPaths } from '../../src/io/safe-fs/byte-paths.js';
import { cleanLine, terminalSafeJson } from '../../src/io/sanitize.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { createHash } from 'node:crypto';
import { NotepadDomain } from '../../src/store/notepad/domain.js';
import { MemoryDomain } from '../../src/store/memory/domain.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT } from '../helpers/fixtures.js';

/** `<tmp>/proj-\xff` with the real-OMC fixture's .omc; its bytes and the text omc-top reaches it by. */
function heldProject(tempDir: (prefix?: string) => string) {
  const base = tempDir('omc-top-bytes-');
  const raw = Buffer.concat([Buffer.from(`${base}/proj-`), Buffer.from([0xff])]);
  // fs.cpSync takes text paths only: copied under a plain name, then renamed by the bytes.
  fs.cpSync(FIXTURE_TREE, path.join(base, 'staging', '.omc'), { recursive: true });
  fs.renameSync(path.join(base, 'staging'), raw);
  return { base, raw, at: (rel: string) => Buffer.concat([raw, Buffer.from(`/${rel}`)]) };
}

describe('a directory held by its bytes', () => {
  it('is named /proc/self/fd/N, resolves to itself, has its real parent and is shown with \\xff', ({ tempDir }) => {
    const base = tempDir('omc-top-bytes-');
    const raw = Buffer.concat([Buffer.from(`${base}/proj-`), Buffer.from([0xff])]);
    fs.mkdirSync(raw);
    fs.mkdirSync(Buffer.concat([raw, Buffer.from('/.omc')]));
    const held = pathForBytes(raw) as string;
    expect(held).toMatch(/^\/proc\/self\/fd\/\d+$/);
    expect(pathForBytes(Buffer.concat([raw, Buffer.from('/.omc')]))).toBe(`${held}/.omc`);
    expect(realpathText(`${held}/.omc`)).toBe(`${held}/.omc`);
    expect(parentPath(held)).toBe(fs.realpathSync(base));
    const shown = `${fs.realpathSync(base)}/proj-\\xff/.omc`;
    expect(showPaths(`${held}/.omc`)).toBe(shown);
    expect(cleanLine(`root ${held}/.omc`)).toBe(`root ${shown}`);
    expect(JSON.parse(terminalSafeJson({ root: `${held}/.omc` }))).toEqual({ root: shown });
    // omc-top's own files for the root (status cache for `status --tmux`, acknowledgements) are named by its
    // bytes, the same in every process, not by the fd number this process happens to hold it under.
    const bytes = Buffer.concat([fs.realpathSync.native(raw, { encoding: 'buffer' }), Buffer.from('/.omc')]);
    const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    expect(rootFileName('status', `${held}/.omc`)).toBe(`status-${digest}.json`);
  });

  it('the notepad and project-memory saves land inside it, under their locks', async ({ tempDir }) => {
    const p = heldProject(tempDir);
    const root = `${pathForBytes(p.raw) as string}/.omc`;
    const notepad = new NotepadDomain({ root });
    notepad.scan();
    const saved = await notepad.save({ kind: 'add', section: 'manual', body: 'kept by bytes' }, null);
    expect(saved).toMatchObject({ kind: 'saved' });
    expect(fs.readFileSync(p.at('.omc/notepad.md'), 'utf8')).toContain('kept by bytes');

    const memory = new MemoryDomain({ root, clock: () => READERS_CAPTURED_AT });
    memory.scan();
    await memory.save({
      kind: 'add',
      input: { directive: 'Held by bytes', context: 'why', priority: 'normal' },
      timestamp: 1,
    });
    expect(fs.readFileSync(p.at('.omc/project-memory.json'), 'utf8')).toContain('Held by bytes');

    // Nothing was left beside the files (locks, temps), and nothing was made outside: no U+FFFD-named twin.
    const names = fs.readdirSync(p.at('.omc')).filter((n) => n.endsWith('.lock') || n.includes('.tmp.'));
    expect(names).toEqual([]);
    expect(fs.readdirSync(p.base, { encoding: 'buffer' })).toEqual([Buffer.from([...Buffer.from('proj-'), 0xff])]);
  });
});
