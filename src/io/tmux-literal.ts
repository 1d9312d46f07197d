/**
 * Text given to tmux where tmux reads it as a format (`new-window -c DIR -n NAME`, `display-message`, a status
 * line): every `#` doubled, so `#(cmd)` runs nothing and `#D`, `#S`, `#{…}` are not replaced. A directory from
 * `.omc` (`…/#(touch x)`, or just `…/wip#Docs`) is then the directory itself. tmux's own shell-command argument is
 * not a format and is quoted for the shell instead.
 */
export const tmuxLiteral = (text: string): string => text.replace(/#/g, '##');
