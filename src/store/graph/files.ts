/**
 * The files of an OMC 5.5.0 graph run (`.omc/graph-runs/<runId>/…`), validated the way OMC's own readers take
 * them: the pending approval OMC writes, the decision it accepts, the owner lock, the projection envelope, the
 * journal lines and the sealed descriptor. Anything else is a specific problem, never a guess.
 */
import { z } from 'zod';
import { lazyObject } from '../../io/lazy-object.js';

/** OMC's id rule for run, revision and node ids (activation ids are built from node ids). */
export const GRAPH_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
export const isGraphId = (v: unknown): v is string => typeof v === 'string' && v.length <= 128 && GRAPH_ID.test(v);
const graphId = lazyObject(() => z.string().max(128).regex(GRAPH_ID));

/** `approvals/pending/<activationId>.json`, written by OMC's remote gate while it waits. */
export const PendingSchema = lazyObject(() =>
  z.object({
    run_id: graphId,
    node_id: graphId,
    activation_id: graphId,
    prompt_text: z.string().max(100_000),
    created_at: z.string().max(100),
  }),
);
export type PendingFile = z.infer<typeof PendingSchema>;

/**
 * `approvals/decisions/<activationId>.json` as OMC's parser accepts it: `decision` exactly "approved" or
 * "denied"; `decided_at` / `decided_by` strings when present; other fields ignored.
 */
export const DECISIONS = ['approved', 'denied'] as const;
export type GateDecision = (typeof DECISIONS)[number];
export const DecisionSchema = lazyObject(() =>
  z.object({
    decision: z.enum(DECISIONS),
    decided_at: z.string().optional(),
    decided_by: z.string().optional(),
  }),
);
export type DecisionFile = z.infer<typeof DecisionSchema>;

/** `owner.lock`: the pid that owns the run, its ownership epoch and when it took it. No heartbeat. */
export const OwnerLockSchema = lazyObject(() =>
  z.object({
    pid: z
      .number()
      .int()
      .positive()
      .max(2 ** 31),
    epoch: z.number().int().min(0),
    timestamp: z.number().finite(),
  }),
);
export type OwnerLock = z.infer<typeof OwnerLockSchema>;

export const ACTIVATION_STATES = ['ready', 'running', 'completed', 'failed'] as const;
export type ActivationState = (typeof ACTIVATION_STATES)[number];

const ActivationSchema = lazyObject(() =>
  z.object({
    activation_id: graphId,
    node_id: graphId,
    status: z.enum(ACTIVATION_STATES),
    attempt_no: z.number().int().min(0).optional(),
  }),
);

/** `projection.json`: the envelope and the activations (OMC keeps state on activations, not on nodes). */
export const ProjectionSchema = lazyObject(() =>
  z.object({
    schema_version: z.literal(1),
    run_id: graphId,
    revision_id: graphId,
    epoch: z.number().int().min(0),
    saved_at_seq: z.number().int().min(-1),
    projection: z.object({
      activations: z.record(z.string(), ActivationSchema),
      terminal_verification_activation_ids: z.array(z.string()).optional(),
      committed_transitions: z.record(z.string(), z.object({ outcome: z.string() }).loose()).optional(),
    }),
  }),
);
export type ProjectionFile = z.infer<typeof ProjectionSchema>;

/** One `journal.jsonl` line: one committed transition. */
export const JournalLineSchema = lazyObject(() =>
  z.object({
    seq: z.number().int().min(0),
    epoch: z.number().int().min(0),
    transition: z.object({
      activation_id: z.string().max(300),
      node_id: z.string().max(300),
      outcome: z.string().max(40),
    }),
  }),
);

/** `descriptor.json` (sealed): the nodes' titles and kinds, the goal. */
export const DescriptorSchema = lazyObject(() =>
  z.object({
    run_id: graphId,
    revision_id: graphId,
    goal: z.string().max(10_000).optional(),
    nodes: z
      .array(z.object({ id: graphId, kind: z.string().max(40), title: z.string().max(1000).optional() }))
      .max(10_000),
    terminal_verification_node_id: z.string().max(128).optional(),
  }),
);
export type DescriptorFile = z.infer<typeof DescriptorSchema>;

/** The first issue of a failed parse, in words: `field: message`. */
export function describeIssue(e: z.ZodError): string {
  const i = e.issues[0];
  if (!i) return 'invalid';
  return `${i.path.length > 0 ? i.path.map(String).join('.') : '(top level)'}: ${i.message}`;
}
