// Ink decides at import whether it runs "in CI" (the is-in-ci package: CI or CONTINUOUS_INTEGRATION set to
// anything but 0/false) and then draws no frame while running, only the last one at exit. omc-top's monitor is
// full-screen and starts only on a terminal (it refuses a pipe), so that mode can only ever show a user a blank
// screen: a shell, container or devcontainer that exports CI=true made the monitor look hung. Ink here always draws.

/** Ink's `isInCi`, for a program that is interactive whenever Ink runs at all. */
export const isInCi = false;
