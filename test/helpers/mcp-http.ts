// One JSON-RPC message to an MCP endpoint over plain HTTP, as a client without an SDK sends it; for
// end-to-end tests against a running `toolgate start`.
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

export interface RpcResponse {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-RPC bodies of varying shape
  readonly body: Record<string, any>;
}

export async function rpc(
  url: string,
  headers: Record<string, string>,
  method: string,
  params?: unknown,
): Promise<RpcResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      ...(params === undefined ? {} : { params }),
    }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as RpcResponse['body'],
  };
}
