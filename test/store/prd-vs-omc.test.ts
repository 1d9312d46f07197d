/**
 * Ralph story progress against PRDs written and updated by OMC's own PRD
 * functions (5.5.0 and 4.4.4), judged by OMC's own getPrdStatus.
 */
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { countStories } from '../../src/store/prd/count.js';
import { PrdDomain } from '../../src/store/prd/domain.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { OmcStore } from '../../src/store/store.js';
import { writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { importOmc, OMC444, OMC55 } from '../helpers/omc-packages.mjs';

const omc55: any = await importOmc(OMC55, 'dist/hooks/ralph/prd.js');
const omc44: any = await importOmc(OMC444, 'dist/hooks/ralph/prd.js');

const SID = '0f6c2a57-3b1e-4f0a-9d7e-5a2b8c1d4e6f';
const STORIES = [
  { id: 'US-001', title: 'Parse input', description: 'd1', acceptanceCriteria: ['parses a', 'parses b'] },
  { id: 'US-002', title: 'Render output', description: 'd2', acceptanceCriteria: ['renders'] },
  { id: 'US-003', title: 'Docs', description: 'd3', acceptanceCriteria: ['documented'] },
];

function domain(p: TempProject, rules: '5.5' | '4.x' = '5.5'): PrdDomain {
  const d = new PrdDomain({ root: p.root, projectDir: p.dir, rules });
  d.scan();
  return d;
}

/** OMC's own verdict on the PRD it would read for the session. */
function omcStatus(p: TempProject, sessionId?: string) {
  const prd = omc55.readPrd(p.dir, sessionId);
  if (!prd) return null;
  const s = omc55.getPrdStatus(prd);
  return { passed: s.completed, total: s.total, current: s.nextStory?.id ?? null };
}

describe('PRD stories as OMC 5.5.0 counts them', () => {
  it('a story is done only when completed and architect-verified against the current criteria', ({
    emptyProject: p,
  }) => {
    expect(omc55.initPrd(p.dir, 'proj', 'main', 'task', STORIES, SID)).toBe(true);
    expect(domain(p).storiesJson(SID)).toEqual({ passed: 0, total: 3, current: 'US-001' });

    expect(omc55.markStoryComplete(p.dir, 'US-001', undefined, SID)).toBe(true);
    // passes:true on disk, but 5.5.0 wants the architect's approval too.
    expect(omcStatus(p, SID)).toEqual({ passed: 0, total: 3, current: 'US-001' });
    expect(domain(p).storiesJson(SID)).toEqual(omcStatus(p, SID));

    expect(omc55.markStoryArchitectVerified(p.dir, 'US-001', undefined, SID)).toBe(true);
    expect(omcStatus(p, SID)).toEqual({ passed: 1, total: 3, current: 'US-002' });
    expect(domain(p).storiesJson(SID)).toEqual(omcStatus(p, SID));
  });

  it('amending a criterion un-passes the story, as OMC concludes, and the amendment is listed', ({
    emptyProject: p,
  }) => {
    omc55.initPrd(p.dir, 'proj', 'main', 'task', STORIES, SID);
    omc55.markStoryComplete(p.dir, 'US-001', undefined, SID);
    omc55.markStoryArchitectVerified(p.dir, 'US-001', undefined, SID);
    const r = omc55.amendCriterion(
      p.dir,
      'US-001',
      {
        original: 'parses b',
        replacement: 'parses b or c',
        reason: 'b was wrong',
        evidence: 'measured on the real input set',
        authority: SID,
      },
      SID,
    );
    expect(r.ok).toBe(true);
    const file = path.join(p.root, 'state', 'sessions', SID, 'prd.json');
    const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    const omcNow = omcStatus(p, SID);
    const ours = domain(p).progress(SID)!;
    expect({ passed: ours.passed, total: ours.total, current: ours.current }).toEqual(omcNow);
    const us1 = ours.stories.find((s) => s.id === 'US-001')!;
    expect(us1.criteria).toEqual(raw.userStories[0].acceptanceCriteria);
    expect(us1.amendments).toEqual([
      { kind: 'replaced', original: 'parses b', replacement: 'parses b or c', reason: 'b was wrong' },
    ]);
  });

  it('an invalid PRD is a problem line and stories null, never 0/0', ({ emptyProject: p }) => {
    writeOmcJson(path.join(p.root, 'prd.json'), {
      project: 'x',
      branchName: 'm',
      description: 'd',
      userStories: [{ id: 'US-001', description: 'no title', acceptanceCriteria: [], priority: 1, passes: false }],
    });
    expect(omc55.readPrd(p.dir)).toBeNull();
    const d = domain(p);
    expect(d.storiesJson(null)).toBeNull();
    expect(d.problems()).toEqual([
      expect.objectContaining({ path: 'prd.json', message: expect.stringContaining('no string "title"') }),
    ]);
  });

  it('a PRD with a byte-order mark: OMC cannot read it, so no story progress and a problem line', ({
    emptyProject: p,
  }) => {
    const prd = {
      project: 'x',
      branchName: 'm',
      description: 'd',
      userStories: STORIES.map((s, i) => ({ ...s, priority: i + 1, passes: i === 0 })),
    };
    fs.mkdirSync(p.root, { recursive: true });
    fs.writeFileSync(path.join(p.root, 'prd.json'), '\ufeff' + JSON.stringify(prd, null, 2));
    // OMC's own reader gets nothing from it.
    expect(omc55.readPrd(p.dir)).toBeNull();
    const d = domain(p);
    expect(d.storiesJson(null)).toBeNull();
    expect(d.problems()).toEqual([
      expect.objectContaining({ path: 'prd.json', message: expect.stringContaining('byte-order mark') }),
    ]);
  });

  it('an invalid session PRD is a problem at the first scan', ({ emptyProject: p }) => {
    fs.mkdirSync(path.join(p.root, 'state', 'sessions', SID), { recursive: true });
    fs.writeFileSync(path.join(p.root, 'state', 'sessions', SID, 'prd.json'), '{"userStories": [');
    expect(
      domain(p)
        .problems()
        .map((x) => x.path),
    ).toEqual([`state/sessions/${SID}/prd.json`]);
  });

  it('through the store, session PRDs come from the sessions listing (no probe per session): same problems, same stories', async ({
    emptyProject: p,
  }) => {
    fs.mkdirSync(path.join(p.root, 'state', 'sessions', SID), { recursive: true });
    fs.writeFileSync(path.join(p.root, 'state', 'sessions', SID, 'prd.json'), '{"userStories": [');
    const other = '1f6c2a57-3b1e-4f0a-9d7e-5a2b8c1d4e6f';
    writeOmcJson(path.join(p.root, 'state', 'sessions', other, 'prd.json'), {
      project: 'x',
      branchName: 'm',
      description: 'd',
      userStories: [{ id: 'US-1', title: 't', description: 'd', acceptanceCriteria: [], priority: 1, passes: true }],
    });
    const store = new OmcStore({ root: p.root, watch: 'none', readonly: true, projectDir: p.dir });
    store.start();
    expect(store.prd.problems().map((x) => x.path)).toEqual([`state/sessions/${SID}/prd.json`]);
    expect(store.prd.storiesJson(other)).toEqual(
      expect.objectContaining({ passed: omc55.getPrdStatus(omc55.readPrd(p.dir, other)).completed }),
    );
    await store.close();
  });

  it('a row asks without touching the disk: the answer holds until a PRD event, however late the frame', ({
    emptyProject: p,
  }) => {
    expect(omc55.initPrd(p.dir, 'proj', 'main', 'task', STORIES, SID)).toBe(true);
    const d = domain(p);
    const other = '1f6c2a57-3b1e-4f0a-9d7e-5a2b8c1d4e6f';
    expect(d.storiesJson(SID)).toEqual({ passed: 0, total: 3, current: 'US-001' });
    expect(d.storiesJson(other)).toBeNull();
    // Written behind the domain's back (no event): a frame seconds later still shows what it was told.
    expect(omc55.markStoryComplete(p.dir, 'US-001', undefined, SID)).toBe(true);
    expect(omc55.markStoryArchitectVerified(p.dir, 'US-001', undefined, SID)).toBe(true);
    expect(omc55.initPrd(p.dir, 'proj', 'main', 'task', STORIES, other)).toBe(true);
    const later = Date.now() + 5_000;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => later);
    try {
      expect(d.storiesJson(SID)).toEqual({ passed: 0, total: 3, current: 'US-001' });
      expect(d.storiesJson(other)).toBeNull();
    } finally {
      clock.mockRestore();
    }
    // The watcher's events are what move it, to exactly what OMC now reads.
    d.refresh(
      [
        { type: 'change', rel: `state/sessions/${SID}/prd.json` },
        { type: 'add', rel: `state/sessions/${other}/prd.json` },
      ],
      'leading',
    );
    expect(d.storiesJson(SID)).toEqual(omcStatus(p, SID));
    expect(d.storiesJson(SID)?.passed).toBe(1);
    expect(d.storiesJson(other)).toEqual(omcStatus(p, other));
    d.dispose();
  });

  it("finds the PRD in OMC's order: session, project, .omc, .omc/state", ({ emptyProject: p }) => {
    const one = (id: string) => ({
      project: 'x',
      branchName: 'm',
      description: 'd',
      userStories: [{ id, title: 't', description: 'd', acceptanceCriteria: [], priority: 1, passes: false }],
    });
    writeOmcJson(path.join(p.root, 'state', 'prd.json'), one('STATE'));
    expect(domain(p).storiesJson(SID)?.current).toBe('STATE');
    writeOmcJson(path.join(p.root, 'prd.json'), one('OMC'));
    expect(domain(p).storiesJson(SID)?.current).toBe('OMC');
    writeOmcJson(path.join(p.dir, 'prd.json'), one('PROJECT'));
    expect(domain(p).storiesJson(SID)?.current).toBe('PROJECT');
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'prd.json'), one('SESSION'));
    expect(domain(p).storiesJson(SID)?.current).toBe('SESSION');
    // OMC agrees at every step; checked at the last one.
    expect(omcStatus(p, SID)?.current).toBe('SESSION');
    expect(domain(p).storiesJson(null)?.current).toBe('PROJECT');
  });

  it('escape sequences in story ids and titles never reach the views', ({ emptyProject: p }) => {
    omc55.initPrd(p.dir, 'proj', 'main', 'task', [
      { id: 'US-\u001b[31m1', title: 'evil \u001b]0;x\u0007', description: 'd', acceptanceCriteria: ['a'] },
    ]);
    const prog = domain(p).progress(null)!;
    expect(prog.current).toBe('US-1');
    expect(JSON.stringify(prog)).not.toMatch(/\u001b|\u0007/);
  });
});

