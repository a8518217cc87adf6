// tools/call: the named tool, if the caller may use it, then its call through to the backend: security
// class → arguments → governance (only while a rule is in force: policy, consent, budgets) → upstream
// request with identity headers → the backend's outcome as a tool result (→ governance settles). An upstream
// MCP server's tool (federation, issue 28) takes the same steps, with its credentials resolved before
// governance and a tools/call at the upstream (federation/calls.ts) instead of the HTTP request.
import type { FastifyBaseLogger } from 'fastify';
import type { ToolDirectory } from '../catalogue/directory.js';
import type { Tool } from '../catalogue/types.js';
import { GatewayError } from '../errors.js';
import type { BackendClient } from '../upstream/backend-client.js';
import { ArgumentError, buildBackendRequest } from '../upstream/build-request.js';
import type { IdentityForwarder } from '../upstream/identity.js';
import { nextTraceparent } from '../upstream/trace.js';
import { STEP, annotateStep, inStep, inStepSync, startClientSpan } from '../tracing/spans.js';
import { errorResult, mapOutcome, type CallToolResult } from './tool-result.js';
import type { ArgumentValidator } from './arguments.js';
import { hasStructuredContent } from './protocol.js';
import { elicitationChannel } from './url-elicitation.js';
import {
  callUpstreamTool,
  governanceAnswer,
  resultText,
  upstreamResult,
  type UpstreamToolResult,
} from '../federation/calls.js';
import type {
  UpstreamCallOutcome,
  UpstreamIdentity,
  UpstreamMcp,
} from '../federation/contracts.js';
import { credentialsForCall } from '../federation/sign-in.js';
import type { BackendAnswer, Governance, Proceed } from '../governance/pipeline.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { mayUseTool, type Caller } from '../caller.js';
import type { Gatekeeper } from '../gatekeeper/gatekeeper.js';

export interface ToolCallsOptions {
  readonly directory: ToolDirectory;
  readonly validator: ArgumentValidator;
  readonly clients: ReadonlyMap<string, BackendClient>;
  /** Authorizes each call before its backend is reached (the tool's security class). */
  readonly gatekeeper: Pick<Gatekeeper, 'authorize'>;
  readonly identity: IdentityForwarder;
  /** Backend base URLs/origins never shown to clients. */
  readonly hidden: readonly string[];
  /** Governed actions (issue 25); absent: no governance at all. */
  readonly governance?: Governance | undefined;
  /** Upstream MCP servers by backend name (federation, issue 28): where the tools with `mcp` are called. */
  readonly upstreams?: ReadonlyMap<string, UpstreamMcp> | undefined;
  /** The credentials each call to an upstream MCP server carries (federation/identity.ts). */
  readonly upstreamIdentity?: UpstreamIdentity | undefined;
  /**
   * Told when an upstream refused the credentials a call carried (HTTP 401/403): a delegated token that is
   * no longer good is dropped, so the user's next call asks them to sign in again (federation/delegation).
   */
  readonly upstreamCredentialsRejected?:
    | ((
        caller: Caller,
        backend: string,
        sent: Readonly<Record<string, string>>,
      ) => Promise<unknown>)
    | undefined;
}

/**
 * What the tools/call answers: a tool result (an upstream MCP server's with content of any kind), or a
 * 2026-07-28 input_required.
 */
export type CallAnswer = CallToolResult | UpstreamToolResult | Record<string, unknown>;

export interface CallTrace {
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
  readonly log?: FastifyBaseLogger | undefined;
  /** Adds fields to the request's access line (tool, backend, upstream outcome and time). */
  readonly annotate?: ((fields: Readonly<Record<string, unknown>>) => void) | undefined;
}

export class ToolCalls {
  constructor(private readonly options: ToolCallsOptions) {}

  /**
   * The catalogue tool a tools/call names, approved and allowed for the caller's subscription; a name it
   * may not use looks unknown. Throws INVALID_PARAMS or UNKNOWN_TOOL: no tool was reached.
   */
  async resolve(caller: Caller, params: Record<string, unknown>): Promise<Tool> {
    const name = params.name;
    if (typeof name !== 'string' || name === '')
      throw new GatewayError('INVALID_PARAMS', 'Invalid params: "name" must be a non-empty string');
    argumentsOf(params);
    await this.options.directory.refresh();
    const tool = this.options.directory.find(name, (n) => mayUseTool(caller, n));
    if (!tool) throw new GatewayError('UNKNOWN_TOOL', `Unknown tool: ${name}`);
    return tool;
  }

