/**
 * Irreversible actions (issue 3 part 3): rules on role + label (English and Chinese), Enter that submits a
 * single-line field or sends in a chat app, send/delete accelerators, and every write into a password field.
 * Matching sees through case, width, whitespace, mnemonics ("_Send", "&Delete", "发送(_S)") and accelerator
 * suffixes ("Send\tCtrl+Return", "Delete (Del)"). Rules can only ask for a confirmation; nothing an app shows
 * can turn one off.
 */
import type { ActionRequest } from './gate.js';

/** Why an action needs a confirmation every time. */
export interface IrreversibleVerdict {
  kind: 'irreversible' | 'password';
  /** The rule that matched, for messages and the audit log, e.g. `label "send"`, `ctrl+Return`. */
  rule: string;
}

/**
 * Normalizes a label for matching: NFKC, accelerator suffixes and mnemonics removed, ellipsis dropped, lower
 * case, single spaces.
 */
export function normalizeLabel(s: string): string {
  let t = s.normalize('NFKC');
  t = t.replace(/\t.*$/s, '');
  // "发送(_S)", "Send (&S)": a mnemonic in brackets after the label.
  t = t.replace(/\s*[(（[]\s*[_&]?[A-Za-z0-9]\s*[)）\]]\s*$/u, '');
  // "Delete (Del)", "Send Ctrl+Enter", "Send (⌘↩)".
  t = t.replace(/\s*[(（[]?\s*(?:ctrl|control|alt|shift|super|meta|cmd|command|option|[⌘⌥⇧⌃])\s*[+-]?\s*[^()（）[\]]*[)）\]]?\s*$/iu, '');
  t = t.replace(/\s*[(（[]\s*(?:del|delete|enter|return|↩|⌫|⌦)\s*[)）\]]\s*$/iu, '');
  // Mnemonic markers: "_Send", "&Delete"; "&&" is a literal ampersand.
  t = t.replace(/&&/g, '\u0000').replace(/[_&](?=[^\s_&])/gu, '').replace(/\u0000/g, '&');
  t = t.replace(/(?:\.\.\.|…)\s*$/u, '');
  return t.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** English rules, matched as whole words in the normalized label. */
const EN_RULES: readonly { re: RegExp; roles?: ReadonlySet<string> }[] = [
  { re: /\b(re)?send( now| message| email| mail| money| it| all)?\b/ },
  { re: /\b(pay|payment|purchase|buy|checkout|check out|donate|top up|withdraw|sell|bid|trade)\b/ },
  { re: /\b(place|submit|complete|confirm) (the |your |my )?order\b|\border now\b/ },
  { re: /\b(delete|remove|erase|wipe|destroy|purge|shred|empty (the )?(trash|bin|recycle bin)|move to (the )?(trash|bin))\b/ },
  { re: /\b(discard|don'?t save|do not save|close without saving|overwrite)\b/ },
  { re: /^replace( all)?$/, roles: new Set(['button']) },
  { re: /\b(submit|publish|post|share|transfer|tweet|broadcast|deploy|commit|push|merge|approve|authorize|authorise|sign|revoke|deactivate|unsubscribe|uninstall)\b/ },
  { re: /\bconfirm (payment|purchase|transfer|deletion|delete)\b/ },
  { re: /\b(factory reset|reset (all|everything|settings|to defaults)|shut ?down|power off|reboot|log ?out|sign ?out)\b/ },
  { re: /^format( (disk|drive|volume|partition|device|card))?$|\bformat (disk|drive|volume|partition|device|card)\b/, roles: new Set(['button', 'link', 'generic', 'unknown']) },
];

/** Chinese rules: substrings (no word boundaries), with known false friends removed first. */
const ZH_WORDS = /发送|支付|付款|购买|下单|删除|提交|发布|分享|转账|确认付款|确认支付|立即购买|结算|汇款|格式化|卸载|移除|清空|抹掉|永久删除|彻底删除|注销|覆盖|替换|不保存|充值|提现|捐赠|签署|授权|撤销|退出登录|关机|重启/;
const ZH_FALSE_FRIENDS = /删除线|替换为|查找和替换|查找与替换/g;

/** The rule word in a label that says the action cannot be undone, or undefined. */
export function irreversibleWord(label: string, role?: string): string | undefined {
  const t = normalizeLabel(label);
  if (!t) return undefined;
  for (const r of EN_RULES) {
    if (r.roles && role !== undefined && !r.roles.has(role)) continue;
    const m = r.re.exec(t);
    if (m) return m[0];
  }
  const zh = ZH_WORDS.exec(t.replace(ZH_FALSE_FRIENDS, ''));
  return zh?.[0];
}

/** Element operations that trigger the element (as opposed to focusing, scrolling, editing). */
const ACTIVATING = new Set(['click', 'double_click', 'select', 'toggle']);
/** Roles whose activation changes a setting or a value, not a command (a checkbox "Delete after reading"). */
const NOT_COMMANDS = new Set(['textbox', 'document', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'scrollbar', 'tab', 'tablist']);
/** Roles whose `select` value names an item that is triggered (menus), not just chosen (a list row). */
const SELECT_TRIGGERS = new Set(['menu', 'menubar', 'menuitem', 'combobox', 'toolbar']);
const WRITES = new Set(['set_value', 'type', 'clear']);

/** Apps in which Enter in the message field sends a message. */
const CHAT_APP = /slack|discord|telegram|signal|element|teams|whatsapp|wechat|weixin|微信|qq|dingtalk|钉钉|feishu|lark|飞书|mattermost|rocket\.?chat|zulip|skype|zoom|messenger|pidgin|hexchat|irssi|weechat|thunderbird|evolution|geary|mailspring|outlook/i;

/** True when the app name or executable says it is a chat or mail app. */
export function isChatApp(app: string | undefined, executable?: string): boolean {
  return (app !== undefined && CHAT_APP.test(app)) || (executable !== undefined && CHAT_APP.test(executable.split('/').pop() ?? ''));
}

const ENTER = /^(return|enter|kp_enter|iso_enter|kp_return)$/i;

/** One chord of a keys string: lower-case modifiers and the key. */
function chords(keys: string): { mods: Set<string>; key: string }[] {
  return keys.trim().split(/\s+/).filter(Boolean).map((c) => {
    const parts = c.split('+');
    const key = parts.pop() ?? '';
    return { mods: new Set(parts.map((p) => p.toLowerCase().replace(/^(control|ctl)$/, 'ctrl').replace(/^(cmd|command|win|super)$/, 'meta'))), key: key || '+' };
  });
}

/** True when the keys type characters (not only shortcuts and named keys). */
export function keysTypeText(keys: string): boolean {
  return chords(keys).some((c) => [...c.mods].every((m) => m === 'shift') && [...c.key].length === 1);
}

/**
 * Classifies an action. `ctx.executable` (proven) helps recognize chat apps. Returns undefined when the rules
 * are silent (the decider may still add a confirmation).
 */
export function classifyAction(req: ActionRequest, ctx: { executable?: string } = {}): IrreversibleVerdict | undefined {
  if (req.tool === 'computer_act' || (req.tool === 'computer_input' && req.point !== undefined)) {
    const op = req.op ?? '';
    if (req.password && WRITES.has(op)) return { kind: 'password', rule: 'write into a password field' };
    if (!ACTIVATING.has(op)) return undefined;
    const role = req.role ?? '';
    if (op === 'select' && SELECT_TRIGGERS.has(role) && req.value !== undefined) {
      const w = irreversibleWord(req.value, 'menuitem');
      if (w) return { kind: 'irreversible', rule: `menu item "${w}"` };
    }
    if (NOT_COMMANDS.has(role) && op !== 'select') return undefined;
    if (op === 'toggle' && role !== 'button') return undefined;
    for (const label of [req.name, req.description]) {
      const w = label === undefined ? undefined : irreversibleWord(label, role);
      if (w) return { kind: 'irreversible', rule: `label "${w}"` };
    }
    return undefined;
  }
  // A paste (of given text or of whatever the clipboard holds) into a focused password field writes a password.
  if (req.tool === 'computer_input' && req.op === 'paste' && req.focused?.password) return { kind: 'password', rule: 'paste into a password field' };
  if (req.tool === 'computer_keys') {
    const keys = req.keys ?? '';
    const f = req.focused;
    if (f?.password && keysTypeText(keys)) return { kind: 'password', rule: 'typing into a password field' };
    for (const c of chords(keys)) {
      const mod = c.mods.has('ctrl') || c.mods.has('alt') || c.mods.has('meta');
      if (ENTER.test(c.key) && mod) return { kind: 'irreversible', rule: `${[...c.mods].join('+')}+${c.key} (sends in mail and chat apps)` };
      if (/^(delete|kp_delete)$/i.test(c.key) && c.mods.has('shift')) return { kind: 'irreversible', rule: 'shift+Delete (deletes without the trash)' };
      if (ENTER.test(c.key)) {
        if (isChatApp(req.app, ctx.executable)) return { kind: 'irreversible', rule: 'Enter in a chat or mail app (sends)' };
        if (f && (f.role === 'textbox' || f.role === 'combobox') && !f.multiline) return { kind: 'irreversible', rule: 'Enter in a single-line field (submits the form)' };
        if (f?.name !== undefined && (f.role === 'button' || f.role === 'link' || f.role === 'menuitem')) {
          const w = irreversibleWord(f.name, f.role);
          if (w) return { kind: 'irreversible', rule: `Enter on "${w}"` };
        }
      }
    }
  }
  return undefined;
}
