// Child process for the gateway benchmark: runs either the fixture backend or a gateway in front of it, so
// each one's CPU time can be measured on its own. Talks to the parent over IPC.
//   node server-process.mjs backend [busyMicros]
//   node server-process.mjs gateway <backendBaseUrl> [large|demo]
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const [role, backendUrl, variant] = process.argv.slice(2);

let close;
let url;
if (role === 'backend') {
  const { startFixtureBackend } = await import(dist('test/gateway/support/fixture-backend.js'));
  const backend = await startFixtureBackend('/api/v1', { busyMicros: Number(backendUrl ?? 0) });
  url = backend.baseUrl;
  close = () => backend.close();
} else {
  const { startTestGateway, fixtureBackendConfig } = await import(
    dist('test/gateway/support/gateway.js')
  );
  const gateway = { backends: [fixtureBackendConfig(backendUrl)], mcp: { pageSize: 1000 } };
  let catalogue;
  if (variant === 'large') {
    const { buildCatalogue } = await import(dist('src/gateway/catalogue/build.js'));
    const { largeDocument } = await import(dist('test/gateway/support/large-document.js'));
    catalogue = buildCatalogue([
      { backend: 'fixture', document: largeDocument(1000), injectedHeaders: [] },
    ]);
  }
  if (variant === 'demo') {
    // The demo's catalogue: the payment service's two OpenAPI documents, as `toolgate start` lists them.
    const { buildCatalogue } = await import(dist('src/gateway/catalogue/build.js'));
    const load = await import(dist('src/payments/openapi/load.js'));
    catalogue = buildCatalogue(
      await Promise.all(
        [load.paymentOrderDocumentPath, load.accountsDocumentPath].map(async (file) => ({
          backend: 'fixture',
          document: await load.loadOpenApiDocument(file),
          injectedHeaders: [],
        })),
      ),
    );
  }
  const gw = await startTestGateway(gateway, undefined, { catalogue, logLevel: 'warn' });
  url = `${await gw.app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
  close = () => gw.close();
}

process.on('message', async (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message === 'stop') {
    await close();
    process.exit(0);
  }
});
process.send({ url });
