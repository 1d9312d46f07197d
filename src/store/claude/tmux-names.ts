/**
 * Where a Claude process runs, in the names a tmux user types: the registry
 * records `session:@window.%pane` (ids), and a user looks for `main:2` or the
 * window's name. One `tmux list-windows -a` answers for every session at once;
 * a window is only named when the server's window of that id sits in the
 * session the registry names (ids repeat across tmux servers). Otherwise the
 * registry's text is shown as given. All names are sanitised: a window name
 * is any text a program set.
 */
import { execFile, spawnSync } from 'node:child_process';
import { cleanLine, truncate } from '../../io/sanitize.js';

export interface TmuxWindow {
  session: string;
  index: string;
  name: string;
}

/** The registry's `session:@window.%pane`, split; null when it is not that shape. */
export function splitTmuxField(field: string): { session: string; window: string; pane: string } | null {
  const m = /^(.+):(@\d+)\.(%\d+)$/.exec(field);
  return m ? { session: m[1] as string, window: m[2] as string, pane: m[3] as string } : null;
}

const FORMAT = '#{session_name}\t#{window_id}\t#{window_index}\t#{window_name}';

/** Parses `list-windows -a -F FORMAT` output into window id → names. */
export function parseWindows(out: string): Map<string, TmuxWindow> {
  const map = new Map<string, TmuxWindow>();
  for (const line of out.split('\n')) {
    const [session, id, index, ...name] = line.split('\t');
    if (!session || !id || !/^@\d+$/.test(id) || !index || !/^\d+$/.test(index)) continue;
    map.set(id, {
      session: truncate(cleanLine(session), 60),
      index,
      name: truncate(cleanLine(name.join('\t')), 40),
    });
  }
  return map;
}

/** "main:2 claude" when tmux named the window, else the registry's own text ("main:@2.%5"). */
export function tmuxWhere(field: string | null, windows: ReadonlyMap<string, TmuxWindow> | null): string | null {
  if (field === null) return null;
  const f = splitTmuxField(field);
  if (!f) return field;
  const w = windows?.get(f.window);
  // The same window id on another server names another window: only a matching session name is trusted.
  if (!w || w.session !== f.session) return field;
  return w.name ? `${w.session}:${w.index} ${w.name}` : `${w.session}:${w.index}`;
}

/** tmux's arguments for the server omc-top is in ($TMUX's socket), else the default server. */
export function tmuxServerArgs(env: NodeJS.ProcessEnv): string[] {
  const sock = env.TMUX?.split(',')[0];
  return sock ? ['-S', sock] : [];
}

export type WindowLister = (done: (out: string | null) => void) => void;

const TIMEOUT_MS = 2000;

