/**
 * Notes omc-top sent, followed until the transcript shows them: "sent" is all the inbox socket can say (the CLI
 * never answers on it), so "delivered ✓" waits for the session's transcript to record the note reaching the model
 * (a peer `user` line or queued command from omc-top carrying the text, after it was sent).
 */
import { SnapshotCell } from '../../io/snapshot-cell.js';
import type { Clock } from '../types.js';
import type { ClaudeSnapshot } from './model.js';
import { NOTE_FROM } from './note.js';

export interface NoteView {
  id: number;
  sessionId: string;
  text: string;
  sentMs: number;
  /** 'socket': the inbox socket; 'pane': typed into the tmux pane (a typed prompt: no peer line to look for). */
  via: 'socket' | 'pane';
  pid: number | null;
  /** When the transcript recorded it (socket notes only); null until seen. */
  deliveredMs: number | null;
}

/** The transcript's clock and ours may differ a little: a note seen this long before it was sent is still it. */
const SKEW_MS = 5_000;
const KEEP = 50;

export class NoteTracker {
  readonly cell = new SnapshotCell<readonly NoteView[]>([]);
  private next = 1;

  constructor(
    private readonly claude: { getSnapshot(): ClaudeSnapshot; subscribe(l: () => void): () => void },
    private readonly clock: Clock = Date.now,
  ) {
    claude.subscribe(() => this.check());
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();

  add(sessionId: string, text: string, via: NoteView['via'], pid: number | null): NoteView {
    const note: NoteView = { id: this.next++, sessionId, text, sentMs: this.clock(), via, pid, deliveredMs: null };
    this.cell.set([...this.cell.getSnapshot(), note].slice(-KEEP));
    this.check();
    return this.cell.getSnapshot().find((n) => n.id === note.id) ?? note;
  }

  /** Marks notes the transcript now shows. */
  check(): void {
    const notes = this.cell.getSnapshot();
    if (!notes.some((n) => n.via === 'socket' && n.deliveredMs === null)) return;
    const snap = this.claude.getSnapshot();
    const used = new Set<string>();
    let changed = false;
    const next = notes.map((n) => {
      const peer = snap.bySession.get(n.sessionId)?.transcript?.facts.peerNotes ?? [];
      const hit = peer.findIndex(
        (p, i) =>
          !used.has(`${n.sessionId}#${i}`) &&
          p.from === NOTE_FROM &&
          p.text.includes(n.text) &&
          (p.atMs === null || p.atMs >= n.sentMs - SKEW_MS),
      );
      if (hit < 0) return n;
      used.add(`${n.sessionId}#${hit}`);
      if (n.deliveredMs !== null || n.via !== 'socket') return n;
      changed = true;
      return { ...n, deliveredMs: peer[hit]?.atMs ?? this.clock() };
    });
    if (changed) this.cell.set(next);
  }
}
