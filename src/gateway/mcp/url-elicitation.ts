// Sending the user to a web page before a tools/call can go on: governance consent (an approval page,
// governance/pipeline.ts) and an upstream MCP server's sign-in (identity mode delegation,
// federation/identity.ts). One rendering for both, in the form the client understands
// (docs/decisions.md, D-248): 2026-07-28 with the elicitation capability's URL mode declared in `_meta`:
// `input_required` with a URL-mode elicitation (and what a retry echoes); 2025-11-25 whose request
// declares `elicitation.url` the same way (the gateway keeps no session, so what `initialize` declared is
// not known here): the URLElicitationRequiredError (-32042); otherwise a tool error naming the page.
import { GatewayError } from '../errors.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { META_CLIENT_CAPABILITIES, hasStructuredContent, isModernVersion } from './protocol.js';
import type { CallToolResult } from './tool-result.js';

/** How this tools/call can carry a URL the user must open, and what a retry carries back. */
export interface ElicitationChannel {
  readonly mode: 'input_required' | 'url_elicitation' | 'fallback';
  /** The protocol revision has structuredContent (2025-06-18 and later). */
  readonly structured: boolean;
  /** 2026-07-28 retry: the requestState the client echoes, and its answers to our input requests. */
  readonly requestState?: unknown;
  readonly inputResponses?: unknown;
}

/** The channel of one tools/call, from its `_meta` client capabilities and the revision spoken. */
export function elicitationChannel(
  params: Readonly<Record<string, unknown>>,
  version: string,
): ElicitationChannel {
  const structured = hasStructuredContent(version);
  const meta = isPlainObject(params._meta) ? params._meta : undefined;
  const caps = meta?.[META_CLIENT_CAPABILITIES];
  const elicitation = isPlainObject(caps) ? caps.elicitation : undefined;
  const urlMode = isPlainObject(elicitation) && isPlainObject(elicitation.url);
  if (isModernVersion(version))
    return urlMode
      ? {
          mode: 'input_required',
          structured,
          requestState: params.requestState,
          inputResponses: params.inputResponses,
        }
      : { mode: 'fallback', structured };
  if (version === '2025-11-25' && urlMode) return { mode: 'url_elicitation', structured };
  return { mode: 'fallback', structured };
}

/** A page the user must open (the URL-mode elicitation). */
export interface UrlElicitation {
  /** Stable for what it asks (2025-11-25 `elicitationId`). */
  readonly elicitationId: string;
  readonly url: string;
  /** Shown to the user: which page and why. */
  readonly message: string;
}

export interface UrlElicitationRendering {
  readonly elicitation: UrlElicitation;
  /** 2026-07-28: the key of the one input request (a retry's `inputResponses` answers under it). */
  readonly inputKey: string;
  /** 2026-07-28: the state a retry echoes; called only for that answer (signing costs). Absent: none. */
  readonly requestState?: (() => string) | undefined;
  /** `_meta` of the input_required answer and of the fallback tool error. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** 2025-11-25: the error's message, and data beside `elicitations`. */
  readonly errorMessage: string;
  readonly errorData?: Readonly<Record<string, unknown>> | undefined;
  /** Every other client: the tool error's text, and its structuredContent where the revision has it. */
  readonly fallbackText: string;
  readonly fallbackStructured?: Record<string, unknown> | undefined;
}

export type UrlElicitationAnswer =
  /** A 2026-07-28 `input_required` result. */
  | { readonly kind: 'input_required'; readonly result: Record<string, unknown> }
  /** A JSON-RPC error (2025-11-25 URL elicitation required). */
  | { readonly kind: 'error'; readonly error: GatewayError }
  | { readonly kind: 'result'; readonly result: CallToolResult };

export function askToOpenUrl(
  channel: ElicitationChannel,
  r: UrlElicitationRendering,
): UrlElicitationAnswer {
  const { elicitationId, url, message } = r.elicitation;
  if (channel.mode === 'input_required') {
    const requestState = r.requestState?.();
    return {
      kind: 'input_required',
      result: {
        resultType: 'input_required',
        inputRequests: {
          // 2026-07-28 URL-mode params are mode, message and url: the draft dropped elicitationId (and the
          // completion notification it keyed); the id is in `_meta` for whoever wants it.
          [r.inputKey]: { method: 'elicitation/create', params: { mode: 'url', message, url } },
        },
        ...(requestState === undefined ? {} : { requestState }),
        _meta: { ...r.meta },
      },
    };
  }
  if (channel.mode === 'url_elicitation')
    return {
      kind: 'error',
      error: new GatewayError('URL_ELICITATION_REQUIRED', r.errorMessage, {
        elicitations: [{ mode: 'url', elicitationId, url, message }],
        ...r.errorData,
      }),
    };
  const result: CallToolResult = {
    content: [{ type: 'text', text: r.fallbackText }],
    isError: true,
    ...(channel.structured && r.fallbackStructured !== undefined
      ? { structuredContent: r.fallbackStructured }
      : {}),
  };
  result._meta = { ...r.meta };
  return { kind: 'result', result };
}

/** True when the client answered the input request under `key` with decline or cancel. */
export function declinedInClient(responses: unknown, key: string): boolean {
  if (!isPlainObject(responses)) return false;
  const answer = responses[key];
  if (!isPlainObject(answer)) return false;
  return answer.action === 'decline' || answer.action === 'cancel';
}
