/**
 * Writing notepad.md: byte-for-byte what OMC 5.5.0's own writers produce
 * (property test against the shipped dist), and after every edit OMC's
 * reader returns exactly the text omc-top shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyOp, type EntryRef, type NotepadOp } from '../../src/store/notepad/edits.js';
import { NOTEPAD_TEMPLATE, entryStamp, findOrphans, type EntrySection } from '../../src/store/notepad/format.js';
import { isDue, parseNotepad, type NotepadEntry } from '../../src/store/notepad/model.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT, makeProject, readReader, type TempProject } from '../helpers/fixtures.js';
import { loadOmcNotepad, omcReading, type OmcNotepad } from '../helpers/omc-notepad.js';

// OMC's prune compares local time; the fixture's readers ran in UTC.
process.env.TZ = 'UTC';

const FIXTURE_TEXT = fs.readFileSync(path.join(FIXTURE_TREE, 'notepad.md'), 'utf8');
const NOW = READERS_CAPTURED_AT;

let omc: OmcNotepad;
let ours: TempProject;
let theirs: TempProject;
beforeAll(async () => {
  omc = await loadOmcNotepad();
  ours = makeProject();
  theirs = makeProject();
});
afterAll(() => {
  ours.cleanup();
  theirs.cleanup();
});
afterEach(() => vi.useRealTimers());

const file = (proj: TempProject) => path.join(proj.root, 'notepad.md');
const read = (proj: TempProject) => fs.readFileSync(file(proj), 'utf8');
const refOf = (section: EntrySection, e: NotepadEntry): EntryRef => ({
  section,
  id: e.id,
  stamp: e.stamp,
  body: e.body,
});

function apply(text: string | null, op: NotepadOp, now = NOW): string {
  const r = applyOp(text, op, now);
  if (!r.ok) throw new Error(r.message);
  return r.text;
}

/** After an edit: OMC's reader on the written file returns exactly what omc-top shows. */
function expectOmcSeesWhatWeShow(text: string): void {
  fs.writeFileSync(file(ours), text);
  const shown = parseNotepad(text).sections;
  expect(omcReading(omc, ours.dir)).toEqual({
    priority: shown.priority.text,
    working: shown.working.text,
    manual: shown.manual.text,
  });
}

const body = fc
  .array(
    fc.constantFrom(
      'note',
      'fix the cart',
      'ünï ✓',
      '认证',
      '$1 $& $`',
      '- item',
      '  indented',
      '`code`',
      '#hash',
      'a.b',
    ),
    { minLength: 1, maxLength: 5 },
  )
  .chain((words) => fc.constantFrom(' ', '\n').map((sep) => words.join(sep)));

type Step =
  { kind: 'working' | 'manual'; body: string } | { kind: 'priority'; body: string } | { kind: 'prune'; days: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom<'working' | 'manual'>('working', 'manual'), body }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant<'priority'>('priority'), body }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant<'prune'>('prune'), days: fc.integer({ min: 1, max: 3 }) }) },
);

