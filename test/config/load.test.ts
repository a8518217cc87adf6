import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load.js';

function tempFile(name: string, content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-config-'));
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a ConfigError');
}

test('defaults give the documented addresses and embedded stores', () => {
  const config = loadConfig({ env: {} });
  assert.equal(config.gateway.host, '127.0.0.1');
  assert.equal(config.gateway.port, 8080);
  assert.equal(config.payments.port, 8081);
  assert.equal(config.gateway.database.url, undefined);
  assert.equal(config.gateway.database.sqlitePath, 'gateway.db');
  assert.equal(config.payments.database.sqlitePath, 'payments.db');
  assert.equal(config.dataDir, 'data');
  assert.equal(config.environment, 'development');
});

test('the result is deeply frozen', () => {
  const config = loadConfig({ env: {} });
  assert.ok(Object.isFrozen(config));
  assert.ok(Object.isFrozen(config.gateway.database));
  assert.throws(() => {
    (config.gateway as { port: number }).port = 1;
  }, TypeError);
});

test('reads YAML and JSON files, from --config or TOOLGATE_CONFIG', () => {
  const yaml = tempFile('c.yaml', 'gateway:\n  port: 9090\nlogging:\n  level: warn\n');
  assert.equal(loadConfig({ configPath: yaml, env: {} }).gateway.port, 9090);
  assert.equal(loadConfig({ env: { TOOLGATE_CONFIG: yaml } }).logging.level, 'warn');
  const json = tempFile('c.json', JSON.stringify({ payments: { port: 9191 } }));
  assert.equal(loadConfig({ configPath: json, env: {} }).payments.port, 9191);
});

test('environment overrides addresses and store URLs', () => {
  const config = loadConfig({
    env: {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      REDIS_URL: 'redis://127.0.0.1:6379',
      TOOLGATE_GATEWAY_PORT: '18080',
      TOOLGATE_PAYMENTS_HOST: '0.0.0.0',
    },
  });
  assert.equal(config.gateway.database.url, 'postgres://postgres@127.0.0.1:5432/test');
  assert.equal(config.payments.database.url, 'postgres://postgres@127.0.0.1:5432/test');
  assert.equal(config.gateway.redis.url, 'redis://127.0.0.1:6379');
  assert.equal(config.gateway.port, 18080);
  assert.equal(config.payments.host, '0.0.0.0');
});

test('${env:NAME} references are substituted; unset ones are an error naming key and variable', () => {
  const path = tempFile('c.yaml', 'secrets:\n  - "${env:MY_SECRET}"\n');
  assert.deepEqual(loadConfig({ configPath: path, env: { MY_SECRET: 'abcdef123456' } }).secrets, [
    'abcdef123456',
  ]);
  const error = errorOf(() => loadConfig({ configPath: path, env: {} }));
  assert.match(
    error.message,
    /secrets\[0\]: environment variable MY_SECRET is referenced but not set/,
  );
});

const INVALID: ReadonlyArray<[string, string, RegExp]> = [
  [
    'port out of range',
    'gateway:\n  port: 70000\n',
    /gateway\.port: 70000 is invalid: must be <= 65535/,
  ],
  [
    'wrong type',
    'payments:\n  port: "eighty"\n',
    /payments\.port: "eighty" is invalid: must be integer/,
  ],
  ['unknown key', 'gatway:\n  port: 1\n', /gatway: unknown key/],
  [
    'bad enum',
    'environment: prod\n',
    /environment: "prod" is invalid: expected one of "development", "staging", "production"/,
  ],
  [
    'bad database url',
    'gateway:\n  database:\n    url: mysql://x\n',
    /gateway\.database\.url: "mysql:\/\/x" is invalid/,
  ],
  ['top level not an object', '- 1\n- 2\n', /must hold an object at the top level/],
  // The parser's place ("at line L, column C") ends the line: no dangling ':' before an excerpt that
  // is not shown.
  ['syntax error', 'gateway: [\n', /is not valid YAML: .+ at line \d+, column \d+$/],
  [
    'nested compact mapping',
    'a: b: c\n',
    /is not valid YAML: Nested mappings are not allowed in compact mappings at line 1, column 4$/,
  ],
];

for (const [name, content, expected] of INVALID) {
  test(`invalid configuration is one readable line naming key and value: ${name}`, () => {
    const error = errorOf(() => loadConfig({ configPath: tempFile('bad.yaml', content), env: {} }));
    assert.match(error.message, expected);
    assert.equal(error.message.includes('\n'), false, 'message must be a single line');
  });
}

// Security first (README Standards): a rejected store URL or secret never appears in full in the one-line
// error a process prints at startup; the URL's password and secret values are masked as the logs mask them.
test('an invalid store URL or secret is named but its password and value are masked', () => {
  const url = errorOf(() =>
    loadConfig({
      configPath: tempFile('bad-url.yaml', 'environment: development\n'),
      env: { DATABASE_URL: 'mysql://app:SuperSecretPassw0rd@db.example:3306/x' },
    }),
  );
  assert.match(
    url.message,
    /gateway\.database\.url: "mysql:\/\/app:%E2%80%A6@db\.example:3306\/x" is invalid/,
  );
  assert.equal(url.message.includes('SuperSecretPassw0rd'), false, url.message);
  const noUser = errorOf(() =>
    loadConfig({
      configPath: tempFile(
        'bad-url-2.yaml',
        'gateway:\n  database:\n    url: "ftp://:SuperSecretPassw0rd@h1:1,h2:2/x"\n',
      ),
      env: {},
    }),
  );
  assert.equal(noUser.message.includes('SuperSecretPassw0rd'), false, noUser.message);
  assert.match(noUser.message, /gateway\.database\.url: .* is invalid/);
});

