// The layering of ARCHITECTURE.md ("The way data flows") as lint rules, one no-restricted-imports rule per folder:
// each layer imports only the layers below it. eslint.config.js applies them; test/unit/lint-layers.test.ts lints a
// deliberate violation of each with exactly these rules and sees it refused.

/** A forbidden import: the gitignore-style patterns it matches and why it is forbidden. */
const forbid = (group, message) => ({ group, message });
/** The driver folders of src/drivers apart from common (ARCHITECTURE.md, "Layout": drivers/<os>/, one per platform). */
export const DRIVER_FOLDERS = ['android', 'cdp', 'fake', 'linux', 'macos', 'replay', 'windows'];
const DRIVER_ONLY = { group: ['**/doctor/**', '**/policy/**', '**/tools/**', '**/session/**', '**/hosts/**', '**/devices/**', '**/conformance/**'],
  message: 'A driver only enumerates, reads, acts and reports: it imports no doctor, policy, tools, session, hosts, devices or conformance kit (ARCHITECTURE.md). Move the shared piece down to the driver, src/protocol or src/common.' };
const NO_CHILD_PROCESS = { name: 'node:child_process', message: 'The engine and the policy start no process: drivers and hosts do (ARCHITECTURE.md).' };
/** Where only src/drivers may reach: a platform's own folder. */
const PLATFORM_FOLDER = DRIVER_FOLDERS.flatMap((f) => [`**/drivers/${f}`, `**/drivers/${f}/**`]);
const PLATFORM_MESSAGE = 'Only src/drivers reaches into a platform\'s folder (ARCHITECTURE.md, "Layout"): the rest of src talks to a driver through ' +
  'the protocol, and to what a platform offers a host (driver processes, the sandbox, the stop hotkey, its doctor) through the entries at the top of src/drivers.';
const NO_PLATFORM = forbid(PLATFORM_FOLDER, PLATFORM_MESSAGE);
/** The folders with a layer rule of their own below; every other file of src gets the platform rule alone. */
const LAYERED = ['src/engine/**', 'src/protocol/**', 'src/tools/**', 'src/drivers/**', 'src/doctor/**', 'src/panel/**', 'src/policy/**'];

/** One no-restricted-imports rule per layer (a file matches one layer, so the options never need merging). */
export function layerRules() {
  const layer = (files, patterns, paths = []) => ({ files, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } });
  return [
    // Anything of ours but the protocol and common: a relative import that leaves the folder for another one.
    layer(['src/engine/**/*.ts'], [forbid(['../*', '!../protocol', '!../protocol/*', '!../common', '!../common/*'],
      'The engine is pure: it imports only src/protocol and src/common (ARCHITECTURE.md, "The way data flows").')], [NO_CHILD_PROCESS, { ...NO_CHILD_PROCESS, name: 'child_process' }]),
    layer(['src/protocol/**/*.ts'], [forbid(['../*', '!../common', '!../common/*'],
      'The protocol owns the vocabulary: it imports nothing of ours but src/common (ARCHITECTURE.md, "Protocol").')]),
    layer(['src/tools/**/*.ts'], [forbid(['**/drivers', '**/drivers/**', '**/devices', '**/devices/**'],
      'The tools never know which platform they talk to: they reach a device through the session, never a driver or a device module (ARCHITECTURE.md).'),
    { group: ['**/session/pipeline.js'], importNames: ['perform', 'ActingRun', 'Dispatcher'],
      message: 'A tool builds no acting step: session/steps.ts builds the request and a session module (act, keys, clipboard, launch, visual) runs it through the pipeline; the tool words the outcome.' }]),
    // A platform's folder (and src/drivers/common) may not import another platform's folder either: what two
    // drivers share lives in src/drivers/common. One rule per folder, the driver prohibition included in each.
    layer(['src/drivers/*.ts'], [DRIVER_ONLY]),
    ...['common', ...DRIVER_FOLDERS].map((folder) => layer([`src/drivers/${folder}/**/*.ts`], [DRIVER_ONLY,
      forbid(DRIVER_FOLDERS.filter((f) => f !== folder).flatMap((f) => [`**/${f}`, `**/${f}/**`]),
        'A platform driver imports no other platform\'s folder (ARCHITECTURE.md, "Layout": one folder per platform): move what both need to src/drivers/common.')])),
    // The doctor and the panel serve the hosts; the commands that start them live in src/hosts/cli.
    layer(['src/doctor/**/*.ts', 'src/panel/**/*.ts'], [forbid(['**/hosts', '**/hosts/**'],
      'The doctor and the panel are used by the hosts, never the reverse: a command that runs them belongs in src/hosts/cli (ARCHITECTURE.md).'), NO_PLATFORM]),
    // Everything else outside src/drivers (session, devices, hosts, the library entry, …): no platform folder either.
    { files: ['src/**/*.ts'], ignores: LAYERED, rules: { 'no-restricted-imports': ['error', { paths: [], patterns: [NO_PLATFORM] }] } },
    layer(['src/policy/**/*.ts'], [forbid(['**/drivers/**', '**/hosts/**'],
      'The policy decides from facts the drivers report through the protocol: it imports no driver and no host (ARCHITECTURE.md).')], [NO_CHILD_PROCESS, { ...NO_CHILD_PROCESS, name: 'child_process' }]),
  ];
}