describe('PRD stories as OMC 4.4.4 counts them', () => {
  it('passes:true is done; the same file counts 0 under 5.5.0 (no revision binding)', ({ emptyProject: p }) => {
    expect(omc44.initPrd(p.dir, 'proj', 'main', 'task', STORIES)).toBe(true);
    expect(omc44.markStoryComplete(p.dir, 'US-001')).toBe(true);
    const s44 = omc44.getPrdStatus(omc44.readPrd(p.dir));
    expect(domain(p, '4.x').storiesJson(null)).toEqual({
      passed: s44.completed,
      total: s44.total,
      current: s44.nextStory.id,
    });
    expect(s44.completed).toBe(1);
    // 5.5.0 reads the 4.4.4 file: the claim is not bound to a criteria revision.
    const verdict55 = countStories(JSON.parse(fs.readFileSync(path.join(p.root, 'prd.json'), 'utf8')), '5.5');
    expect(verdict55.ok && verdict55.progress.passed).toBe(omcStatus(p)?.passed);
    expect(omcStatus(p)?.passed).toBe(0);
  });
});

describe('--json stories', () => {
  it('a ralph mode carries {passed,total,current}; other modes have no key', ({ emptyProject: p }) => {
    omc55.initPrd(p.dir, 'proj', 'main', 'task', STORIES, SID);
    omc55.markStoryComplete(p.dir, 'US-001', undefined, SID);
    omc55.markStoryArchitectVerified(p.dir, 'US-001', undefined, SID);
    const now = new Date().toISOString();
    const base = { active: true, session_id: SID, started_at: now, last_checked_at: now, iteration: 2 };
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), { ...base, max_iterations: 10 });
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ultrawork-state.json'), base);
    const store = new OmcStore({ root: p.root, watch: 'none', readonly: true, projectDir: p.dir, rootRule: 'git' });
    store.start();
    const doc: any = buildJsonReport({
      root: p.root,
      rootRule: 'git',
      notices: [],
      sessions: store.sessions.getSnapshot(),
      extra: store.reportExtras(),
      storiesFor: (sid) => store.prd.storiesJson(sid),
    });
    void store.close();
    const modes = doc.sessions.find((s: any) => s.id === SID).modes;
    expect(modes.find((m: any) => m.mode === 'ralph').stories).toEqual({ passed: 1, total: 3, current: 'US-002' });
    expect('stories' in modes.find((m: any) => m.mode === 'ultrawork')).toBe(false);
  });
});
