/**
 * A confirm dialog in a short pane (the monitor's half of a 60x20 tmux split leaves it a few rows): the body is cut
 * to what fits, and the prompt line says how much is out of sight, so a gate's question is never all the user sees
 * without a sign that more (the run, what the decision does) is below.
 */
import fs from 'node:fs';
import path from 'node:path';
import React from 'react';
import { ConfirmView } from '../../src/ui/overlays.js';
import type { ConfirmOverlay } from '../../src/kit/ui-store.js';
import { mountNode, type MountedNode } from '../helpers/mount-app.js';
import { SESSION, waitFor, writeOmcJson } from '../helpers/fixtures.js';

/** A plain component reads no keys: drawn once its first frame has the dialog's title. */
const drawn = (m: MountedNode) => waitFor(() => m.text().includes('Approve OMC gate'), { what: 'the dialog drawn' });
import { describe, expect, it } from '../helpers/it.js';

const overlay = (scroll = 0): ConfirmOverlay => ({
  kind: 'confirm',
  id: 'gate',
  title: 'Approve OMC gate deploy of run r1?',
  lines: [
    'Ship it?',
    '',
    'run r1: 2 of 5 nodes done',
    '',
    'omc-top writes the decision file',
    'The run goes on past the gate.',
  ],
  prompt: 'y: approve   n/Esc: not now',
  onConfirm: () => undefined,
  scroll,
});

describe('a confirm dialog too short for its body', () => {
  it('says on the prompt line how many lines are below (and above once scrolled)', async () => {
    const small = mountNode(
      <ConfirmView overlay={overlay()} width={60} height={6} />,
      { columns: 60, rows: 6 },
      () => undefined,
    );
    await drawn(small);
    expect(small.text()).toContain('Ship it?');
    expect(small.text()).toContain('y: approve   n/Esc: not now  ↓4 more (↑↓)');
    small.unmountOnly();
    const scrolled = mountNode(
      <ConfirmView overlay={overlay(2)} width={60} height={6} />,
      { columns: 60, rows: 6 },
      () => undefined,
    );
    await drawn(scrolled);
    expect(scrolled.text()).toContain('run r1: 2 of 5 nodes done');
    expect(scrolled.text()).toContain('↑2 ↓2 more (↑↓)');
    scrolled.unmountOnly();
  });

  it('with room for the markers, the body says it itself and the prompt line is the prompt', async () => {
    const tall = mountNode(
      <ConfirmView overlay={overlay()} width={60} height={8} />,
      { columns: 60, rows: 8 },
      () => undefined,
    );
    await drawn(tall);
    expect(tall.text()).toContain('more below');
    expect(tall.text()).not.toContain('more (↑↓)');
    tall.unmountOnly();
  });
});

describe('the cancel dialog in a terminal of 9 rows or fewer', () => {
  // 80x8 drew a body line's tail under the key line, 80x6 drew over the bottom border, 20x5 lost the left border.
  for (const [columns, rows] of [
    [80, 9],
    [80, 8],
    [80, 7],
    [80, 6],
    [60, 6],
    [80, 5],
    [20, 5],
  ] as const) {
    it(`at ${columns}x${rows} draws each line once, the key line whole and any border closed`, async ({
      app,
      project,
    }) => {
      const abs = path.join(project.root, `state/sessions/${SESSION.ralph}/ralph-state.json`);
      const live = { ...JSON.parse(fs.readFileSync(abs, 'utf8')), session_id: SESSION.ralph };
      writeOmcJson(abs, { ...live, last_checked_at: new Date().toISOString() });
      const a = await app({ columns, rows, watch: 'poll' });
      await a.waitForText(/▸ /);
      await a.press('c');
      await a.waitForText('y: cancel');
      const lines = a.lines();
      expect(lines.filter((l) => l !== '').length).toBeLessThanOrEqual(rows - 1);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
      // The key line is one line of its own: the prompt and at most the scroll marker, nothing left under it.
      const key = lines.filter((l) => l.includes('y: cancel'));
      expect(key).toHaveLength(1);
      const keyText = (key[0] as string).replace(/^│/, '').replace(/│$/, '').trim();
      const whole = 'y: cancel the loop   n/Esc: keep it';
      if (columns - 4 >= whole.length)
        expect(keyText).toMatch(/^y: cancel the loop {3}n\/Esc: keep it( {2}(↑\d+ ?)?(↓\d+)? more \(↑↓\))?$/);
      else expect(whole.startsWith(keyText.replace(/…$/, ''))).toBe(true);
      const top = lines.findIndex((l) => l.startsWith('╭'));
      if (top >= 0) {
        const bottom = lines.findIndex((l) => l.startsWith('╰'));
        expect(bottom).toBeGreaterThan(top);
        for (const l of lines.slice(top + 1, bottom)) {
          expect(l.startsWith('│')).toBe(true);
          expect(l.endsWith('│')).toBe(true);
        }
      }
    });
  }
});
