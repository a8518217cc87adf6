// The credentials of one tools/call to an upstream MCP server, or the answer instead of the call: the
// sign-in the user must complete first (identity mode delegation), rendered like governance consent
// (mcp/url-elicitation.ts: input_required, the -32042 error, or a tool error with the link), or a tool
// error when the credentials cannot be had (a token for another audience, the token service down).
// docs/decisions.md, D-329.
import { GatewayError } from '../errors.js';
import type { Caller } from '../caller.js';
import type { Tool } from '../catalogue/types.js';
import { errorResult, type CallToolResult } from '../mcp/tool-result.js';
import {
  askToOpenUrl,
  declinedInClient,
  elicitationChannel,
  type ElicitationChannel,
} from '../mcp/url-elicitation.js';
import type { UpstreamCredentials, UpstreamIdentity } from './contracts.js';
import { UpstreamIdentityRefused } from './identity.js';

/** The key of the sign-in's one input request in a 2026-07-28 `input_required` answer. */
export const SIGN_IN_INPUT_KEY = 'toolgate-sign-in';
/** `_meta` key of a sign-in answer: `{ backend, url, elicitationId }`. */
export const META_SIGN_IN = 'io.toolgate/sign-in';

export type CallCredentials =
  | { readonly kind: 'headers'; readonly headers: Readonly<Record<string, string>> }
  | { readonly kind: 'answer'; readonly answer: CallToolResult | Record<string, unknown> };

export interface CredentialsTrace {
  readonly log?: { warn(fields: Record<string, unknown>, message: string): void } | undefined;
  readonly annotate?: ((fields: Readonly<Record<string, unknown>>) => void) | undefined;
}

/**
 * The caller's credentials for the tool's upstream, or the answer instead of the call. Throws only the
 * 2025-11-25 URL elicitation error (a GatewayError) or what is a bug.
 */
export async function credentialsForCall(
  identity: UpstreamIdentity,
  caller: Caller,
  tool: Tool,
  params: Readonly<Record<string, unknown>>,
  version: string,
  trace: CredentialsTrace = {},
): Promise<CallCredentials> {
  let credentials: UpstreamCredentials;
  try {
    credentials = await identity(caller, tool.backend);
  } catch (error) {
    trace.annotate?.({ upstream: 'credentials_refused' });
    if (error instanceof UpstreamIdentityRefused)
      return { kind: 'answer', answer: errorResult(error.message) };
    // A refusal written for the user (token exchange without a user token, or refused by the
    // authorization server: src/gateway/federation/token-exchange.ts): its message, as a tool error.
    if (error instanceof GatewayError && error.code === 'FORBIDDEN')
      return { kind: 'answer', answer: errorResult(error.message) };
    // A token service or token store that failed: the caller learns which service, the log learns why.
    trace.log?.warn(
      { backend: tool.backend, err: error },
      'upstream credentials could not be obtained',
    );
    return {
      kind: 'answer',
      answer: errorResult(
        `The gateway could not obtain credentials for you at ${tool.backend} just now, so the upstream was not called. Try again later.`,
      ),
    };
  }
  if (credentials.kind === 'headers') return credentials;
  trace.annotate?.({ upstream: 'sign_in_required' });
  const channel = elicitationChannel(params, version);
  if (declinedInClient(channel.inputResponses, SIGN_IN_INPUT_KEY))
    return {
      kind: 'answer',
      answer: errorResult(
        `You declined to sign in at ${credentials.backend}, so the call was not made. Call the tool again when you want to sign in.`,
      ),
    };
  return signInAnswer(credentials, channel, tool);
}

/** The sign-in the user must complete, in the form the client understands. */
export function signInAnswer(
  signIn: Extract<UpstreamCredentials, { kind: 'sign-in' }>,
  channel: ElicitationChannel,
  tool: Pick<Tool, 'name'>,
): CallCredentials {
  const { backend, url, message, elicitationId } = signIn;
  const summary = { backend, url, elicitationId };
  const answer = askToOpenUrl(channel, {
    elicitation: { elicitationId, url, message },
    inputKey: SIGN_IN_INPUT_KEY,
    meta: { [META_SIGN_IN]: summary },
    errorMessage: `Sign in at ${backend} first (open the URL), then retry the same call.`,
    errorData: { signIn: summary },
    fallbackText: `${message.replace(/[.\s]+$/, '')}. Sign in at ${url}, then call ${tool.name} again (the upstream was not called).`,
    fallbackStructured: { signIn: summary },
  });
  if (answer.kind === 'error') throw answer.error;
  return { kind: 'answer', answer: answer.result };
}
