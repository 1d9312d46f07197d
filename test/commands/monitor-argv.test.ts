/** The bin starts git early only for the monitor on its own directory (commands/monitor-argv.ts). */
import { expect, it } from 'vitest';
import { asksTopLevelFirst, rootProjectDir } from '../../src/commands/monitor-argv.js';

it.each([[[]], [['--root', '/x/.omc']], [['--readonly', '--no-mouse']], [['--json']], [['--omc-version', '5.5.0']]])(
  'the monitor on this directory asks the top level first: %j',
  (argv) => expect(asksTopLevelFirst(argv)).toBe(true),
);

it.each([
  [['status', '--tmux']],
  [['wiki']],
  [['doctor']],
  [['--cwd', '/elsewhere']],
  [['--cwd=/elsewhere']],
  [['--all']],
  [['--host', 'h1']],
  [['--help']],
  [['-h']],
  [['--version']],
  [['-V']],
])('anything else starts no git early: %j', (argv) => expect(asksTopLevelFirst(argv)).toBe(false));

it.each([
  [['--root', '/x/proj/.omc'], '/x/proj'],
  [['--root=/x/proj/.omc'], '/x/proj'],
  [['--root', 'proj/.omc'], '/home/u/proj'],
  [['--root', '/a/.omc', '--root', '/b/.omc'], '/b'],
  [['--root', '/x/proj'], null],
  [['--root', '/x/state'], null],
  [[], null],
  [['--', '--root', '/x/.omc'], null],
])('the project a --root names, asked about early: %j', (argv, project) =>
  expect(rootProjectDir(argv, '/home/u')).toBe(project),
);
