/**
 * Which arguments of a terminal emulator start no command (resolve.ts): with only these, the terminal runs the
 * user's shell, a program the user knows, so the launch is proven as the terminal itself. Options differ by terminal
 * family (`-H` holds in xfce4-terminal and hides in terminator; a bare word is the command in kitty, st and xterm),
 * so each family lists its own, read from its --help and manual. Only exact words pass: an option glued to a value
 * it does not take (`-e=cmd`), an abbreviation (argparse's `--exe`), an unknown option, a bare word, a `--` and
 * whatever follows any of them leave the launch unproven. What runs or names a command is never listed: -e, -x,
 * --command, --execute, a profile, session, layout or config file (each may hold a command), -o overrides.
 */

/** A family's options that start no command: flags, and options whose value is no command. */
interface TerminalOptions {
  /** Words that stand alone. */
  flags: readonly string[];
  /** Options taking a value: `--name=value` (long ones), or the next word when it does not start with `-`. */
  values: readonly string[];
}

/** Window options every family's launch took before families were told apart (their `--name=value` forms). */
const COMMON: TerminalOptions = {
  flags: [
    '--maximize', '--fullscreen', '--disable-server', '--hide-menubar', '--show-menubar', '--hide-toolbar',
    '--show-toolbar', '--hide-borders', '--show-borders', '--hide-scrollbar', '--show-scrollbar', '--tab', '--window',
  ],
  values: [],
};
const COMMON_GLUED = /^--(working-directory|default-working-directory|title|initial-title|geometry|role|zoom|font)=/;

const HELP = ['-h', '--help'];

/** Per family (the terminal's program name, a Debian `.wrapper` name stripped). */
const FAMILIES: Readonly<Record<string, TerminalOptions>> = {
  'xfce4-terminal': {
    flags: [...HELP, '-V', '--version', '--preferences', '--color-table', '--minimize', '--drop-down', '--active-tab'],
    values: [
      '-T', '--title', '--initial-title', '--dynamic-title-mode', '--working-directory', '--default-working-directory',
      '--geometry', '--role', '--startup-id', '-I', '--icon', '--font', '--zoom', '--display', '--default-display',
      '--color-text', '--color-bg',
    ],
  },
  'gnome-terminal': {
    flags: [...HELP, '--version', '--preferences', '--full-screen', '-q', '--quiet'],
    values: ['-t', '--title', '--geometry', '--working-directory', '--zoom', '--role'],
  },
  'mate-terminal': {
    flags: [...HELP, '--version', '--full-screen', '--disable-factory'],
    values: ['-t', '--title', '--geometry', '--working-directory', '--zoom', '--role'],
  },
  tilix: {
    flags: [...HELP, '-v', '--version', '--preferences', '--full-screen', '--minimize', '--new-process'],
    values: ['-t', '--title', '-g', '--geometry', '-w', '--working-directory'],
  },
  terminator: {
    flags: [...HELP, '-v', '--version', '-m', '--maximise', '-f', '-b', '--borderless'],
    values: ['-T', '--title', '--geometry', '--working-directory', '-r', '--role'],
  },
  lxterminal: { flags: [...HELP, '--version', '--no-remote'], values: ['-t', '-T', '--title', '--geometry',
    '--working-directory'] },
  konsole: {
    flags: [...HELP, '-v', '--version', '--hide-tabbar', '--show-tabbar', '--separate', '--nofork', '--new-tab'],
    values: ['--workdir'],
  },
  xterm: { flags: ['-help', '-version'], values: ['-title', '-T', '-geometry', '-fa', '-fs', '-fn', '-bg', '-fg'] },
  kitty: {
    flags: [...HELP, '-v', '--version', '--detach'],
    values: ['-T', '--title', '-d', '--directory', '--class', '--name', '--start-as'],
  },
  alacritty: { flags: [...HELP, '-V', '--version'], values: ['-T', '--title', '--working-directory', '--class'] },
  foot: {
    flags: [...HELP, '-v', '--version', '--maximized'],
    values: ['-T', '--title', '-a', '--app-id', '-D', '--working-directory', '--window-size-chars'],
  },
  wezterm: { flags: [...HELP, '-V', '--version'], values: [] },
  st: { flags: ['-v'], values: ['-t', '-T', '-g', '-f', '-n', '-c'] },
  urxvt: { flags: ['-help', '--help', '-version'], values: ['-title', '-T', '-geometry', '-g', '-fn', '-bg', '-fg'] },
};
const ALIASES: Readonly<Record<string, string>> = { uxterm: 'xterm', stterm: 'st', rxvt: 'urxvt',
  'rxvt-unicode': 'urxvt' };

/** The family of a terminal called by one of these names (program, command, package), in that order. */
function familyOf(names: readonly string[]): TerminalOptions | undefined {
  for (const n of names) {
    const name = n.replace(/\.wrapper$/, '');
    const f = FAMILIES[ALIASES[name] ?? name];
    if (f) return f;
  }
  return undefined;
}

/**
 * Whether a terminal's arguments start no command: every word a flag of its family (or a common window option),
 * or a value option with its value. `names` are the terminal's program, command and package names.
 */
export function terminalRunsNoCommand(names: readonly string[], args: readonly string[]): boolean {
  const family = familyOf(names);
  const flags = new Set([...COMMON.flags, ...(family?.flags ?? [])]);
  const values = new Set(family?.values ?? []);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (flags.has(a) || COMMON_GLUED.test(a)) continue;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0 && values.has(a.slice(0, eq))) continue;
    const value = args[i + 1];
    if (values.has(a) && value !== undefined && !value.startsWith('-')) { i++; continue; }
    return false;
  }
  return true;
}
