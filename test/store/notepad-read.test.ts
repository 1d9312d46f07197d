/**
 * Reading notepad.md exactly as OMC does: on the real fixture (compared with
 * the readers OMC ran on it and with OMC's live reader), on random files
 * (property test against OMC's dist), and on bad files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNotepad, newestFirst, isDue } from '../../src/store/notepad/model.js';
import { NOTEPAD_TEMPLATE, readSection } from '../../src/store/notepad/format.js';
import { NotepadDomain } from '../../src/store/notepad/domain.js';
import {
  FIXTURE,
  FIXTURE_TREE,
  READERS_CAPTURED_AT,
  makeProject,
  readReader,
  type TempProject,
} from '../helpers/fixtures.js';
import { loadOmcNotepad, omcReading, type OmcNotepad } from '../helpers/omc-notepad.js';
import { scaled } from '../helpers/time-scale.js';

const FIXTURE_TEXT = fs.readFileSync(path.join(FIXTURE_TREE, 'notepad.md'), 'utf8');
/** notepad_read prints "## <Section>\n\n<OMC's reading>". */
const toolText = (t: string) => t.replace(/^## [^\n]+\n\n/, '');

let omc: OmcNotepad;
let p: TempProject;
beforeAll(async () => {
  omc = await loadOmcNotepad();
  p = makeProject();
});
afterAll(() => p.cleanup());

function writeNotepad(text: string | Buffer): void {
  fs.writeFileSync(path.join(p.root, 'notepad.md'), text);
}

describe('the real OMC fixture notepad', () => {
  const parsed = parseNotepad(FIXTURE_TEXT);
  const read = readReader('notepad_read.json');

  it("gives each section exactly the text OMC's notepad_read returned", () => {
    expect(parsed.sections.priority.text).toBe(toolText(read.priority.text));
    expect(parsed.sections.working.text).toBe(toolText(read.working.text));
    expect(parsed.sections.manual.text).toBe(toolText(read.manual.text));
  });

  it('agrees with notepad_stats: 5 Working entries, oldest 2026-11-21 18:15, priority 168 bytes', () => {
    const stats = read.notepad_stats.text as string;
    const working = parsed.sections.working.entries.filter((e) => e.stamp !== null);
    expect(stats).toContain(`Working Memory Entries:** ${working.length}`);
    expect(stats).toContain(`Oldest Entry:** ${working.map((e) => e.stamp).sort()[0]}`);
    expect(stats).toContain(`Priority Context Size:** ${Buffer.byteLength(parsed.sections.priority.text)} bytes`);
  });

  it('tolerates the 4.x orphan blocks: counted, never a section or an entry', () => {
    expect(parsed.orphans.count).toBe(5);
    expect(parsed.missingHeaders).toEqual([]);
    expect(parsed.sections.working.entries.map((e) => e.stamp)).toEqual([
      '2026-11-21 18:15',
      '2026-11-27 18:15',
      '2026-11-29 16:15',
      '2026-11-30 18:00',
      '2026-11-30 18:10',
    ]);
    expect(parsed.sections.manual.entries.map((e) => e.body)).toEqual([
      'Release owner: Dana. Freeze window Thursdays 14:00-18:00 UTC.',
      'Staging URL is in the team wiki, not in this repo.',
    ]);
  });

  it('orders entries newest first and marks only the 9-day-old one due, as notepad_prune(7) pruned 1 of 5', () => {
    const prune = readReader('notepad_prune_dry.json');
    const entries = parsed.sections.working.entries;
    expect(newestFirst(entries).map((e) => e.stamp)).toEqual([
      '2026-11-30 18:10',
      '2026-11-30 18:00',
      '2026-11-29 16:15',
      '2026-11-27 18:15',
      '2026-11-21 18:15',
    ]);
    const due = entries.filter((e) => isDue(e, READERS_CAPTURED_AT));
    expect(due.map((e) => e.stamp)).toEqual(['2026-11-21 18:15']);
    expect(prune.prune.text).toContain(`Pruned: ${due.length} entries`);
    expect(prune.prune.text).toContain(`Remaining: ${entries.length - due.length} entries`);
  });

  it("matches OMC's live reader (dist) on a copy of the fixture", () => {
    writeNotepad(FIXTURE_TEXT);
    expect(omcReading(omc, p.dir)).toEqual({
      priority: parsed.sections.priority.text,
      working: parsed.sections.working.text,
      manual: parsed.sections.manual.text,
    });
  });
});

/** Random notepads from the pieces real files are made of, including the awkward ones. */
const piece = fc.constantFrom(
  '# Notepad\n',
  '## Priority Context\n',
  '## Working Memory\n',
  '## MANUAL\n',
  '## Priority Context\r\n',
  '<!-- ALWAYS loaded. -->\n',
  '<!-- unclosed ',
  ' -->',
  '### 2026-11-30 18:04\n',
  '### 2026-13-45 99:99\n',
  '### Sub heading\n',
  '## 2026-11-21 18:15\n',
  '## Other\n',
  '##no space\n',
  '\n## \n',
  'note text\n',
  '  indented\n',
  '\n',
  '\n\n',
  'tail without newline',
  'ünïcödé ✓ 認証\n',
);
const notepadText = fc.array(piece, { minLength: 0, maxLength: 24 }).map((a) => a.join(''));

describe("random files: omc-top reads what OMC's dist reader reads", () => {
  it('every section, for 300 generated files', () => {
    fc.assert(
      fc.property(notepadText, (text) => {
        writeNotepad(text);
        const ours = parseNotepad(text).sections;
        const theirs = omcReading(omc, p.dir);
        expect({ priority: ours.priority.text, working: ours.working.text, manual: ours.manual.text }).toEqual(theirs);
      }),
      { numRuns: 300 },
    );
  });
});

describe('files OMC cannot or should not be read from', () => {
  it('CRLF: OMC sees no sections, and the domain says so and blocks edits', () => {
    const crlf = NOTEPAD_TEMPLATE.replace(/\n/g, '\r\n').replace(
      '## Working Memory\r\n<!-- Session notes. Auto-pruned after 7 days. -->\r\n',
      '## Working Memory\r\n### 2026-11-30 18:04\r\nnote\r\n',
    );
    writeNotepad(crlf);
    expect(omcReading(omc, p.dir)).toEqual({ priority: '', working: '', manual: '' });
    const parsed = parseNotepad(crlf);
    expect(parsed.crlf).toBe(true);
    expect(parsed.sections.working.entries).toEqual([]);
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    expect(d.problems()[0]?.message).toMatch(/CRLF.*OMC's reader finds no Priority\/Working\/MANUAL sections/);
    expect(d.getSnapshot().editBlock).toMatch(/CRLF/);
  });

  it('binary (NUL bytes): a specific problem, the last good reading stays', () => {
    writeNotepad(FIXTURE_TEXT);
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    expect(d.getSnapshot().sections.working.entries).toHaveLength(5);
    writeNotepad(Buffer.from([0x23, 0x20, 0x00, 0x01, 0xff]));
    d.refresh([{ type: 'change', rel: 'notepad.md' }], 'leading');
    // A leading-edge failure may be a writer caught mid-way: not shown yet.
    expect(d.problems()).toEqual([]);
    d.refresh([{ type: 'change', rel: 'notepad.md' }], 'trailing');
    expect(d.problems()[0]?.message).toMatch(/NUL bytes.*showing the last good reading/);
    expect(d.getSnapshot().sections.working.entries).toHaveLength(5);
    expect(d.getSnapshot().editBlock).toMatch(/cannot be read/);
  });

  it('invalid UTF-8: read with U+FFFD, flagged, and not edited (saving would rewrite the bytes)', async () => {
    writeNotepad(
      Buffer.concat([
        Buffer.from(NOTEPAD_TEMPLATE.replace('## MANUAL\n', '## MANUAL\n### 2026-11-30 18:04\nbad ')),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('\n'),
      ]),
    );
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    expect(d.getSnapshot().sections.manual.entries[0]?.display).toContain('\ufffd');
    expect(
      d
        .problems()
        .map((x) => x.message)
        .join(),
    ).toMatch(/not valid UTF-8/);
    const before = fs.readFileSync(path.join(p.root, 'notepad.md'));
    const out = await d.save({ kind: 'add', section: 'manual', body: 'x' }, null);
    expect(out.kind).toBe('refused');
    expect(fs.readFileSync(path.join(p.root, 'notepad.md')).equals(before)).toBe(true);
  });

  it('escape sequences in an entry never reach the display text', () => {
    const hostile = NOTEPAD_TEMPLATE.replace(
      '## MANUAL\n<!-- User content. Never auto-pruned. -->\n',
      '## MANUAL\n### 2026-11-30 18:04\n\u001b]52;c;ZXZpbA==\u0007red \u001b[31mtext\u001b[0m \u202eevil\n',
    );
    const e = parseNotepad(hostile).sections.manual.entries[0]!;
    expect(e.display).toBe('red text evil');
    expect(e.body).toContain('\u001b[31m');
  });

  it('a directory where notepad.md belongs: a problem, no crash', () => {
    fs.rmSync(path.join(p.root, 'notepad.md'), { force: true });
    fs.mkdirSync(path.join(p.root, 'notepad.md'));
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    expect(d.problems()[0]?.message).toMatch(/directory/);
    fs.rmdirSync(path.join(p.root, 'notepad.md'));
  });

  it('a symlink leading out of the root is not read', () => {
    const outside = path.join(p.dir, 'outside.md');
    fs.writeFileSync(outside, NOTEPAD_TEMPLATE);
    fs.symlinkSync(outside, path.join(p.root, 'notepad.md'));
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    expect(d.problems()[0]?.message).toMatch(/outside the \.omc root/);
    fs.unlinkSync(path.join(p.root, 'notepad.md'));
  });
});

describe('the 3.4 MB notepad of the large fixture tree (300 entries, 4.x orphan growth)', () => {
  let big: string;
  beforeAll(() => {
    big = execFileSync('tar', ['xzf', path.join(FIXTURE, 'large-tree.tar.gz'), '-O', '.omc/notepad.md'], {
      maxBuffer: 64 * 1024 * 1024,
    }).toString('utf8');
  });

  it('parses in well under a frame budget per change and agrees with OMC', () => {
    expect(big.length).toBeGreaterThan(3_000_000);
    const t0 = performance.now();
    const parsed = parseNotepad(big);
    const ms = performance.now() - t0;
    expect(parsed.sections.working.entries.filter((e) => e.stamp !== null)).toHaveLength(300);
    expect(parsed.orphans.count).toBeGreaterThan(250);
    writeNotepad(big);
    expect(omcReading(omc, p.dir).working).toBe(readSection(big, 'working'));
    // Measured ~20-40 ms on the 2-core box; the bound only catches a quadratic regression.
    expect(ms).toBeLessThan(scaled(1500));
  });
});