describe("omc-top's writers produce OMC 5.5.0's exact bytes", () => {
  it('for random sequences of appends, priority writes and prunes, starting from the template, the 4.x fixture or no file', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'template' | 'fixture' | 'none'>('template', 'fixture', 'none'),
        fc.array(fc.tuple(step, fc.integer({ min: 0, max: 5 * 86_400_000 })), { minLength: 1, maxLength: 8 }),
        (start, steps) => {
          vi.useFakeTimers({ toFake: ['Date'] });
          let t = Date.parse('2026-11-20T09:00:00Z');
          let text: string | null = start === 'template' ? NOTEPAD_TEMPLATE : start === 'fixture' ? FIXTURE_TEXT : null;
          if (text === null) fs.rmSync(file(theirs), { force: true });
          else fs.writeFileSync(file(theirs), text);
          for (const [s, dt] of steps) {
            t += dt;
            vi.setSystemTime(t);
            if (s.kind === 'working' || s.kind === 'manual') {
              (s.kind === 'working' ? omc.addWorkingMemoryEntry : omc.addManualEntry)(theirs.dir, s.body);
              text = apply(text, { kind: 'add', section: s.kind, body: s.body }, t);
            } else if (s.kind === 'priority') {
              omc.setPriorityContext(theirs.dir, s.body);
              const base = text === null ? '' : parseNotepad(text).sections.priority.text;
              text = apply(text, { kind: 'priority', text: s.body, base }, t);
            } else {
              const { days } = s as Extract<Step, { kind: 'prune' }>;
              omc.pruneOldEntries(theirs.dir, days);
              if (text === null) continue;
              const due = parseNotepad(text).sections.working.entries.filter((e) => isDue(e, t, days));
              const r = applyOp(text, { kind: 'prune', targets: due.map((e) => refOf('working', e)) }, t);
              // omc-top never writes a prune with nothing confirmed (OMC still rewrites the
              // section then); in that case OMC's bytes become the next step's baseline.
              if (r.ok) text = r.text;
              else if (due.length === 0) text = fs.readFileSync(file(theirs), 'utf8');
              else throw new Error(r.message);
            }
            expect(text).toBe(fs.readFileSync(file(theirs), 'utf8'));
          }
          vi.useRealTimers();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('writes the template first when there is no notepad yet, as OMC does', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    fs.rmSync(file(theirs), { force: true });
    omc.addManualEntry(theirs.dir, 'first');
    expect(apply(null, { kind: 'add', section: 'manual', body: 'first' })).toBe(read(theirs));
    expect(read(theirs).startsWith(NOTEPAD_TEMPLATE.slice(0, 40))).toBe(true);
  });
});

describe('each edit on the real fixture: OMC reads back exactly what omc-top shows, orphans untouched', () => {
  const parsed = parseNotepad(FIXTURE_TEXT);
  const orphansBefore = findOrphans(FIXTURE_TEXT);
  const working = parsed.sections.working.entries;
  const manual = parsed.sections.manual.entries;

  const check = (text: string) => {
    expectOmcSeesWhatWeShow(text);
    expect(findOrphans(text)).toEqual(orphansBefore);
    // The orphan blocks are still there byte for byte.
    const tail = FIXTURE_TEXT.slice(FIXTURE_TEXT.indexOf('\n## 2026-11-21 18:15'), FIXTURE_TEXT.indexOf('\n## MANUAL'));
    expect(text).toContain(tail);
  };

  it('add a multi-line Working Memory entry', () => {
    const text = apply(FIXTURE_TEXT, {
      kind: 'add',
      section: 'working',
      body: 'line one\nline two\n\n  indented three',
    });
    check(text);
    const e = parseNotepad(text).sections.working.entries.at(-1)!;
    expect([e.stamp, e.body]).toEqual([entryStamp(NOW), 'line one\nline two\n\n  indented three']);
  });

  it('edit a middle entry: only its text changes, its stamp and neighbours stay', () => {
    const target = working[2]!;
    const text = apply(FIXTURE_TEXT, {
      kind: 'edit',
      target: refOf('working', target),
      body: 'rewritten\nin two lines',
    });
    check(text);
    const after = parseNotepad(text).sections.working.entries;
    expect(after.map((e) => e.stamp)).toEqual(working.map((e) => e.stamp));
    expect(after.map((e) => e.body)).toEqual(working.map((e, i) => (i === 2 ? 'rewritten\nin two lines' : e.body)));
  });

  it('edit the last MANUAL entry', () => {
    const text = apply(FIXTURE_TEXT, {
      kind: 'edit',
      target: refOf('manual', manual[1]!),
      body: 'Staging URL: see wiki page "Environments".',
    });
    check(text);
    expect(parseNotepad(text).sections.manual.entries.map((e) => e.body)).toEqual([
      manual[0]!.body,
      'Staging URL: see wiki page "Environments".',
    ]);
  });

  it('delete the first, a middle and the last entry', () => {
    for (const i of [0, 2, 4]) {
      const text = apply(FIXTURE_TEXT, { kind: 'delete', target: refOf('working', working[i]!) });
      check(text);
      expect(parseNotepad(text).sections.working.entries.map((e) => e.id)).toEqual(
        working.filter((_, j) => j !== i).map((e) => e.id),
      );
    }
  });

  it('delete every MANUAL entry leaves an empty section OMC reads as empty', () => {
    let text = FIXTURE_TEXT;
    for (const e of manual) text = apply(text, { kind: 'delete', target: refOf('manual', e) });
    check(text);
    expect(parseNotepad(text).sections.manual.text).toBe('');
  });

  it('replace the Priority text (with $-patterns written literally)', () => {
    const text = apply(FIXTURE_TEXT, {
      kind: 'priority',
      text: 'Totals in integer cents ($1 stays $1).\nRelease 0.5 freeze Thursday.',
      base: parsed.sections.priority.text,
    });
    check(text);
    expect(parseNotepad(text).sections.priority.text).toBe(
      'Totals in integer cents ($1 stays $1).\nRelease 0.5 freeze Thursday.',
    );
  });

  it("prune removes exactly the due entry, like OMC's notepad_prune(7) did on this file", () => {
    const due = working.filter((e) => isDue(e, NOW));
    const text = apply(FIXTURE_TEXT, { kind: 'prune', targets: due.map((e) => refOf('working', e)) });
    check(text);
    const afterOmc = parseNotepad(readReader('notepad_prune_dry.json').notepad_md_after_prune).sections.working.entries;
    expect(parseNotepad(text).sections.working.entries.map((e) => [e.stamp, e.body])).toEqual(
      afterOmc.map((e) => [e.stamp, e.body]),
    );
  });
});

describe('merge or refuse when the file changed after the user started', () => {
  const base = parseNotepad(FIXTURE_TEXT);
  const target = base.sections.working.entries[1]!;
  const ref = refOf('working', target);
  /** OMC appended an entry meanwhile (its own writer, its own bytes). */
  function omcAppended(): string {
    fs.writeFileSync(file(theirs), FIXTURE_TEXT);
    omc.addWorkingMemoryEntry(theirs.dir, 'OMC wrote this while you were typing');
    return read(theirs);
  }

  it('an edit merges with an entry OMC appended meanwhile: both survive', () => {
    const text = apply(omcAppended(), { kind: 'edit', target: ref, body: 'my edit' });
    const bodies = parseNotepad(text).sections.working.entries.map((e) => e.body);
    expect(bodies).toContain('my edit');
    expect(bodies).toContain('OMC wrote this while you were typing');
    expect(bodies).not.toContain(target.body);
    expectOmcSeesWhatWeShow(text);
  });

  it('a delete merges too', () => {
    const text = apply(omcAppended(), { kind: 'delete', target: ref });
    expect(parseNotepad(text).sections.working.entries.map((e) => e.body)).toContain(
      'OMC wrote this while you were typing',
    );
  });

  it('an edit of an entry that changed on disk is refused and reports the text on disk', () => {
    const changed = FIXTURE_TEXT.replace(target.body, 'someone else edited this');
    const r = applyOp(changed, { kind: 'edit', target: ref, body: 'my edit' }, NOW);
    expect(r).toMatchObject({ ok: false, kind: 'conflict', reason: 'changed', disk: 'someone else edited this' });
    expect(!r.ok && r.message).toMatch(/was changed on disk .* nothing was written/);
  });

  it('an edit of an entry that was pruned meanwhile is refused as gone', () => {
    const pruned = apply(FIXTURE_TEXT, { kind: 'delete', target: ref });
    expect(applyOp(pruned, { kind: 'edit', target: ref, body: 'my edit' }, NOW)).toMatchObject({
      ok: false,
      reason: 'gone',
    });
  });

  it('a prune whose targets changed or went meanwhile says how many were not pruned, in agreeing words', () => {
    const [a, b, c] = base.sections.working.entries.filter((e) => e.stamp !== null);
    const kept = base.sections.working.entries.filter((e) => e.stamp !== null).length;
    const changed = FIXTURE_TEXT.replace(b!.body, 'edited meanwhile');
    const one = applyOp(changed, { kind: 'prune', targets: [refOf('working', a!), refOf('working', b!)] }, NOW);
    expect(one.ok && one.summary).toBe(
      `pruned 1 Working Memory entry, ${kept - 1} kept; 1 was not pruned (changed on disk since, or gone already)`,
    );
    const gone = apply(changed, { kind: 'delete', target: refOf('working', c!) });
    const two = applyOp(gone, { kind: 'prune', targets: [a, b, c].map((e) => refOf('working', e!)) }, NOW);
    expect(two.ok && two.summary).toBe(
      `pruned 1 Working Memory entry, ${kept - 2} kept; 2 were not pruned (changed on disk since, or gone already)`,
    );
  });

  it('a Priority replace is refused when Priority changed on disk, merged when only other sections did', () => {
    const r = applyOp(
      FIXTURE_TEXT.replace('Current focus', 'NEW focus'),
      { kind: 'priority', text: 'mine', base: base.sections.priority.text },
      NOW,
    );
    expect(r).toMatchObject({ ok: false, reason: 'changed' });
    const merged = apply(omcAppended(), { kind: 'priority', text: 'mine', base: base.sections.priority.text });
    expect(parseNotepad(merged).sections.working.entries.map((e) => e.body)).toContain(
      'OMC wrote this while you were typing',
    );
  });

  it('prune removes only the confirmed entries it still finds; a changed one is kept', () => {
    const due = base.sections.working.entries.filter((e) => isDue(e, NOW));
    const changed = FIXTURE_TEXT.replace(due[0]!.body + '\n### 2026-11-27', 'edited meanwhile\n### 2026-11-27');
    expect(applyOp(changed, { kind: 'prune', targets: due.map((e) => refOf('working', e)) }, NOW)).toMatchObject({
      ok: false,
      kind: 'refused',
    });
  });
});

describe('text OMC would not read back is refused before anything is written', () => {
  const cases: Array<[string, NotepadOp, RegExp]> = [
    [
      'over 4,000 chars',
      { kind: 'add', section: 'working', body: 'x'.repeat(4001) },
      /limited to 4,000 characters by OMC; this one has 4,001/,
    ],
    ['exactly 4,000 chars is fine', { kind: 'add', section: 'manual', body: 'y'.repeat(4000) }, /^$/],
    ['Priority over 2,000', { kind: 'priority', text: 'p'.repeat(2001), base: '' }, /limited to 2,000 characters/],
    ['a "## " line', { kind: 'add', section: 'manual', body: 'ok\n## Heading' }, /line 2 starts with "## "/],
    ['an HTML comment', { kind: 'add', section: 'working', body: 'see <!-- hidden -->' }, /HTML comment/],
    [
      'an entry heading inside',
      { kind: 'add', section: 'manual', body: 'a\n### 2026-01-01 10:00\nb' },
      /split this into two entries/,
    ],
    ['"### " in a Working entry', { kind: 'add', section: 'working', body: '### Findings\nx' }, /notepad_prune cuts/],
    ['"## " in Priority', { kind: 'priority', text: 'see ## notes', base: '' }, /session-start hook stops/],
    ['empty', { kind: 'add', section: 'working', body: ' \n\t\n' }, /empty/],
  ];
  for (const [name, op, msg] of cases) {
    it(name, () => {
      const r = applyOp(NOTEPAD_TEMPLATE, op, NOW);
      if (msg.source === '^$') expect(r.ok).toBe(true);
      else expect(r).toMatchObject({ ok: false, kind: 'refused', message: expect.stringMatching(msg) });
    });
  }

  it('MANUAL may hold "### " sub-headings (OMC never prunes MANUAL)', () => {
    expect(applyOp(NOTEPAD_TEMPLATE, { kind: 'add', section: 'manual', body: '### Findings\nx' }, NOW).ok).toBe(true);
  });

  it('Priority over 500 is saved with a warning', () => {
    const r = applyOp(NOTEPAD_TEMPLATE, { kind: 'priority', text: 'w'.repeat(501), base: '' }, NOW);
    expect(r).toMatchObject({
      ok: true,
      warning: expect.stringMatching(/501 characters, over the 500 OMC recommends/),
    });
  });

  it('a file without the section header or with CRLF is refused (OMC would silently drop the entry)', () => {
    expect(
      applyOp(NOTEPAD_TEMPLATE.replace('## MANUAL\n', ''), { kind: 'add', section: 'manual', body: 'x' }, NOW),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/no "## MANUAL" line/) });
    expect(
      applyOp(NOTEPAD_TEMPLATE.replace(/\n/g, '\r\n'), { kind: 'add', section: 'working', body: 'x' }, NOW),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/CRLF/) });
  });
});

