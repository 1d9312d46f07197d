/** What the kept-draft tests look for on screen, written once: the offer line of a draft kept at a hang-up. */

/** An editor that just opened offers a draft kept when the terminal closed (ui/kept-draft-line.ts). */
export const KEPT_OFFER =
  /A draft from \d\d:\d\d UTC \([^)]+ ago\) was kept when the terminal closed: “[^]*?Ctrl-R\s+restores\s+·\s+Ctrl-X\s+discards/;

/** The same offer for a draft whose text is on disk already: only Ctrl-X is offered. */
export const KEPT_LANDED =
  /A draft from \d\d:\d\d UTC \([^)]+ ago\) was kept when the terminal closed, and its text is saved already:/;