export const asyncLister =
  (env: NodeJS.ProcessEnv): WindowLister =>
  (done) => {
    try {
      execFile(
        'tmux',
        [...tmuxServerArgs(env), 'list-windows', '-a', '-F', FORMAT],
        { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
        (err, stdout) => done(err ? null : stdout),
      );
    } catch {
      done(null);
    }
  };

export const syncLister =
  (env: NodeJS.ProcessEnv): WindowLister =>
  (done) => {
    const r = spawnSync('tmux', [...tmuxServerArgs(env), 'list-windows', '-a', '-F', FORMAT], {
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      maxBuffer: 4 * 1024 * 1024,
    });
    done(r.status === 0 ? r.stdout : null);
  };

/**
 * The names of the tmux server omc-top is in (`env`'s $TMUX, else the default server) and of every other server a
 * Claude process runs in. `live`: listed without blocking (a monitor); else at once (a one-shot command).
 */
export function systemTmuxNames(env: NodeJS.ProcessEnv, live: boolean, clock: () => number): TmuxNames {
  const lister = live ? asyncLister : syncLister;
  return new TmuxNames(lister(env), clock, {
    listerFor: (socket) => lister({ TMUX: socket }),
    ownSocket: tmuxServerArgs(env)[1] ?? null,
  });
}

/** Windows change names rarely; a listing younger than this is reused unless an unknown window shows up. */
export const TMUX_NAMES_MAX_AGE_MS = 10_000;

/** Other tmux servers whose windows are listed at most (one per server a Claude runs in: a handful). */
const MAX_SERVERS = 32;

/**
 * Keeps the last window listing of the server omc-top is in, and of each other server a Claude process runs in
 * (its own $TMUX: a monitor outside that server still names the window as that server's status bar does).
 * `want(ids)` asks for a fresh one when a window id is not in it (or it is old); every `onChange` listener is
 * called when a listing arrives that names something differently. One instance can serve every Claude domain of
 * a machine (the fleet's: tmux's windows are the machine's, so one listing answers for all its projects).
 */
export class TmuxNames {
  private readonly own: ServerListing;
  private readonly servers = new Map<string, ServerListing>();
  private readonly listeners = new Set<() => void>();

  /**
   * `others`: how to list the windows of the server at a socket, and the socket of the own server (listed by
   * `list`); without it only the own server is listed.
   */
  constructor(
    list: WindowLister,
    private readonly clock: () => number,
    private readonly others?: { listerFor: (socket: string) => WindowLister; ownSocket: string | null },
  ) {
    this.own = new ServerListing(list, () => this.changed());
  }

  /** Whether the servers other processes run in are listed too (worth reading a process's $TMUX for). */
  get listsOtherServers(): boolean {
    return this.others !== undefined;
  }

  /** Calls `l` whenever a listing names something differently; returns the way to stop. */
  onChange(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** The windows of the server at `socket` (the one omc-top is in when null or not listed here). */
  current(socket: string | null = null): ReadonlyMap<string, TmuxWindow> | null {
    return (socket !== null && this.servers.get(socket)?.windows) || this.own.windows;
  }

  /**
   * The registry's tmux fields in view: lists again when one names a window the last listing lacks. `socket`: the
   * server those processes run in, when known and not the own one.
   */
  want(fields: Iterable<string>, socket: string | null = null): void {
    if (socket === null || !this.others || socket === this.others.ownSocket) return this.own.want(fields, this.clock());
    let server = this.servers.get(socket);
    if (!server) {
      server = new ServerListing(this.others.listerFor(socket), () => this.changed());
      this.servers.set(socket, server);
      if (this.servers.size > MAX_SERVERS) this.servers.delete(this.servers.keys().next().value as string);
    }
    server.want(fields, this.clock());
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}

/** One tmux server's last window listing. */
class ServerListing {
  windows: Map<string, TmuxWindow> | null = null;
  private listedAt = -Infinity;
  private inFlight = false;
  private unavailable = false;

  constructor(
    private readonly list: WindowLister,
    private readonly onChange: () => void,
  ) {}

  want(fields: Iterable<string>, now: number): void {
    if (this.inFlight) return;
    let unknown = false;
    let any = false;
    for (const f of fields) {
      any = true;
      const w = splitTmuxField(f)?.window;
      if (w && !this.windows?.has(w)) unknown = true;
    }
    if (!any) return;
    const old = now - this.listedAt > TMUX_NAMES_MAX_AGE_MS;
    // No tmux (or no server): ask again only as often as a stale listing would be refreshed.
    if (!old && (!unknown || this.unavailable)) return;
    this.inFlight = true;
    this.listedAt = now;
    this.list((out) => {
      this.inFlight = false;
      this.unavailable = out === null;
      // A listing that failed (tmux slow under load, timed out) keeps the last good names: the registry's
      // window ids did not change because one look at them failed.
      if (out === null) return;
      const next = parseWindows(out);
      if (sameWindows(this.windows, next)) return;
      this.windows = next;
      this.onChange();
    });
  }
}

function sameWindows(a: Map<string, TmuxWindow> | null, b: Map<string, TmuxWindow> | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (!w || w.session !== v.session || w.index !== v.index || w.name !== v.name) return false;
  }
  return true;
}
