/**
 * A full disk, a read-only filesystem and a directory we may not write, hit
 * at every step of every save omc-top makes from the keyboard: a notepad
 * entry, a project-memory directive, a cancel, a team shutdown request.
 *
 * For each: the user sees the specific reason, whatever they typed is still
 * in the editor, the files on disk are byte-for-byte what they were, no temp
 * or lock file is left behind, and once the fault is gone the very same key
 * saves it (nothing stayed locked) and OMC's own readers see the result.
 *
 * The faults are injected into `fs` (test/helpers/fault-fs.ts), so they hit
 * exactly the syscall a real disk would fail; save-errors-real.e2e.test.ts
 * does the same with a real full tmpfs and a real read-only mount.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  injectFault,
  snapshotTree,
  strayWriteArtifacts,
  type FaultCode,
  type FaultStep,
  type InjectedFault,
} from '../helpers/fault-fs.js';
import { makeProject, SESSION, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { mountApp, type MountedApp } from '../helpers/mount-app.js';
import { omcMemoryStorage } from '../helpers/omc-knowledge.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';
import { KEY } from '../helpers/keys.js';

const CTRL_S = '\u0013';

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

let p: TempProject | null = null;
let app: MountedApp | null = null;
let fault: InjectedFault | null = null;
afterEach(async () => {
  delete process.env.EDITOR;
  fault?.restore();
  fault = null;
  await app?.unmount();
  app = null;
  p?.cleanup();
  p = null;
});

interface Fault {
  name: string;
  code: FaultCode;
  step: FaultStep;
  /** Which files fail, relative to the .omc root. */
  files: RegExp;
  shown: RegExp;
}

const ANY = /./;
const TEMP = /\.tmp(\.|$)/;
const FAULTS: Fault[] = [
  {
    name: 'disk full while the new bytes are written',
    code: 'ENOSPC',
    step: 'write',
    files: TEMP,
    shown: /disk full \(ENOSPC\)/,
  },
  {
    name: 'disk full at the first write (the lock record, where there is one)',
    code: 'ENOSPC',
    step: 'write',
    files: ANY,
    shown: /disk full \(ENOSPC\)/,
  },
  {
    name: 'disk full when the new file is renamed into place',
    code: 'ENOSPC',
    step: 'rename',
    files: ANY,
    shown: /disk full \(ENOSPC\)/,
  },
  { name: 'read-only filesystem', code: 'EROFS', step: 'create', files: ANY, shown: /read-only filesystem \(EROFS\)/ },
  {
    name: 'permission denied on the directory',
    code: 'EACCES',
    step: 'create',
    files: ANY,
    shown: /permission denied \(EACCES\)/,
  },
];

/** Installs the fault for files under the project's .omc root only. */
function inject(f: Fault): InjectedFault {
  const roots = [p!.root, fs.realpathSync(p!.root)];
  const rel = (abs: string) =>
    roots.map((r) => path.relative(r, abs)).find((x) => !x.startsWith('..') && !path.isAbsolute(x));
  fault = injectFault({
    code: f.code,
    step: f.step,
    path: (abs) => {
      const r = rel(abs);
      return r !== undefined && f.files.test(r);
    },
  });
  return fault;
}

async function open(pane: 'notepad' | 'memory' | 'teams' | 'sessions', columns = 100): Promise<MountedApp> {
  p = makeProject({ withFixture: true });
  if (pane === 'sessions') {
    // The ralph session made live, so it is the first (selected) row.
    const rel = path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    writeOmcJson(rel, {
      ...JSON.parse(fs.readFileSync(rel, 'utf8')),
      // The session_id OMC's Stop hook needs (state_write leaves only _meta.sessionId): enforced, the first row.
      session_id: SESSION.ralph,
      last_checked_at: new Date().toISOString(),
    });
  }
  app = await mountApp({ root: p.root, pane, columns, rows: 30 });
  return app;
}

/** What every failed save must leave: the reason on screen, the disk untouched, no temp or lock file. */
async function expectRefusedCleanly(
  a: MountedApp,
  f: Fault,
  before: Map<string, string>,
  hits: InjectedFault,
): Promise<void> {
  await a.waitForText(f.shown, `the ${f.code} reason on screen`);
  expect(hits.hits.length, 'the fault was actually hit').toBeGreaterThan(0);
  expect(strayWriteArtifacts(p!.root)).toEqual([]);
  expect(snapshotTree(p!.root)).toEqual(before);
}

