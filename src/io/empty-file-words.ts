/**
 * A file of no bytes or only white space, in words: "is empty (0 bytes)", "holds only whitespace (1 byte)". Every
 * surface that names such a file (doctor's OMC line, the permission hook's line, `hooks install`) says it alike.
 */
import { countWord } from './count-words.js';

export const emptyTextWords = (bytes: number): string =>
  bytes === 0 ? 'is empty (0 bytes)' : `holds only whitespace (${countWord(bytes, 'byte')})`;
