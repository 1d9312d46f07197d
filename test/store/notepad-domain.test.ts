/**
 * The notepad domain against the disk: OMC's lock, --readonly, live updates,
 * and a race where another process appends through OMC's own code while
 * omc-top saves: nothing from either side may be lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { acquireFileLock, LockBusyError } from '../../src/io/file-lock.js';
import { NotepadDomain } from '../../src/store/notepad/domain.js';
import { NOTEPAD_TEMPLATE } from '../../src/store/notepad/format.js';
import { FIXTURE_TREE, waitFor, type TempProject } from '../helpers/fixtures.js';
import { OMC_NOTEPAD_MODULE, loadOmcNotepad } from '../helpers/omc-notepad.js';
import { scaled } from '../helpers/time-scale.js';

const notepadFile = (p: TempProject) => path.join(p.root, 'notepad.md');
const lockFile = (p: TempProject) => `${notepadFile(p)}.lock`;

function freshDomain(p: TempProject, opts: { readonly?: boolean; lockTimeoutMs?: number } = {}): NotepadDomain {
  fs.copyFileSync(path.join(FIXTURE_TREE, 'notepad.md'), notepadFile(p));
  const d = new NotepadDomain({ root: p.root, ...opts });
  d.scan();
  return d;
}

describe("saving through OMC's notepad.md.lock", () => {
  it('writes atomically, releases the lock and publishes the new reading at once', async ({ emptyProject: p }) => {
    const d = freshDomain(p);
    const ino = fs.statSync(notepadFile(p)).ino;
    const out = await d.save({ kind: 'add', section: 'manual', body: 'from omc-top' }, d.getSnapshot().revision);
    expect(out).toMatchObject({ kind: 'saved', merged: false });
    expect(fs.existsSync(lockFile(p))).toBe(false);
    // A rename replaced the file (readers never see a half-written one).
    expect(fs.statSync(notepadFile(p)).ino).not.toBe(ino);
    expect(fs.readdirSync(p.root).filter((f) => f.includes('.tmp.'))).toEqual([]);
    expect(d.getSnapshot().sections.manual.entries.at(-1)?.body).toBe('from omc-top');
  });

  it('waits for a lock OMC holds and writes once it is released', async ({ emptyProject: p }) => {
    const d = freshDomain(p, { lockTimeoutMs: 3000 });
    const held = await acquireFileLock(p.root, 'notepad.md');
    const saving = d.save({ kind: 'add', section: 'working', body: 'queued behind OMC' }, null);
    await waitFor(() => fs.existsSync(lockFile(p)));
    expect(fs.readFileSync(notepadFile(p), 'utf8')).not.toContain('queued behind OMC');
    held.release();
    expect((await saving).kind).toBe('saved');
    expect(fs.readFileSync(notepadFile(p), 'utf8')).toContain('queued behind OMC');
  });

  it('gives up with a clear message when the lock stays held, leaving the file and the lock alone', async ({
    emptyProject: p,
  }) => {
    const d = freshDomain(p, { lockTimeoutMs: 200 });
    const before = fs.readFileSync(notepadFile(p));
    const held = await acquireFileLock(p.root, 'notepad.md');
    await expect(d.save({ kind: 'add', section: 'working', body: 'x' }, null)).rejects.toThrow(LockBusyError);
    await expect(d.save({ kind: 'add', section: 'working', body: 'x' }, null)).rejects.toThrow(
      /notepad\.md\.lock is held by pid \d+.*Nothing was changed/,
    );
    expect(fs.readFileSync(notepadFile(p)).equals(before)).toBe(true);
    expect(fs.existsSync(lockFile(p))).toBe(true);
    held.release();
  });

  it('refuses over-limit text before touching the lock (no wait even while OMC holds it)', async ({
    emptyProject: p,
  }) => {
    const d = freshDomain(p, { lockTimeoutMs: 5000 });
    const held = await acquireFileLock(p.root, 'notepad.md');
    const t0 = Date.now();
    const out = await d.save({ kind: 'add', section: 'working', body: 'z'.repeat(4001) }, null);
    expect(Date.now() - t0).toBeLessThan(scaled(1000));
    expect(out).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/4,000 characters/) });
    held.release();
  });

  it('--readonly: nothing is written and no lock is taken', async ({ emptyProject: p }) => {
    const d = freshDomain(p, { readonly: true });
    const before = fs.readFileSync(notepadFile(p));
    const out = await d.save({ kind: 'add', section: 'working', body: 'x' }, null);
    expect(out).toMatchObject({ kind: 'refused', message: expect.stringMatching(/--readonly/) });
    expect(fs.readFileSync(notepadFile(p)).equals(before)).toBe(true);
    expect(fs.existsSync(lockFile(p))).toBe(false);
  });

  it("creates notepad.md with OMC's template when there is none", async ({ emptyProject: p }) => {
    const d = new NotepadDomain({ root: p.root, clock: () => Date.parse('2026-11-30T18:42:10Z') });
    d.scan();
    expect(d.getSnapshot().status).toBe('missing');
    await d.save({ kind: 'add', section: 'working', body: 'first note' }, null);
    expect(fs.readFileSync(notepadFile(p), 'utf8')).toBe(
      NOTEPAD_TEMPLATE.replace(
        '<!-- Session notes. Auto-pruned after 7 days. -->\n\n',
        '<!-- Session notes. Auto-pruned after 7 days. -->\n### 2026-11-30 18:42\nfirst note\n\n\n',
      ),
    );
  });
});

describe('race: OMC appends from another process while omc-top saves', () => {
  it('loses nothing from either side', async ({ emptyProject: p }) => {
    const d = freshDomain(p, { lockTimeoutMs: 10_000 });
    const base = d.getSnapshot().revision;
    const minOmc = 120;
    const minOurs = 10;
    // Made once omc-top has saved minOurs times: OMC keeps appending until then (at least minOmc entries), so
    // the two interleave however slowly either side runs on a loaded machine.
    const enough = path.join(p.dir, 'enough');
    // A child node process running OMC's own addWorkingMemoryEntry (sync lock, 5 s timeout).
    const script = `
      const fs = await import('node:fs');
      const m = await import(${JSON.stringify(OMC_NOTEPAD_MODULE)});
      process.stdout.write('ready\\n');
      let failed = 0;
      let i = 0;
      // A short pause between appends, like hooks firing in a real session.
      const pause = new Int32Array(new SharedArrayBuffer(4));
      for (; i < ${minOmc} || (!fs.existsSync(process.argv[2]) && i < 20000); i++) {
        if (!m.addWorkingMemoryEntry(process.argv[1], 'omc entry ' + i)) failed++;
        Atomics.wait(pause, 0, 0, 4);
      }
      process.stdout.write('count=' + i + ' failed=' + failed + '\\n');
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, p.dir, enough], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number>((r) => child.on('exit', (c) => r(c ?? -1)));
    await waitFor(() => out.includes('ready'), { timeoutMs: 15_000, what: 'OMC child to start' });

    const ours: string[] = [];
    const outcomes: string[] = [];
    const omcWritten = () => (fs.readFileSync(notepadFile(p), 'utf8').match(/^omc entry \d+$/gm) ?? []).length;
    const omcDone = () => out.includes('failed=');
    let i = 0;
    // Save while OMC is appending; between our saves, wait until OMC got the lock
    // at least once (a back-to-back loop would starve OMC's 50 ms lock retries,
    // which no user typing Ctrl-S does).
    while (!omcDone()) {
      const body = `omc-top entry ${i}`;
      ours.push(body);
      const section = i % 2 === 0 ? 'working' : 'manual';
      const r = await d.save({ kind: 'add', section, body }, base);
      outcomes.push(r.kind === 'saved' && r.merged ? 'merged' : r.kind);
      i++;
      if (i === minOurs) fs.writeFileSync(enough, '');
      const seen = omcWritten();
      await waitFor(() => omcDone() || omcWritten() > seen, { timeoutMs: 10_000, what: 'OMC to write again' });
    }
    expect(await exited).toBe(0);
    expect(out).toContain(' failed=0');
    const omcCount = Number(/count=(\d+)/.exec(out)?.[1]);
    expect(omcCount).toBeGreaterThanOrEqual(minOmc);
    expect(outcomes.every((o) => o === 'saved' || o === 'merged')).toBe(true);
    // Our saves really interleaved with OMC's writes.
    expect(outcomes.filter((o) => o === 'merged').length).toBeGreaterThan(0);

    const omc = await loadOmcNotepad();
    const working = omc.getWorkingMemory(p.dir) ?? '';
    const manual = omc.getManualSection(p.dir) ?? '';
    const workingLines = new Set(working.split('\n'));
    const manualLines = new Set(manual.split('\n'));
    const lostOmc = Array.from({ length: omcCount }, (_, k) => `omc entry ${k}`).filter((b) => !workingLines.has(b));
    const lostOurs = ours.filter((b, k) => !(k % 2 === 0 ? workingLines : manualLines).has(b));
    expect({ lostOmc, lostOurs }).toEqual({ lostOmc: [], lostOurs: [] });
    expect(ours.length).toBeGreaterThanOrEqual(minOurs);
    expect(fs.existsSync(lockFile(p))).toBe(false);
  });
});

describe('live updates', () => {
  it("shows OMC's writes as they happen and notices the file going away", async ({ emptyProject: p, newStore }) => {
    const store = newStore({ root: p.root, watch: 'auto' });
    const d = store.notepad;
    store.start();
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    const omc = await loadOmcNotepad();
    omc.addWorkingMemoryEntry(p.dir, 'live one');
    await waitFor(() => d.getSnapshot().sections.working.entries.some((e) => e.body === 'live one'), {
      what: 'first entry',
    });
    omc.addWorkingMemoryEntry(p.dir, 'live two');
    await waitFor(() => d.getSnapshot().sections.working.entries.some((e) => e.body === 'live two'), {
      what: 'second entry',
    });
    expect(store.reportExtras().notepad).toMatchObject({
      status: 'ok',
      working_entries: 2,
      orphan_blocks: 0,
      editable: true,
    });
    fs.rmSync(notepadFile(p));
    await waitFor(() => d.getSnapshot().status === 'missing', { what: 'missing' });
  });
});
