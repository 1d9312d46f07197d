/**
 * The watcher's absolute path of a leaf: the plain case is joined without path.join (start-up sets 10,000 leaf
 * watches), and every case must still name the path path.join names, or a watch would land on another directory.
 */
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { absOf } from '../../src/io/watch/rel-paths.js';

const ROOTS = [
  '/',
  '/srv/shop/.omc',
  '/srv/shop/.omc/',
  '/srv//shop/.omc',
  '/srv/shop/./.omc',
  '/srv/x/../shop/.omc',
  'rel/.omc',
];
const RELS = [
  'state',
  'state/sessions/7035aa0f-9c5c-4c55-9733-982b01e37d28',
  'wiki',
  './state',
  'state/./sessions',
  'state/../wiki',
  '..',
  '../outside',
  'state//sessions',
  'state/',
  '/state',
  '.hidden/dir',
  '...',
  'a..b/c.',
];

describe('absOf', () => {
  it('names the path path.join names, for plain and odd roots and leaves alike', () => {
    for (const root of ROOTS)
      for (const rel of RELS) expect(absOf(root, rel), `${root} + ${rel}`).toBe(path.join(root, ...rel.split('/')));
  });

  it('gives the root itself for the root', () => {
    expect(absOf('/srv/shop/.omc', '')).toBe('/srv/shop/.omc');
  });
});
