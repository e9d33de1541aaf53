/**
 * CPU and throughput of the OpenAI, Anthropic and Gemini SDKs against the emulator (0 ms, its own
 * process), over Node's built-in fetch and over the shared keep-alive client; the transports take
 * turns in alternating rounds so both meet the same warm JIT and background load.
 *
 *   npx tsx bench/sdk-transport.ts
 *   SDK_BENCH_N=3000 SDK_BENCH_C=20 SDK_BENCH_ROUNDS=3 npx tsx bench/sdk-transport.ts
 */
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenerativeAI, SchemaType, type GenerativeModel } from "@google/generative-ai";
import OpenAI from "openai";
import { closedLoop, positiveInteger } from "./kit";
import { startEmulatorProcess, stopProcess } from "./decisions/deployment";

const N = positiveInteger("SDK_BENCH_N", 3000);
const C = positiveInteger("SDK_BENCH_C", 20);
const ROUNDS = positiveInteger("SDK_BENCH_ROUNDS", 3);
const WARMUP = 200;

/**
 * Node loads its built-in fetch lazily, and importing the undici package first would install that
 * package's Agent as the global dispatcher: touch the built-in fetch now and keep its own
 * dispatcher, so the "global fetch" rows measure exactly what the SDKs had before.
 */
const LEGACY_DISPATCHER = Symbol.for("undici.globalDispatcher.1");
void globalThis.fetch;
await fetch("data:,").then((response) => response.arrayBuffer());
const builtinDispatcher: unknown = Reflect.get(globalThis, LEGACY_DISPATCHER);
const { keepAliveFetch, routeGlobalFetchThroughSharedPool } = await import("@sd/providers");
const useBuiltinDispatcher = (): void => void Reflect.set(globalThis, LEGACY_DISPATCHER, builtinDispatcher);

interface Measured {
  calls: number;
  cpuMicros: number;
  seconds: number;
}

/** `count` calls at concurrency C; the CPU this process spent on them and the wall time. */
async function measure(call: () => Promise<unknown>, count: number): Promise<Measured> {
  const cpu = process.cpuUsage();
  const seconds = await closedLoop(count, C, call);
  const used = process.cpuUsage(cpu);
  return { calls: count, cpuMicros: used.user + used.system, seconds };
}

const add = (a: Measured, b: Measured): Measured => ({ calls: a.calls + b.calls, cpuMicros: a.cpuMicros + b.cpuMicros, seconds: a.seconds + b.seconds });
const NONE: Measured = { calls: 0, cpuMicros: 0, seconds: 0 };

/** One vote-shaped structured-output request per vendor, as the adapters send it. */
const VOTE_SCHEMA = {
  type: "object" as const,
  properties: {
    category: { type: "string" as const, enum: ["Approve", "Reject", "Escalate"] },
    reason: { type: "string" as const },
    confidence: { type: "number" as const },
  },
  required: ["category", "reason", "confidence"],
  additionalProperties: false,
};
const QUESTION = "Question: approve the expense report?\n\nAllowed categories:\n- Approve\n- Reject\n- Escalate";
const SYSTEM = "You are one voter in an ensemble. Answer with exactly one of the allowed categories.";

interface Transport {
  name: string;
  /** Before this transport's turn: which dispatcher Node's built-in fetch (Gemini's) uses. */
  select(): void;
  fetch: typeof globalThis.fetch;
}

const TRANSPORTS: readonly Transport[] = [
  { name: "global fetch (Node 20 built-in)", select: useBuiltinDispatcher, fetch: globalThis.fetch },
  { name: "keep-alive client (shared undici pool)", select: routeGlobalFetchThroughSharedPool, fetch: keepAliveFetch },
];

type Vendor = "openai" | "anthropic" | "gemini";
const VENDORS: readonly Vendor[] = ["openai", "anthropic", "gemini"];

