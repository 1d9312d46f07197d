/** Snapshot shapes of the permission bridge as the monitor sees it. */
import type { Problem } from '../types.js';
import type { HookOutcome, PermissionRequestFile } from './protocol.js';

export interface PermissionRequestView {
  id: string;
  sessionId: string;
  cwd: string;
  toolName: string;
  /**
   * The command (Bash), the path (file tools) or the input, every character visible (shownExactly: an escape
   * sequence reads `␛]0;…␇`, a line break `␊`), cut at SUBJECT_MAX characters.
   */
  subject: string;
  /**
   * Why this request cannot be allowed from omc-top (its subject was cut: the user would allow what they did not
   * see), or null. Deny is always possible; allowing is then left to Claude's own prompt.
   */
  allowRefused: string | null;
  createdMs: number;
  expiresMs: number;
  claudePid: number | null;
  /** "always for this command" is possible (Bash with a command that is no rule pattern). */
  alwaysOffered: boolean;
  /** Why "always" is not offered (alwaysRefusal), or null. */
  alwaysRefused: string | null;
  /** The hook that asked is still running (pid and start time). */
  hookAlive: boolean;
  /** The validated file, as the hook wrote it (the answer is bound to it). */
  file: PermissionRequestFile;
}

export interface ReceiptView {
  id: string;
  outcome: HookOutcome;
  detail: string;
  atMs: number;
}

export interface PermissionsSnapshot {
  version: number;
  /** Requests for this project, oldest first. */
  requests: readonly PermissionRequestView[];
  /** What the hook did for recent requests (by id). */
  receipts: ReadonlyMap<string, ReceiptView>;
  problems: readonly Problem[];
  /** This monitor registered as a listener (the hook asks it). */
  listening: boolean;
}

export const EMPTY_PERMISSIONS: PermissionsSnapshot = {
  version: 0,
  requests: [],
  receipts: new Map(),
  problems: [],
  listening: false,
};
