"""Makes one governed payment with the official Python MCP SDK in its default mode (2026-07-28 with a
server that speaks it): the gateway answers input_required with a URL-mode elicitation; this client's
elicitation callback announces the URL on stdout ({"elicit": {"url": ..., "message": ...}}) and waits for one
line on stdin (the test, acting as the user in a browser, writes it once the approval is given), then
accepts; the SDK retries with the requestState.

Usage: python governed_client.py <mcp-url> <headers-json> <arguments-json>
Prints, last, one JSON object: the negotiated protocol version, isError and the structured result.
"""

import asyncio
import json
import sys

import anyio
from mcp import types
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def on_elicit(_context, params):  # type: ignore[no-untyped-def]
    url = getattr(params, "url", None)
    print(json.dumps({"elicit": {"url": url, "message": params.message}}), flush=True)
    answer = await anyio.to_thread.run_sync(sys.stdin.readline)
    return types.ElicitResult(action="accept" if answer.strip() == "approved" else "decline")


async def main(url: str, headers: dict[str, str], arguments: dict) -> None:
    http = create_mcp_http_client(headers=headers)
    async with http:
        async with Client(
            streamable_http_client(url, http_client=http), elicitation_callback=on_elicit
        ) as client:
            result = await client.call_tool("createPayment", arguments)
            print(
                json.dumps(
                    {
                        "protocolVersion": client.protocol_version,
                        "isError": bool(result.is_error),
                        "structured": result.structured_content,
                        "text": [getattr(c, "text", None) for c in result.content],
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])))