describe('an edit names its entry by what it is', () => {
  const stamp = entryStamp(Date.now() - 5 * 60_000);
  const withWorking = (entries: string[]) =>
    NOTEPAD_TEMPLATE.replace(
      '<!-- Session notes. Auto-pruned after 7 days. -->\n',
      (m) => `${m}${entries.map((b) => `### ${b.startsWith('OLD ') ? '2026-01-01 00:00' : stamp}\n${b}\n`).join('\n')}`,
    );
  const entryWith = (text: string, body: string) => {
    const e = parseNotepad(text).sections.working.entries.find((x) => x.body.trim() === body);
    if (!e) throw new Error(`no entry ${body}`);
    return e;
  };
  const fullRef = (text: string, body: string): EntryRef => {
    const all = parseNotepad(text).sections.working.entries;
    const e = entryWith(text, body);
    return { ...refOf('working', e), siblings: all.filter((x) => x.stamp === e.stamp && x !== e).map((x) => x.id) };
  };

  it("lands on its entry after OMC's own prune rewrote the section (bodies trimmed, re-joined)", () => {
    const before = withWorking(['OLD an old note', 'omc alpha', '  user note with a leading indent', 'omc beta']);
    fs.writeFileSync(file(theirs), before);
    const ref = fullRef(before, 'user note with a leading indent');
    expect(omc.pruneOldEntries(theirs.dir).pruned).toBe(1);
    const after = read(theirs);
    const out = apply(after, { kind: 'edit', target: ref, body: 'user note, edited' });
    fs.writeFileSync(file(theirs), out);
    expect(omc.getWorkingMemory(theirs.dir)).toBe(
      `### ${stamp}\nomc alpha\n\n### ${stamp}\nuser note, edited\n\n### ${stamp}\nomc beta`,
    );
  });

  it('a changed entry is shown as changed; a vanished one is gone, never another entry of its minute', () => {
    const before = withWorking(['user note', 'omc alpha']);
    const ref = fullRef(before, 'user note');
    const changed = applyOp(
      withWorking(['user note, changed elsewhere', 'omc alpha']),
      {
        kind: 'edit',
        target: ref,
        body: 'mine',
      },
      NOW,
    );
    expect(changed).toMatchObject({ ok: false, reason: 'changed', disk: 'user note, changed elsewhere' });
    const gone = applyOp(withWorking(['omc alpha']), { kind: 'edit', target: ref, body: 'mine' }, NOW);
    expect(gone).toMatchObject({ ok: false, reason: 'gone' });
    expect(gone.ok ? '' : gone.message).toMatch(/is no longer in notepad\.md/);
  });
});

