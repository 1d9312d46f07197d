// The notepad as OMC keeps it: the template, a Priority Context, a MANUAL
// note, a few older Working Memory entries (one 9 days old, so prune has
// something to show), then a new Working Memory entry every ~15 s, written
// the way OMC 5.5.0 does: under `notepad.md.lock`, read → replace the
// section → atomic rename.
import fs from 'node:fs';
import { every, withOmcLock } from '../lib.mjs';

export const name = 'notepad';

const REL = 'notepad.md';
const HEAD = {
  priority: '## Priority Context',
  working: '## Working Memory',
  manual: '## MANUAL',
};
const TEMPLATE =
  '# Notepad\n<!-- Auto-managed by OMC. Manual edits preserved in MANUAL section. -->\n\n' +
  `${HEAD.priority}\n<!-- ALWAYS loaded. Keep under 500 chars. Critical discoveries only. -->\n\n` +
  `${HEAD.working}\n<!-- Session notes. Auto-pruned after 7 days. -->\n\n` +
  `${HEAD.manual}\n<!-- User content. Never auto-pruned. -->\n\n`;

const NOTES = [
  'ralph iteration 4: checkout e2e green locally; CI still flaky on the address step.',
  'autopilot planning: split the cart store migration into 3 PRs (types, store, hooks).',
  'Found it: the Vitest fake timers leak between files because of a module-level setInterval.',
  'team worker-2 claimed "api client zod schemas"; worker-3 is blocked on it.',
  'Decision: keep amounts as integer cents end to end; format only in the view.',
  'ulw: 12 of 31 `any` removed from src/api; the generated client needs a custom template.',
  'Reminder for the next session: the payment sandbox key rotates on Mondays.',
];

const stamp = (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** OMC's section rules: body runs to the first "\n## X" (X not '#'); comments stripped, trimmed. */
function sectionEnd(text, from) {
  for (let i = from; ;) {
    const j = text.indexOf('\n## ', i);
    if (j === -1 || j + 4 >= text.length) return text.length;
    if (text[j + 4] !== '#') return j;
    i = j + 1;
  }
}
function readSection(text, header) {
  const at = text.indexOf(`${header}\n`);
  if (at === -1) return null;
  const start = at + header.length + 1;
  return text
    .slice(start, sectionEnd(text, start))
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
}
function replaceSection(text, header, content) {
  const at = text.indexOf(`${header}\n`);
  if (at === -1) return text;
  const start = at + header.length + 1;
  const m = text.slice(start).match(/^<!--[\s\S]*?-->/);
  const comment = m ? `${m[0]}\n` : '';
  return text.slice(0, at) + `${header}\n${comment}${content}\n` + text.slice(sectionEnd(text, start));
}

function update(ctx, fn) {
  withOmcLock(ctx, REL, () => {
    let text;
    try {
      text = fs.readFileSync(ctx.abs(REL), 'utf8');
    } catch {
      text = TEMPLATE;
    }
    ctx.writeText(REL, fn(text));
  });
}

/** Appends `### <UTC minute>\n<content>\n` to a section, joined with "\n", as addWorkingMemoryEntry does. */
function append(ctx, header, content, ms = Date.now()) {
  update(ctx, (text) => {
    const cur = readSection(text, header) ?? '';
    const entry = `### ${stamp(ms)}\n${content}\n`;
    return replaceSection(text, header, cur ? `${cur}\n${entry}` : entry);
  });
}

export function start(ctx) {
  const day = 86_400_000;
  const now = Date.now();
  update(ctx, (text) =>
    replaceSection(
      text,
      HEAD.priority,
      'Amounts are integer cents everywhere. Never commit .env.local. Release 0.5 freeze: Thursday 14:00 UTC.',
    ),
  );
  append(
    ctx,
    HEAD.manual,
    'Release owner: Dana. Staging URL lives in the team wiki, not in this repo.',
    now - 12 * day,
  );
  append(
    ctx,
    HEAD.working,
    'Investigated cart rounding: CartSummary sums floats. Plan: integer cents in src/api/checkout.ts.',
    now - 9 * day,
  );
  append(ctx, HEAD.working, 'TanStack Query adopted for cart fetching (ADR-007).', now - 3 * day);
  append(
    ctx,
    HEAD.working,
    'Flaky test: App.test.tsx fails ~1/20 runs under --threads.\nSuspect the shared fetch mock.',
    now - 5 * 3600_000,
  );
  let n = 0;
  return every(ctx, 15_000, () => append(ctx, HEAD.working, NOTES[n++ % NOTES.length]));
}