describe.each(FAULTS)('$name ($code at $step)', (f) => {
  it('notepad: the draft stays in the editor, notepad.md is untouched; Ctrl-S again saves it once the disk is back', async () => {
    const a = await open('notepad');
    await a.waitForText('Working');
    await a.press('a');
    await a.waitForText('New Working Memory entry');
    await a.press(...'lost-nothing draft 42');
    await a.waitForText('lost-nothing draft 42');
    const before = snapshotTree(p!.root);
    const hit = inject(f);
    await a.press(CTRL_S);
    await expectRefusedCleanly(a, f, before, hit);
    expect(a.text()).toMatch(/your draft is kept/);
    // Said once: the cause (describeWriteError) says nothing of drafts, the editor says it.
    expect(a.text()).not.toMatch(/your draft is kept[^]*your draft is kept/);
    expect(a.text()).toContain('New Working Memory entry');
    expect(a.text()).toContain('lost-nothing draft 42');

    hit.restore();
    await a.press(CTRL_S);
    await a.waitForText('added Working Memory entry');
    expect(omc.getWorkingMemory(p!.dir)).toMatch(/lost-nothing draft 42$/);
    expect(strayWriteArtifacts(p!.root)).toEqual([]);
  });

  it("notepad e: the editor ran, the save after it failed → said as a save failure, never as $EDITOR's; the text stays in the editor", async () => {
    process.env.EDITOR = `sh -c 'printf " ED-APPENDED\\n" >> "$1"' editor`;
    const a = await open('notepad');
    await a.waitForText('Working');
    const before = snapshotTree(p!.root);
    const hit = inject(f);
    await a.press('e');
    await expectRefusedCleanly(a, f, before, hit);
    // As Ctrl-S says it: `save: <reason>` when the lock could not be taken, else the domain's own refusal.
    expect(a.text()).toMatch(/✗ (save: |notepad\.md was not written: ).*\(your draft is kept\)/);
    expect(a.text()).not.toContain('$EDITOR:');
    expect(a.text()).toContain('ED-APPENDED');

    hit.restore();
    await a.press(CTRL_S);
    await a.waitForText('saved Working Memory entry');
    expect(omc.getWorkingMemory(p!.dir)).toMatch(/ED-APPENDED$/);
  });

  it('memory: the directive form keeps what was typed, project-memory.json is untouched; Enter again saves it', async () => {
    const a = await open('memory');
    await a.waitForText('PRIORITY');
    await a.press('a', ...'Keep the fault suite green');
    await a.waitForText('Keep the fault suite green');
    const before = snapshotTree(p!.root);
    const hit = inject(f);
    await a.press(KEY.enter);
    await expectRefusedCleanly(a, f, before, hit);
    expect(a.text()).toMatch(/your draft is kept/);
    // Said once: the cause (describeWriteError) says nothing of drafts, the editor says it.
    expect(a.text()).not.toMatch(/your draft is kept[^]*your draft is kept/);
    expect(a.text()).toContain('Keep the fault suite green');
    expect(a.text()).not.toContain('directive added');

    hit.restore();
    await a.press(KEY.enter);
    await a.waitForText('directive added');
    const loaded = await (await omcMemoryStorage()).loadProjectMemory(p!.dir);
    expect(loaded.userDirectives.map((d: { directive: string }) => d.directive)).toContain(
      'Keep the fault suite green',
    );
    expect(strayWriteArtifacts(p!.root)).toEqual([]);
  });

  it('cancel: the loop keeps running and the message says nothing was changed; c, y again cancels it', async () => {
    const a = await open('sessions');
    await a.waitForText(/▸ enforced\s+88727f43/);
    await a.press('c');
    await a.waitForText('y: cancel the loop');
    const before = snapshotTree(p!.root);
    const hit = inject(f);
    await a.press('y');
    await expectRefusedCleanly(a, f, before, hit);
    expect(a.text()).toMatch(/Nothing was changed/i);
    expect(a.text()).toMatch(/enforced\s+88727f43 ralph/);

    hit.restore();
    await a.press('c');
    await a.waitForText('y: cancel the loop');
    await a.press('y');
    // No Claude process behind this fixture: the loop ended on disk, and omc-top says no more than that.
    await a.waitForText(/ralph, ultrawork ended on disk in .*no targeted mode is active/);
    expect(fs.existsSync(path.join(p!.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json'))).toBe(false);
    expect(strayWriteArtifacts(p!.root)).toEqual([]);
  });

  it('team shutdown: nothing half-written, the message says so; x, y again asks the worker', async () => {
    const a = await open('teams');
    await a.waitForText('fix-ts-errors');
    await a.press(KEY.enter);
    await a.waitForText('WORKERS 3');
    await a.press('j', 'x');
    await a.waitForText('Ask worker-2 of fix-ts-errors to shut down?');
    const before = snapshotTree(p!.root);
    const hit = inject(f);
    await a.press('y');
    await expectRefusedCleanly(a, f, before, hit);
    expect(a.text()).toMatch(/nothing was written/);
    expect(a.text()).not.toContain('draft');

    hit.restore();
    await a.press('x');
    await a.waitForText('Ask worker-2 of fix-ts-errors to shut down?');
    await a.press('y');
    await a.waitForText('asked worker-2 to shut down');
    const dir = path.join(p!.root, 'state/team/fix-ts-errors/workers/worker-2');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'shutdown-request.json'), 'utf8'))).toMatchObject({
      from: 'omc-top',
    });
    expect(fs.readFileSync(path.join(dir, 'inbox.md'), 'utf8')).toContain('## Shutdown request (omc-top,');
    expect(strayWriteArtifacts(p!.root)).toEqual([]);
  });
});

