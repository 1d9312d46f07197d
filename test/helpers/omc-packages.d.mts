/** Types for omc-packages.mjs: where the real OMC packages are installed for the tests. */
export declare const OMC55: string;
export declare const OMC444: string;
export declare function importOmc(pkgDir: string, rel: string): Promise<any>;
