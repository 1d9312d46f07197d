/**
 * OMC's own notepad module (oh-my-claude-sisyphus 5.5.0, dist/hooks/notepad)
 * as the reference reader/writer in tests. Its functions take a project
 * directory and resolve `<dir>/.omc` themselves (the dir must be a git repo:
 * 5.5.0 maps non-git dirs to $HOME/.omc).
 */
import path from 'node:path';
import { OMC55 } from './omc-packages.mjs';

export const OMC_NOTEPAD_MODULE = path.join(OMC55, 'dist', 'hooks', 'notepad', 'index.js');

export interface OmcNotepad {
  getPriorityContext(dir: string): string | null;
  getWorkingMemory(dir: string): string | null;
  getManualSection(dir: string): string | null;
  addWorkingMemoryEntry(dir: string, content: string): boolean;
  addManualEntry(dir: string, content: string): boolean;
  setPriorityContext(dir: string, content: string): { success: boolean; warning?: string };
  pruneOldEntries(dir: string, daysOld?: number): { pruned: number; remaining: number };
  getNotepadStats(dir: string): {
    exists: boolean;
    totalSize: number;
    prioritySize: number;
    workingMemoryEntries: number;
    oldestEntry: string | null;
  };
  initNotepad(dir: string): boolean;
  getNotepadPath(dir: string): string;
}

export async function loadOmcNotepad(): Promise<OmcNotepad> {
  return (await import(OMC_NOTEPAD_MODULE)) as OmcNotepad;
}

/** What OMC's readers return for each section of the notepad in `dir`. */
export function omcReading(omc: OmcNotepad, dir: string): { priority: string; working: string; manual: string } {
  return {
    priority: omc.getPriorityContext(dir) ?? '',
    working: omc.getWorkingMemory(dir) ?? '',
    manual: omc.getManualSection(dir) ?? '',
  };
}
