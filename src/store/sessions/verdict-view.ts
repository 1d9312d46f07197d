/**
 * A session's verdict as the views show it. The readings of every book (OMC version unknown) are worked out
 * when first read (the detail view, --json), through a prototype getter over a private field: a per-object
 * getter would turn every view into a dictionary-mode object.
 */
import type { SessionView } from './model.js';
import type { LaterReadings } from './verdicts.js';

type Shown = NonNullable<SessionView['verdict']>;

export class VerdictView implements Shown {
  readonly #later: LaterReadings | null;

  constructor(
    readonly rules: Shown['rules'],
    readonly decision: Shown['decision'],
    readonly mode: Shown['mode'],
    readonly rule: Shown['rule'],
    readonly detail: Shown['detail'],
    readonly unless: Shown['unless'],
    later: LaterReadings | null,
  ) {
    this.#later = later;
  }

  get readings(): Shown['readings'] {
    return this.#later?.value ?? null;
  }

  /** JSON (--json) carries the readings like any other field. */
  toJSON(): Shown {
    const { rules, decision, mode, rule, detail, unless, readings } = this;
    return { rules, decision, mode, rule, detail, unless, readings };
  }
}
