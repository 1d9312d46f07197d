// Preloaded (`node --import`) into a real hook process: the clock reads OMC_TOP_FROZEN_NOW, so a
// test's timestamps sit exactly where it put them relative to the hook's "now".
const frozen = Number(process.env.OMC_TOP_FROZEN_NOW);
if (Number.isFinite(frozen)) installFrozenClock(() => frozen);

export function installFrozenClock(nowFn) {
  const RealDate = globalThis.Date;
  class FrozenDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(nowFn());
      else super(...args);
    }
    static now() {
      return nowFn();
    }
  }
  globalThis.Date = FrozenDate;
}
