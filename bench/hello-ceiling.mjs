// The machine's ceiling: a bare `node:http` server answering a small JSON body, measured in the
// same run as the service so that the ratios hold whatever else the machine is doing.
import { createServer } from 'node:http';

const body = JSON.stringify({ hello: 'world' });
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
