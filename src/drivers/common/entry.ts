/**
 * Whether a module is the script node was started with, so a driver's main.ts serves stdio only when run
 * directly, not when imported by the CLI or a test. Compared as files, not strings: `file://${argv[1]}` differs
 * from import.meta.url whenever the path has a space or a non-ASCII letter (the URL percent-encodes them: a home
 * named `José Smith`), a Windows drive path, or a symlink on the way (node reports the real path in the URL).
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when `moduleUrl` (a module's import.meta.url) is the file node was asked to run (`argv1`). */
export function isEntryModule(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (!argv1 || !moduleUrl.startsWith('file:')) return false;
  const self = fileURLToPath(moduleUrl);
  return sameFile(resolve(argv1), self) || sameFile(resolve(`${argv1}.js`), self);
}

function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  try { return realpathSync(a) === realpathSync(b); } catch { return false; }
}
