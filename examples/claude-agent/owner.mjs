// The owning service of the refund reason codes, on loopback: what
// httpValueSet fetches in production from the refunds team's API.
import { createServer } from 'node:http';

export const REASON_CODES = ['DAMAGED', 'DUPLICATE_CHARGE', 'LATE', 'NOT_AS_DESCRIBED'];

export async function startOwner() {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(REASON_CODES));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1/reason-codes`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
