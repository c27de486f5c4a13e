/**
 * The harnesses the kit runs by default (no scenarios file needed): the native GTK harness
 * (test/apps/conformance-harness.py) and the web page (test/conformance/harness.html). They hold the same controls
 * (the page's status is a `statusbar`, GTK's a `label`), written in the scenarios format of docs/conformance.md and
 * checked like a file on load. The native harness also opens a window that closes (a page cannot close the
 * browser's window it is in).
 */
import type { Role } from '../protocol/methods.js';
import { checkScenarios, type Control, type Harness, type Scenarios } from './scenarios.js';
import { harnessesFor } from './harnesses.js';

/** The controls both harnesses hold, and what the kit does with each. */
function controls(statusRole: Role): Control[] {
  return [
    { id: 'name', name: 'Name', role: 'textbox', states: ['editable'], notStates: ['disabled'], ops: [
      { op: 'set_value', value: 'Zoë 𝒳 😀', effect: { value: 'Zoë 𝒳 😀' } },
    ] },
    { id: 'agree', name: 'Agree', role: 'checkbox', notStates: ['checked', 'disabled'], ops: [
      { op: 'toggle', effect: { states: ['checked'] } },
      { op: 'toggle', effect: { notStates: ['checked'] } },
    ] },
    { id: 'status', name: 'Status: idle', role: statusRole },
    { id: 'hello', name: 'Hello', role: 'button', notStates: ['disabled'], ops: [
      { op: 'click', effect: { control: 'status', name: 'Status: hello' } },
      { op: 'click', expect: { role: 'checkbox' }, error: 'stale_ref' },
    ] },
    { id: 'never', name: 'Never', role: 'button', states: ['disabled'] },
    // A value beyond the slider's range (0 to 10) is refused, never clamped: the slider keeps its value.
    { id: 'level', name: 'Level', role: 'slider', notStates: ['disabled'], ops: [
      { op: 'set_value', value: '11', error: 'invalid_params', rule: 'R-act-value' },
      { op: 'set_value', value: '-1', error: 'invalid_params', rule: 'R-act-value' },
    ] },
    { id: 'target', name: 'Target', role: 'button', notStates: ['disabled'] },
    { id: 'replace', name: 'Replace', role: 'button', notStates: ['disabled'] },
  ];
}

/** The refusals both harnesses are checked for. */
const REFUSALS: Pick<Harness, 'disabled' | 'stale' | 'unfocused'> = {
  disabled: { control: 'never', op: 'click', unchanged: 'status' },
  stale: { control: 'target', trigger: { control: 'replace', op: 'click' } },
  unfocused: { control: 'name', text: 'z' },
};

/** The built-in scenarios. */
export const BUILTIN_SCENARIOS: Scenarios = checkScenarios({
  version: 1,
  harnesses: [
    { name: 'gtk', description: 'The native harness on Linux: test/apps/conformance-harness.py (GTK 3), every control with an AT-SPI accessible id.',
      window: { title: 'Conformance harness (GTK)' }, start: 'the GTK harness of the computer-use repository (test/apps/conformance-harness.py) on the driver\'s desktop, ' +
        'or a harness of your own with the same controls, described in a file given to --scenarios (docs/conformance.md)',
      controls: [...controls('label'), { id: 'open', name: 'Open window', role: 'button', notStates: ['disabled'] }], ...REFUSALS,
      closed: { open: { control: 'open', op: 'click' }, title: 'Closing window', control: { role: 'button', name: 'Close window' } } },
    { name: 'web', description: 'The local page: test/conformance/harness.html, the same controls as the native harness, ids as DOM ids.',
      window: { title: 'Conformance harness (web)' },
      start: 'open the page of the computer-use repository test/conformance/harness.html in a browser (for the cdp driver: ' +
        'Chromium with --remote-debugging-port), or a page of your own with the same controls given to --scenarios (docs/conformance.md)',
      controls: controls('statusbar'), ...REFUSALS },
  ],
}, 'the built-in scenarios');

/**
 * The built-in scenarios for a driver that says `platform` in hello: the recorded harnesses above, then the kit's
 * own (harnesses.ts): the page and the platform's native harness.
 */
export function builtinScenariosFor(platform: string): Scenarios {
  return checkScenarios(
    { version: 1, harnesses: [...BUILTIN_SCENARIOS.harnesses, ...harnessesFor(platform)] },
    'the built-in scenarios',
  );
}
