/**
 * The shutdown request → acknowledgement flow on disk, checked against OMC's
 * own ack readers: what lands in the worker dir, that the inbox keeps what was
 * there, that an ack older than the request is ignored, that --readonly and
 * hostile names write nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { TeamsDomain } from '../../src/store/teams/domain.js';
import type { TeamView } from '../../src/store/teams/model.js';
import { ReadonlyError, requestTeamShutdown, requestWorkerShutdown } from '../../src/store/teams/shutdown.js';
import { makeProject, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { omcTeam } from '../helpers/omc-team.js';
import { generateTeam } from '../helpers/team-gen.js';

let p: TempProject;
let dir: string;
let store: OmcStore | null = null;
beforeEach(() => {
  p = makeProject();
  dir = generateTeam({ root: p.root, name: 'crew', workers: 3, tasks: 6, now: Date.now() }).dir;
});
afterEach(async () => {
  await store?.close();
  store = null;
  p.cleanup();
});

function open(watch: 'none' | 'auto' = 'none') {
  store = new OmcStore({ root: p.root, watch, teams: { pidAlive: () => true } });
  const teams = store.teams;
  store.start();
  return teams;
}
const crew = (d: TeamsDomain) => d.getSnapshot().teams.find((t) => t.name === 'crew') as TeamView;
const target = (domain: TeamsDomain, now: number, readonly = false) => ({
  domain,
  teamKey: 'crew',
  teamName: 'crew',
  readonly,
  now,
});

describe('asking one worker to shut down', () => {
  it("writes OMC's request file and an inbox note that keeps the worker's current instructions", async () => {
    const teams = open();
    const inbox = path.join(dir, 'workers/worker-2/inbox.md');
    fs.writeFileSync(inbox, '# Task assignment\n\nWork on task 4.\n');
    const now = Date.parse('2026-12-01T10:00:00.000Z');
    const written = requestWorkerShutdown(target(teams, now), 'worker-2');
    expect(written).toEqual([
      'state/team/crew/workers/worker-2/shutdown-request.json',
      'state/team/crew/workers/worker-2/inbox.md',
    ]);
    const req = fs.readFileSync(path.join(dir, 'workers/worker-2/shutdown-request.json'), 'utf8');
    expect(req).toBe(JSON.stringify({ from: 'omc-top', requested_at: '2026-12-01T10:00:00.000Z' }, null, 2));
    expect((fs.statSync(path.join(dir, 'workers/worker-2/shutdown-request.json')).mode & 0o777).toString(8)).toBe(
      '600',
    );
    const note = fs.readFileSync(inbox, 'utf8');
    expect(
      note.startsWith(
        '# Task assignment\n\nWork on task 4.\n\n\n---\n## Shutdown request (omc-top, 2026-12-01T10:00:00.000Z)',
      ),
    ).toBe(true);
    expect(note).toContain(path.join(dir, 'workers/worker-2/shutdown-ack.json'));
    // No temp files left behind.
    expect(fs.readdirSync(path.join(dir, 'workers/worker-2')).filter((f) => f.includes('.tmp.'))).toEqual([]);
  });

  it("shows the request, ignores an ack older than it (as OMC's readShutdownAck does), then shows the new ack live", async () => {
    const omc = await omcTeam();
    const ackPath = path.join(dir, 'workers/worker-1/shutdown-ack.json');
    writeOmcJson(ackPath, { status: 'accept', reason: 'old run', updated_at: '2026-01-01T00:00:00.000Z' });
    const teams = open('auto');
    await waitFor(() => store?.status.getSnapshot().watchMode === 'events', { what: 'watcher' });
    const now = Date.now();
    requestWorkerShutdown(target(teams, now), 'worker-1');
    const requested = await waitFor(
      () => crew(teams).workers[0]?.shutdown?.requestedMs === now && crew(teams).workers[0],
      { what: 'request visible' },
    );
    expect(requested.shutdown?.ack).toMatchObject({ status: 'accept', stale: true });
    const requestedAt = new Date(now).toISOString();
    expect(await omc.readShutdownAck('crew', 'worker-1', p.dir, requestedAt)).toBeNull();
    expect(await omc.teamReadShutdownAck('crew', 'worker-1', p.dir, requestedAt)).toBeNull();

    // The worker answers the way OMC's inbox instructions tell it to.
    writeOmcJson(ackPath, {
      status: 'reject',
      reason: 'mid-refactor',
      updated_at: new Date(now + 1_000).toISOString(),
    });
    const acked = await waitFor(
      () => (crew(teams).workers[0]?.shutdown?.ack?.stale === false ? crew(teams).workers[0] : null),
      { what: 'ack visible' },
    );
    expect(acked.shutdown?.ack).toMatchObject({ status: 'reject', reason: 'mid-refactor' });
    expect(await omc.readShutdownAck('crew', 'worker-1', p.dir, requestedAt)).toMatchObject({ status: 'reject' });
  });

  it('refuses under --readonly and for names that are not OMC names, writing nothing', () => {
    const teams = open();
    const before = fs.readdirSync(path.join(dir, 'workers/worker-1'));
    expect(() => requestWorkerShutdown(target(teams, Date.now(), true), 'worker-1')).toThrow(ReadonlyError);
    expect(() => requestWorkerShutdown(target(teams, Date.now()), '../../../../tmp/x')).toThrow(
      /not a valid OMC worker name/,
    );
    expect(() => requestWorkerShutdown({ ...target(teams, Date.now()), teamName: '../crew' }, 'worker-1')).toThrow(
      /not a valid OMC team name/,
    );
    expect(fs.readdirSync(path.join(dir, 'workers/worker-1'))).toEqual(before);
  });
});

describe('asking the whole team to shut down', () => {
  it("writes a request and a note for every worker plus OMC's team-level shutdown.json", async () => {
    const teams = open();
    const now = Date.parse('2026-12-01T11:00:00.000Z');
    const written = requestTeamShutdown(
      target(teams, now),
      crew(teams).workers.map((w) => w.name),
    );
    expect(written).toHaveLength(3 * 2 + 1);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'shutdown.json'), 'utf8'))).toEqual({
      requestedAt: '2026-12-01T11:00:00.000Z',
      teamName: 'crew',
    });
    for (const w of ['worker-1', 'worker-2', 'worker-3']) {
      expect(JSON.parse(fs.readFileSync(path.join(dir, `workers/${w}/shutdown-request.json`), 'utf8'))).toEqual({
        from: 'omc-top',
        requested_at: '2026-12-01T11:00:00.000Z',
      });
    }
    teams.scan();
    expect(crew(teams).teamShutdownMs).toBe(now);
    expect(crew(teams).workers.every((w) => w.shutdown?.requestedMs === now && w.shutdown.ack === null)).toBe(true);
  });
});