  /** The call of a resolved tool: a tool result (errors the caller can act on included), or a refusal. */
  async run(
    caller: Caller,
    tool: Tool,
    params: Record<string, unknown>,
    version: string,
    trace: CallTrace = {},
  ): Promise<CallAnswer> {
    trace.annotate?.({
      tool: tool.name,
      backend: tool.backend,
      subscription: caller.subscription.id,
    });
    const result =
      tool.mcp !== undefined && tool.operation === undefined
        ? await this.callUpstream(caller, tool, params, version, trace)
        : await this.callBackend(caller, tool, params, version, trace);
    if (result.isError === true) trace.annotate?.({ toolError: true });
    return result;
  }

  /**
   * The checks every call passes before anything is sent: the security class (throws the refusal), then the
   * arguments against the tool's inputSchema (a tool error the model can correct).
   */
  private admit(
    caller: Caller,
    tool: Tool,
    args: Record<string, unknown>,
    target: 'backend' | 'upstream',
  ): CallToolResult | undefined {
    this.options.gatekeeper.authorize(caller, tool);
    const problems = this.options.validator.validate(tool, args);
    if (!problems) return undefined;
    return errorResult(
      `Invalid arguments for tool ${tool.name} (the ${target} was not called):\n- ${problems.join('\n- ')}`,
    );
  }

  private async callBackend(
    caller: Caller,
    tool: Tool,
    params: Record<string, unknown>,
    version: string,
    trace: CallTrace,
  ): Promise<CallAnswer> {
    const args = argumentsOf(params);
    const client = this.options.clients.get(tool.backend);
    const operation = tool.operation;
    // Security class, arguments and governance: the policy step (one span when tracing).
    const checked = await inStep(STEP.policy, async () => {
      const refused = this.admit(caller, tool, args, 'backend');
      if (refused) return policyAnswer(refused, 'invalid_arguments');
      if (!client || operation === undefined)
        throw new GatewayError('INTERNAL', 'Internal error: the tool has no backend');
      // Hidden arguments (operator overrides) last: an agent cannot replace a fixed value.
      const sent = tool.fixedArguments ? { ...args, ...tool.fixedArguments } : args;
      let request;
      try {
        request = buildBackendRequest(operation, sent);
      } catch (error) {
        if (error instanceof ArgumentError)
          return policyAnswer(
            errorResult(`Invalid arguments for tool ${tool.name}: ${error.message}`),
            'invalid_arguments',
          );
        throw error;
      }
      const gated = await this.gate(caller, tool, args, sent, params, version, trace);
      return gated.kind === 'answer' ? gated : { ...gated, request };
    });
    if (checked.kind === 'answer') return checked.answer;
    if (!client || operation === undefined)
      throw new GatewayError('INTERNAL', 'Internal error: the tool has no backend');
    const { request, governed } = checked;
    const span = startClientSpan(`${operation.method} ${operation.pathTemplate}`, {
      'http.request.method': operation.method,
      'url.template': operation.pathTemplate,
      'server.address': client.server.address,
      'server.port': client.server.port,
      'toolgate.backend': tool.backend,
      'gen_ai.tool.name': tool.name,
    });
    const headers: Record<string, string> = {
      ...request.headers,
      ...client.injectHeaders,
      ...(await this.options.identity(caller, tool)),
      accept: 'application/json, application/problem+json;q=0.9, */*;q=0.1',
      'x-request-id': caller.requestId,
      // With tracing on, the client span's context; off, a new parent id in the caller's trace.
      ...(span?.headers ?? { traceparent: nextTraceparent(trace.traceparent) }),
    };
    if (span === undefined && trace.tracestate !== undefined && trace.tracestate.length <= 512)
      headers.tracestate = trace.tracestate;
    const started = process.hrtime.bigint();
    let outcome;
    try {
      outcome =
        governed === undefined
          ? await client.send({ ...request, headers })
          : await this.sendGoverned(client, { ...request, headers }, governed, trace);
    } catch (error) {
      span?.end({}, 'exception');
      throw error;
    }
    span?.end(
      outcome.kind === 'response' ? { 'http.response.status_code': outcome.status } : {},
      outcome.kind === 'response'
        ? outcome.status >= 500
          ? String(outcome.status)
          : undefined
        : outcome.reason,
    );
    trace.annotate?.({
      upstream: outcome.kind === 'response' ? outcome.status : outcome.reason,
      upstreamMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
    });
    const result: CallToolResult = mapOutcome(outcome, {
      structured: hasStructuredContent(version),
      hide: this.options.hidden,
      expectJson: operation.jsonResponse === true || tool.outputSchema !== undefined,
      operation: tool.operationId ?? tool.name,
    });
    if (governed !== undefined)
      await this.settle(
        governed,
        trace,
        outcome.kind === 'response'
          ? { status: outcome.status, body: successBody(result, outcome.body) }
          : { failure: outcome.reason },
      );
    if (result.structuredContent !== undefined) {
      const problems = this.options.validator.validateOutput(tool, result.structuredContent);
      if (problems) {
        trace.log?.warn(
          { tool: tool.name, problems },
          'backend response does not match outputSchema',
        );
        return errorResult(
          `The backend's response does not match the operation's declared response schema (${problems.join('; ')}). Response: ${result.content[0]?.text ?? ''}`,
        );
      }
    }
    return result;
  }

