import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../../src/config/load.js';

test('devIdentityProvider defaults: the demo users alice and bob (bob: role payments-approver, issue 25); no autoLogin', () => {
  const config = loadConfig({ env: {} });
  const dev = config.gateway.auth.devIdentityProvider;
  assert.deepEqual(
    dev.users.map((u) => u.sub),
    ['alice', 'bob'],
  );
  assert.deepEqual(dev.users[0]?.claims, undefined, 'alice holds no role');
  assert.deepEqual(dev.users[1]?.claims, { roles: ['payments-approver'] });
  assert.equal(dev.autoLogin, undefined);
  assert.deepEqual(config.gateway.auth.scopes, ['openid', 'profile', 'offline_access']);
});

test('autoLogin (TOOLGATE_DEV_AUTO_LOGIN) names a configured user, in development only', () => {
  const ok = loadConfig({ env: { TOOLGATE_DEV_AUTO_LOGIN: 'alice' } });
  assert.equal(ok.gateway.auth.devIdentityProvider.autoLogin, 'alice');
  assert.throws(
    () => loadConfig({ env: { TOOLGATE_DEV_AUTO_LOGIN: 'mallory' } }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /gateway\.auth\.devIdentityProvider\.autoLogin: "mallory" is not the sub/.test(error.message),
  );
  for (const environment of ['staging', 'production'])
    assert.throws(
      () =>
        loadConfig({
          env: { TOOLGATE_DEV_AUTO_LOGIN: 'alice', TOOLGATE_ENVIRONMENT: environment },
        }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes(
          `allowed only when environment is development (it is ${environment})`,
        ),
    );
});

test('devIdentityProvider.users: a subject listed twice is refused with its index', () => {
  assert.throws(
    () =>
      loadConfig({
        env: {},
        overrides: {
          gateway: { auth: { devIdentityProvider: { users: [{ sub: 'a' }, { sub: 'a' }] } } },
        },
      }),
    (error: unknown) =>
      error instanceof ConfigError && error.message.includes('users[1].sub: "a" is listed twice'),
  );
});

test('devIdentityProvider.enabled: true is refused outside development, naming the key', () => {
  for (const environment of ['staging', 'production'])
    assert.throws(
      () =>
        loadConfig({
          env: { TOOLGATE_ENVIRONMENT: environment },
          overrides: { gateway: { auth: { devIdentityProvider: { enabled: true } } } },
        }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.startsWith(
          `gateway.auth.devIdentityProvider.enabled: allowed only when environment is development (it is ${environment})`,
        ),
    );
  // Off, or left to its default (off outside development), is fine everywhere; on is fine in development.
  const production = { TOOLGATE_ENVIRONMENT: 'production' };
  assert.doesNotThrow(() => loadConfig({ env: production }));
  assert.doesNotThrow(() =>
    loadConfig({
      env: production,
      overrides: { gateway: { auth: { devIdentityProvider: { enabled: false } } } },
    }),
  );
  assert.doesNotThrow(() =>
    loadConfig({
      env: {},
      overrides: { gateway: { auth: { devIdentityProvider: { enabled: true } } } },
    }),
  );
});
