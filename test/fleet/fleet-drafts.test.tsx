/**
 * The fleet's open projects keep their drafts as the monitor does: a hang-up of `omc-top --all` with a project
 * opened and its notepad editor holding text keeps that text for that project's root (run-fleet.tsx's
 * fleetDraftRoots, what its exit writes), and opening the same project's editor in a later fleet offers it back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { keepOnExit } from '../../src/kit/kept-drafts.js';
import { PANES } from '../../src/panes/registry.js';
import { fleetDraftRoots } from '../../src/run-fleet.js';
import type { UiStore } from '../../src/kit/ui-store.js';
import { fleetRigPerTest } from './fleet-tree.js';
import { KEPT_OFFER } from '../helpers/kept-drafts.js';

const rig = fleetRigPerTest();

describe('omc-top --all: an opened project keeps its draft at a hang-up', () => {
  it("keeps the notepad draft for that project's root and offers it when the project is opened again", async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 1);
    const open = async (uiStores?: Map<string, UiStore>) => {
      const fleet = rig.fleet(m, { watch: 'none' });
      fleet.start();
      const app = await mountFleet(fleet, { columns: 110, rows: 30, uiStores });
      await app.waitForText(/alpha {2}\(2 sessions\)/);
      await app.step(KEY.enter);
      await app.waitForText('Esc back to the fleet');
      await app.step('n');
      await app.waitForText('2 Working 0');
      await app.step('2', 'a');
      return { fleet, app };
    };

    const uiStores = new Map<string, UiStore>();
    const first = await open(uiStores);
    await first.app.waitForText('New Working Memory entry');
    await first.app.step(...'typed in the fleet'.split(''));
    await first.app.waitForText('typed in the fleet');
    const kept = keepOnExit(129, PANES, fleetDraftRoots(first.fleet, uiStores));
    expect(kept).toHaveLength(1);
    const file = (kept[0] as { file: string }).file;
    expect(path.basename(file)).toMatch(/^draft-[0-9a-f]{16}-notepad-working\.[0-9]+-[0-9a-f]{8}\.json$/);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).fields).toEqual({ text: 'typed in the fleet' });
    // Nothing was written to the project itself.
    expect(fs.existsSync(path.join(alpha.root, 'notepad.md'))).toBe(false);
    first.app.unmountOnly();

    const again = await open();
    await again.app.waitForText(KEPT_OFFER);
    await again.app.step(KEY.ctrl('r'));
    await again.app.waitForText('the kept draft is back in the field');
    await again.app.waitForText('typed in the fleet');
    expect(fs.existsSync(file)).toBe(false);
    again.app.unmountOnly();
  });
});
