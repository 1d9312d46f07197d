/** Immutable snapshot shapes of the graph domain (OMC 5.5.0 graph runs and their human gates). */
import type { Problem } from '../types.js';
import type { ActivationState, GateDecision } from './files.js';

/** A human gate OMC is waiting on: its pending file, plus a decision already written for it, if any. */
export interface GateView {
  runId: string;
  activationId: string;
  nodeId: string;
  /** The node's title from the descriptor, when it has one. */
  title: string | null;
  /** Sanitised prompt text (one line per line of the original, at most a few). */
  prompt: string;
  createdMs: number | null;
  /** A decision file is already there (OMC reads it within its 2 s poll while the run's owner lives). */
  decided: { decision: GateDecision; by: string | null; atMs: number | null } | null;
  /** Relative to the .omc root. */
  pendingRel: string;
}

export interface OwnerView {
  pid: number;
  epoch: number;
  sinceMs: number;
  /** OMC's own test: the pid is alive on this host (the lock has no start time to tell a reused pid). */
  alive: 'alive' | 'dead' | 'unknown';
}

/** What the owner's command line says about an unanswered gate (OMC stores it nowhere on disk). */
export interface TimeoutPolicy {
  /** 'known': read from a live `omc graph run` command line; 'unknown': with the reason. */
  known: boolean;
  /** Seconds after which OMC resolves the gate by itself; null = it waits for ever. */
  seconds: number | null;
  /** What it resolves to then. */
  policy: 'denied' | 'approved';
  text: string;
}

export interface TransitionView {
  seq: number;
  epoch: number;
  nodeId: string;
  activationId: string;
  outcome: string;
}

export type RunState = 'running' | 'waiting for a gate' | 'succeeded' | 'failed' | 'stopped' | 'not started';

export interface GraphRunView {
  runId: string;
  /** Relative to the .omc root: graph-runs/<runId>. */
  rel: string;
  revisionId: string | null;
  epoch: number | null;
  goal: string | null;
  state: RunState;
  /** Why the state reads as it does, in words. */
  stateText: string;
  /** Activations by state (OMC keeps state on activations; a node re-entered by a back edge counts each time). */
  byState: Record<ActivationState, number>;
  /** Each node with the state of its latest activation (in descriptor order). */
  nodes: { id: string; title: string | null; kind: string; state: ActivationState | 'not reached' }[];
  /** The last committed transitions, newest last. */
  lastTransitions: TransitionView[];
  transitionsTotal: number;
  owner: OwnerView | null;
  timeout: TimeoutPolicy;
  gates: GateView[];
  /** Newest file time seen in the run (ms), for ordering. */
  updatedMs: number;
  problems: Problem[];
}

export interface GraphSnapshot {
  version: number;
  runs: readonly GraphRunView[];
  /** Every gate of every run, oldest first. */
  gates: readonly GateView[];
  problems: readonly Problem[];
}

export const EMPTY_GRAPH: GraphSnapshot = { version: 0, runs: [], gates: [], problems: [] };