test("a relative dataDir from the file is taken from the file's folder; TOOLGATE_DATA_DIR from the working directory", () => {
  const file = tempFile('with-data-dir.yaml', 'dataDir: state\n');
  assert.equal(loadConfig({ configPath: file, env: {} }).dataDir, join(dirname(file), 'state'));
  const byDefault = tempFile('no-data-dir.yaml', 'environment: development\n');
  assert.equal(
    loadConfig({ configPath: byDefault, env: {} }).dataDir,
    join(dirname(byDefault), 'data'),
  );
  assert.equal(
    loadConfig({ configPath: file, env: { TOOLGATE_DATA_DIR: 'here' } }).dataDir,
    'here',
  );
  assert.equal(loadConfig({ env: {} }).dataDir, 'data', 'without a file: the working directory');
  const absolute = tempFile('abs-data-dir.yaml', 'dataDir: /var/lib/toolgate\n');
  assert.equal(loadConfig({ configPath: absolute, env: {} }).dataDir, '/var/lib/toolgate');
});

test('a missing file is reported by path', () => {
  const error = errorOf(() => loadConfig({ configPath: '/nonexistent/toolgate.yaml', env: {} }));
  assert.equal(
    error.message,
    'cannot read configuration file /nonexistent/toolgate.yaml: file not found',
  );
});

test('a malformed port in the environment names the variable', () => {
  const error = errorOf(() => loadConfig({ env: { TOOLGATE_PAYMENTS_PORT: '80a' } }));
  assert.match(error.message, /TOOLGATE_PAYMENTS_PORT: "80a" is not a valid port/);
});

test('checks a schema cannot express run once, at load: trusted proxies, JWT algorithms and keys, discovery URL', () => {
  const load = (gateway: Record<string, unknown>) => () =>
    loadConfig({ env: {}, overrides: { gateway } });
  const jwt = { issuer: 'https://idp.example.com', audience: 'https://gw.example.com/mcp' };
  const cases: [Record<string, unknown>, RegExp][] = [
    [
      { rateLimit: { trustedProxies: ['10.0.0.0/8', 'nope'] } },
      /gateway\.rateLimit\.trustedProxies: .*nope/,
    ],
    [{ auth: { jwt: { ...jwt, algorithms: ['HS256'] } } }, /gateway\.auth\.jwt\.algorithms: HS256/],
    [
      { auth: { jwt: { ...jwt, staticKeys: [{ kid: 'a' }] } } },
      /gateway\.auth\.jwt\.staticKeys\.0/,
    ],
    [
      { auth: { jwt: { ...jwt, discovery: { url: 'http://idp.example.com/.well-known/x' } } } },
      /gateway\.auth\.jwt\.discovery\.url: .*https/,
    ],
    [{ rateLimit: { user: { limit: 0 } } }, /gateway\.rateLimit\.user\.limit/],
  ];
  for (const [gateway, message] of cases)
    assert.throws(
      load(gateway),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
  // Per-tool windows are completed by the same defaults as every other quota.
  const config = loadConfig({
    env: {},
    overrides: { gateway: { rateLimit: { perTool: { createPayment: { limit: 5 } } } } },
  });
  assert.deepEqual(config.gateway.rateLimit.perTool['createPayment'], {
    limit: 5,
    windowSeconds: 60,
  });
});

test('loadConfig returns what it resolved: the JWT slice checked and completed, whether the development provider runs', () => {
  const jwt = { issuer: 'https://idp.example.com', audience: 'https://gw.example.com/mcp' };
  const config = loadConfig({ env: {}, overrides: { gateway: { auth: { jwt } } } });
  const resolved = config.resolved.jwt;
  assert.ok(resolved !== null);
  assert.equal(resolved.mode, 'conditional');
  assert.equal(resolved.issuer, jwt.issuer);
  assert.equal(resolved.discovery?.url, 'https://idp.example.com/.well-known/openid-configuration');
  assert.deepEqual(resolved.requiredClaims, ['exp']);
  assert.equal(resolved.maxTokenLifetimeSeconds, undefined);
  assert.ok(Object.isFrozen(resolved) && Object.isFrozen(config.resolved));
  assert.equal(config.resolved.devIdentityProvider, true, 'on by default in development');

  // Production: the default token lifetime bound applies, to the file's slice and to stored settings.
  const production = loadConfig({
    env: { TOOLGATE_ENVIRONMENT: 'production' },
    overrides: { gateway: { auth: { jwt } } },
  });
  assert.equal(production.resolved.jwt?.maxTokenLifetimeSeconds, 86_400);
  assert.equal(production.resolved.defaultMaxTokenLifetimeSeconds, 86_400);
  assert.equal(production.resolved.devIdentityProvider, false, 'off by default elsewhere');

  // Without a slice there is nothing to resolve; the development provider follows its switch.
  const none = loadConfig({
    env: {},
    overrides: { gateway: { auth: { devIdentityProvider: { enabled: false } } } },
  });
  assert.equal(none.resolved.jwt, null);
  assert.equal(none.resolved.devIdentityProvider, false);
});

test('the file cannot set what loadConfig resolves', () => {
  const error = errorOf(() =>
    loadConfig({ env: {}, overrides: { resolved: { devIdentityProvider: false } } }),
  );
  assert.match(error.message, /resolved: unknown key/);
});
