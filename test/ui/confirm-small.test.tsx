/**
 * A confirm dialog in a short pane (the monitor's half of a 60x20 tmux split leaves it a few rows): the body is cut
 * to what fits, and the prompt line says how much is out of sight, so a gate's question is never all the user sees
 * without a sign that more (the run, what the decision does) is below.
 */
import React from 'react';
import { ConfirmView } from '../../src/ui/overlays.js';
import type { ConfirmOverlay } from '../../src/kit/ui-store.js';
import { mountNode, type MountedNode } from '../helpers/mount-app.js';
import { waitFor } from '../helpers/fixtures.js';

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
