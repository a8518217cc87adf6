// One webhook POST: the signed JSON body to one receiver, bounded in time (the whole exchange) and in
// size (at most maxResponseBytes of the answer are read), redirects not followed. Never throws: the
// answer is a status code or a short error text without secrets (the URL's query is never shown).
export interface WebhookRequest {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

export type WebhookResponse =
  | { readonly statusCode: number; readonly error?: undefined }
  | { readonly statusCode?: undefined; readonly error: string };

/** Sends one request; injectable so unit tests of the worker need no network. */
export type WebhookSender = (request: WebhookRequest) => Promise<WebhookResponse>;

export const postWebhook: WebhookSender = async (request) => {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      body: request.body,
      headers: request.headers,
      redirect: 'manual',
      signal,
    });
    await drain(response, request.maxResponseBytes);
    if (response.status >= 300 && response.status < 400) {
      return { error: `redirect ${response.status} not followed` };
    }
    return { statusCode: response.status };
  } catch (error) {
    return { error: describe(error, request.timeoutMs) };
  }
};

/** Reads at most `limit` bytes of the answer (receivers only need to answer 2xx), then lets it go. */
async function drain(response: Response, limit: number): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read <= limit) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `timeout after ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause
      ? String((cause as { code: unknown }).code)
      : undefined;
  if (code !== undefined) return `connection failed (${code})`;
  return 'connection failed';
}
