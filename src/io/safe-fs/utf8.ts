/** Strict and lenient UTF-8 decoders: text is decoded strictly first, so invalid bytes can be reported. */

export const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
export const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
