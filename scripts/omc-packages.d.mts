/** Types for omc-packages.mjs (installs test/omc-packages from its lockfile). */
export declare const OMC_PACKAGES_DIR: string;
/** The first locked package that is absent or at another version, or null when the install matches the lockfile. */
export declare function firstMismatch(dir?: string): string | null;
