/**
 * The one door to the file system. Every file omc-top opens (OMC's, Claude Code's, locks, markers) is read
 * here, and every write goes through the contained write path, so two promises hold everywhere: nothing
 * outside the resolved root is read or written (symlinks are resolved and checked; only the user's own config
 * file, read with `followLink`, is followed wherever its link points), and a bad file turns
 * into a specific, human-readable reason instead of an exception.
 */
export * from './types.js';
export {
  STATE_FILE_MAX_BYTES,
  readTextSync,
  readTextByNameSync,
  readNoFollowSync,
  readJsonSync,
  parseJsonText,
  type JsonResult,
  type ReadOptions,
} from './read.js';
export { toRel, isInside, resolveUnder, OutsideRootError } from './paths.js';
export { isDirectorySync, isMissingSync, listDirSync, nothingAtSync, statByNameSync, statSync } from './list.js';
export {
  ContainedDir,
  openDirUnder,
  withDirUnder,
  ensureDirUnder,
  createExclusive,
  type NewDirMode,
} from './contained-dir.js';
export { atomicWrite, type AsyncWriteOptions } from './write.js';
export { LatestFileWrite } from './latest-write.js';
export {
  atomicWriteSync,
  discardTemp,
  unlinkUnder,
  appendUnderSync,
  createMarkerUnder,
  touchUnder,
  replaceRefusal,
} from './write.js';
export { readRangeSync, readLogTailSync, type RangeResult, type LogTailResult } from './tail.js';
export { holdFileSync, type HeldFile } from './held.js';
export { formatBytes, describeWriteError } from './errors.js';
export { ensureOwnDir, ownDirFault, ownDirProblem, describeOwnDirError, OwnDirError } from './own-dir.js';
export { readBytesSync, type BytesResult } from './bytes.js';
export { firstInvalidUtf8 } from './utf8.js';
export { readLinkSync, dirOwnershipSync, type LinkTarget, type Ownership } from './link.js';
