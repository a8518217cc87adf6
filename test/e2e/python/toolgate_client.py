"""Drives toolgate with the official Python MCP SDK in its default mode (mode="auto": it probes
server/discover and adopts the newest revision both sides speak, falling back to initialize).

Usage: python toolgate_client.py <mcp-url> <headers-json>
Prints one JSON object: the negotiated protocol version, the tool names, and the results of a public
and a user-scoped tool call. Exits non-zero on any error (the test shows stderr).
"""

import asyncio
import json
import sys

from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def main(url: str, headers: dict[str, str]) -> None:
    http = create_mcp_http_client(headers=headers)
    async with http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            listed = await client.list_tools()
            bank = await client.call_tool(
                "fetchBankDetails",
                {"body": {"identificationNumber": "011085645", "identificationType": "ROUTING_NUMBER"}},
            )
            balance = await client.call_tool("getMyAccountBalance", {})
            print(
                json.dumps(
                    {
                        "protocolVersion": client.protocol_version,
                        "tools": sorted(t.name for t in listed.tools),
                        "public": {"isError": bool(bank.is_error), "structured": bank.structured_content},
                        "userScoped": {
                            "isError": bool(balance.is_error),
                            "structured": balance.structured_content,
                        },
                    }
                )
            )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
