/**
 * Drives a scan written as a generator (one `yield` per unit of work): to the
 * end at once, or in slices up to a deadline, so a big first read can publish
 * what it has and let keys through between slices.
 */

/** Runs an iterator to its end. */
export function runToEnd(it: Iterator<unknown>): void {
  while (!it.next().done) {
    /* run to completion */
  }
}

export class SlicedScan {
  private stepper: Generator<void, void> | null = null;

  /** @param start makes a fresh pass; `sliced` is true for the pass that step() drives. */
  constructor(private readonly start: (sliced: boolean) => Generator<void, void>) {}

  /**
   * A whole pass now. A sliced pass under way is finished first, so its end does not forget what this pass
   * finds.
   */
  full(): void {
    const under = this.stepper;
    this.stepper = null;
    if (under) runToEnd(under);
    runToEnd(this.start(false));
  }

  /**
   * One slice of the sliced pass (started on the first call): steps until `deadline` (performance.now()),
   * and beyond it while `more()` says so. True when the pass is done.
   */
  step(deadline: number, more: () => boolean = () => false): boolean {
    this.stepper ??= this.start(true);
    let r = this.stepper.next();
    while (!r.done && (performance.now() < deadline || more())) r = this.stepper.next();
    if (!r.done) return false;
    this.stepper = null;
    return true;
  }
}
