/**
 * A state file written again with the very same bytes is a new write: the mode's view says when its file was
 * written (writtenMs), so a monitor that saw both writes shows what a fresh read of the tree shows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionsDomain } from '../../src/store/sessions/domain.js';

const SID = '00000001-1111-4222-8333-444455556666';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the same bytes written again', () => {
  it('re-derive the session: its mode was written now, as a fresh read says', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-same-bytes-'));
    dirs.push(root);
    const NOW = Date.parse('2026-12-05T10:00:00Z');
    const rel = `state/sessions/${SID}/ultrawork-state.json`;
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const text = JSON.stringify({ active: false, started_at: new Date(NOW - 60_000).toISOString(), session_id: SID });
    fs.writeFileSync(file, text);
    fs.utimesSync(file, new Date(NOW - 30_000), new Date(NOW - 30_000));
    const live = new SessionsDomain({ root, clock: () => NOW, projectDir: root });
    live.scan();
    const first = live.getSnapshot().sessions[0]?.modes[0]?.writtenMs;
    expect(first).toBe(NOW - 30_000);

    fs.writeFileSync(file, text);
    fs.utimesSync(file, new Date(NOW - 5_000), new Date(NOW - 5_000));
    live.refresh([{ type: 'change', rel }], 'trailing');
    const fresh = new SessionsDomain({ root, clock: () => NOW, projectDir: root });
    fresh.scan();
    expect(fresh.getSnapshot().sessions[0]?.modes[0]?.writtenMs).toBe(NOW - 5_000);
    expect(live.getSnapshot().sessions[0]?.modes[0]?.writtenMs).toBe(NOW - 5_000);
    // The changed view is named by the publish's delta, as any other change is.
    expect(live.getSnapshot().delta?.changed.map((v) => v.id)).toEqual([SID]);
    live.dispose();
    fresh.dispose();
  });
});
