/**
 * The `registry` decider mode's call in the pi host: a model of pi's model registry
 * (`ctx.modelRegistry`), with the credentials pi already has (`getApiKeyAndHeaders`), asked through pi-ai's
 * `completeSimple`, which pi lends its extensions (`@mariozechner/pi-ai`, aliased by pi's extension loader).
 *
 * What pi's extension API does not offer: a `classify()` call, and token probabilities. `ExtensionAPI` and
 * `ExtensionContext` have no completion call of their own, and pi-ai's `AssistantMessage` carries the answer
 * text only, so this mode reads answers from the text (as the `openai` mode does without logprobs).
 */
import type { ExtensionContext } from '@mariozechner/pi-coding-agent';
import type { RegistryCall } from '../policy/decider/registry.js';

/** A model of pi's registry. */
export type PiModel = NonNullable<ExtensionContext['model']>;

/** The part of pi-ai's `completeSimple` this mode uses (pi-ai's own function fits it). */
export type PiComplete = (
  model: PiModel,
  context: { systemPrompt: string; messages: { role: 'user'; content: string; timestamp: number }[] },
  options: {
    maxTokens: number;
    temperature: number;
    signal: AbortSignal;
    apiKey?: string;
    headers?: Record<string, string>;
  },
) => Promise<{ content: { type: string; text?: string }[]; stopReason: string; errorMessage?: string }>;

/** pi-ai's completeSimple, loaded when the first question is asked (pi provides the module to extensions). */
export async function loadPiComplete(): Promise<PiComplete> {
  let mod: { completeSimple?: unknown };
  try {
    mod = await import('@mariozechner/pi-ai') as { completeSimple?: unknown };
  } catch (e) {
    throw new Error(
      `registry decider: cannot load @mariozechner/pi-ai (pi lends it to its extensions): ` + `${(e as Error).message}`,
    );
  }
  if (typeof mod.completeSimple !== 'function')
    throw new Error('registry decider: @mariozechner/pi-ai exports no completeSimple()');
  return mod.completeSimple as PiComplete;
}

/**
 * The model for a `provider/model` reference, or, with none, one pi picks: the cheapest available model with
 * credentials by input price, a non-reasoning one first (a one-token answer needs no thinking), else the
 * session's current model. Throws with what is missing.
 */
export function pickRegistryModel(
  ctx: Pick<ExtensionContext, 'modelRegistry' | 'model'>,
  ref: string | undefined,
): PiModel {
  const registry = ctx.modelRegistry;
  if (ref !== undefined) {
    const slash = ref.indexOf('/');
    const model = slash > 0 ? registry.find(ref.slice(0, slash), ref.slice(slash + 1)) : undefined;
    if (!model)
      throw new Error(`registry decider: ${ref} is not a model of pi's model registry (pi --list-models shows them)`);
    return model;
  }
  const available = registry.getAvailable()
    .map((m, i) => ({ m, i }))
    .sort((a, b) => Number(a.m.reasoning) - Number(b.m.reasoning) || a.m.cost.input - b.m.cost.input || a.i - b.i);
  const model = available[0]?.m ?? ctx.model;
  if (!model)
    throw new Error('registry decider: pi has no model with credentials (/login or an API key), and none is selected');
  return model;
}

/**
 * A RegistryCall over the latest pi context (the one of the tool call or command in flight). A reasoning model
 * gets room to think before its one-word answer.
 */
export function piRegistryCall(
  getCtx: () => Pick<ExtensionContext, 'modelRegistry' | 'model'> | undefined,
  ref: string | undefined,
  complete: () => Promise<PiComplete> = loadPiComplete,
): RegistryCall {
  return async ({ system, user, maxTokens, signal }) => {
    const ctx = getCtx();
    if (!ctx)
      throw new Error(
        'registry decider: pi has not handed the extension a context yet (no tool call or command so far)',
      );
    const model = pickRegistryModel(ctx, ref);
    const name = `${model.provider}/${model.id}`;
    const auth = await ctx.modelRegistry.getApiKeyAndHeaders(model);
    if (!auth.ok) throw new Error(`registry decider: no credentials for ${name} in pi: ${auth.error}`);
    const run = await complete();
    const message = await run(
      model,
      { systemPrompt: system, messages: [{ role: 'user', content: user, timestamp: Date.now() }] },
      {
        maxTokens: model.reasoning ? Math.max(maxTokens, 1024) : maxTokens,
        temperature: 0,
        signal,
        ...(auth.apiKey !== undefined ? { apiKey: auth.apiKey } : {}),
        ...(auth.headers !== undefined ? { headers: auth.headers } : {}),
      },
    );
    if (message.stopReason === 'error' || message.stopReason === 'aborted') {
      throw new Error(`${name}: ${(message.errorMessage ?? message.stopReason).replace(/\s+/g, ' ').slice(0, 200)}`);
    }
    return message.content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('').trim();
  };
}