describe('an edit writes back the text on disk: every character the user did not touch stays', () => {
  // Raw text the pane shows cleaned: a tab, colour and title sequences, a bidi override, an 8-bit CSI before a "c".
  const RAW = 'Run:\tmake \u001b[31mtest\u001b[0m \u001b]0;t\u0007 \u202ertl \u009bc';
  const text = NOTEPAD_TEMPLATE.replace('Critical discoveries only. -->\n', (m) => `${m}${RAW}\n`).replace(
    'Auto-pruned after 7 days. -->\n',
    (m) => `${m}### 2026-11-30 06:00\nfirst\tone\n### 2026-11-30 06:05\nstep1\t${RAW}\n`,
  );

  it('an entry edit changes only that entry: tabs and controls kept, no line added after the last entry', () => {
    for (const e of parseNotepad(text).sections.working.entries) {
      const out = apply(text, { kind: 'edit', target: refOf('working', e), body: `${e.body}!` });
      expect(out).toBe(text.replace(e.body, `${e.body}!`));
      expectOmcSeesWhatWeShow(out);
    }
  });

  it('a Priority replace keeps them too', () => {
    const base = parseNotepad(text).sections.priority.text;
    expect(base).toBe(RAW);
    const out = apply(text, { kind: 'priority', text: `${RAW}!`, base });
    expect(out).toBe(text.replace(RAW, `${RAW}!`));
    expectOmcSeesWhatWeShow(out);
  });
});

