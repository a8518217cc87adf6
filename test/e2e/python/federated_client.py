"""Drives a federating toolgate (issue 28) with the official Python MCP SDK in its default mode.

Usage: python federated_client.py <mcp-url> <headers-json> <calls-json>
  calls-json: [{"name": "everything_echo", "arguments": {...}}, ...]
Prints one JSON object: the negotiated protocol version, the tool names the gateway lists, and for each
call its isError, its text and its structuredContent. Exits non-zero on any error (the test shows stderr).
"""

import asyncio
import json
import sys

from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def text_of(result) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")


async def main(url: str, headers: dict[str, str], calls: list[dict]) -> None:
    http = create_mcp_http_client(headers=headers)
    async with http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            listed = await client.list_tools()
            results = []
            for call in calls:
                result = await client.call_tool(call["name"], call["arguments"])
                results.append(
                    {
                        "name": call["name"],
                        "isError": bool(result.is_error),
                        "text": text_of(result),
                        "structured": result.structured_content,
                    }
                )
            print(
                json.dumps(
                    {
                        "protocolVersion": client.protocol_version,
                        "tools": sorted(t.name for t in listed.tools),
                        "calls": results,
                    }
                )
            )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])))