/**
 * A dynamic `import()` of a platform's folder from outside src/drivers (no-restricted-imports reads only static
 * imports and re-exports): the same rule as PLATFORM_FOLDER, for the driver entries a host loads on demand.
 */
function dynamicImportSelectors() {
  const platforms = DRIVER_FOLDERS.join('|');
  // esquery ends a regular expression at its first "/", so the slashes inside it are written \u002F.
  return [{ selector: `ImportExpression[source.value=/(^|\\u002F)drivers\\u002F(${platforms})(\\u002F|$)/]`, message: PLATFORM_MESSAGE }];
}

/**
 * The acting device of a session is taken back only by the acting pipeline: `actingDevice` may be imported by
 * src/session/pipeline.ts alone, by name or through a namespace import (a different rule from the layers', so the
 * two never override each other).
 */
function actingDeviceSelectors() {
  const message = 'Only the acting pipeline (src/session/pipeline.ts) takes the acting device: build a step for it instead ' +
    '(ARCHITECTURE.md, "The act flow").';
  return [
    { selector: "ImportSpecifier[imported.name='actingDevice']", message },
    { selector: 'ImportDeclaration[source.value=/acting-device/] > ImportNamespaceSpecifier', message },
    { selector: "ExportSpecifier[local.name='actingDevice']", message },
    { selector: 'ExportAllDeclaration[source.value=/acting-device/]', message },
  ];
}

/**
 * The syntax rules, composed per group of files: ESLint keeps only the last `no-restricted-syntax` that matches a
 * file, so each group gets every selector that applies to it in one entry. Outside src/drivers no dynamic
 * `import()` of a platform's folder (no-restricted-imports reads only static imports); everywhere but the acting
 * pipeline no `actingDevice`.
 */
export function restrictedSyntaxRules() {
  const rule = (selectors) => ({ 'no-restricted-syntax': ['error', ...selectors] });
  return [
    { files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'examples/**/*.ts'], ignores: ['src/session/pipeline.ts'], rules: rule(actingDeviceSelectors()) },
    { files: ['src/**/*.ts'], ignores: ['src/drivers/**', 'src/session/pipeline.ts'], rules: rule([...dynamicImportSelectors(), ...actingDeviceSelectors()]) },
    { files: ['src/session/pipeline.ts'], rules: rule(dynamicImportSelectors()) },
  ];
}

/** The folders whose functions stay short: the session's flows, the engine's passes and the policy's rules. */
export const SHORT_FUNCTION_FOLDERS = ['src/session', 'src/engine', 'src/policy'];
/** The longest function body there, in lines of code (blank lines and comments not counted). */
export const MAX_FUNCTION_LINES = 80;

/**
 * No function over MAX_FUNCTION_LINES in SHORT_FUNCTION_FOLDERS (ARCHITECTURE.md, "Keeping it true"): a longer one
 * is split by meaning, into named stages or passes, not chopped.
 */
export function functionLengthRule() {
  return [{
    files: SHORT_FUNCTION_FOLDERS.map((f) => `${f}/**/*.ts`),
    rules: { 'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  }];
}
