// One tools/call as governance sees it (contracts.ts GovernedCall), built from the caller, the tool and the
// validated arguments: a fresh call id, the SHA-256 of the arguments' canonical JSON (RFC 8785), and, for a
// tool configured as moving money (gateway.backends[].tools.<operationId>.money), the amount and currency
// read from the arguments and converted to the base currency. Pure apart from the id and the clock.
import { createHash, randomUUID } from 'node:crypto';
import type { MoneyLocation } from '../../config/gateway-mcp.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { grantedScopes } from '../auth/jwt/scopes.js';
import type { Caller } from '../caller.js';
import type { Tool } from '../catalogue/types.js';
import type { GovernedCall, GovernedMoney } from './contracts.js';

/** The amount in the base currency (policy/money.ts's convertMoney with the settings in force). */
export type MoneyConverter = (
  amount: string,
  currency: string,
) => GovernedMoney | { readonly error: string };

/** Where each money-moving tool states its amount: by `backend\0operationId` (as the overrides key it). */
export type MoneyLocations = ReadonlyMap<string, MoneyLocation>;

export function moneyKey(tool: Pick<Tool, 'backend' | 'operationId' | 'name'>): string {
  return `${tool.backend}\0${tool.operationId ?? tool.name}`;
}

export type BuiltCall =
  | { readonly ok: true; readonly call: GovernedCall }
  | { readonly ok: false; readonly message: string };

export interface CallInput {
  readonly caller: Caller;
  readonly tool: Tool;
  /** The arguments as the agent sent them (what consent is bound to). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The arguments as the backend gets them (operator-fixed values included): where money is read. */
  readonly sent: Readonly<Record<string, unknown>>;
  readonly money?: MoneyLocation | undefined;
  readonly convert: MoneyConverter;
  readonly now: Date;
}

/**
 * The GovernedCall, or why it cannot be governed: a tool configured as moving money whose amount or
 * currency cannot be read or converted is refused rather than let through without its amount (a rule on
 * the amount would otherwise never match it).
 */
export function buildGovernedCall(input: CallInput): BuiltCall {
  const { caller, tool } = input;
  let money: GovernedMoney | undefined;
  if (input.money !== undefined) {
    const amount = readPointer(input.sent, input.money.amount);
    const currency = readPointer(input.sent, input.money.currency);
    const amountText =
      typeof amount === 'number' && Number.isFinite(amount)
        ? String(amount)
        : typeof amount === 'string'
          ? amount
          : undefined;
    if (amountText === undefined || typeof currency !== 'string')
      return {
        ok: false,
        message: `The tool ${tool.name} moves money, but its amount (${input.money.amount}) and currency (${input.money.currency}) could not be read from the arguments (the backend was not called).`,
      };
    const converted = input.convert(amountText, currency);
    if ('error' in converted)
      return {
        ok: false,
        message: `The amount of this ${tool.name} call cannot be governed: ${converted.error} (the backend was not called).`,
      };
    money = converted;
  }
  const user = caller.user;
  const args = input.arguments;
  let hash: string | undefined;
  const call: GovernedCall = {
    callId: randomUUID(),
    tool: {
      name: tool.name,
      backend: tool.backend,
      securityClass: tool.securityClass,
      annotations: tool.annotations,
    },
    arguments: args,
    // Computed when first read (consent, evidence): a call no rule matches never hashes its arguments
    // (decision: the governed step costs nothing measurable for calls no rule matches).
    get argumentsHash() {
      return (hash ??= argumentsHash(args));
    },
    caller: {
      application: caller.subscription.application,
      subscription: caller.subscription.id,
      environment: caller.subscription.environment,
      subject: user?.subject ?? null,
      claims: user?.claims ?? {},
      scopes: user ? [...grantedScopes(user.claims)] : [],
    },
    at: input.now,
    money,
  };
  return { ok: true, call };
}

/** Hex SHA-256 of the RFC 8785 canonical JSON of the arguments. */
export function argumentsHash(args: Readonly<Record<string, unknown>>): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}

/** Pointers split into their tokens once: they come from the configuration, so there are few. */
const TOKENS = new Map<string, readonly string[]>();

function tokensOf(pointer: string): readonly string[] {
  let tokens = TOKENS.get(pointer);
  if (tokens === undefined) {
    tokens =
      pointer === ''
        ? []
        : pointer
            .slice(1)
            .split('/')
            .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (TOKENS.size < 1000) TOKENS.set(pointer, tokens);
  }
  return tokens;
}

/** RFC 6901: the value at `pointer` in `document`, or undefined. */
export function readPointer(document: unknown, pointer: string): unknown {
  let current: unknown = document;
  for (const token of tokensOf(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null) {
      if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else return undefined;
  }
  return current;
}