describe("an HTML comment already in the file is the user's text: shown, opened, written back byte for byte", () => {
  const KEEP = '<!-- keep: ask Dana for the sandbox key -->';
  const TEMPLATE_COMMENT = '<!-- Session notes. Auto-pruned after 7 days. -->';
  // A comment line inside an entry, OMC's template comment between two entries (an entry written above it),
  // and comment lines inside and under the Priority text.
  const text =
    '# Notepad\n<!-- Auto-managed by OMC. Manual edits preserved in MANUAL section. -->\n\n' +
    '## Priority Context\n<!-- ALWAYS loaded. Keep under 500 chars. Critical discoveries only. -->\n' +
    'Integer cents.\n<!-- user note: sandbox key rotates monthly -->\nShip 0.5.\n<!-- under the text -->\n\n' +
    '## Working Memory\n### 2026-11-30 06:00\nabove the template\n' +
    `${TEMPLATE_COMMENT}\n### 2026-11-30 18:10\nBlocked on the e2e step.\n${KEEP}\nsecond line\n\n` +
    '## MANUAL\n<!-- User content. Never auto-pruned. -->\n';
  const refWithRaw = (section: EntrySection, e: NotepadEntry): EntryRef => ({ ...refOf(section, e), raw: e.raw });
  const entry = (stamp: string) => parseNotepad(text).sections.working.entries.find((e) => e.stamp === stamp)!;

  it("shows the comment (OMC's reading stays the one without it)", () => {
    const e = entry('2026-11-30 18:10');
    expect(e.body).toBe('Blocked on the e2e step.\n\nsecond line');
    expect(e.raw).toBe(`Blocked on the e2e step.\n${KEEP}\nsecond line`);
    expect(e.display).toContain(KEEP);
    expect(e.chars).toBe(e.body.length);
    const p = parseNotepad(text).sections.priority;
    expect(p.text).toBe('Integer cents.\n\nShip 0.5.');
    expect(p.raw).toBe('Integer cents.\n<!-- user note: sandbox key rotates monthly -->\nShip 0.5.');
  });

  it('editing the entry that holds a comment changes only what was typed', () => {
    const e = entry('2026-11-30 18:10');
    const out = apply(text, { kind: 'edit', target: refWithRaw('working', e), body: `${e.raw}!` });
    expect(out).toBe(text.replace(`${KEEP}\nsecond line`, `${KEEP}\nsecond line!`));
    expectOmcSeesWhatWeShow(out);
  });

  it('editing the entry above the template comment keeps the template comment', () => {
    const e = entry('2026-11-30 06:00');
    const out = apply(text, { kind: 'edit', target: refWithRaw('working', e), body: 'above, edited' });
    expect(out).toBe(text.replace('above the template\n', 'above, edited\n'));
    expectOmcSeesWhatWeShow(out);
  });

  it('deleting or adding an entry keeps every comment of the section', () => {
    const del = apply(text, { kind: 'delete', target: refWithRaw('working', entry('2026-11-30 06:00')) });
    expect(del).toBe(text.replace('### 2026-11-30 06:00\nabove the template\n', ''));
    expectOmcSeesWhatWeShow(del);
    const add = apply(text, { kind: 'add', section: 'working', body: 'new one' });
    expect(add).toBe(text.replace('second line\n', `second line\n### ${entryStamp(NOW)}\nnew one\n`));
    expectOmcSeesWhatWeShow(add);
  });

  it('a prune keeps them too', () => {
    const targets = parseNotepad(text).sections.working.entries.map((e) => refWithRaw('working', e));
    const out = apply(text, { kind: 'prune', targets: [targets[0]!] });
    expect(out).toBe(text.replace('### 2026-11-30 06:00\nabove the template\n', ''));
    const both = apply(text, { kind: 'prune', targets });
    expect(both).toBe(
      text.replace(
        `### 2026-11-30 06:00\nabove the template\n${TEMPLATE_COMMENT}\n### 2026-11-30 18:10\nBlocked on the e2e step.\n${KEEP}\nsecond line\n`,
        `${TEMPLATE_COMMENT}\n`, // the comment inside a pruned entry goes with it, as with a delete
      ),
    );
    expectOmcSeesWhatWeShow(both);
  });

  it('a Priority edit keeps the comment inside the text and the one under it', () => {
    const p = parseNotepad(text).sections.priority;
    const out = apply(text, { kind: 'priority', text: `${p.raw}!`, base: p.text, baseRaw: p.raw });
    expect(out).toBe(text.replace('Ship 0.5.', 'Ship 0.5.!'));
    expectOmcSeesWhatWeShow(out);
  });

  it('a new comment, or an old one changed, is still refused; an old one kept as it was is not', () => {
    const e = entry('2026-11-30 18:10');
    const target = refWithRaw('working', e);
    const typed = applyOp(text, { kind: 'edit', target, body: `${e.raw}\n<!-- new -->` }, NOW);
    expect(typed).toMatchObject({
      ok: false,
      kind: 'refused',
      message: expect.stringContaining('line 4 has an HTML comment'),
    });
    const changed = applyOp(text, { kind: 'edit', target, body: e.raw.replace('Dana', 'Bob') }, NOW);
    expect(changed).toMatchObject({ ok: false, kind: 'refused', message: expect.stringContaining('HTML comment') });
    const p = parseNotepad(text).sections.priority;
    const prio = applyOp(text, { kind: 'priority', text: `${p.raw}\n<!-- x -->`, base: p.text, baseRaw: p.raw }, NOW);
    expect(prio).toMatchObject({ ok: false, kind: 'refused' });
  });

  it('a comment changed on disk after the user started is a change to that entry: refused, the disk text reported', () => {
    const e = entry('2026-11-30 18:10');
    const onDisk = text.replace('ask Dana', 'ask Bob');
    const out = applyOp(onDisk, { kind: 'edit', target: refWithRaw('working', e), body: `${e.raw}!` }, NOW);
    expect(out).toMatchObject({
      ok: false,
      kind: 'conflict',
      reason: 'changed',
      disk: e.raw.replace('ask Dana', 'ask Bob'),
    });
  });

  it('for generated sections with comments anywhere: the raw text is the reading plus its comments, and an edit of it is read back by OMC as the edited reading', () => {
    const line = fc.constantFrom(
      '### 2026-11-30 06:00',
      '### 2026-11-30 06:05',
      'text',
      '',
      '  ',
      '<!-- c -->',
      'a <!-- x --> b',
      '<!-- open\nclose -->',
      'tail <!--',
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), (lines) => {
        const section = lines.join('\n');
        const file = NOTEPAD_TEMPLATE.replace('Auto-pruned after 7 days. -->\n', (m) => `${m}${section}\n`);
        for (const e of parseNotepad(file).sections.working.entries) {
          expect(e.raw.replace(/<!--[\s\S]*?-->/g, '')).toBe(e.body);
          const r = applyOp(file, { kind: 'edit', target: refWithRaw('working', e), body: `${e.raw}!` }, NOW);
          if (!r.ok) continue; // the draft breaks a rule (a stray "<!--" OMC would swallow): refused, nothing written
          const again = parseNotepad(r.text).sections.working.entries.map((x) => x.body);
          expect(again).toContain(`${e.body}!`);
          expectOmcSeesWhatWeShow(r.text);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('an entry that is only a heading takes its text on the next line, the comments around it kept', () => {
    const bare = text.replace('### 2026-11-30 06:00\nabove the template\n', '### 2026-11-30 06:00\n');
    const e = parseNotepad(bare).sections.working.entries.find((x) => x.stamp === '2026-11-30 06:00')!;
    expect(e.raw).toBe('');
    const out = apply(bare, { kind: 'edit', target: refWithRaw('working', e), body: 'filled in' });
    expect(out).toBe(text.replace('above the template', 'filled in'));
    expectOmcSeesWhatWeShow(out);
  });
});
