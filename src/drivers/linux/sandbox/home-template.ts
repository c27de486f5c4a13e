/**
 * What a sandbox's fresh home starts with: a LibreOffice user profile made once per computer-use home, in an empty
 * home of its own (never the caller's), so no setting of anyone's is in it. Without it every sandbox's first
 * LibreOffice start creates the profile and restarts itself (a splash, a gap, a second splash: a launch then answered
 * with the first splash as an unreadable window), and took 3.7–4.1 s instead of ~1 s.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { cuPath } from '../../../paths.js';
import { cleanEnv, homeEnv } from './env.js';
import { run } from './processes.js';

/** The folder of the template home, beside the sandboxes' own folders. */
export const templatePath = (): string => cuPath('sandboxes', 'home-template');

/** What a template keeps of the home its programs ran in (relative paths). */
const KEPT = ['.config/libreoffice'];

/** `soffice` on the PATH of `env`, else undefined. */
function sofficeOn(env: Record<string, string>): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    const path = join(dir, 'soffice');
    if (dir && existsSync(path)) return path;
  }
  return undefined;
}

/**
 * The template home, made now when it is not there yet (about 1 s: a headless LibreOffice start with no display);
 * undefined when there is nothing to put in it (no LibreOffice) or making it failed (a sandbox then starts empty).
 */
export function homeTemplate(base: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const template = templatePath();
  if (existsSync(template)) return Promise.resolve(template);
  // Sandboxes started at once by this process share one making; other processes make their own (rename decides).
  let made = making.get(template);
  if (!made) {
    made = makeTemplate(template, base).finally(() => making.delete(template));
    making.set(template, made);
  }
  return made;
}

/** The makings in progress in this process, by template path. */
const making = new Map<string, Promise<string | undefined>>();

async function makeTemplate(template: string, base: NodeJS.ProcessEnv): Promise<string | undefined> {
  const env = cleanEnv(base);
  const soffice = sofficeOn(env);
  if (!soffice) return undefined;
  const workDir = `${template}.${process.pid}.tmp`;
  const home = join(workDir, 'home');
  try {
    await rm(workDir, { recursive: true, force: true });
    for (const dir of [home, ...Object.values(homeEnv(home))]) await mkdir(dir, { recursive: true, mode: 0o700 });
    const runEnv = { ...env, ...homeEnv(home) };
    delete runEnv['DISPLAY'];
    await run(soffice, ['--headless', '--norestore', '--terminate_after_init'], { env: runEnv, timeoutMs: 60_000 });
    const kept = join(workDir, 'kept');
    for (const rel of KEPT) {
      if (existsSync(join(home, rel))) await cp(join(home, rel), join(kept, rel), { recursive: true });
    }
    await mkdir(kept, { recursive: true, mode: 0o700 });
    // Two sandboxes may make it at once: the first rename wins, the other's copy is dropped.
    await rename(kept, template).catch(() => undefined);
    return existsSync(template) ? template : undefined;
  } catch {
    return undefined;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Copies the template's files into a sandbox's fresh `home`. */
export async function seedHome(home: string, template: string): Promise<void> {
  await cp(template, home, { recursive: true, force: false, errorOnExist: false });
}
