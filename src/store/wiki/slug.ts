/**
 * OMC's page file naming (OMC 5.5.0: dist/hooks/wiki/storage.js): lower-case, every
 * run of characters outside [a-z0-9] becomes "-", trim the dashes, cut to 64
 * characters, add ".md". Non-Latin letters are removed, so a title made only
 * of CJK, Cyrillic or punctuation falls back to `page-<8 hex>.md`, the hex
 * being the absolute value of a Java-style 32-bit hash of the UTF-16 code
 * units. Different titles can collide; that is OMC's rule, not ours.
 */

/** Java's String.hashCode: h = h·31 + unit, wrapped to a signed 32-bit integer. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

export function titleToSlug(title: string): string {
  const base = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 64);
  if (base !== '') return `${base}.md`;
  return `page-${Math.abs(javaStringHash(title)).toString(16).padStart(8, '0')}.md`;
}

/** `[[Page Name]]` references in a body, as the file names OMC links them to (first occurrence order). */
export function wikiLinkTargets(body: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(/\[\[([^\]]+)\]\]/g)) {
    const slug = titleToSlug((m[1] as string).trim());
    if (!out.includes(slug)) out.push(slug);
  }
  return out;
}
