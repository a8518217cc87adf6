// The MCP Inspector's command-line client (2.12.0) signs in by itself: given only the MCP URL and the
// subscription key header, it meets the 401, discovers the development authorization server, registers,
// prints "Please navigate to: <authorization URL>" and waits on its loopback callback listener. The test
// plays the browser (following the redirects with the cookies a browser keeps, the user signed in by
// autoLogin) up to that callback, and the Inspector then calls a user-scoped tool as alice.
// Like inspector-cli.test.ts it runs the Inspector on the npm `node@22` package through npx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { freePort } from '../helpers/free-port.js';
import { demoForFile } from '../helpers/process.js';
import { followToCallback } from '../helpers/oauth-client.js';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

const demo = demoForFile('toolgate-inspector-oauth-', () => ({ TOOLGATE_DEV_AUTO_LOGIN: 'alice' }));

test('MCP Inspector CLI: sign-in from the MCP URL and the key header alone, then a user-scoped tools/call as alice', async () => {
  const key = demo.printed.headers['Ocp-Apim-Subscription-Key'];
  assert.ok(key !== undefined);
  const callback = `http://127.0.0.1:${await freePort()}/oauth/callback`;
  const inspector = spawn(
    'npx',
    [
      '-y',
      '-p',
      'node@22',
      '-p',
      INSPECTOR,
      '--',
      'mcp-inspector',
      '--cli',
      '--server-url',
      demo.printed.url,
      '--transport',
      'http',
      '--header',
      `Ocp-Apim-Subscription-Key: ${key}`,
      '--callback-url',
      callback,
      '--method',
      'tools/call',
      '--tool-name',
      'getMyAccountBalance',
    ],
    {
      cwd: demo.scratch,
      // Its OAuth state goes to HOME (~/.mcp-inspector): a scratch one, so nothing is reused.
      env: {
        ...process.env,
        HOME: demo.scratch,
        MCP_INSPECTOR_SECRET_STORE: 'memory',
        // Without a TTY the Inspector starts the interactive flow only when told to open a browser; the
        // "browser" it opens is `true` (a no-op command; xdg-open honours BROWSER), the test is the browser.
        MCP_AUTO_OPEN_ENABLED: 'true',
        BROWSER: 'true',
        DISPLAY: '',
      },
    },
  );
  let stdout = '';
  let stderr = '';
  let navigated: Promise<URLSearchParams> | undefined;
  inspector.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  inspector.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    const match = /Please navigate to: (\S+)/.exec(stderr);
    if (match?.[1] !== undefined && navigated === undefined)
      navigated = followToCallback(new URL(match[1]), callback, { visit: true });
  });
  const timer = setTimeout(() => inspector.kill('SIGKILL'), 300_000);
  const code = await new Promise<number | null>((resolve) => inspector.on('close', resolve));
  clearTimeout(timer);
  assert.ok(navigated !== undefined, `the Inspector asked for a sign-in: ${stderr.slice(-2000)}`);
  const params = await navigated;
  assert.ok(params.get('code'), 'the authorization server redirected to the callback with a code');
  assert.equal(code, 0, `the Inspector failed: ${stderr.slice(-2000)}`);
  const result = JSON.parse(stdout) as {
    isError?: boolean;
    structuredContent?: { items: { accountId: string }[] };
  };
  assert.notEqual(result.isError, true, stdout.slice(0, 1000));
  assert.ok((result.structuredContent?.items.length ?? 0) > 0, stdout.slice(0, 1000));
});
