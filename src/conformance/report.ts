/** The kit's verdicts: one line per rule, PASS / FAIL / SKIP, and a summary. */

import { RULES, type RuleId } from '../protocol/rules.js';

/** A problem as the kit writes it: the id of the protocol rule it breaks (docs/protocol.md, Behaviour), then what came.
* */
export const cite = (rule: RuleId, problem: string): string => `${rule}: ${problem}`;

/** How one rule came out. */
export type Verdict = 'PASS' | 'FAIL' | 'SKIP';

/**
 * One check's outcome. `rule` is the kit's check name (`wire.schema`, `semantic.gtk.level.set_value#1`); `rules` the
 * protocol rule ids (`R-act-value`) its failure cites; `detail` says what was checked (PASS), what was expected and
 * what came (FAIL), or why not (SKIP).
 */
export interface RuleResult { rule: string; verdict: Verdict; detail: string; rules?: string[] }

/** The rule ids a failure's text cites (`R-act-value: …`), each once, in order; only ids the spec has. */
export const citedRules = (detail: string): string[] =>
  [...new Set(detail.match(/\bR-[a-z]+(?:-[a-z]+)*(?=: )/g) ?? [])].filter((id) => Object.hasOwn(RULES, id));

/** The whole run. */
export interface ConformanceReport {
  /** The driver command as given. */
  driver: string;
  /** hello's platform, version and protocolVersion, when it answered. */
  hello?: { platform?: unknown; version?: unknown; protocolVersion?: unknown };
  results: RuleResult[];
  /** True when no rule failed. */
  ok: boolean;
}

/** Collects results in order. */
export class Verdicts {
  readonly results: RuleResult[] = [];
  pass(rule: string, detail: string): void { this.results.push({ rule, verdict: 'PASS', detail }); }
  fail(rule: string, detail: string): void {
    this.results.push({ rule, verdict: 'FAIL', detail, rules: citedRules(detail) });
  }
  skip(rule: string, detail: string): void { this.results.push({ rule, verdict: 'SKIP', detail }); }
  /** PASS when `problems` is empty, else FAIL listing them. */
  check(rule: string, problems: readonly string[], passDetail: string): void {
    if (problems.length === 0) this.pass(rule, passDetail);
    else this.fail(rule, problems.join('; '));
  }
}

/** The text report: a line per rule and the summary line. */
export function formatReport(r: ConformanceReport): string {
  const h = r.hello;
  const driverOf = h
    ? ` · ${String(h.platform ?? '?')} ${String(h.version ?? '?')}, protocol ${String(h.protocolVersion ?? '?')}`
    : '';
  const head = `computer-use conformance · ${r.driver}${driverOf}`;
  const lines = r.results.map((x) => `${x.verdict} ${x.rule}: ${x.detail}`);
  const count = (v: Verdict): number => r.results.filter((x) => x.verdict === v).length;
  const summary =
    `${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped: ` +
    `${r.ok ? 'the driver conforms' : 'the driver does not conform'}.`;
  return [head, ...lines, summary].join('\n');
}
