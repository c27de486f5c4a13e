/**
 * Irreversible actions: rules on role + label (English and Chinese), Enter that submits a
 * single-line field or sends in a chat app, send/delete accelerators, and every write into a password field.
 * Matching sees through case, width, whitespace, mnemonics ("_Send", "&Delete", "发送(_S)") and accelerator
 * suffixes ("Send\tCtrl+Return", "Delete (Del)"), and look-alikes (confusables.ts: a Cyrillic е, zero-width and
 * soft-hyphen characters, Traditional Chinese, "删 除"). Acts are classified by what the driver does with them,
 * keys by what they will hit. Rules can only ask for a confirmation; nothing an app shows can turn one off.
 */
import { chordChar, formatChord, isShortcut, type Chord } from '../protocol/keys.js';
import { COMMAND_ROLES } from '../protocol/vocabulary.js';
import { foldings, normalizeText } from './confusables.js';
import type { ActionRequest, FocusedFacts, KeysStep } from './gate.js';

/** Why an action needs a confirmation every time. */
export interface IrreversibleVerdict {
  kind: 'irreversible' | 'password';
  /** The rule that matched, for messages and the audit log, e.g. `label "send"`, `Primary+Enter`. */
  rule: string;
}

/**
 * Normalizes a label for matching: invisible characters out, NFKC, Traditional → Simplified, no spacing inside
 * Han words (confusables.ts), accelerator suffixes and mnemonics removed, ellipsis dropped, lower case,
 * single spaces.
 */
export function normalizeLabel(s: string): string {
  let t = normalizeText(s.replace(/\t/g, '\u0001')).replace(/\u0001/g, '\t');
  t = t.replace(/\t.*$/s, '');
  // "发送(_S)", "Send (&S)": a mnemonic in brackets after the label.
  t = t.replace(/\s*[(（[]\s*[_&]?[A-Za-z0-9]\s*[)）\]]\s*$/u, '');
  // "Delete (Del)", "Send Ctrl+Enter", "Send (⌘↩)".
  t = t.replace(
    /\s*[(（[]?\s*(?:ctrl|control|alt|shift|super|meta|cmd|command|option|[⌘⌥⇧⌃])\s*[+-]?\s*[^()（）[\]]*[)）\]]?\s*$/iu,
    '',
  );
  t = t.replace(/\s*[(（[]\s*(?:del|delete|enter|return|↩|⌫|⌦)\s*[)）\]]\s*$/iu, '');
  // Mnemonic markers: "_Send", "&Delete"; "&&" is a literal ampersand.
  t = t.replace(/&&/g, '\u0000').replace(/[_&](?=[^\s_&])/gu, '').replace(/\u0000/g, '&');
  t = t.replace(/(?:\.\.\.|…)\s*$/u, '');
  return normalizeText(t).toLowerCase().replace(/\s+/g, ' ').trim();
}

