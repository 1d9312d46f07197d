/**
 * A remote `omc-top watch --json --rows` stream, read as hostile input: lines
 * are capped in bytes (a longer one is skipped up to its newline, never
 * buffered whole), each is parsed and checked with zod, every string is
 * cleaned on this side, and anything that does not fit is one problem line,
 * never an exception. Line types this version does not know are skipped (the
 * stream is documented as extensible).
 */
import { z } from 'zod';
import { cleanLine, truncate } from '../io/sanitize.js';
import { isValidSessionId } from '../store/sessions/omc-rules.js';
import { cleanRow, ROW_SCHEMA, type RowModel } from '../feeds/row.js';

/** A row line is well under 2 KB; a line past this is not one of ours. */
export const MAX_LINE_BYTES = 64 * 1024;

const READY = z.object({
  v: z.literal(1),
  type: z.literal('ready'),
  project: z.string().max(1000),
  version: z.string().max(64).optional(),
});
const ROW = z.object({
  v: z.literal(1),
  type: z.literal('row'),
  project: z.string().max(1000),
  session: z.string().max(200),
  // Absent from an older omc-top, which sent the session-less state and a directory named legacy alike.
  sessionless: z.boolean().optional(),
  row: ROW_SCHEMA.nullable(),
});
const ANY = z.object({ v: z.number(), type: z.string().max(40) });

export type RemoteLine =
  | { kind: 'ready'; project: string; version: string | null }
  | {
      kind: 'row';
      project: string;
      session: string;
      /** The session-less state (true), a session directory (false), or not said (null: an older sender). */
      sessionless: boolean | null;
      row: RowModel | null;
    }
  | { kind: 'skip' }
  | { kind: 'bad'; problem: string };

const why = (e: z.ZodError) =>
  truncate(cleanLine(e.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ')), 160);

export function parseRemoteLine(text: string): RemoteLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'bad', problem: `not JSON: ${truncate(cleanLine(text), 60)}` };
  }
  const head = ANY.safeParse(raw);
  if (!head.success) return { kind: 'bad', problem: `not a watch line (${why(head.error)})` };
  if (head.data.v !== 1) return { kind: 'bad', problem: `line schema v${head.data.v}: this omc-top reads v1` };
  if (head.data.type === 'ready') {
    const r = READY.safeParse(raw);
    if (!r.success) return { kind: 'bad', problem: `bad ready line (${why(r.error)})` };
    return {
      kind: 'ready',
      project: truncate(cleanLine(r.data.project), 120),
      version: r.data.version === undefined ? null : truncate(cleanLine(r.data.version), 40),
    };
  }
  if (head.data.type !== 'row') return { kind: 'skip' };
  const r = ROW.safeParse(raw);
  if (!r.success) return { kind: 'bad', problem: `bad row line (${why(r.error)})` };
  // The id goes into `ssh box omc-top cancel <id>`: only a real session id is ever accepted.
  if (!isValidSessionId(r.data.session) || (r.data.row !== null && r.data.row.session !== r.data.session))
    return { kind: 'bad', problem: 'bad row line (session: not a valid session id)' };
  const said = [r.data.sessionless, r.data.row?.sessionless].filter((x): x is boolean => x !== undefined);
  const sessionless = said[0] ?? null;
  // The session-less state is "legacy" on the wire; the line and its row must say the same.
  if (said.some((x) => x !== sessionless) || (sessionless === true && r.data.session !== 'legacy'))
    return { kind: 'bad', problem: 'bad row line (sessionless: does not match the session)' };
  const row = r.data.row === null ? null : cleanRow(r.data.row);
  return {
    kind: 'row',
    project: truncate(cleanLine(r.data.project), 120),
    session: r.data.session,
    sessionless,
    row: row && sessionless !== null ? { ...row, sessionless } : row,
  };
}

/** Splits a byte stream into lines of at most `max` bytes; a longer line is reported once and skipped. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOversize: () => void,
    private readonly max = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.skipping) {
        const piece = chunk.subarray(start, end);
        if (this.size + piece.length > this.max) {
          this.skipping = true;
          this.parts = [];
          this.size = 0;
          this.onOversize();
        } else if (piece.length > 0) {
          this.parts.push(piece);
          this.size += piece.length;
        }
      }
      if (nl === -1) return;
      if (!this.skipping) {
        const line = Buffer.concat(this.parts).toString('utf8');
        if (line.trim() !== '') this.onLine(line);
      }
      this.parts = [];
      this.size = 0;
      this.skipping = false;
      start = nl + 1;
    }
  }
}
