/**
 * The AccessibilityService app's Java core (android/service): compiled for Java 8 with the JDK's javac
 * (-Xlint:all -Werror) and its JUnit 4 tests run, and its class → role table checked against the adb driver's,
 * so the two Android drivers map views the same way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANDROID_ROLE_MAP } from '../../src/drivers/android/nodes.js';

const root = fileURLToPath(new URL('../../../android/service/src', import.meta.url));
const JUNIT = ['/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'];
const hasJava = (() => { try { execFileSync('javac', ['-version'], { stdio: 'ignore' }); return JUNIT.every(existsSync); } catch { return false; } })();

const sources = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? sources(p) : p.endsWith('.java') ? [p] : [];
});

test('the Java core compiles for Java 8 without warnings, its JUnit tests pass, and its role table is the adb driver\'s', { skip: !hasJava && 'javac or junit4 is not installed (setup-debian.sh installs them)' }, () => {
  const out = mkdtempSync(join(tmpdir(), 'cu-java-'));
  try {
    execFileSync('javac', ['--release', '8', '-Xlint:all', '-Werror', '-d', join(out, 'main'), ...sources(join(root, 'main'))], { stdio: 'pipe' });
    execFileSync('javac', ['--release', '8', '-d', join(out, 'test'), '-cp', [join(out, 'main'), ...JUNIT].join(':'), ...sources(join(root, 'test'))], { stdio: 'pipe' });
    const cp = [join(out, 'main'), join(out, 'test'), ...JUNIT].join(':');
    const junit = execFileSync('java', ['-cp', cp, 'org.junit.runner.JUnitCore', 'dev.computeruse.core.CoreTest'], { encoding: 'utf8' });
    assert.match(junit, /OK \(\d+ tests\)/, junit);
    const javaRoles = JSON.parse(execFileSync('java', ['-cp', cp, 'dev.computeruse.core.PrintRoles'], { encoding: 'utf8' })) as Record<string, string>;
    assert.deepEqual(javaRoles, Object.fromEntries(Object.entries(ANDROID_ROLE_MAP).sort(([a], [b]) => (a < b ? -1 : 1))));
  } finally { rmSync(out, { recursive: true, force: true }); }
});
