// The floor of JSON-RPC over node:http on this machine: a server that parses each request's JSON
// and answers it with a constant-shaped result, doing no chain work at all. Run it in the peers'
// harness next to Ashlar to see how much of W1 (eth_blockNumber round trips) any node:http
// server pays before it does anything:
//   ./run-peers.sh --peers anvil,hardhat --node 'ashlar=…' --node 'node-http-floor=node <checkout>/bench/floor/bareHttp.mjs {port}'
// Only W1 is meaningful; the transaction workloads fail against it by design.
import http from 'node:http';

const port = Number(process.argv[2] ?? process.argv.find((a) => a.startsWith('--port='))?.slice(7) ?? 8545);
let block = 0;

function answer(req) {
  switch (req.method) {
    case 'eth_chainId':
      return '0x7a69';
    case 'web3_clientVersion':
      return 'node-http-floor/0.0.0';
    case 'eth_getBalance':
      return '0x21e19e0c9bab2400000';
    default:
      return `0x${(block++).toString(16)}`;
  }
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        res.writeHead(400).end();
        return;
      }
      const one = (r) => ({ jsonrpc: '2.0', id: r.id, result: answer(r) });
      const text = JSON.stringify(Array.isArray(body) ? body.map(one) : one(body));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  })
  .listen(port, '127.0.0.1');
