/**
 * Evince: a sentence on page 2 of a 3-page PDF (test/apps/minipdf.ts writes it, so the ground truth is the
 * data the setup chose). Only the page on screen is in the snapshot; find searches the pages' text.
 */
import { join } from 'node:path';
import { writePdf } from '../../../test/apps/minipdf.js';
import type { EvalTask, TaskContext } from '../task.js';

const GATES = ['north', 'south', 'east', 'west', 'river', 'harbour'];
/** What only the checker may know (the vars are shown to a model solver). */
const truth = new WeakMap<TaskContext, { page: string; gate: string }>();

export const evinceTasks: EvalTask[] = [
  {
    id: 'evince-find-sentence', app: 'evince', appName: 'evince',
    goal: 'In report.pdf, find the sentence about the courier delivering the parcel: on which page is it, and to which gate does the courier go?',
    hard: 'read: the sentence is on a page not shown',
    setup: async (ctx) => {
      const gate = GATES[Math.floor(Math.random() * GATES.length)] ?? 'north';
      const filler = (p: number): string[] =>
        Array.from({ length: 34 }, (_, i) => `Page ${p}, line ${i + 1}: quarterly figures and notes for the archive.`);
      const pages = [filler(1), filler(2), filler(3)];
      const line = 5 + Math.floor(Math.random() * 25);
      (pages[1] as string[])[line] = `The courier will deliver the parcel to the ${gate} gate on Friday morning.`;
      const path = join(ctx.dir, 'report.pdf');
      writePdf(path, pages);
      truth.set(ctx, { page: '2', gate });
      return { vars: { path } };
    },
    plan: [
      { do: 'launch', command: 'evince', args: ['{{path}}'] },
      { do: 'find', text: 'deliver the parcel' },
      { do: 'read', target: { role: 'document', name: 'Document View' }, pattern: 'page (\\d+) of \\d+', into: 'page' },
      { do: 'read', target: { role: 'document', name: 'Document View' }, pattern: 'parcel to the (\\w+) gate', into: 'gate' },
    ],
    check: async (ctx, _vars, answers) => {
      const want = truth.get(ctx);
      const ok = answers['page']?.trim() === want?.page && answers['gate']?.trim().toLowerCase() === want?.gate;
      return {
        ok,
        detail:
          `page ${JSON.stringify(answers['page'] ?? null)}, gate ${JSON.stringify(answers['gate'] ?? null)}` +
          `${ok ? '' : `; expected page ${want?.page ?? '?'}, gate ${want?.gate ?? '?'}`}`,
      };
    },
  },
];
