export interface InkPatch {
  name: string;
  file: RegExp;
  module: string;
  edits: ReadonlyArray<{ find: string; replace: string }>;
  wiring: string;
}
export const APPLIED_KEY: string;
export const INK_PATCHES: readonly InkPatch[];
export function inkPatchFor(file: string): InkPatch | null;
export function applyInkPatch(file: string, src: string): string;
export const esbuildInkPatches: { name: string; setup(build: unknown): void };
export const viteInkPatches: {
  name: string;
  enforce: 'pre';
  transform(code: string, id: string): { code: string; map: null } | null;
};
