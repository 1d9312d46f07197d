/**
 * OMC's project-memory.json shape, version "1.0.0"
 * (OMC 5.5.0: dist/hooks/project-memory/types.js; unchanged since 4.x). Every object is
 * "loose": keys OMC does not know (project_memory_write can add any) are kept,
 * so a rewrite by omc-top preserves them. Timestamps are epoch milliseconds.
 */
import { z } from 'zod';
import { lazyObject } from '../../io/lazy-object.js';

export const SCHEMA_VERSION = '1.0.0';
/** project_memory_add_directive's limits (dist/tools/memory-tools.js). */
export const DIRECTIVE_MAX_CHARS = 500;
export const CONTEXT_MAX_CHARS = 500;
/** addDirective keeps at most this many (directive-detector.js). */
export const MAX_DIRECTIVES = 20;

const nullableString = lazyObject(() => z.string().nullable());

export const LanguageSchema = lazyObject(() =>
  z.looseObject({
    name: z.string(),
    version: nullableString,
    confidence: z.enum(['high', 'medium', 'low']),
    markers: z.array(z.string()),
  }),
);

export const FrameworkSchema = lazyObject(() =>
  z.looseObject({
    name: z.string(),
    version: nullableString,
    category: z.enum(['frontend', 'backend', 'fullstack', 'testing', 'build']),
  }),
);

export const CustomNoteSchema = lazyObject(() =>
  z.looseObject({
    timestamp: z.number(),
    source: z.enum(['manual', 'learned']),
    category: z.string(),
    content: z.string(),
  }),
);

export const HotPathSchema = lazyObject(() =>
  z.looseObject({
    path: z.string(),
    accessCount: z.number(),
    lastAccessed: z.number(),
    type: z.enum(['file', 'directory']),
  }),
);

export const DirectiveSchema = lazyObject(() =>
  z.looseObject({
    timestamp: z.number(),
    directive: z.string(),
    context: z.string(),
    source: z.enum(['explicit', 'inferred']),
    priority: z.enum(['high', 'normal']),
  }),
);

/**
 * OMC's tool checks lengths with zod 3, which counts UTF-16 code units (an
 * emoji is 2); zod 4's .max() counts code points, so the limit is spelled out.
 */
const maxUnits = (max: number, what: string) =>
  z.string().refine((s) => s.length <= max, {
    message: `${what} is at most ${max} characters (OMC's limit; an emoji counts 2)`,
  });

/** What a user may type for a new or edited directive (the tool's own limits). */
export const DirectiveInputSchema = lazyObject(() =>
  z.object({
    directive: z.string().trim().min(1, 'the directive is empty').pipe(maxUnits(DIRECTIVE_MAX_CHARS, 'a directive')),
    context: maxUnits(CONTEXT_MAX_CHARS, 'the context'),
    priority: z.enum(['high', 'normal']),
  }),
);

export const ProjectMemorySchema = lazyObject(() =>
  z.looseObject({
    version: z.string(),
    lastScanned: z.number(),
    projectRoot: z.string(),
    techStack: z.looseObject({
      languages: z.array(LanguageSchema),
      frameworks: z.array(FrameworkSchema),
      packageManager: nullableString,
      runtime: nullableString,
    }),
    build: z.looseObject({
      buildCommand: nullableString,
      testCommand: nullableString,
      lintCommand: nullableString,
      devCommand: nullableString,
      scripts: z.record(z.string(), z.string()),
    }),
    conventions: z.looseObject({
      namingStyle: nullableString,
      importStyle: nullableString,
      testPattern: nullableString,
      fileOrganization: nullableString,
    }),
    structure: z.looseObject({
      isMonorepo: z.boolean(),
      workspaces: z.array(z.string()),
      mainDirectories: z.array(z.string()),
      gitBranches: z.looseObject({ defaultBranch: z.string(), branchingStrategy: nullableString }).nullable(),
    }),
    // OMC normalises a missing list to [] when it loads the file.
    customNotes: z.array(CustomNoteSchema).default([]),
    directoryMap: z.record(
      z.string(),
      z.looseObject({
        path: z.string(),
        purpose: nullableString,
        fileCount: z.number(),
        lastAccessed: z.number(),
        keyFiles: z.array(z.string()),
      }),
    ),
    hotPaths: z.array(HotPathSchema).default([]),
    userDirectives: z.array(DirectiveSchema).default([]),
  }),
);

export type Directive = z.infer<typeof DirectiveSchema>;
export type DirectiveInput = z.infer<typeof DirectiveInputSchema>;
export type CustomNote = z.infer<typeof CustomNoteSchema>;
export type HotPath = z.infer<typeof HotPathSchema>;
export type ProjectMemory = z.infer<typeof ProjectMemorySchema>;

/** One zod issue as a short "where: what" line. */
export function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  const where = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  return `${where || '(top level)'}: ${issue.message}`;
}
