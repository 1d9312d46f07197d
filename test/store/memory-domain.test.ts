/**
 * project-memory.json as a live domain: a bad file becomes one specific
 * problem line while the last good value stays on screen; saves hold OMC's
 * lock, merge with what OMC wrote meanwhile or refuse with a reason, and
 * --readonly writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { MemoryDomain } from '../../src/store/memory/domain.js';
import { READERS_CAPTURED_AT, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';

function setup(p: TempProject, opts: { readonly?: boolean; lockTimeoutMs?: number } = {}) {
  const file = path.join(p.root, 'project-memory.json');
  const d = new MemoryDomain({ root: p.root, clock: () => READERS_CAPTURED_AT, ...opts });
  d.scan();
  return { file, d, root: p.root, memory: () => JSON.parse(fs.readFileSync(file, 'utf8')) };
}

describe('reading', () => {
  it('shows the directives in OMC ranking with their fate, and the compact summary', ({ project: p }) => {
    const { d } = setup(p);
    const m = d.model(READERS_CAPTURED_AT)!;
    expect(m.directives.map((r) => [r.rank, r.directive.priority, r.injection])).toEqual([
      [1, 'high', 'injected'],
      [2, 'high', 'injected'],
      [3, 'high', 'injected'],
      [4, 'high', 'not-top'],
      [5, 'normal', 'not-top'],
      [6, 'normal', 'not-top'],
      [7, 'normal', 'not-top'],
    ]);
    expect(m.summary.stack).toBe('JavaScript/TypeScript · react · pkg pnpm · Node.js 20 · react-dom · vite · vitest');
    expect(m.summary.commands).toBe('build pnpm build · test pnpm test · lint pnpm lint · dev pnpm dev');
    expect(m.summary.hotPaths[0]).toBe('src/api/checkout.ts (2x)');
    expect(m.injection.startsWith('<project-memory-context>\n\n[PROJECT MEMORY]\n\n[Project Environment]')).toBe(true);
    expect(m.summaryCut).toBe(true);
    expect(d.problems()).toEqual([]);
    expect(d.getSnapshot().writeBlock).toBeNull();
  });

  it('a later session start rescans a day-old memory: the preview drops hot paths and says so', ({ project: p }) => {
    const { d } = setup(p);
    const later = READERS_CAPTURED_AT + 25 * 3_600_000;
    const m = d.model(later)!;
    expect(m.rescanDue).toBe(true);
    expect(m.injection).not.toContain('[Hot Paths]');
    expect(m.injectionNote).toMatch(/over 24 h old.*drops hot paths/);
  });

  it.for([
    ['truncated JSON', '{"version": "1.0.0", "userDirec', /truncated JSON/],
    ['not an object', '[1, 2, 3]', /not a JSON object/],
    ['empty file', '', /file is empty/],
  ] as const)('%s: a specific problem, the last good value kept', ([, text, msg], { project: p }) => {
    const { d, file } = setup(p);
    const before = d.model()!.directives.length;
    fs.writeFileSync(file, text);
    d.refresh([{ type: 'change', rel: 'project-memory.json' }], 'leading');
    // The leading edge may have caught a writer mid-write: nothing shown yet.
    expect(d.problems()).toEqual([]);
    d.refresh([{ type: 'change', rel: 'project-memory.json' }], 'trailing');
    expect(d.problems()[0]?.message).toMatch(msg);
    expect(d.problems()[0]?.message).toMatch(/showing the last good version/);
    expect(d.model()!.directives).toHaveLength(before);
    expect(d.getSnapshot().writeBlock).toMatch(/currently unreadable/);
  });

  it('a file that appears half-written is not called broken until the trailing read confirms it', ({ project: p }) => {
    const { d, file } = setup(p);
    fs.rmSync(file);
    d.scan();
    expect(d.getSnapshot().file).toBe('missing');
    fs.writeFileSync(file, '{"version": "1.0.0", "projectRoot"');
    d.refresh([{ type: 'add', rel: 'project-memory.json' }], 'leading');
    expect(d.problems()).toEqual([]);
    expect(d.getSnapshot().file).toBe('missing');
    d.refresh([{ type: 'change', rel: 'project-memory.json' }], 'trailing');
    expect(d.problems()[0]?.message).toMatch(/^truncated JSON/);
    expect(d.getSnapshot().file).toBe('unreadable');
  });

  it('wrong types, missing keys OMC requires, malformed directives, BOM, non-UTF-8, a directory, hostile text', ({
    project: p,
  }) => {
    const { d, file, memory } = setup(p);
    const m = memory();
    const check = (value: string | Buffer, expected: RegExp) => {
      fs.rmSync(file, { recursive: true, force: true });
      fs.writeFileSync(file, value);
      d.scan();
      expect(
        d
          .problems()
          .map((x) => x.message)
          .join(' | '),
      ).toMatch(expected);
    };
    check(JSON.stringify({ ...m, lastScanned: 0 }), /OMC ignores this file \(lastScanned missing or empty\)/);
    check(
      JSON.stringify({ ...m, techStack: { ...m.techStack, languages: 'TypeScript' } }),
      /does not match OMC's schema: techStack\.languages: /,
    );
    check(
      JSON.stringify({
        ...m,
        userDirectives: [{ directive: 'x', priority: 'urgent', timestamp: 1, context: '', source: 'explicit' }],
      }),
      /directive \[0\] is malformed \(priority: /,
    );
    expect(d.getSnapshot().writeBlock).toMatch(/directive \[0\] is malformed/);
    check('\ufeff' + JSON.stringify(m), /byte-order mark: OMC's JSON.parse rejects it/);
    check(
      Buffer.concat([
        Buffer.from(JSON.stringify(m).slice(0, -1) + ', "x": "'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]),
      /not valid UTF-8/,
    );
    fs.rmSync(file);
    fs.mkdirSync(file);
    d.scan();
    expect(d.problems()[0]?.message).toMatch(/is a directory where a file was expected/);
    fs.rmSync(file, { recursive: true });

    const evil = {
      ...m,
      userDirectives: [
        {
          ...m.userDirectives[0],
          directive: 'Rule \u001b]52;c;ZXZpbA==\u0007 two \u001b[2J end',
          context: 'ctx\u009b31m',
        },
      ],
    };
    fs.writeFileSync(file, JSON.stringify(evil));
    d.scan();
    const row = d.model()!.directives[0]!;
    expect(row.display.text).toBe('Rule  two  end');
    expect(row.display.context).toBe('ctx');
  });

  it('follows the file live through the real watcher', async ({ project: p, newStore }) => {
    const store = newStore({ root: p.root });
    const d = store.memory;
    store.start();
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    const file = path.join(p.root, 'project-memory.json');
    const m = JSON.parse(fs.readFileSync(file, 'utf8'));
    m.userDirectives.push({
      timestamp: Date.now(),
      directive: 'Live directive',
      context: '',
      source: 'explicit',
      priority: 'normal',
    });
    writeOmcJson(file, m);
    await waitFor(() => d.model()?.directives.some((r) => r.directive.directive === 'Live directive'), {
      what: 'new directive shown',
    });
  });
});

describe('saving', () => {
  const input = (directive: string, priority: 'high' | 'normal' = 'normal') => ({
    directive,
    context: 'why',
    priority,
  });

  it('holds project-memory.json.lock while writing and never leaves it behind', async ({ project: p }) => {
    const { d, root } = setup(p);
    const lock = path.join(root, 'project-memory.json.lock');
    let sawLock = false;
    const rename = fs.renameSync.bind(fs);
    const spy = vi.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
      // The moment the new file replaces the old one, our lock must be on disk, holding our pid.
      if (String(to).endsWith('project-memory.json'))
        sawLock = fs.existsSync(lock) && JSON.parse(fs.readFileSync(lock, 'utf8')).pid === process.pid;
      rename(from, to);
    });
    await d.save({ kind: 'add', input: input('Locked write'), timestamp: 1 });
    spy.mockRestore();
    expect(sawLock).toBe(true);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("waits for OMC's lock and gives up with a clear message when it is held", async ({ project: p }) => {
    const { d, root, memory } = setup(p, { lockTimeoutMs: 150 });
    const lock = path.join(root, 'project-memory.json.lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, timestamp: Date.now() }));
    const before = memory();
    await expect(d.save({ kind: 'add', input: input('Blocked'), timestamp: 1 })).rejects.toThrow(
      /project-memory\.json\.lock is held by pid \d+; OMC is writing this file right now\. Nothing was changed/,
    );
    expect(memory()).toEqual(before);
    fs.rmSync(lock);
    await d.save({ kind: 'add', input: input('Unblocked'), timestamp: 2 });
    expect(memory().userDirectives.at(-1).directive).toBe('Unblocked');
  });

  it('merges with what OMC wrote after the pane last read the file', async ({ project: p }) => {
    const { d, file, memory } = setup(p);
    const target = d.model()!.directives.find((r) => r.directive.directive === 'Use pnpm, not npm or yarn')!;
    // OMC (learner / add tool) writes between our read and our save.
    const m = memory();
    m.hotPaths.push({ path: 'src/new.ts', accessCount: 9, lastAccessed: 5, type: 'file' });
    m.userDirectives.push({
      timestamp: 7,
      directive: 'Added by OMC meanwhile',
      context: '',
      source: 'explicit',
      priority: 'normal',
    });
    writeOmcJson(file, m);
    await d.save({ kind: 'edit', target: target.key, input: input('Use pnpm only', 'high') });
    const after = memory();
    expect(after.hotPaths.map((h: { path: string }) => h.path)).toContain('src/new.ts');
    expect(after.userDirectives.map((x: { directive: string }) => x.directive)).toEqual(
      expect.arrayContaining(['Added by OMC meanwhile', 'Use pnpm only']),
    );
    expect(after.userDirectives.find((x: { directive: string }) => x.directive === 'Use pnpm only')).toMatchObject({
      timestamp: target.directive.timestamp,
      priority: 'high',
    });
  });

  it('refuses, writing nothing, when the directive it edits was removed meanwhile', async ({ project: p }) => {
    const { d, file, memory } = setup(p);
    const target = d.model()!.directives[0]!;
    const m = memory();
    m.userDirectives = m.userDirectives.filter(
      (x: { directive: string }) => x.directive !== target.directive.directive,
    );
    writeOmcJson(file, m);
    const bytes = fs.readFileSync(file, 'utf8');
    await expect(d.save({ kind: 'remove', target: target.key })).rejects.toThrow(
      /no longer in the file.*nothing was changed/,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(bytes);
  });

  it('refuses duplicates ignoring case, over-long text, and files OMC would not load', async ({ project: p }) => {
    const { d, file, memory } = setup(p);
    await expect(d.save({ kind: 'add', input: input('use PNPM, NOT npm or yarn'), timestamp: 1 })).rejects.toThrow(
      /already a directive.*ignoring case/,
    );
    writeOmcJson(file, { ...memory(), version: '' });
    d.scan();
    await expect(d.save({ kind: 'add', input: input('x y z'), timestamp: 1 })).rejects.toThrow(/OMC ignores this file/);
  });

  it('--readonly: every save is a no-op with a message', async ({ project: p }) => {
    const { d, file } = setup(p, { readonly: true });
    const bytes = fs.readFileSync(file, 'utf8');
    expect(d.getSnapshot().writeBlock).toMatch(/read-only/);
    await expect(d.save({ kind: 'add', input: input('nope'), timestamp: 1 })).rejects.toThrow(
      /^--readonly: nothing was written$/,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(bytes);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('refuses when there is no project-memory.json (OMC creates it at session start)', async ({ project: p }) => {
    const { d, file } = setup(p);
    fs.rmSync(file);
    d.scan();
    expect(d.getSnapshot().file).toBe('missing');
    await expect(d.save({ kind: 'add', input: input('first'), timestamp: 1 })).rejects.toThrow(
      /does not exist: OMC creates it/,
    );
    expect(fs.existsSync(file)).toBe(false);
  });
});
