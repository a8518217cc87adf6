"""A Python MCP server for the federation tests (issue 28), from the `mcp` package 2.3.0.

FastMCP was renamed MCPServer in mcp 2 (mcp.server.fastmcp only raises a pointer to the migration guide),
so this is the same decorator API under its new name. Streamable HTTP on 127.0.0.1:<port>/mcp.

    python fastmcp_server.py PORT [--stateless] [--json]

Tools: `shout` (text) and `divide` (structured output: its return annotation becomes the outputSchema);
resource `note://readme`; prompt `review` (argument `code`). Prints "ready" on stderr through uvicorn's own
startup line; the test waits for the port to answer instead.
"""

import sys

from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer

server = MCPServer(name="python-upstream", instructions="A Python MCP server for toolgate's tests.")


class Quotient(BaseModel):
    quotient: float
    remainder: int


@server.tool(description="Upper-cases a text.")
def shout(text: str) -> str:
    return text.upper() + "!"


@server.tool(description="Divides two integers; answers the quotient and the remainder.")
def divide(a: int, b: int) -> Quotient:
    return Quotient(quotient=a / b, remainder=a % b)


@server.resource("note://readme", description="A short note", mime_type="text/plain")
def readme() -> str:
    return "python upstream readme"


@server.prompt(description="Asks for a code review.")
def review(code: str) -> str:
    return f"Please review this code:\n\n{code}"


if __name__ == "__main__":
    port = int(sys.argv[1])
    server.run(
        "streamable-http",
        host="127.0.0.1",
        port=port,
        stateless_http="--stateless" in sys.argv,
        json_response="--json" in sys.argv,
    )
