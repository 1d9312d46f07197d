/**
 * What `N` says when it switches notifications, in the monitor and in the fleet view (and in a project opened
 * from it): one place for the words. The fleet's switch leaves push alone (push-roots.ts: the push lease decides
 * which omc-top pushes), so its "off" says so instead of promising that nothing is pushed.
 */
export interface NotifySwitch {
  isEnabled(): boolean;
  setEnabled(on: boolean): void;
  /** The fleet's switch (fleet-terminal.ts): terminal channels only. */
  fleet?: boolean;
}

export function notifySwitchText(on: boolean, fleet = false): string {
  if (on) return 'notifications on: a loop that needs you rings the bell / notifies again (N turns them off)';
  return fleet
    ? 'notifications off: nothing rings from the fleet until N turns them on again (push, when set up, still goes out; the header count still shows)'
    : 'notifications off: nothing rings or pushes from this monitor until N turns them on again (a serve or fleet view running on this project, with push set up, pushes instead; the header count still shows)';
}