  /**
   * The governed step (issue 25), the same for every kind of tool; only while a rule is in force:
   * otherwise not one allocation on this path. Either the call goes on (governed or not), or its answer.
   */
  private async gate(
    caller: Caller,
    tool: Tool,
    args: Record<string, unknown>,
    sent: Record<string, unknown>,
    params: Record<string, unknown>,
    version: string,
    trace: CallTrace,
  ): Promise<
    | { readonly kind: 'proceed'; readonly governed: Proceed | undefined }
    | { readonly kind: 'answer'; readonly answer: CallAnswer }
  > {
    const governance = this.options.governance;
    if (governance === undefined || !governance.active()) {
      annotateStep({ 'toolgate.governance': 'off' });
      return { kind: 'proceed', governed: undefined };
    }
    const gate = await governance.gate(
      caller,
      tool,
      args,
      sent,
      elicitationChannel(params, version),
    );
    if (gate.kind === 'error') throw gate.error;
    if (gate.kind === 'input_required') {
      trace.annotate?.({ governance: 'input_required' });
      annotateStep({ 'toolgate.governance': 'input_required' });
      return { kind: 'answer', answer: gate.result };
    }
    if (gate.kind === 'result') {
      trace.annotate?.({ governance: 'refused' });
      annotateStep({ 'toolgate.governance': 'refused' });
      if (!hasStructuredContent(version)) delete gate.result.structuredContent;
      return { kind: 'answer', answer: gate.result };
    }
    trace.annotate?.({ governance: gate.decision.effect, callId: gate.call.callId });
    annotateStep({ 'toolgate.governance': gate.decision.effect });
    return { kind: 'proceed', governed: gate };
  }

