/**
 * A network namespace of a test's own, held by one process, and the sweep that ends everything in it.
 *
 * Processes are found "in the namespace" by its number (`net:[inode]` of /proc/<pid>/ns/net). Once the
 * last process in a namespace ends, the kernel frees it and may give the same number to the next namespace
 * any test creates; a sweep still looking for that number then kills the other test's processes. That was
 * seen: one suite's clean-up SIGKILLed a parallel suite's mock API, so that suite's Claude Code never drew
 * its prompt box. So the namespace is pinned by an open descriptor on its ns file (namespaces(7): an open
 * ns file keeps the namespace alive) from the moment it is known until the sweep has seen it empty; while
 * pinned, its number names this namespace and no other.
 */
import fs from 'node:fs';

export interface PinnedNamespace {
  /** `net:[inode]`, unique while pinned. */
  readonly id: string;
  /** A path naming the namespace through the pinning descriptor (`nsenter --net=<this>` enters it). */
  readonly file: string;
  /** Pids of the processes in the namespace now (the holder included), optionally of one command name. */
  members(comm?: string): number[];
  /** SIGKILLs every process in the namespace now. */
  killAll(comm?: string): void;
  /** Lets the number go. Only once `members()` is empty: after this, a sweep by number is unsafe. */
  release(): void;
}

/** `pid` is through `unshare --net` (until then it is in this process's namespace, which must never be pinned). */
export function inOwnNamespace(pid: number): boolean {
  try {
    return fs.readlinkSync(`/proc/${pid}/ns/net`) !== fs.readlinkSync('/proc/self/ns/net');
  } catch {
    return false;
  }
}

/** Pins the network namespace `holderPid` is in; throws if the holder is already gone. */
export function pinNamespace(holderPid: number): PinnedNamespace {
  const file = `/proc/${holderPid}/ns/net`;
  const fd = fs.openSync(file, 'r');
  const id = fs.readlinkSync(file);
  // A holder not yet through `unshare` is still in ours: a sweep of that would kill every process of the machine.
  if (id === fs.readlinkSync('/proc/self/ns/net')) {
    fs.closeSync(fd);
    throw new Error(`pid ${holderPid} is still in this process's network namespace (${id}): not its own yet`);
  }
  // The descriptor is what pins: check it names the namespace read by path (the holder did not end between).
  const pinned = fs.fstatSync(fd).ino;
  if (`net:[${pinned}]` !== id) {
    fs.closeSync(fd);
    throw new Error(`the namespace of pid ${holderPid} changed while it was pinned (${id}, fd net:[${pinned}])`);
  }
  let released = false;
  const members = (comm?: string): number[] => {
    if (released) throw new Error(`namespace ${id} was released: a sweep by its number could hit another test's`);
    return fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          if (fs.readlinkSync(`/proc/${p}/ns/net`) !== id) return false;
          return comm === undefined || fs.readFileSync(`/proc/${p}/comm`, 'utf8').trim() === comm;
        } catch {
          return false;
        }
      })
      .map(Number);
  };
  return {
    id,
    file: `/proc/${process.pid}/fd/${fd}`,
    members,
    killAll(comm?: string) {
      for (const pid of members(comm)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    },
    release() {
      if (released) return;
      released = true;
      fs.closeSync(fd);
    },
  };
}
