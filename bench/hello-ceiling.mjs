// The machine's ceiling: a bare Fastify hello-world, measured in the same run as the service.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`READY ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
