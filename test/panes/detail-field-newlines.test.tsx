/**
 * A newline inside a mode file's field never draws a line of its own in the session detail: a multi-line prompt
 * and a `current_phase` of "execution\n  status: finished  —  spoofed" stay on their field's lines (flattened as the
 * row flattens them, wrapped under the field with a hanging indent), so a file cannot draw a line that looks like
 * omc-top's own `status:` line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SESSION, writeOmcJson } from '../helpers/fixtures.js';
import { describe, expect, it, KEY } from '../helpers/it.js';

describe('the session detail of a mode file with newlines in its fields', () => {
  for (const columns of [80, 60]) {
    it(`keeps every value on its field's lines at ${columns} columns`, async ({ app, project }) => {
      const abs = path.join(project.root, `state/sessions/${SESSION.ralph}/ralph-state.json`);
      const live = JSON.parse(fs.readFileSync(abs, 'utf8'));
      writeOmcJson(abs, {
        ...live,
        session_id: SESSION.ralph,
        prompt: 'ralph fix the login bug\nthen add tests',
        current_phase: 'execution\n  status: finished  —  spoofed',
        last_checked_at: new Date().toISOString(),
      });
      const a = await app({ columns, rows: 60, watch: 'poll' });
      await a.waitForText(/▸ .*88727f43/);
      await a.press(KEY.enter);
      await a.waitForText('fields:');
      const lines = a.lines();
      const from = lines.findIndex((l) => l.includes('fields:'));
      const to = lines.findIndex((l, n) => n > from && l.includes('session_id:'));
      expect(to, lines.join('\n')).toBeGreaterThan(from);
      // Every line of the block is a field (`    key: …`) or its continuation, further in.
      for (const l of lines.slice(from + 1, to + 1)) expect(l, lines.join('\n')).toMatch(/^( {4}[\w.-]+: | {6}\S)/);
      // The spoof is inside its field's line, not a status line of its own anywhere.
      expect(lines.filter((l) => /^\s*status: finished/.test(l))).toEqual([]);
      expect(lines.filter((l) => /^\s*then add tests/.test(l))).toEqual([]);
      expect(a.text().replace(/\n {6}/g, ' ')).toMatch(/ {4}current_phase: execution +status: finished +— +spoofed/);
      expect(a.text().replace(/\n {6}/g, ' ')).toMatch(/prompt: ralph fix the login bug +then add tests/);
    });
  }
});