  /**
   * An upstream MCP server's tool (federation, issue 28): everything an OpenAPI tool has (security class,
   * arguments against the upstream's inputSchema, hidden arguments, governance, output against its
   * outputSchema), then a tools/call at the upstream with the caller's credentials instead of an HTTP
   * request. The credentials come before governance: a call that cannot be made (sign-in needed, a token
   * for another audience) asks for no approval and reserves no budget.
   */
  private async callUpstream(
    caller: Caller,
    tool: Tool,
    params: Record<string, unknown>,
    version: string,
    trace: CallTrace,
  ): Promise<CallAnswer> {
    const args = argumentsOf(params);
    const refused = inStepSync(STEP.policy, () => this.admit(caller, tool, args, 'upstream'));
    if (refused) return refused;
    const upstream = this.options.upstreams?.get(tool.backend);
    const identity = this.options.upstreamIdentity;
    if (upstream === undefined || identity === undefined)
      throw new GatewayError('INTERNAL', 'Internal error: the tool has no backend');
    // Hidden arguments (operator overrides) last: an agent cannot replace a fixed value.
    const sent = tool.fixedArguments ? { ...args, ...tool.fixedArguments } : args;
    const credentials = await credentialsForCall(identity, caller, tool, params, version, trace);
    if (credentials.kind === 'answer') return credentials.answer;
    const gated = await inStep(STEP.governance, () =>
      this.gate(caller, tool, args, sent, params, version, trace),
    );
    if (gated.kind === 'answer') return gated.answer;
    const governed = gated.governed;
    const started = process.hrtime.bigint();
    const span = startClientSpan(`tools/call ${tool.mcp?.name ?? tool.name}`, {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool.mcp?.name ?? tool.name,
      'toolgate.backend': tool.backend,
    });
    const call = {
      tool,
      arguments: sent,
      headers: credentials.headers,
      traceparent: span?.headers.traceparent ?? nextTraceparent(trace.traceparent),
    };
    const logFailure = (error: Error) =>
      trace.log?.warn(
        { backend: tool.backend, tool: tool.name, reason: error.message },
        'upstream MCP call failed',
      );
    let outcome: UpstreamCallOutcome;
    try {
      outcome = await callUpstreamTool(upstream, call, logFailure);
    } catch (error) {
      span?.end({}, 'exception');
      // Not an upstream failure (a bug): the call may have been made, so a governed one gets its evidence.
      if (governed !== undefined)
        await this.settle(governed, trace, { failure: 'the upstream call failed' });
      throw error;
    }
    span?.end(
      {},
      outcome.kind === 'failure' ? outcome.reason : outcome.isError ? 'tool_error' : undefined,
    );
    if (outcome.kind === 'failure' && outcome.reason === 'unauthorized')
      await this.options
        .upstreamCredentialsRejected?.(caller, tool.backend, credentials.headers)
        .catch((error: unknown) =>
          trace.log?.error(
            { err: error, backend: tool.backend },
            'the upstream refused the credentials, and dropping them failed',
          ),
        );
    trace.annotate?.({
      upstream: outcome.kind === 'failure' ? outcome.reason : outcome.isError ? 'tool_error' : 'ok',
      upstreamMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
    });
    if (governed !== undefined) await this.settle(governed, trace, governanceAnswer(outcome));
    const result = upstreamResult(outcome, {
      backend: tool.backend,
      version,
      hide: this.options.hidden,
    });
    if (outcome.kind === 'result' && !outcome.isError && tool.outputSchema !== undefined) {
      // MCP: a tool with an outputSchema MUST give structuredContent that conforms to it.
      const problems =
        outcome.structuredContent === undefined
          ? ['no structuredContent']
          : this.options.validator.validateOutput(tool, outcome.structuredContent);
      if (problems) {
        trace.log?.warn(
          { tool: tool.name, problems },
          'upstream result does not match outputSchema',
        );
        return errorResult(
          `The upstream MCP server ${tool.backend} answered with a result that does not match the tool's declared output schema (${problems.join('; ')}). Result: ${resultText(result)}`,
        );
      }
    }
    return result;
  }

  /**
   * The backend call of a governed call: if it throws unexpectedly, the call still gets its evidence (its
   * reservation is kept: the call may have been carried out).
   */
  private async sendGoverned(
    client: BackendClient,
    request: Parameters<BackendClient['send']>[0],
    governed: Proceed,
    trace: CallTrace,
  ): ReturnType<BackendClient['send']> {
    try {
      return await client.send(request);
    } catch (error) {
      await this.settle(governed, trace, { failure: 'the backend call failed' });
      throw error;
    }
  }

  /**
   * Releases a refused call's reservation and records the backend's answer. The backend has answered by
   * now, so a failure here is logged, never turned into an error: the agent must see what the backend did
   * (a payment made and reported as failed could be made twice).
   */
  private async settle(governed: Proceed, trace: CallTrace, answer: BackendAnswer): Promise<void> {
    try {
      await this.options.governance?.settle(governed, answer);
    } catch (error) {
      trace.log?.error(
        { err: error, callId: governed.call.callId },
        'governed call: the backend answered, but its release or evidence could not be recorded',
      );
    }
  }
}

/** A policy step that answers the call itself (refused arguments): the answer, the step marked. */
function policyAnswer(
  answer: CallAnswer,
  reason: string,
): { readonly kind: 'answer'; readonly answer: CallAnswer } {
  annotateStep({ 'toolgate.policy.outcome': reason });
  return { kind: 'answer', answer };
}

/**
 * The JSON object a successful backend answer holds (where the evidence reads the payment's reference): the
 * result's structuredContent, or, for revisions without it, the body parsed; otherwise undefined.
 */
function successBody(result: CallToolResult, body: string): Record<string, unknown> | undefined {
  if (result.isError === true) return undefined;
  if (result.structuredContent !== undefined) return result.structuredContent;
  try {
    const parsed: unknown = JSON.parse(body);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The call's `arguments`: an object (absent: none). Throws INVALID_PARAMS otherwise. */
function argumentsOf(params: Record<string, unknown>): Record<string, unknown> {
  const args = params.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new GatewayError('INVALID_PARAMS', 'Invalid params: "arguments" must be an object');
  return args as Record<string, unknown>;
}
