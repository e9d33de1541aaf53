/**
 * The DIRECT BASELINE of `npm run bench`: the same three model calls with Promise.all through the
 * product's provider classes and settings, with no queue, store or live events, so the difference
 * is what the pipeline adds. Plain `node:http` on purpose: the product's HTTP stack is measured.
 *
 *   node --import tsx bench/decisions/baseline-server.ts   (env: the product's, plus PORT)
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { loadEnv, providersFromEnv, workerEnv } from "@sd/config";
import { DecisionRequestSchema } from "@sd/contracts";
import { createProvider, type VoteInput } from "@sd/providers";
import { BASELINE_LISTENING, BASELINE_PATH, BASELINE_QUORUM_PATH, type BaselineResponse } from "./baseline-contract";

const env = loadEnv(workerEnv);
const providers = providersFromEnv(env.PROVIDERS).map(createProvider);
const port = Number(process.env.PORT ?? 0);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The three calls, answered once a majority agrees (the categories so far, in the order they
 * came); the calls still running are aborted then. A failed call rejects unless the quorum is in.
 */
function untilQuorum(input: VoteInput): Promise<string[]> {
  const needed = Math.floor(providers.length / 2) + 1;
  const controller = new AbortController();
  const answered: string[] = [];
  const counts = new Map<string, number>();
  return new Promise((resolve, reject) => {
    let pending = providers.length;
    const settle = (done: () => void) => {
      pending -= 1;
      if (controller.signal.aborted) return;
      done();
    };
    for (const provider of providers) {
      provider.vote(input, controller.signal).then(
        (answer) =>
          settle(() => {
            answered.push(answer.category);
            const count = (counts.get(answer.category) ?? 0) + 1;
            counts.set(answer.category, count);
            if (count >= needed || pending === 0) {
              controller.abort();
              resolve(answered);
            }
          }),
        (error: unknown) =>
          settle(() => {
            controller.abort();
            reject(error instanceof Error ? error : new Error(String(error)));
          }),
      );
    }
  });
}

const server = createServer((req, res) => {
  const send = (status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };
  if (req.method !== "POST" || (req.url !== BASELINE_PATH && req.url !== BASELINE_QUORUM_PATH)) {
    send(404, { detail: `only POST ${BASELINE_PATH} or ${BASELINE_QUORUM_PATH}` });
    return;
  }
  const quorum = req.url === BASELINE_QUORUM_PATH;
  void (async () => {
    const parsed = DecisionRequestSchema.safeParse(JSON.parse(await readBody(req)));
    if (!parsed.success) {
      send(400, { detail: parsed.error.issues[0]?.message ?? "invalid body" });
      return;
    }
    const { question, categories, images } = parsed.data;
    const input = { question, categories, images };
    const answered = quorum ? await untilQuorum(input) : (await Promise.all(providers.map((provider) => provider.vote(input)))).map((answer) => answer.category);
    send(200, { categories: answered } satisfies BaselineResponse);
  })().catch((error: unknown) => send(502, { detail: error instanceof Error ? error.message : String(error) }));
});

server.listen(port, "127.0.0.1", () => {
  const { port: bound } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ msg: BASELINE_LISTENING, url: `http://127.0.0.1:${bound}` })}\n`);
});
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
