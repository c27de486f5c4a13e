/**
 * A model solver's transcript of one task: every message (system, user goal, the assistant's tool calls, the
 * tools' texts, the final answer), the checker's verdict and the counts, as one JSON file per task and run under
 * bench/results/transcripts/, named `<date>-<task id>.json`. The texts are the ones the recorder passed on.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage } from './chat.js';
import type { Conversation, EvalStep } from './recorder.js';

/** What a transcript file holds. */
export interface Transcript {
  date: string;
  task: { id: string; app: string; goal: string };
  solver: string;
  /** The checker's verdict (or why the solver stopped). */
  success: boolean;
  detail: string;
  counts: {
    /** Tool calls made, and how many answered with an error. */
    toolCalls: number;
    toolErrors: number;
    /** Chat-completions requests. */
    modelRequests: number;
    /** o200k tokens of the tools' texts the model read. */
    toolTextTokens: number;
    /** As the endpoint reported them, summed over its answers (0 when it reports none). */
    promptTokens: number;
    completionTokens: number;
  };
  /** Solver wall time, ms. */
  ms: number;
  messages: ChatMessage[];
}

/** The file name of a task's transcript: sortable date, then the task's id. */
export function transcriptName(date: Date, taskId: string): string {
  return `${date.toISOString().replace(/[:.]/g, '-').slice(0, 19)}-${taskId.replace(/[^\w.-]/g, '_')}.json`;
}

/** Builds the transcript of a task from its result and its recorder's record. */
export function transcriptOf(
  date: Date,
  r: { id: string; app: string; goal: string; solver: string; success: boolean; detail: string; ms: number },
  steps: readonly EvalStep[],
  conv: Conversation,
): Transcript {
  return {
    date: date.toISOString(),
    task: { id: r.id, app: r.app, goal: r.goal },
    solver: r.solver,
    success: r.success,
    detail: r.detail,
    counts: {
      toolCalls: steps.length,
      toolErrors: steps.filter((s) => s.isError).length,
      modelRequests: conv.requests,
      toolTextTokens: steps.reduce((a, s) => a + s.tokens, 0),
      promptTokens: conv.promptTokens,
      completionTokens: conv.completionTokens,
    },
    ms: r.ms,
    messages: conv.messages,
  };
}

/** Writes it under `dir`; returns the path. */
export async function writeTranscript(dir: string, t: Transcript): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, transcriptName(new Date(t.date), t.task.id));
  await writeFile(path, JSON.stringify(t, null, 2) + '\n');
  return path;
}
