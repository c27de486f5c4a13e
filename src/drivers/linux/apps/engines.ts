/**
 * What a launched browser engine needs to be readable and unattended, so a model types the command a person would
 * (`launch chromium URL`). In a trial that command failed as root (Chromium refuses to run as root without
 * --no-sandbox), then timed out: without --force-renderer-accessibility its pages expose 4 nodes instead of ~680,
 * and a keyring prompt (gcr-prompter, denied) held the keyboard until --password-store=basic. Firefox exposes its
 * tree when GNOME_ACCESSIBILITY=1 says an assistive technology is there.
 *
 * The engine is recognised by what the program is, not by its name: the files its build ships beside the binary
 * (Chromium and Electron: resources.pak and icudtl.dat, Electron also resources/app.asar or resources/app; Gecko:
 * libxul.so and omni.ja). A symlink is followed to its file; a launcher script (Debian's /usr/bin/chromium runs
 * /usr/lib/chromium/chromium) is seen through by the absolute paths it names and the programs of its package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageOf, programsOf } from './packages.js';
import { firstLine, isExecutableFile, realOr, which } from './resolve.js';

/** A browser engine whose launches get what they need. */
export type Engine = 'Chromium' | 'Electron' | 'Firefox';

/** What a launch of an engine gets added, and the one line that says so. */
export interface EngineSetup {
  engine: Engine;
  /** Flags put before the caller's arguments. */
  args: string[];
  /** Variables added to the environment (the caller's own win). */
  env: Record<string, string>;
  /** "added for Chromium: …", one line. */
  note: string;
}

/** Bytes of a launcher script read for the paths it names. */
const SCRIPT_BYTES = 64 * 1024;

/** The engine of a program file (its realpath), from the files beside it. */
export function engineOfProgram(file: string): Engine | undefined {
  const dir = dirname(file);
  const has = (name: string): boolean => existsSync(join(dir, name));
  if (has('libxul.so') && has('omni.ja')) return 'Firefox';
  if (has('resources.pak') && has('icudtl.dat')) {
    return has('resources/app.asar') || has('resources/app') || has('resources/default_app.asar')
      ? 'Electron'
      : 'Chromium';
  }
  return undefined;
}

/**
 * The engine a command starts: the program it names (symlinks followed), else, for a launcher script, a program
 * the script names by absolute path or one its package installs. Undefined for anything else.
 */
export function engineOfCommand(command: string, path?: string, cwd = process.cwd()): Engine | undefined {
  const found = which(command, path, cwd);
  if (!found) return undefined;
  const real = realOr(found);
  const direct = engineOfProgram(real);
  if (direct) return direct;
  if (!firstLine(real)?.startsWith('#!')) return undefined;
  for (const program of [...namedPrograms(real), ...packagePrograms(real)]) {
    const engine = engineOfProgram(realOr(program));
    if (engine) return engine;
  }
  return undefined;
}

/** Executable files a script names by absolute path. */
function namedPrograms(script: string): string[] {
  let text = '';
  try { text = readFileSync(script, 'latin1').slice(0, SCRIPT_BYTES); } catch { return []; }
  return [...new Set(text.match(/\/[A-Za-z0-9._+/-]+/g) ?? [])].filter(isExecutableFile);
}

/** Executable files of the installed package that owns the script (Debian's chromium package: its binary). */
function packagePrograms(script: string): string[] {
  const pkg = packageOf(script)?.split('/')[0];
  return pkg ? programsOf(pkg).filter((p) => /\/lib(64|exec)?\//.test(p) && isExecutableFile(p)) : [];
}

/** What a Chromium or Electron launch gets, each with the reason shown in the note. */
const CHROMIUM_FLAGS: readonly { flag: string; why: string; only?: Engine; root?: boolean }[] = [
  { flag: '--force-renderer-accessibility', why: 'its pages readable' },
  { flag: '--password-store=basic', why: 'no keyring prompt' },
  { flag: '--no-first-run', why: 'no first-run questions', only: 'Chromium' },
  { flag: '--no-default-browser-check', why: 'no default-browser question', only: 'Chromium' },
  { flag: '--no-sandbox', why: 'it refuses to run as root without it', root: true },
];

/**
 * The flags and variables a launch of `engine` needs that the caller did not give (a flag given in any form, e.g.
 * `--password-store=gnome`, is left as given), or undefined when it needs none. `a11yOn`: the desktop says
 * accessibility is on (org.a11y.Status IsEnabled), which Firefox reads when GNOME_ACCESSIBILITY is unset.
 */
export function engineSetup(engine: Engine | undefined, args: readonly string[], env: NodeJS.ProcessEnv,
  uid: number, a11yOn = false): EngineSetup | undefined {
  if (!engine) return undefined;
  const given = new Set(args.map((a) => a.split('=')[0]));
  const parts: string[] = [];
  const out: EngineSetup = { engine, args: [], env: {}, note: '' };
  if (engine === 'Firefox') {
    // Gecko asks the desktop (org.a11y.Status IsEnabled) when the variable is unset: needed only where that says no.
    if (env['GNOME_ACCESSIBILITY'] === undefined && !a11yOn) {
      out.env['GNOME_ACCESSIBILITY'] = '1';
      parts.push('GNOME_ACCESSIBILITY=1 (its pages readable)');
    }
  } else {
    for (const f of CHROMIUM_FLAGS) {
      if ((f.only && f.only !== engine) || (f.root && uid !== 0) || given.has(f.flag.split('=')[0])) continue;
      out.args.push(f.flag);
      parts.push(`${f.flag} (${f.why})`);
    }
  }
  if (parts.length === 0) return undefined;
  out.note = `added for ${engine}: ${parts.join(', ')}`;
  return out;
}
