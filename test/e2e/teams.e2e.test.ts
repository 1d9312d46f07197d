/**
 * The Teams pane in a real terminal (the bundled binary in a pty, read back
 * through a headless xterm): open the team, watch an event arrive live, ask a
 * worker to shut down, see the acknowledgement, leave cleanly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { writeOmcJson } from '../helpers/fixtures.js';
import { KEY } from '../helpers/keys.js';

describe('Teams pane in a real terminal', () => {
  it('opens a team, follows events live, and carries a shutdown request through to its ack', async ({
    project: p,
    pty,
  }) => {
    const team = path.join(p.root, 'state/team/fix-ts-errors');
    const h = pty({ cwd: p.dir, cols: 80, rows: 24 });
    await h.waitForText('ralph 3/10');
    h.write('t');
    await h.waitForText(/▸ fix-ts-errors\s+executing \(team-exec\)/);
    h.write(KEY.enter);
    await h.waitForText('WORKERS 3');
    expect(h.screen().every((l) => l.length <= 80)).toBe(true);

    fs.appendFileSync(
      path.join(team, 'events.jsonl'),
      JSON.stringify({
        event_id: 'e2e',
        team: 'fix-ts-errors',
        created_at: new Date().toISOString(),
        type: 'team_leader_nudge',
        worker: 'leader-fixed',
        reason: 'e2e nudge arrived',
      }) + '\n',
    );
    await h.waitForText('e2e nudge arrived');

    h.write('j');
    h.write('x');
    await h.waitForText('Ask worker-2 of fix-ts-errors to shut down?');
    h.write('y');
    await h.waitForText(/worker-2 .*⏻ asked/);
    const req = JSON.parse(fs.readFileSync(path.join(team, 'workers/worker-2/shutdown-request.json'), 'utf8'));
    expect(req.from).toBe('omc-top');
    writeOmcJson(path.join(team, 'workers/worker-2/shutdown-ack.json'), {
      status: 'reject',
      reason: 'busy',
      updated_at: new Date(Date.parse(req.requested_at) + 1).toISOString(),
    });
    await h.waitForText(/worker-2 .*⏻ rejected: busy/);

    h.write(KEY.esc);
    await h.waitForText(/TEAM\s+PHASE\s+PROGRESS/);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
