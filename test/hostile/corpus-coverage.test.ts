/**
 * The corpus itself: big enough, and covering every file omc-top reads with
 * every kind of damage the issue lists (so a row dropped from a table shows).
 */
import { describe, expect, it } from 'vitest';
import { allCases, MODES } from '../helpers/hostile-corpus.js';

const cases = allCases();
const names = cases.map((c) => c.name);
const has = (re: RegExp) => names.filter((n) => re.test(n)).length;

describe('the hand-made corpus', () => {
  it('has at least 200 cases with unique names, and every case says what the user must see', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(names).size).toBe(names.length);
    for (const c of cases) expect(c.problem !== undefined || c.shown !== undefined, c.name).toBe(true);
    // Test names are printed by the runner: no raw control bytes in them.
    for (const n of names) expect(n).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  const files: Array<[string, RegExp]> = [
    ...MODES.map((m): [string, RegExp] => [`mode state of ${m}`, new RegExp(`^mode ${m} \\(session\\)`)]),
    ['legacy state/<mode>-state.json', /^legacy state\//],
    ['root <mode>-state.json', /^root \.omc\//],
    ['session cancel signal', /^cancel signal \(session/],
    ['legacy cancel signal', /^cancel signal \(legacy/],
    ['skill-active-state.json', /^skill-active-state\.json/],
    ['session-started.json', /^session-started\.json/],
    ['sessions/<sid>.json', /^ended-session marker/],
    ['team config.json', /^team config\.json/],
    ['team manifest.json', /^team manifest\.json/],
    ['team phase-state.json', /^team phase-state\.json/],
    ['tasks/task-N.json', /^team task-2\.json/],
    ['workers/<w>/heartbeat.json', /^worker heartbeat\.json/],
    ['workers/<w>/status.json', /^worker status\.json/],
    ['workers/<w>/shutdown-ack.json', /^worker shutdown-ack\.json/],
    ['events.jsonl', /^team events\.jsonl/],
    ['legacy bridge heartbeats', /^legacy bridge heartbeat/],
    ['notepad.md', /^notepad\.md/],
    ['project-memory.json', /^project-memory\.json/],
    ['wiki pages', /^wiki page/],
    ['wiki index.md', /^wiki index\.md/],
  ];
  it.each(files)('covers %s', (_what, re) => {
    expect(has(re)).toBeGreaterThanOrEqual(3);
  });

  const defects: Array<[string, RegExp]> = [
    ['truncated JSON', /truncated/],
    ['invalid JSON', /invalid JSON|not JSON|JavaScript instead/],
    ['wrong types', /wrong type|as a string|is a number|is a string|numbers as strings/],
    ['nulls', /null/],
    ['deep nesting', /levels of nest|nested/],
    ['50 MB files', /50 MB/],
    ['binary', /binary/],
    ['invalid UTF-8', /invalid UTF-8/],
    ['BOM', /byte-order mark/],
    ['CRLF', /CRLF/],
    ['NUL bytes', /NUL/],
    ['names with ../', /\.\.|\.\.\//],
    ['slashes', /slash/],
    ['control characters in names', /escape sequence.* in the name|C1 control in the name|escape sequences?$/],
    ['colour sequences', /\(colour\)/],
    ['OSC 52 clipboard', /\(osc52\)/],
    ['cursor movement', /\(cursor\)|cursor movement/],
    ['terminal title', /\(title\)|title escape/],
    ['symlinks out of the root', /symlink to (a file|a page|a directory|outside|\/etc)/],
    ['directories where files belong', /directory where|a directory instead|a directory named/],
  ];
  it.each(defects)('covers %s', (_what, re) => {
    expect(has(re)).toBeGreaterThanOrEqual(3);
  });
});
