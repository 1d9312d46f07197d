/**
 * Project memory against OMC's own compiled code: the SessionStart summary
 * (formatContextSummary, its rankings and the 650-character cut), the
 * directive rules (addDirective's case-insensitive de-duplication and 20-cap),
 * the tool's zod limits, and the file itself: what omc-top writes is loaded by
 * OMC's loader, keeps every other key, and survives OMC's own writers.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from '../helpers/it.js';
import { MemoryDomain } from '../../src/store/memory/domain.js';
import { summaryInputOf } from '../../src/store/memory/model.js';
import { applyOp, directiveKey } from '../../src/store/memory/rules.js';
import { DirectiveInputSchema, type Directive } from '../../src/store/memory/schema.js';
import { formatSummary } from '../../src/store/memory/summary.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT, readReader, type TempProject } from '../helpers/fixtures.js';
import {
  omcDirectiveDetector,
  omcMemoryFormatter,
  omcMemoryStorage,
  omcMemoryTools,
} from '../helpers/omc-knowledge.js';

const fixtureMemory = () =>
  JSON.parse(fs.readFileSync(path.join(FIXTURE_TREE, 'project-memory.json'), 'utf8')) as Record<string, unknown>;

describe("SessionStart summary equals OMC's formatContextSummary", () => {
  it('on the real fixture, at the time OMC produced it (readers/project_memory_read.json)', () => {
    const expected = readReader('project_memory_read.json').formatted_context_summary;
    const got = formatSummary(summaryInputOf(fixtureMemory()), READERS_CAPTURED_AT);
    expect(got.summary).toBe(expected);
    expect(got.cut).toBe(true);
    // The three critical directives are in; the normal ones are not in the top three.
    const states = [...got.directives.values()];
    expect(states.filter((s) => s === 'injected')).toHaveLength(3);
    expect(states.filter((s) => s === 'not-top')).toHaveLength(4);
  });

  const ts = fc.integer({ min: 1_790_000_000_000, max: 1_800_000_000_000 });
  const text = fc.string({ maxLength: 120 });
  const memory = fc.record({
    languages: fc.array(
      fc.record({
        name: text,
        version: fc.constant(null),
        confidence: fc.constantFrom('high', 'medium', 'low'),
        markers: fc.array(text, { maxLength: 3 }),
      }),
      { maxLength: 3 },
    ),
    frameworks: fc.array(
      fc.record({
        name: text,
        version: fc.constant(null),
        category: fc.constantFrom('frontend', 'backend', 'fullstack', 'testing', 'build'),
      }),
      { maxLength: 4 },
    ),
    packageManager: fc.option(text, { nil: null }),
    runtime: fc.option(text, { nil: null }),
    buildCommand: fc.option(text, { nil: null }),
    testCommand: fc.option(text, { nil: null }),
    lintCommand: fc.option(text, { nil: null }),
    hotPaths: fc.array(
      fc.record({
        path: fc.oneof(text, fc.constantFrom('src/a.ts', 'node_modules/x', 'dist/y.js', 'src', 'lib/build/z')),
        accessCount: fc.integer({ min: 0, max: 60 }),
        lastAccessed: ts,
        type: fc.constantFrom('file', 'directory'),
      }),
      { maxLength: 8 },
    ),
    userDirectives: fc.array(
      fc.record({
        timestamp: ts,
        directive: fc.string({ maxLength: 500 }),
        context: text,
        source: fc.constantFrom('explicit', 'inferred'),
        priority: fc.constantFrom('high', 'normal'),
      }),
      { maxLength: 25 },
    ),
    customNotes: fc.array(
      fc.record({
        timestamp: ts,
        source: fc.constantFrom('manual', 'learned'),
        category: fc.constantFrom('env', 'runtime', 'dependency', 'deploy', 'test', 'build', 'misc'),
        content: fc.string({ maxLength: 300 }),
      }),
      { maxLength: 8 },
    ),
  });

  it('on any memory at any time, including the cut and every tier ranking (fast-check)', async () => {
    const { formatContextSummary } = await omcMemoryFormatter();
    fc.assert(
      fc.property(memory, ts, (m, now) => {
        const full = {
          version: '1.0.0',
          lastScanned: now,
          projectRoot: '/p',
          techStack: {
            languages: m.languages,
            frameworks: m.frameworks,
            packageManager: m.packageManager,
            runtime: m.runtime,
          },
          build: {
            buildCommand: m.buildCommand,
            testCommand: m.testCommand,
            lintCommand: m.lintCommand,
            devCommand: null,
            scripts: {},
          },
          conventions: { namingStyle: null, importStyle: null, testPattern: null, fileOrganization: null },
          structure: { isMonorepo: false, workspaces: [], mainDirectories: [], gitBranches: null },
          customNotes: m.customNotes,
          directoryMap: {},
          hotPaths: m.hotPaths,
          userDirectives: m.userDirectives,
        };
        const expected = formatContextSummary(structuredClone(full), { now });
        expect(formatSummary(summaryInputOf(full), now).summary).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });
});

describe("directive rules equal OMC's addDirective", () => {
  const directive = fc.record({
    timestamp: fc.integer({ min: 1, max: 1000 }),
    directive: fc.constantFrom(
      'Use pnpm',
      'use PNPM',
      'Never push to main',
      'Keep PRs small',
      'x'.repeat(30),
      'Ünïcode rule',
      'ünïcode RULE',
    ),
    context: fc.string({ maxLength: 10 }),
    priority: fc.constantFrom('high' as const, 'normal' as const),
  });

  it('de-duplication ignoring case and the 20-cap (high first, then newest), over any sequence of adds (fast-check)', async () => {
    const { addDirective } = await omcDirectiveDetector();
    const base = fc.array(
      fc.record({
        timestamp: fc.integer({ min: 1, max: 1000 }),
        directive: fc.string({ minLength: 1, maxLength: 8 }),
        context: fc.constant(''),
        source: fc.constant('explicit' as const),
        priority: fc.constantFrom('high' as const, 'normal' as const),
      }),
      { maxLength: 24 },
    );
    fc.assert(
      fc.property(base, fc.array(directive, { minLength: 1, maxLength: 30 }), (start, adds) => {
        let ours: Directive[] = start.map((d) => ({ ...d }));
        let omc: Directive[] = start.map((d) => ({ ...d }));
        for (const a of adds) {
          const r = applyOp(ours, {
            kind: 'add',
            input: { directive: a.directive, context: a.context, priority: a.priority },
            timestamp: a.timestamp,
          });
          const before = omc.map((d) => ({ ...d }));
          omc = addDirective(omc, {
            timestamp: a.timestamp,
            directive: a.directive,
            context: a.context,
            source: 'explicit',
            priority: a.priority,
          });
          if (r.ok) {
            expect(r.list).toEqual(omc);
            // What the user is warned about is exactly what OMC's cut removed.
            const kept = new Set(omc.map(directiveKey));
            const lost = [...before, r.changed!].filter((d) => !kept.has(directiveKey(d)));
            expect(r.dropped.map(directiveKey).sort()).toEqual(lost.map(directiveKey).sort());
            ours = r.list;
          } else {
            // Refused as a duplicate: OMC leaves the list as it was.
            expect(omc).toEqual(before);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("accepts only what OMC's project_memory_add_directive schema accepts (≤ 500 chars directive and context)", async () => {
    const tool = (await omcMemoryTools()).projectMemoryAddDirectiveTool;
    for (const [d, c] of <Array<[string, string]>>[
      ['ok', ''],
      ['x'.repeat(500), 'y'.repeat(500)],
      ['x'.repeat(501), ''],
      ['ok', 'y'.repeat(501)],
      ['🙂'.repeat(250), ''],
      ['🙂'.repeat(251), ''],
    ]) {
      const ours = DirectiveInputSchema.safeParse({ directive: d, context: c, priority: 'high' }).success;
      const omc =
        tool.schema.directive.safeParse(d).success &&
        tool.schema.context.safeParse(c).success &&
        tool.schema.priority.safeParse('high').success;
      expect(ours, `${d.length}/${c.length}`).toBe(omc);
    }
    // An empty directive is legal for OMC but useless; omc-top refuses it (stricter, never looser).
    expect(DirectiveInputSchema.safeParse({ directive: '  ', context: '', priority: 'normal' }).success).toBe(false);
  });
});

describe('what omc-top writes, OMC reads and keeps', () => {
  function project(p: TempProject, extra: Record<string, unknown> = {}) {
    const file = path.join(p.root, 'project-memory.json');
    if (Object.keys(extra).length > 0)
      fs.writeFileSync(file, JSON.stringify({ ...fixtureMemory(), ...extra }, null, 2));
    const d = new MemoryDomain({ root: p.root });
    d.scan();
    return { file, d, dir: p.dir };
  }

  it('an edit and its undo give back the exact bytes OMC wrote; other keys never move', async ({ project: p }) => {
    const { file, d } = project(p);
    const original = fs.readFileSync(file, 'utf8');
    const target = d.model()!.directives.find((r) => r.directive.directive === 'Use pnpm, not npm or yarn')!;
    await d.save({
      kind: 'edit',
      target: target.key,
      input: { directive: target.directive.directive, context: target.directive.context, priority: 'high' },
    });
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(edited.userDirectives.find((x: Directive) => x.directive === 'Use pnpm, not npm or yarn')).toEqual({
      ...target.directive,
      priority: 'high',
    });
    const { userDirectives: _a, ...restAfter } = edited;
    const { userDirectives: _b, ...restBefore } = JSON.parse(original);
    expect(JSON.stringify(restAfter)).toBe(JSON.stringify(restBefore));
    await d.save({
      kind: 'edit',
      target: target.key,
      input: { directive: target.directive.directive, context: target.directive.context, priority: 'normal' },
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });

  it("adds, edits and removes round-trip through OMC's loader, its add tool and its merge write, unknown keys included", async ({
    project: p,
  }) => {
    const { file, d, dir } = project(p, { customTeamKey: { nested: [1, { deep: 'kept' }] }, zzz_unknown: 'also kept' });
    await d.save({
      kind: 'add',
      input: { directive: 'Run pnpm typecheck before pushing', context: 'CI is slow', priority: 'high' },
      timestamp: 1_796_100_000_000,
    });
    const removeKey = d
      .model()!
      .directives.find((r) => r.directive.directive === 'Keep React components under 200 lines')!.key;
    await d.save({ kind: 'remove', target: removeKey });

    const { loadProjectMemory } = await omcMemoryStorage();
    const loaded = await loadProjectMemory(dir);
    expect(loaded).not.toBeNull();
    expect(loaded.customTeamKey).toEqual({ nested: [1, { deep: 'kept' }] });
    expect(loaded.zzz_unknown).toBe('also kept');
    expect(loaded.userDirectives.map((x: Directive) => x.directive)).toContain('Run pnpm typecheck before pushing');
    expect(loaded.userDirectives.map((x: Directive) => x.directive)).not.toContain(
      'Keep React components under 200 lines',
    );

    // OMC's own writers on top of ours: the add tool, then a merge write (project_memory_write merge:true).
    // The tools trust the git top-level of the process cwd, so they run from inside the scratch project.
    const tools = await omcMemoryTools();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const added = await tools.projectMemoryAddDirectiveTool.handler({
        directive: 'Prefer zod at API boundaries',
        priority: 'normal',
      });
      expect(added.content[0].text).toMatch(/^Successfully added directive/);
      const merged = await tools.projectMemoryWriteTool.handler({
        memory: {
          customNotes: [{ timestamp: 1_796_100_000_001, source: 'manual', category: 'env', content: 'merged note' }],
        },
        merge: true,
      });
      expect(merged.content[0].text).toMatch(/^Successfully merged/);
    } finally {
      process.chdir(cwd);
    }
    d.scan();
    const texts = d.model()!.directives.map((r) => r.directive.directive);
    expect(texts).toEqual(
      expect.arrayContaining(['Run pnpm typecheck before pushing', 'Prefer zod at API boundaries']),
    );
    expect(texts).not.toContain('Keep React components under 200 lines');
    const after = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(after.zzz_unknown).toBe('also kept');
    expect(after.customNotes.at(-1).content).toBe('merged note');
  });

  it('on the large tree (50 directives from an uncapped merge) an add keeps what OMC would keep and says what goes', async ({
    emptyProject: p,
  }) => {
    fs.rmSync(p.root, { recursive: true, force: true });
    fs.mkdirSync(p.root);
    const { execFileSync } = await import('node:child_process');
    const scratch = fs.mkdtempSync(path.join(p.dir, 'x'));
    execFileSync('tar', [
      '-xzf',
      path.join(FIXTURE_TREE, '..', 'large-tree.tar.gz'),
      '-C',
      scratch,
      '.omc/project-memory.json',
    ]);
    fs.copyFileSync(path.join(scratch, '.omc', 'project-memory.json'), path.join(p.root, 'project-memory.json'));
    const d = new MemoryDomain({ root: p.root });
    d.scan();
    const before = JSON.parse(fs.readFileSync(path.join(p.root, 'project-memory.json'), 'utf8'))
      .userDirectives as Directive[];
    expect(before).toHaveLength(50);
    expect(d.model()!.overCap).toBe(true);
    expect(d.model()!.directives.filter((r) => !r.survivesCap)).toHaveLength(30);

    const op = {
      kind: 'add' as const,
      input: { directive: 'A brand new rule', context: '', priority: 'normal' as const },
      timestamp: 1_799_000_000_000,
    };
    const preview = d.previewOp(op);
    if (!preview.ok) throw new Error(preview.reason);
    expect(preview.dropped).toHaveLength(31);
    // Without the user's agreement to exactly these, nothing is written.
    await expect(d.save(op)).rejects.toThrow(/push out another one/);
    const res = await d.save(op, preview.dropped.map(directiveKey));
    const { addDirective } = await omcDirectiveDetector();
    const omc = addDirective(structuredClone(before), {
      timestamp: op.timestamp,
      directive: 'A brand new rule',
      context: '',
      source: 'explicit',
      priority: 'normal',
    });
    expect(JSON.parse(fs.readFileSync(path.join(p.root, 'project-memory.json'), 'utf8')).userDirectives).toEqual(omc);
    expect(res.dropped).toHaveLength(31);
  });
});
