/**
 * The project-memory pane as a user drives it (whole App, real router, real
 * store on a copy of the real-OMC fixture): what is shown, and what lands on
 * disk for every key that writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import {
  makeProject,
  READERS_CAPTURED_AT,
  readReader,
  waitFor,
  writeOmcJson,
  type TempProject,
} from '../helpers/fixtures.js';
import { mountApp, type MountedApp } from '../helpers/mount-app.js';
import { omcMemoryStorage } from '../helpers/omc-knowledge.js';
import { KEY } from '../helpers/keys.js';
import { terminalViolations } from '../helpers/hostile-bytes.js';

let p: TempProject | null = null;
let app: MountedApp | null = null;
afterEach(async () => {
  await app?.unmount();
  app = null;
  p?.cleanup();
  p = null;
});

const memFile = () => path.join(p!.root, 'project-memory.json');
const onDisk = () => JSON.parse(fs.readFileSync(memFile(), 'utf8'));
const texts = () => onDisk().userDirectives.map((d: { directive: string }) => d.directive);

async function open(opts: { columns?: number; rows?: number; readonly?: boolean; memory?: (m: any) => any } = {}) {
  p = makeProject({ withFixture: true });
  if (opts.memory) writeOmcJson(memFile(), opts.memory(onDisk()));
  app = await mountApp({
    root: p.root,
    pane: 'memory',
    clock: () => READERS_CAPTURED_AT,
    columns: opts.columns,
    rows: opts.rows,
    readonly: opts.readonly,
  });
  await app.waitForText('PRIORITY');
  return app;
}

const rowOf = (a: MountedApp, text: string) => a.lines().find((l) => l.includes(text)) ?? '';

describe('memory pane: what it shows', () => {
  it("directives in OMC's ranking, critical/note, with source, age and whether they make the next session start", async () => {
    const a = await open();
    const rows = a.lines().filter((l) => /^[▸ ] \d /.test(l));
    expect(rows.map((l) => l.slice(2, 14).trim())).toEqual([
      '1  critical',
      '2  critical',
      '3  critical',
      '4  critical',
      '5  note',
      '6  note',
      '7  note',
    ]);
    expect(rows[0]).toMatch(/strict TypeScript types, never use any\s+explicit\s+41m\s+✓ start/);
    expect(rowOf(a, 'Never commit directly')).not.toContain('✓');
    // The selected directive in full, with its context.
    expect(a.text()).toContain('context: From now on, always use strict TypeScript types, never use any');
    // The compact summary.
    expect(a.text()).toMatch(/stack\s+JavaScript\/TypeScript · react · pkg pnpm · Node\.js 20/);
    expect(a.text()).toMatch(/commands\s+build pnpm build · test pnpm test · lint pnpm lint/);
    expect(a.text()).toMatch(/hot paths src\/api\/checkout\.ts \(2x\)/);
    expect(a.text()).toMatch(/notes\s+\[deploy\] Preview deploys/);
  });

  it('v previews exactly what OMC injects at the next session start, and what the 650 limit cuts', async () => {
    const a = await open({ columns: 140, rows: 40 });
    await a.press('v');
    await a.waitForText('SessionStart adds');
    const expected: string = readReader('project_memory_read.json').formatted_context_summary;
    const text = a.text();
    for (const line of expected.split('\n').filter(Boolean)) expect(text).toContain(line);
    expect(text).toContain('<project-memory-context>');
    expect(text).toContain('summary 650/650 (cut) · 3 of 7 directives');
    expect(text).toContain('── cut off by the 650-character limit (not injected) ──');
    expect(text).toContain('build runs tsc -b first');
    await a.press(KEY.esc);
    await a.waitForText('PRIORITY');
  });

  it.each([
    [80, 24],
    [60, 20],
  ])('every line fits %ix%i', async (columns, rows) => {
    const a = await open({ columns, rows });
    const check = () => {
      const lines = a.lines();
      expect(lines.length).toBeLessThanOrEqual(rows - 1);
      for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(columns);
    };
    check();
    await a.press('v');
    await a.waitForText('SessionStart adds');
    check();
    await a.press(KEY.esc, 'a');
    await a.waitForText('Add a directive');
    check();
  });
});

describe('memory pane: editing from the keyboard', () => {
  it('a adds a directive OMC then loads; the counter and priority are visible while typing', async () => {
    const a = await open();
    await a.press('a', ...'Run pnpm typecheck before pushing');
    await a.waitForText('33/500');
    await a.press(KEY.tab, ...'CI is slow', KEY.tab, ' ');
    await a.waitForText('CI is slow');
    await a.press(KEY.enter);
    await a.waitForText('✓ directive added');
    const added = onDisk().userDirectives.at(-1);
    expect(added).toEqual({
      timestamp: READERS_CAPTURED_AT,
      directive: 'Run pnpm typecheck before pushing',
      context: 'CI is slow',
      source: 'explicit',
      priority: 'high',
    });
    const loaded = await (await omcMemoryStorage()).loadProjectMemory(p!.dir);
    expect(loaded.userDirectives.at(-1).directive).toBe('Run pnpm typecheck before pushing');
    // Newest high directive: now rank 1 and injected.
    expect(rowOf(a, 'Run pnpm typecheck')).toMatch(/^▸ 1\s+critical.*✓ start/);
  });

  it('the file removed while the form is open (rm -rf .omc): the form stays on screen with the draft, Enter says why it cannot save', async () => {
    const a = await open();
    await a.press('a', ...'Run pnpm typecheck before pushing');
    await a.waitForText('33/500');
    fs.rmSync(memFile());
    a.store.memory.scan(); // the watcher's event, in a store that does not watch
    await waitFor(() => a.store.memory.getSnapshot().file === 'missing', { what: 'the memory file seen gone' });
    await a.press(KEY.enter);
    await a.waitForText('cannot save: no project-memory.json yet');
    // The keys still go to the form: it is what the pane shows, not "No project memory yet."
    expect(a.text()).toContain('Run pnpm typecheck before pushing');
    expect(a.text()).toContain('33/500');
    expect(a.text()).not.toContain('No project memory yet.');
  });

  it('e edits in place (Ctrl-U, typing); Esc on a changed draft asks before discarding', async () => {
    const a = await open();
    await a.press('G', 'e');
    await a.waitForText('Edit directive');
    await a.press('\u0015', ...'Use pnpm only');
    await a.press(KEY.esc);
    await a.waitForText('Discard this draft?');
    await a.press('n');
    await a.waitForText('Edit directive');
    await a.press(KEY.enter);
    await a.waitForText('✓ directive saved');
    expect(texts()).toContain('Use pnpm only');
    expect(texts()).not.toContain('Use pnpm, not npm or yarn');
  });

  it('e while the directive changes on disk: fields only the disk changed are kept; one both changed refuses, and Enter again saves yours', async () => {
    const a = await open();
    const external = (change: Record<string, unknown>) => {
      const d = onDisk();
      d.userDirectives = d.userDirectives.map((x: { directive: string }) =>
        x.directive.startsWith('Use pnpm') ? { ...x, ...change } : x,
      );
      fs.writeFileSync(`${memFile()}.t`, JSON.stringify(d, null, 2));
      fs.renameSync(`${memFile()}.t`, memFile());
    };
    const pnpm = () => onDisk().userDirectives.find((x: { directive: string }) => x.directive.startsWith('Use pnpm'));
    await a.press('G', 'e');
    await a.waitForText('Edit directive');
    await a.press(KEY.end, ...' (USER)');
    // Meanwhile (OMC, another omc-top's p, an editor): the context and the priority.
    external({ context: 'EXTERNAL context', priority: 'high' });
    await a.press(KEY.enter);
    await a.waitForText('✓ directive saved; kept the context and priority written meanwhile');
    expect(pnpm()).toMatchObject({
      directive: 'Use pnpm, not npm or yarn (USER)',
      context: 'EXTERNAL context',
      priority: 'high',
    });

    // Both change the context: refused, nothing written, the draft kept; Enter again is the user's choice.
    await a.press('e');
    await a.waitForText('Edit directive');
    await a.press(KEY.tab, KEY.end, ...' mine');
    await a.waitForText('EXTERNAL context mine');
    external({ context: 'EXTERNAL 2' });
    await a.press(KEY.enter);
    await a.waitForText(/context was changed on disk since you began\s+\(now "EXTERNAL 2"\): nothing was written/);
    expect(pnpm().context).toBe('EXTERNAL 2');
    await a.press(KEY.enter);
    await a.waitForText('✓ directive saved');
    expect(pnpm()).toMatchObject({ directive: 'Use pnpm, not npm or yarn (USER)', context: 'EXTERNAL context mine' });
  });

  it('e on a directive removed meanwhile: the whole line fits at 80x24, and Enter again adds the draft as a new directive', async () => {
    const a = await open({ columns: 80, rows: 24 });
    await a.press('G', 'e');
    await a.waitForText('Edit directive');
    await a.press(KEY.end, ...' (mine)');
    await a.waitForText('(mine)');
    const m = onDisk();
    m.userDirectives = m.userDirectives.filter((d: { directive: string }) => !d.directive.startsWith('Use pnpm'));
    writeOmcJson(memFile(), m);
    const bytes = fs.readFileSync(memFile(), 'utf8');
    await a.press(KEY.enter);
    await a.waitForText('✗ nothing saved: that directive is gone from the file; Enter adds yours as new');
    expect(fs.readFileSync(memFile(), 'utf8')).toBe(bytes);
    await a.press(KEY.enter);
    await a.waitForText('✓ directive added');
    expect(texts()).toContain('Use pnpm, not npm or yarn (mine)');
  });

  it('e on a directive holding an escape sequence: the cursor steps over stand-ins (never a bare "[31m"), nothing reaches the terminal, the rest is saved as it was', async () => {
    const hostile = 'Use \u001b[31mred\u001b[0m \u009bc\tpnpm';
    const a = await open({
      memory: (m) => ({
        ...m,
        userDirectives: m.userDirectives.map((d: { directive: string }) =>
          d.directive === 'Use pnpm, not npm or yarn' ? { ...d, directive: hostile } : d,
        ),
      }),
    });
    await a.press('G', 'e');
    await a.waitForText('Edit directive');
    const opened = a.frames().length;
    const shown = 'Use ␛[31mred␛[0m <U+009B>c␉pnpm';
    const field = () => a.lines().find((l) => l.startsWith('> ')) ?? '';
    await a.step(KEY.home);
    for (let i = 0; i <= Array.from(hostile).length; i++) {
      expect(field()).toContain(shown);
      await a.step(KEY.right);
    }
    await a.press(...'!');
    await a.waitForText('pnpm!');
    for (const f of a.frames().slice(opened)) expect(terminalViolations(f)).toEqual([]);
    await a.press(KEY.enter);
    await a.waitForText('✓ directive saved');
    expect(texts()).toContain(`${hostile}!`);
  });

  it('p switches priority on disk (high ↔ normal) and the ranking follows', async () => {
    const a = await open();
    await a.press('G');
    await a.waitForText(/▸ 7\s+note\s+Use pnpm/);
    await a.press('p');
    await a.waitForText('priority → high (shown as critical)');
    expect(onDisk().userDirectives.find((d: any) => d.directive === 'Use pnpm, not npm or yarn').priority).toBe('high');
    // Now a high one, ranked by its age among the highs, and inside the top 3 that SessionStart injects.
    expect(rowOf(a, 'Use pnpm')).toMatch(/^▸ 2\s+critical.*✓ start/);
  });

  it('d asks first; n keeps it; y removes it from disk and keeps every other key', async () => {
    const a = await open({ memory: (m) => ({ ...m, teamExtension: { owner: 'platform' } }) });
    await a.press('d');
    await a.waitForText('Remove this directive?');
    await a.press('n');
    await a.waitForText('PRIORITY');
    expect(texts()).toContain('strict TypeScript types, never use any');
    await a.press('d');
    await a.waitForText('Remove this directive?');
    await a.press('y');
    // Which one went, in its own words (the message log keeps them to type it again).
    await a.waitForText('✓ directive removed: "strict TypeScript types, never use any"');
    expect(texts()).not.toContain('strict TypeScript types, never use any');
    expect(texts()).toHaveLength(6);
    expect(onDisk().teamExtension).toEqual({ owner: 'platform' });
  });

  it('d then y removes nothing when the directive changed on disk while the question was open', async () => {
    const a = await open();
    await a.press('G');
    await a.waitForText(/▸ 7\s+note\s+Use pnpm/);
    await a.press('d');
    await a.waitForText('Remove this directive?');
    // Another writer changes its context and priority (its text, and so its identity, stays).
    const m = onDisk();
    const target = m.userDirectives.find((d: any) => d.directive === 'Use pnpm, not npm or yarn');
    target.context = 'NEW context written meanwhile';
    target.priority = 'high';
    fs.writeFileSync(memFile(), JSON.stringify(m, null, 2));
    const bytes = fs.readFileSync(memFile(), 'utf8');
    await a.press('y');
    // Named as what was asked: a remove, not a save.
    await a.waitForText(/✗ remove directive: this directive's context was changed on disk since you asked/);
    expect(a.text()).not.toContain('save directive');
    await a.waitForText('nothing was removed');
    expect(fs.readFileSync(memFile(), 'utf8')).toBe(bytes);
    expect(texts()).toContain('Use pnpm, not npm or yarn');
  });

  it('warns before a save pushes a directive out (OMC keeps 20: high first, then newest)', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => ({
      timestamp: 1_796_000_000_000 + i,
      directive: `High rule ${i + 1}`,
      context: '',
      source: 'explicit',
      priority: 'high',
    }));
    const a = await open({ memory: (m) => ({ ...m, userDirectives: twenty }) });
    const before = fs.readFileSync(memFile(), 'utf8');
    await a.press('a', ...'A normal rule', KEY.enter);
    await a.waitForText('Saving pushes 1 directive out');
    // The new normal directive itself is the one OMC would drop.
    expect(a.text()).toContain('✗ note: A normal rule');
    await a.press('n');
    await a.waitForText('Add a directive');
    expect(fs.readFileSync(memFile(), 'utf8')).toBe(before);
    // As high priority it pushes out the oldest high one instead.
    await a.press(KEY.tab, KEY.tab, ' ', KEY.enter);
    await a.waitForText('✗ critical: High rule 1');
    await a.press('y');
    await a.waitForText("OMC's cap pushed out 1");
    expect(texts()).toHaveLength(20);
    expect(texts()).toContain('A normal rule');
    expect(texts()).not.toContain('High rule 1');
  });

  it('refuses duplicates (ignoring case) and over-long text, keeping the draft and the file', async () => {
    const a = await open();
    const before = fs.readFileSync(memFile(), 'utf8');
    await a.press('a', ...'USE PNPM, NOT NPM OR YARN', KEY.enter);
    await a.waitForText('already a directive (OMC de-duplicates ignoring case)');
    expect(a.text()).toContain('USE PNPM, NOT NPM OR YARN');
    await a.press('\u0015');
    await a.press('\u001b[200~' + 'x'.repeat(501) + '\u001b[201~');
    await a.waitForText('501/500');
    await a.press(KEY.enter);
    await a.waitForText('a directive is at most 500 characters');
    expect(fs.readFileSync(memFile(), 'utf8')).toBe(before);
  });

  it('--readonly: nothing can be added, edited or removed, and the pane says so', async () => {
    const a = await open({ readonly: true });
    const before = fs.readFileSync(memFile(), 'utf8');
    expect(a.lines()[1]).toContain('· read-only mode (--readonly)');
    await a.press('a');
    await a.waitForText('--readonly: adding a directive is disabled (nothing is written)');
    await a.press('p');
    await a.waitForText('--readonly: changing a directive is disabled (nothing is written)');
    await a.press('d');
    await waitFor(() => !a.text().includes('Remove this directive?') || null, { what: 'no confirm' });
    expect(fs.readFileSync(memFile(), 'utf8')).toBe(before);
  });

  it('/ filters directives by text or context; the global pane keys still work afterwards', async () => {
    const a = await open();
    await a.press('/', ...'branch');
    await a.waitForText('1 of 7 match');
    expect(a.lines().filter((l) => /^[▸ ] \d /.test(l))).toHaveLength(1);
    await a.press(KEY.esc);
    await waitFor(() => a.lines().filter((l) => /^[▸ ] \d /.test(l)).length === 7, { what: 'filter cleared' });
    await a.press('w');
    await waitFor(() => a.ui.state.pane === 'wiki', { what: 'wiki pane' });
  });
});
