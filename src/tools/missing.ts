/**
 * What the model reads when a tool needs a method the device's driver does not implement (it is not in the
 * methods its hello lists, docs/protocol.md "Handshake"): the host refused it without sending, and only the host
 * knows which tool works instead on such a device (a phone reads no pixels, a browser page starts no app). The
 * driver reports the fact (`unsupported` with `missingMethod`); this table writes the words, in the tools' names
 * (the CLI rewrites them to its commands, hosts/cli/wording.ts).
 */
import type { MethodName } from '../protocol/methods.js';

/** One missing method: what the device therefore cannot do, and what the model can do instead. */
interface Missing {
  /** What the device cannot do, after "This device cannot …". */
  cannot: string;
  /** What to do instead, given the methods the driver does list. */
  instead: (has: ReadonlySet<string>) => string;
}

const OBSERVE = 'Use computer_observe to read the window through its accessibility tree';

const MISSING: Partial<Record<MethodName, Missing>> = {
  'screen.ocr': { cannot: "read text from a window's pixels", instead: () => `${OBSERVE}.` },
  'screen.capture': {
    cannot: 'capture a window as an image',
    instead: (has) =>
      `${OBSERVE}` +
      (has.has('screen.ocr') ? ', or computer_screenshot without a mode for the text in its pixels (OCR)' : '') +
      '.',
  },
  'input.keys': {
    cannot: 'send keys',
    instead: () => 'Act on elements by ref with computer_act (set_value or type for text, click for buttons).',
  },
  'input.pointer': {
    cannot: 'send pointer input',
    instead: () => 'Act on elements by ref with computer_act (click, scroll).',
  },
  'input.clipboard': {
    cannot: 'use its clipboard',
    instead: () => 'Write text into a field with computer_act set_value or type.',
  },
  'apps.launch': {
    cannot: 'start apps',
    instead: () => 'Ask the user to start the app on the device; computer_apps then lists its windows.',
  },
  'window.activate': {
    cannot: 'raise a window',
    instead: () => 'Act on its elements by ref with computer_act: element actions need no keyboard focus.',
  },
  'text.read': {
    cannot: 'read more of a long text than its snapshot shows',
    instead: () => 'Read what computer_observe shows of the element, or computer_find to look for a word in it.',
  },
  'list.find': {
    cannot: 'search a long list beyond the rows on screen',
    instead: () => 'Scroll the list with computer_act scroll and observe the rows that come into view.',
  },
  'screen.displays': { cannot: 'list its displays', instead: () => 'Call computer_apps without displays.' },
};

/**
 * The advice for a call the host refused because the driver does not implement `method`; `has` holds the
 * methods the driver lists. Empty for a method the tools never need (best-effort ones, like ui.highlight).
 */
export function missingMethodAdvice(method: string, has: ReadonlySet<string>): string {
  const m = MISSING[method as MethodName];
  return m ? `This device cannot ${m.cannot}. ${m.instead(has)}` : '';
}
