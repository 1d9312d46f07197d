/** The one set of JSON value readers every domain uses. */
import { describe, expect, it } from 'vitest';
import { arr, isObj, isObjectLike, num, obj, objOrEmpty, parseObj, str, strOrNull } from '../../src/io/json.js';

describe('io/json', () => {
  it('objects are plain objects; arrays and null are not (except for rules that mirror typeof checks)', () => {
    expect([isObj({}), isObj([]), isObj(null), isObj('x'), isObj(0)]).toEqual([true, false, false, false, false]);
    expect([isObjectLike({}), isObjectLike([]), isObjectLike(null)]).toEqual([true, true, false]);
    expect([obj({ a: 1 }), obj([1]), obj(0)]).toEqual([{ a: 1 }, null, null]);
    expect([objOrEmpty('x'), arr('x'), arr([1])]).toEqual([{}, [], [1]]);
  });

  it('strings: any (strOrNull) or with something in them (str); numbers: finite, or a numeric string', () => {
    expect([strOrNull(''), strOrNull(1), str(' '), str('a')]).toEqual(['', null, null, 'a']);
    expect([num(3), num(' 3 '), num('-1.5'), num('3x'), num(Infinity), num(null)]).toEqual([
      3,
      3,
      -1.5,
      null,
      null,
      null,
    ]);
  });

  it('parseObj: an object or null, never a throw', () => {
    expect([parseObj('{"a":1}'), parseObj('[1]'), parseObj('{'), parseObj('null')]).toEqual([
      { a: 1 },
      null,
      null,
      null,
    ]);
  });
});