/** A call of `vendor`'s SDK over `transport`, with the adapters' client settings (no SDK retries, the default timeout). */
function sdkCall(vendor: Vendor, transport: Transport, emulatorUrl: string): () => Promise<unknown> {
  const settings = { apiKey: "bench-key", maxRetries: 0, timeout: 20_000, fetch: transport.fetch };
  switch (vendor) {
    case "openai": {
      const client = new OpenAI({ ...settings, baseURL: `${emulatorUrl}/v1` });
      return () =>
        client.chat.completions.create({
          model: "gpt-4o",
          messages: [
            { role: "system", content: SYSTEM },
            { role: "user", content: [{ type: "text", text: QUESTION }] },
          ],
          response_format: { type: "json_schema", json_schema: { name: "record_vote", strict: true, schema: VOTE_SCHEMA } },
        });
    }
    case "anthropic": {
      const client = new Anthropic({ ...settings, baseURL: emulatorUrl });
      return () =>
        client.messages.create({
          model: "claude-emulated",
          max_tokens: 1024,
          system: SYSTEM,
          messages: [{ role: "user", content: [{ type: "text", text: QUESTION }] }],
          tools: [{ name: "record_vote", description: "Record the vote.", input_schema: VOTE_SCHEMA }],
          tool_choice: { type: "tool", name: "record_vote" },
        });
    }
    case "gemini": {
      // Gemini's SDK takes no fetch: `select` points the built-in one at the transport's pool.
      const model: GenerativeModel = new GoogleGenerativeAI("bench-key").getGenerativeModel(
        {
          model: "gemini-2.5-flash",
          systemInstruction: SYSTEM,
          generationConfig: {
            responseMimeType: "application/json",
            responseSchema: {
              type: SchemaType.OBJECT,
              properties: {
                category: { type: SchemaType.STRING, format: "enum", enum: ["Approve", "Reject", "Escalate"] },
                reason: { type: SchemaType.STRING },
                confidence: { type: SchemaType.NUMBER },
              },
              required: ["category", "reason", "confidence"],
            },
          },
        },
        { baseUrl: emulatorUrl },
      );
      return () => model.generateContent({ contents: [{ role: "user", parts: [{ text: QUESTION }] }] }, { signal: AbortSignal.timeout(20_000) });
    }
  }
}

async function main(): Promise<void> {
  const emulator = await startEmulatorProcess(0);
  try {
    const emulatorUrl = emulator.url;
    const totals = new Map<string, Measured>();
    for (const vendor of VENDORS) {
      const calls = TRANSPORTS.map((transport) => ({ transport, call: sdkCall(vendor, transport, emulatorUrl) }));
      for (const { transport, call } of calls) {
        transport.select();
        await measure(call, WARMUP);
      }
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? calls : [...calls].reverse();
        for (const { transport, call } of order) {
          transport.select();
          const key = `${vendor}\t${transport.name}`;
          totals.set(key, add(totals.get(key) ?? NONE, await measure(call, Math.ceil(N / ROUNDS))));
        }
      }
    }
    useBuiltinDispatcher();

    process.stdout.write(`\nSDK calls: ${N} per vendor and transport, concurrency ${C}, emulator at 0 ms in its own process\n\n`);
    process.stdout.write(`${"vendor".padEnd(11)}${"transport".padEnd(42)}${"CPU ms/call".padStart(12)}${"calls/s".padStart(10)}\n`);
    for (const vendor of VENDORS) {
      const rows = TRANSPORTS.map((transport) => ({ transport, m: totals.get(`${vendor}\t${transport.name}`)! }));
      for (const { transport, m } of rows) {
        const cpuMs = m.cpuMicros / 1000 / m.calls;
        process.stdout.write(`${vendor.padEnd(11)}${transport.name.padEnd(42)}${cpuMs.toFixed(3).padStart(12)}${(m.calls / m.seconds).toFixed(0).padStart(10)}\n`);
      }
      const [before, after] = rows.map(({ m }) => m.cpuMicros / m.calls);
      process.stdout.write(`${"".padEnd(11)}${"keep-alive / global".padEnd(42)}${`${(after! / before!).toFixed(2)}x`.padStart(12)}\n`);
    }
  } finally {
    await stopProcess(emulator);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