/** English rules, matched as whole words in the normalized label. */
const EN_RULES: readonly { re: RegExp; roles?: ReadonlySet<string> }[] = [
  { re: /\b(re)?send( now| message| email| mail| money| it| all)?\b/ },
  { re: /\b(pay|payment|purchase|buy|checkout|check out|donate|top up|withdraw|sell|bid|trade)\b/ },
  { re: /\b(place|submit|complete|confirm) (the |your |my )?order\b|\border now\b/ },
  {
    re: /\b(delete|remove|erase|wipe|destroy|purge|shred|empty (the )?(trash|bin|recycle bin)|move to (the )?(trash|bin))\b/,
  },
  { re: /\b(discard|don'?t save|do not save|close without saving|overwrite)\b/ },
  // A Replace button asks where it overwrites a file ("A file named … already exists": no text field); next to a
  // text field it replaces text in a document, which the editor undoes (geany's Replace dialog): see REPLACES_TEXT.
  { re: /^replace( all)?$/, roles: new Set(['button']) },
  { re: /\breplace\b.*\b(files?|disk|folders?|directory|directories)\b/ },
  {
    re: /\b(submit|publish|post|share|transfer|tweet|broadcast|deploy|commit|push|merge|approve|authorize|authorise|sign|revoke|deactivate|unsubscribe|uninstall)\b/,
  },
  { re: /\bconfirm (payment|purchase|transfer|deletion|delete)\b/ },
  {
    re: /\b(factory reset|reset (all|everything|settings|to defaults)|shut ?down|power off|reboot|log ?out|sign ?out)\b/,
  },
  {
    re: /^format( (disk|drive|volume|partition|device|card))?$|\bformat (disk|drive|volume|partition|device|card)\b/,
    roles: new Set(['button', 'link', 'generic', 'unknown']),
  },
];

/** Chinese rules: substrings (no word boundaries), with known false friends removed first. */
const ZH_WORDS =
  /发送|支付|付款|购买|下单|删除|提交|发布|分享|转账|确认付款|确认支付|立即购买|结算|汇款|格式化|卸载|移除|清空|抹掉|永久删除|彻底删除|注销|覆盖|替换|不保存|充值|提现|捐赠|签署|授权|撤销|退出登录|关机|重启/;
const ZH_FALSE_FRIENDS = /删除线|替换为|查找和替换|查找与替换/g;

/** The rule word in a label that says the action cannot be undone, or undefined. */
export function irreversibleWord(label: string, role?: string): string | undefined {
  const t = normalizeLabel(label);
  if (!t) return undefined;
  // Every look-alike form of the label is tried: a match in any of them asks.
  for (const form of foldings(t)) {
    for (const r of EN_RULES) {
      if (r.roles && role !== undefined && !r.roles.has(role)) continue;
      const m = r.re.exec(form);
      if (m) return m[0];
    }
    const zh = ZH_WORDS.exec(form.replace(ZH_FALSE_FRIENDS, ''));
    if (zh) return zh[0];
  }
  return undefined;
}

/**
 * Element operations that trigger the element (as opposed to focusing, scrolling, editing), by what the Linux
 * driver does (drivers/linux/act/actions.ts): double_click runs the same activate/click action as click; expand
 * and collapse fall back to the element's press/click/activate action when it has no expand action, which is
 * the case of GTK buttons and menu items (their only action is "click"), so on a command they activate it.
 */
const ACTIVATING = new Set(['click', 'double_click', 'select', 'toggle', 'expand', 'collapse']);
/**
 * Writes into an element that has no text to write: the driver focuses it and types the value, and a space or
 * Return typed into a focused button activates it. So on a command, `set_value` and `type` (any value) activate.
 */
const WRITE_ACTIVATES = COMMAND_ROLES;
/** Roles whose activation changes a setting or a value, not a command (a checkbox "Delete after reading"). */
const NOT_COMMANDS = new Set([
  'textbox',
  'document',
  'terminal',
  'page',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'scrollbar',
  'tab',
  'tablist',
]);
/** Roles whose `select` value names an item that is triggered (menus), not just chosen (a list row). */
const SELECT_TRIGGERS = new Set(['menu', 'menubar', 'menuitem', 'combobox', 'toolbar']);
const WRITES = new Set(['set_value', 'type', 'clear']);
/** The rule word of a bare Replace / Replace All button: in a window with a text field it replaces typed text. */
const REPLACES_TEXT = /^replace( all)?$/;

/** Apps in which Enter in the message field sends a message. */
const CHAT_APP =
  /slack|discord|telegram|signal|element|teams|whatsapp|wechat|weixin|微信|qq|dingtalk|钉钉|feishu|lark|飞书|mattermost|rocket\.?chat|zulip|skype|zoom|messenger|pidgin|hexchat|irssi|weechat|thunderbird|evolution|geary|mailspring|outlook/i;

/** True when the app name or executable says it is a chat or mail app. */
export function isChatApp(app: string | undefined, executable?: string): boolean {
  return (
    (app !== undefined && CHAT_APP.test(app)) ||
    (executable !== undefined && CHAT_APP.test(executable.split('/').pop() ?? ''))
  );
}

/** Keys are wire chords (protocol/keys.ts): DOM names, parsed once by the host; the rules never read a keys string. */
const isEnter = (c: Chord): boolean => c.key === 'Enter';
/** Keys that activate a focused button, link or menu item. */
const ACTIVATE_KEYS = new Set(['Enter', ' ']);
/** Keys that move focus (or open a menu) before a later key acts on whatever then has focus. */
const FOCUS_MOVE = new Set([
  'Tab',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'F6',
  'F10',
  'ContextMenu',
]);
/** Keys that open a menu, after which plain letters pick its items. */
const MENU_OPEN = new Set(['F10', 'ContextMenu']);
/** Fields in which Enter activates their form's or window's default button (unless multi-line). */
const ENTER_FIELDS = new Set(['textbox', 'combobox', 'spinbutton']);
/**
 * Keys that move the caret, not the focus, in an editable text: a multi-line text (a document body, a text view)
 * keeps all of them; a single-line field only the horizontal ones (its toolkit passes Up and Down on to the
 * window, which moves the focus: GTK's entries).
 */
const CARET_MULTI = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
const CARET_SINGLE = new Set(['ArrowLeft', 'ArrowRight', 'Home', 'End']);
/** Modifiers that keep a caret key a caret move (by word, to the document's end, extending the selection). */
const CARET_MODS = new Set(['Shift', 'Primary', 'Control']);

/**
 * True when the keys type characters (not only shortcuts and named keys). Keys the host did not parse into
 * chords count as text, so they are digested rather than logged.
 */
export function keysTypeText(req: { keys?: string; chords?: readonly Chord[] }): boolean {
  if (req.chords === undefined) return req.keys !== undefined;
  return req.chords.some(typesChar);
}

const typesChar = (c: Chord): boolean => c.key !== ' ' && chordChar(c) !== undefined;
const held = (c: Chord, m: 'Alt'): boolean => c.mods.includes(m);
/** Alt alone of the shortcut modifiers (Primary, Control and Meta not held): an access key. */
const altOnly = (c: Chord): boolean =>
  held(c, 'Alt') && !c.mods.some((m) => m === 'Primary' || m === 'Control' || m === 'Meta');
const plain = (c: Chord): boolean => !isShortcut(c);

/** The first irreversible control of the window (`mnemonics`) matching `pick`, as a rule word. */
function irreversibleControl(req: KeysStep, pick: (m: { key: string; label: string }) => boolean): string | undefined {
  for (const m of req.mnemonics ?? []) {
    if (!pick(m)) continue;
    const w = irreversibleWord(m.label, 'button');
    if (w) return w;
  }
  return undefined;
}

/**
 * Classifies an action. `ctx.executable` (proven) helps recognize chat apps. Returns undefined when the rules
 * are silent (the decider may still add a confirmation).
 */
export function classifyAction(req: ActionRequest, ctx: { executable?: string } = {}): IrreversibleVerdict | undefined {
  if (req.kind === 'element' || req.kind === 'pointer') {
    const op = req.op;
    const element = req.kind === 'element' ? req : undefined;
    if (element?.password && WRITES.has(op)) return { kind: 'password', rule: 'write into a password field' };
    const role = req.role;
    const writeActivates = (op === 'set_value' || op === 'type') && WRITE_ACTIVATES.has(role);
    if (!ACTIVATING.has(op) && !writeActivates) return undefined;
    if (op === 'select' && SELECT_TRIGGERS.has(role) && element?.value !== undefined) {
      const w = irreversibleWord(element.value, 'menuitem');
      if (w) return { kind: 'irreversible', rule: `menu item "${w}"` };
    }
    if (NOT_COMMANDS.has(role) && op !== 'select') return undefined;
    if (op === 'toggle' && role !== 'button') return undefined;
    // A click on an element without an action of its own reaches the one inside it (session/inner.ts).
    for (const label of [req.name, element?.description, ...(op === 'click' ? element?.inside ?? [] : [])]) {
      const w = label === undefined ? undefined : irreversibleWord(label, role);
      if (w && !(REPLACES_TEXT.test(w) && (element?.textFields ?? 0) > 0))
        return { kind: 'irreversible', rule: `label "${w}"` };
    }
    return undefined;
  }
  // A paste (of given text or of whatever the clipboard holds) into a focused password field writes a password.
  if (req.kind === 'clipboard' && req.op === 'paste' && req.focused?.password)
    return { kind: 'password', rule: 'paste into a password field' };
  if (req.kind === 'keys') return classifyKeys(req, ctx);
  return undefined;
}

/**
 * Keys, by what they will hit. The focused element is read live by the caller (`req.focused`), the window's
 * controls and their mnemonics too (`req.mnemonics`). An activating key (Return, space) on a focused command
 * with an irreversible label asks; `alt+<letter>` asks when that letter is the mnemonic of an irreversible
 * control; an activating key after a focus-moving key (Tab, arrows, a menu opened by alt or F10) asks when the
 * window has any irreversible control, since what will have focus then cannot be proven before sending.
 */
function classifyKeys(req: KeysStep, ctx: { executable?: string }): IrreversibleVerdict | undefined {
  const chords = req.chords ?? [];
  // Keys the host did not parse cannot be classified: what they hit is unknown, so they ask.
  if (chords.length === 0 && req.keys.trim() !== '')
    return { kind: 'irreversible', rule: 'keys the policy cannot read' };
  const f = req.focused;
  if (f?.password && chords.some((c) => chordChar(c) !== undefined))
    return { kind: 'password', rule: 'typing into a password field' };
  // After a focus move, focus is unknown; after a menu opens (alt+letter, F10, Menu), plain letters pick items.
  let moved = false;
  let menuOpen = false;
  for (const c of chords) {
    const mod = !plain(c);
    const k = c.key.toLowerCase();
    if (isEnter(c) && mod) return { kind: 'irreversible', rule: `${formatChord(c)} (sends in mail and chat apps)` };
    if (c.key === 'Delete' && c.mods.includes('Shift'))
      return { kind: 'irreversible', rule: 'Shift+Delete (deletes without the trash)' };
    if (altOnly(c) && /^[a-z0-9]$/i.test(c.key)) {
      const w =
        req.mnemonics === undefined ? 'an unknown control' : irreversibleControl(req, (m) => m.key.toLowerCase() === k);
      if (w)
        return { kind: 'irreversible', rule: `Alt+${k} (mnemonic of ${w === 'an unknown control' ? w : `"${w}"`})` };
      // An irreversible control whose access key the toolkit does not tell may be the one alt+<letter> fires.
      const known = (req.mnemonics ?? []).some((m) => m.key.toLowerCase() === k);
      const unknownKey = known ? undefined : irreversibleControl(req, (m) => m.key === '');
      if (unknownKey)
        return { kind: 'irreversible', rule: `Alt+${k} (the window has "${unknownKey}", whose access key is unknown)` };
      moved = true; menuOpen = true;
      continue;
    }
    const activates = plain(c) && (ACTIVATE_KEYS.has(c.key) || (menuOpen && chordChar(c) !== undefined));
    if (activates) {
      if (moved) {
        const w = req.mnemonics === undefined ? 'an unknown control' : irreversibleControl(req, () => true);
        if (w)
          return {
            kind: 'irreversible',
            rule:
              `${formatChord(c)} after moving focus (the window has ` +
              `${w === 'an unknown control' ? 'controls the policy cannot see' : `"${w}"`})`,
          };
      } else if (f?.name !== undefined && COMMAND_ROLES.has(f.role)) {
        const w = irreversibleWord(f.name, f.role);
        if (w) return { kind: 'irreversible', rule: `${formatChord(c)} on "${w}"` };
      }
    }
    if (isEnter(c) && !moved) {
      if (isChatApp(req.app, ctx.executable))
        return { kind: 'irreversible', rule: 'Enter in a chat or mail app (sends)' };
      const submits = f && ENTER_FIELDS.has(f.role) && !f.multiline ? enterSubmits(req, f) : undefined;
      if (submits) return { kind: 'irreversible', rule: submits };
    }
    if (FOCUS_MOVE.has(c.key) && !(!moved && movesCaret(f, c))) {
      moved = true;
      if (MENU_OPEN.has(c.key)) menuOpen = true;
    }
  }
  return undefined;
}

/** True when `c`, sent to the focused element `f`, moves a caret inside it rather than the focus. */
function movesCaret(f: FocusedFacts | undefined, c: Chord): boolean {
  if (!f?.states?.includes('editable') || f.password) return false;
  if (!c.mods.every((m) => CARET_MODS.has(m))) return false;
  return (f.multiline ? CARET_MULTI : CARET_SINGLE).has(c.key);
}

/**
 * Enter in a single-line field activates the default button of its form or window, so it asks as a click on that
 * button would: when one of the buttons it can reach is irreversible, or when none is seen (a form submitted by
 * Enter alone). Which buttons: the field's form's (a web form), none for a field that takes its own value on Enter
 * in a window that is not a dialog (field-kind.ts: a Name Box, a page box), else the window's. Menu items and links
 * are never a default button. A file chooser's Name field saves like its Save button (asked before, the click not).
 */
function enterSubmits(req: KeysStep, f: FocusedFacts): string | undefined {
  if (f.enter === 'commits') return undefined;
  const buttons = f.enter === 'form'
    ? (f.formButtons ?? []).map((label) => ({ key: '', label }))
    : req.mnemonics?.filter((m) => m.role === undefined || m.role === 'button');
  if (buttons === undefined || buttons.length === 0) return 'Enter in a single-line field (submits the form)';
  const w = irreversibleControl({ ...req, mnemonics: buttons }, () => true);
  return w ? `Enter in a single-line field (submits the form, which has "${w}")` : undefined;
}