describe('a fault between two files of one request says exactly what was written', () => {
  // Wide enough for the whole message; at 80 columns the reason still comes first (see above).
  async function openWorkers(): Promise<MountedApp> {
    const a = await open('teams', 200);
    await a.waitForText('fix-ts-errors');
    await a.press(KEY.enter);
    await a.waitForText('WORKERS 3');
    return a;
  }

  it('x: the request file landed, the inbox note did not → both named, reason first, no "nothing was changed"', async () => {
    const a = await openWorkers();
    await a.press('j', 'x');
    await a.waitForText('Ask worker-2 of fix-ts-errors to shut down?');
    const hit = inject({
      name: 'inbox only',
      code: 'ENOSPC',
      step: 'write',
      files: /inbox\.md\.tmp\./,
      shown: /ENOSPC/,
    });
    await a.press('y');
    await a.waitForText(
      /✗ shutdown request: disk full \(ENOSPC\): written: workers\/worker-2\/shutdown-request\.json; not written:/,
    );
    expect(hit.hits).toHaveLength(1);
    expect(a.text()).not.toMatch(/nothing was (changed|written)|draft/i);
    expect(fs.existsSync(path.join(p!.root, 'state/team/fix-ts-errors/workers/worker-2/shutdown-request.json'))).toBe(
      true,
    );
    expect(fs.existsSync(path.join(p!.root, 'state/team/fix-ts-errors/workers/worker-2/inbox.md'))).toBe(false);
    expect(strayWriteArtifacts(p!.root)).toEqual([]);

    // Asking again once there is space finishes the request: the worker gets its note.
    hit.restore();
    await a.press('x');
    await a.waitForText('Ask worker-2 of fix-ts-errors to shut down?');
    await a.press('y');
    await a.waitForText('asked worker-2 to shut down');
    expect(fs.readFileSync(path.join(p!.root, 'state/team/fix-ts-errors/workers/worker-2/inbox.md'), 'utf8')).toContain(
      '## Shutdown request (omc-top,',
    );
  });

  it('X: the disk fills after the first worker → the message lists what was written and where it stopped', async () => {
    const a = await openWorkers();
    await a.press('X');
    await a.waitForText('Ask all 3 workers of fix-ts-errors to shut down?');
    const hit = inject({ name: 'second worker', code: 'ENOSPC', step: 'write', files: /worker-2\//, shown: /ENOSPC/ });
    await a.press('y');
    await a.waitForText(
      /disk full \(ENOSPC\): written: workers\/worker-1\/shutdown-request\.json, workers\/worker-1\/inbox\.md; not written: workers\/worker-2\/shutdown-request\.json/,
    );
    expect(hit.hits).toHaveLength(1);
    expect(fs.existsSync(path.join(p!.root, 'state/team/fix-ts-errors/shutdown.json'))).toBe(false);
    expect(strayWriteArtifacts(p!.root)).toEqual([]);
  });
});
