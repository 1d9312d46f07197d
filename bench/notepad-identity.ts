// What a notepad entry's identity (stamp + digest of its text, src/store/notepad/identity.ts) costs per
// parse, against the position ids it replaced (`<stamp>#<n>`), on a 3.3 MB notepad of 3,000 entries (the
// soak's size). Old and new run interleaved, so machine noise hits both alike. `parse` is the whole
// parseNotepad (sections, entries, sanitised display text), identity included.
//   npx tsx bench/notepad-identity.ts [--rounds 15]
import { NOTEPAD_TEMPLATE, replaceSection, splitEntries } from '../src/store/notepad/format.js';
import { withEntryIds } from '../src/store/notepad/identity.js';
import { parseNotepad } from '../src/store/notepad/model.js';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 15;
const entries: string[] = [];
for (let i = 0; i < 3000; i++) {
  const stamp = `2026-11-${String(1 + (i % 28)).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
  entries.push(`### ${stamp}\n${'note text about the build and the tests '.repeat(28)}#${i}\n`);
}
const text = replaceSection(NOTEPAD_TEMPLATE, 'working', entries.join('\n'));
// Each round splits a fresh copy of the file, as a re-read does: no string is reused from the last round.
const freshEntries = (round: number) =>
  splitEntries(parseNotepad(`${text}${' '.repeat(round % 2)}`).sections.working.text);
let raw = freshEntries(0);

const positionIds = () => {
  const seen = new Map<string, number>();
  return raw.map((e) => {
    const key = e.stamp ?? 'preamble';
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return { ...e, id: e.stamp === null ? 'preamble' : `${e.stamp}#${n}` };
  });
};
const time = (f: () => unknown) => {
  const s = performance.now();
  f();
  return performance.now() - s;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const old: number[] = [];
const now: number[] = [];
const parse: number[] = [];
for (let r = 0; r < rounds; r++) {
  raw = freshEntries(r);
  old.push(time(positionIds));
  raw = freshEntries(r + 1);
  now.push(time(() => withEntryIds(raw)));
  parse.push(time(() => parseNotepad(text)));
}
console.log(
  JSON.stringify({
    bench: 'notepad-identity',
    bytes: text.length,
    entries: raw.length,
    rounds,
    position_ids_ms_p50: +median(old).toFixed(2),
    content_ids_ms_p50: +median(now).toFixed(2),
    parse_ms_p50: +median(parse).toFixed(2),
  }),
);
