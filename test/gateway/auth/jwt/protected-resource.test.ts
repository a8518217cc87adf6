import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildProtectedResourceMetadata,
  protectedResourceMetadataUrls,
} from '../../../../src/gateway/auth/jwt/protected-resource.js';

describe('RFC 9728 protected resource metadata', () => {
  test('RFC 9728 §2: the document names the resource, its authorization server and header bearer method', () => {
    const doc = buildProtectedResourceMetadata({
      resource: 'https://gw.example.com/mcp',
      issuer: 'https://idp.example.com',
      resourceName: 'toolgate',
      jwksUri: 'https://gw.example.com/.well-known/jwks.json',
    });
    assert.deepEqual(doc, {
      resource: 'https://gw.example.com/mcp',
      authorization_servers: ['https://idp.example.com'],
      bearer_methods_supported: ['header'],
      resource_name: 'toolgate',
      jwks_uri: 'https://gw.example.com/.well-known/jwks.json',
    });
    assert.ok(
      !('scopes_supported' in buildProtectedResourceMetadata({ resource: 'r', issuer: 'i' })),
    );
  });

  test('RFC 9728 §3.1: the well-known segment is inserted between host and path', () => {
    const urls = protectedResourceMetadataUrls('https://gw.example.com:8443/mcp');
    assert.equal(
      urls.pathSuffixed,
      'https://gw.example.com:8443/.well-known/oauth-protected-resource/mcp',
    );
    assert.equal(urls.root, 'https://gw.example.com:8443/.well-known/oauth-protected-resource');
    assert.deepEqual(urls.routes, [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  test('RFC 9728 §3.1: a resource at the origin root has only the root form', () => {
    const urls = protectedResourceMetadataUrls('https://gw.example.com/');
    assert.equal(urls.pathSuffixed, 'https://gw.example.com/.well-known/oauth-protected-resource');
    assert.deepEqual(urls.routes, ['/.well-known/oauth-protected-resource']);
  });
});
