import { API_KEY_HEADER, CHAT_MODEL, LIMITS, SOCKET_EVENTS, V1_ENSEMBLE_RESPONSE_EXAMPLE, V1_HEADERS } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import mcpStdioPackage from "../../../libs/mcp-stdio/package.json";
import sdkPackage from "../../../libs/sdk/package.json";

/**
 * The developer guide's code samples, written against the API this product serves (README "API",
 * the reference at /docs): the public REST API under /v1 with an SD-API-KEY, the TypeScript SDK
 * (@smart-decision/sdk) in the JavaScript and TypeScript tabs, the public suggestion endpoint and
 * the live Socket.IO events. Every sample is built from the same example request, for the base URL
 * the page is served from, and reads the API key from the SD_API_KEY environment variable.
 */

export const API_PATHS = {
  ensemble: ENDPOINTS.createEnsembleDecision.path,
  /** Followed by the decision's id. */
  decisionStatus: "/v1/decisions",
  history: ENDPOINTS.listDecisionHistory.path,
  /** The playground's endpoint: no key needed (the landing page's quick start). */
  decision: ENDPOINTS.decidePublic.path,
  suggestion: ENDPOINTS.suggestCategories.path,
} as const;

/** The SDK's package name, and how to install it while it is not on the npm registry: packed from a clone of this repository. */
export const SDK_PACKAGE = sdkPackage.name;
/** The tarball `npm pack` writes for this version. */
export const SDK_TARBALL = `${SDK_PACKAGE.replace(/^@/, "").replace("/", "-")}-${sdkPackage.version}.tgz`;
export const SDK_PACK = `npm pack -w ${SDK_PACKAGE}`;
export const SDK_INSTALL = `npm install ./${SDK_TARBALL}`;
/** The stdio MCP bridge for desktop clients (libs/mcp-stdio), which they start with npx. */
export const MCP_STDIO_PACKAGE = mcpStdioPackage.name;
/** Where every sample reads the API key from: keys stay out of code. */
export const API_KEY_ENV = "SD_API_KEY";
/** The interactive API reference and the OpenAPI document, served by the gateway. */
export const DOCS_PATH = "/docs";
export const OPENAPI_PATH = "/openapi.json";

export const SAMPLE_QUESTION = "Should we ship the release on Friday?";
export const SAMPLE_CATEGORIES = ["Yes", "No", "Wait until Monday"] as const;

/** The example request of the public API. */
export const SAMPLE_ENSEMBLE_REQUEST = { prompt: SAMPLE_QUESTION, valid_responses: [...SAMPLE_CATEGORIES] };

/** The playground endpoint's request (the landing page's quick start). */
export const SAMPLE_DECISION_REQUEST = { question: SAMPLE_QUESTION, categories: [...SAMPLE_CATEGORIES] };

/** The example suggestion request. */
export const SAMPLE_SUGGESTION_REQUEST = { question: SAMPLE_QUESTION, images: [] as string[], existing_choices: ["Yes", "No"] };

/** What POST /v1/ensemble answers (shown in the REST API tab). */
export const SAMPLE_ENSEMBLE_RESPONSE = V1_ENSEMBLE_RESPONSE_EXAMPLE;

/** What a suggestion answer looks like. */
export const SAMPLE_SUGGESTION_RESPONSE = {
  suggestions: [
    { category: "Wait until Monday", confidence: 0.82 },
    { category: "Ship behind a feature flag", confidence: 0.64 },
  ],
};

export type SampleLanguage = "python" | "javascript" | "typescript" | "bash" | "json";

export interface CodeSampleSpec {
  id: string;
  title: string;
  description: string;
  language: SampleLanguage;
  code: string;
}

export type GuideTab = "python" | "javascript" | "typescript" | "rest" | "openai" | "mcp";

export const GUIDE_TABS: readonly { value: GuideTab; label: string }[] = [
  { value: "python", label: "Python" },
  { value: "javascript", label: "JavaScript" },
  { value: "typescript", label: "TypeScript" },
  { value: "rest", label: "REST API" },
  { value: "openai", label: "OpenAI-compatible" },
  { value: "mcp", label: "MCP" },
];

/** A value as a one-line source literal (JSON syntax, which Python and JavaScript both read). */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  return JSON.stringify(value);
}

/** An object's entries, one per line, for a request body in a sample. */
function entries(value: Record<string, unknown>, indent: string, quoteKeys: boolean, extra: string[] = []): string {
  return [
    ...Object.entries(value).map(([key, item]) => `${indent}${quoteKeys ? JSON.stringify(key) : key}: ${literal(item)},`),
    ...extra.map((line) => `${indent}${line}`),
  ].join("\n");
}

/** A JSON body for curl's -d, one property per line. */
function curlBody(value: Record<string, unknown>): string {
  const lines = Object.entries(value).map(([key, item]) => `    ${JSON.stringify(key)}: ${literal(item)}`);
  return `{\n${lines.join(",\n")}\n  }`;
}

const { join, vote, final } = SOCKET_EVENTS;
const IMAGES_NOTE = `Optional: up to ${LIMITS.maxImages} images as data URLs, each under 10MB`;
const KEY_HEADER = `-H "${API_KEY_HEADER}: $${API_KEY_ENV}"`;

/** Removes a trailing slash, so `${base}${path}` never doubles it. */
export const normaliseBaseUrl = (baseUrl: string): string => baseUrl.replace(/\/+$/, "");

// ---------------------------------------------------------------- Python (requests, python-socketio)

function pythonSamples(base: string): CodeSampleSpec[] {
  const setup = `BASE_URL = "${base}"
HEADERS = {"${API_KEY_HEADER}": os.environ["${API_KEY_ENV}"]}`;
  return [
    {
      id: "python-decision",
      title: "Make a decision",
      description: `Ask the models one question with the answers you allow, with your API key in the ${API_KEY_HEADER} header.`,
      language: "python",
      code: `# pip install requests
import os

import requests

${setup}

response = requests.post(
    f"{BASE_URL}${API_PATHS.ensemble}",
    headers=HEADERS,
    json={
${entries(SAMPLE_ENSEMBLE_REQUEST, "        ", true, [`# ${IMAGES_NOTE}`, `# "images": ["data:image/jpeg;base64,..."],`])}
    },
    timeout=120,
)
response.raise_for_status()
decision = response.json()

print("Final decision:", decision["ensemble_decision"])
print(f"Consensus: {decision['consensus_score']:.0%} of {decision['total_votes']} votes")
for vote in decision["vote_details"]:
    print(f"{vote['llm_name']}: {vote['response']} (confidence {vote['confidence']})")
`,
    },
    {
      id: "python-history",
      title: "Decision history",
      description: "Your decisions, newest first, with the dashboard's filters (limit, offset, category, question, dateFrom, dateTo, hasDecision).",
      language: "python",
      code: `# pip install requests
import os

import requests

${setup}

response = requests.get(
    f"{BASE_URL}${API_PATHS.history}",
    headers=HEADERS,
    params={"limit": 5, "hasDecision": "true"},
    timeout=30,
)
response.raise_for_status()
page = response.json()

print(f"{page['total']} decisions in all; the latest:")
for decision in page["decisions"]:
    print(f"{decision['timestamp']}  {decision['question']} -> {decision['final_decision']}")
`,
    },
    {
      id: "python-suggestions",
      title: "Suggest answer categories",
      description: "Let a fast model propose categories for a question; ones you already have are left out (no key needed).",
      language: "python",
      code: `# pip install requests
import requests

BASE_URL = "${base}"

response = requests.post(
    f"{BASE_URL}${API_PATHS.suggestion}",
    json={
${entries(SAMPLE_SUGGESTION_REQUEST, "        ", true)}
    },
    timeout=60,
)
response.raise_for_status()
for suggestion in response.json()["suggestions"]:
    print(f"{suggestion['category']} ({suggestion['confidence']:.0%})")
`,
    },
    {
      id: "python-live",
      title: "Watch the votes arrive",
      description: `Join the request's room with "${join}" before posting, then receive "${vote}" per model and "${final}".`,
      language: "python",
      code: `# pip install requests "python-socketio[client]"
import os
import threading
import uuid

import requests
import socketio

${setup}
request_id = str(uuid.uuid4())
finished = threading.Event()
sio = socketio.Client()


@sio.on("${vote}")
def on_vote(vote):
    print(f"{vote['provider']}: {vote['status']}", vote["response"] or "")


@sio.on("${final}")
def on_final(decision):
    finished.set()


sio.connect(BASE_URL, transports=["websocket"])
ack = sio.call("${join}", {"request_id": request_id})
if not ack["ok"]:
    raise RuntimeError(ack["error"])

response = requests.post(
    f"{BASE_URL}${API_PATHS.ensemble}",
    headers=HEADERS,
    json={
${entries(SAMPLE_ENSEMBLE_REQUEST, "        ", true, ['"request_id": request_id,'])}
    },
    timeout=120,
)
response.raise_for_status()
finished.wait(timeout=10)
sio.disconnect()
print("Final decision:", response.json()["ensemble_decision"])
`,
    },
  ];
}

// ---------------------------------------------------------------- JavaScript and TypeScript (the SDK)

function installSample(tab: "javascript" | "typescript"): CodeSampleSpec {
  return {
    id: `${tab}-install`,
    title: "Install the SDK",
    description: `${SDK_PACKAGE} has types for every answer and error, and runs in Node.js 20 or newer and in browsers. It is not on the npm registry yet: pack it in a clone of the Smart Decision repository (after npm ci), then install the tarball in your project. Create an API key on the API Settings page (/settings).`,
    language: "bash",
    code: `# In a clone of the Smart Decision repository (after npm ci): builds the SDK and writes ${SDK_TARBALL}
${SDK_PACK}

# In your project, with the tarball copied next to its package.json (zod and socket.io-client come from the npm registry)
${SDK_INSTALL}

# Keep the key out of your code: the samples read it from the environment.
export ${API_KEY_ENV}="sd_live_..."
`,
  };
}

/** The SDK samples; the TypeScript ones add the types and the typed errors. */
function sdkSamples(base: string, tab: "javascript" | "typescript"): CodeSampleSpec[] {
  const typed = tab === "typescript";
  const client = `const client = new SmartDecision({ apiKey: process.env.${API_KEY_ENV}, baseUrl: "${base}" });`;
  const request = (indent: string, extra: string[] = []) => entries(SAMPLE_ENSEMBLE_REQUEST, indent, false, extra);
  const save = (name: string) => `Save as ${name}.${typed ? "mts" : "mjs"} and run it with ${typed ? "npx tsx" : "node"}.`;

  const decide: CodeSampleSpec = typed
    ? {
        id: `${tab}-decision`,
        title: "Make a decision",
        description: `The answer and every error are typed: a 401 is an AuthenticationError, a 429 a RateLimitError (QuotaExceededError past the monthly quota). ${save("decide")}`,
        language: tab,
        code: `import { AuthenticationError, RateLimitError, SmartDecision, ValidationError, type EnsembleResult } from "${SDK_PACKAGE}";

${client}

async function decide(prompt: string, choices: string[]): Promise<EnsembleResult | null> {
  try {
    return await client.decide({ prompt, valid_responses: choices });
  } catch (error) {
    if (error instanceof RateLimitError) {
      console.error(\`Slow down: try again in \${error.retryAfter ?? 60} seconds.\`);
      return null;
    }
    if (error instanceof AuthenticationError || error instanceof ValidationError) {
      console.error(error.detail);
      return null;
    }
    throw error;
  }
}

const decision = await decide(${literal(SAMPLE_QUESTION)}, ${literal(SAMPLE_CATEGORIES)});
if (decision) {
  console.log("Final decision:", decision.ensemble_decision);
  console.log(\`Consensus: \${Math.round(decision.consensus_score * 100)}% of \${decision.total_votes} votes\`);
  for (const vote of decision.vote_details) console.log(\`\${vote.llm_name}: \${vote.response} (confidence \${vote.confidence})\`);
}
`,
      }
    : {
        id: `${tab}-decision`,
        title: "Make a decision",
        description: `Ask the models one question with the answers you allow; the answer arrives once they have voted. ${save("decide")}`,
        language: tab,
        code: `import { SmartDecision } from "${SDK_PACKAGE}";

${client}

const decision = await client.decide({
${request("  ", [`// ${IMAGES_NOTE}`, `// images: ["data:image/jpeg;base64,..."],`])}
});

console.log("Final decision:", decision.ensemble_decision);
console.log(\`Consensus: \${Math.round(decision.consensus_score * 100)}% of \${decision.total_votes} votes\`);
for (const vote of decision.vote_details) {
  console.log(\`\${vote.llm_name}: \${vote.response} (confidence \${vote.confidence})\`);
}
`,
      };

  const submitted = typed ? "const accepted: AcceptedDecision" : "const accepted";
  const asyncSample: CodeSampleSpec = {
    id: `${tab}-async`,
    title: "Decide without waiting",
    description: `submit() answers at once with the decision's id (${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}); poll it later. The ${V1_HEADERS.idempotencyKey} makes a retried submit return the first decision. ${save("later")}`,
    language: tab,
    code: `import { SmartDecision${typed ? ", type AcceptedDecision" : ""} } from "${SDK_PACKAGE}";

${client}

${submitted} = await client.submit(
  {
${request("    ")}
  },
  { idempotencyKey: crypto.randomUUID() },
);
console.log("Queued:", accepted.decision_id);

// Check once with client.poll(id), or poll until the models have voted:
const decision = await client.waitFor(accepted.decision_id);
console.log("Final decision:", decision.ensemble_decision);
`,
  };

  const history: CodeSampleSpec = {
    id: `${tab}-history`,
    title: "Decision history",
    description: `Your decisions, newest first, with the dashboard's filters (limit, offset, category, question, dateFrom, dateTo, hasDecision). ${save("history")}`,
    language: tab,
    code: `import { SmartDecision${typed ? ", type HistoryPage" : ""} } from "${SDK_PACKAGE}";

${client}

const page${typed ? ": HistoryPage" : ""} = await client.history({ limit: 5, hasDecision: true });
console.log(\`\${page.total} decisions in all; the latest:\`);
for (const decision of page.decisions) {
  console.log(\`\${decision.timestamp}  \${decision.question} -> \${decision.final_decision}\`);
}
`,
  };

  const live: CodeSampleSpec = {
    id: `${tab}-live`,
    title: "Watch the votes arrive",
    description: `With onVote, the SDK joins the decision's room over Socket.IO ("${join}") and reports each model's "${vote}" as it happens. ${save("live")}`,
    language: tab,
    code: `import { SmartDecision${typed ? ", type VoteEvent" : ""} } from "${SDK_PACKAGE}";

${client}

const decision = await client.decide(
  {
${request("    ")}
  },
  {
    onVote: (vote${typed ? ": VoteEvent" : ""}) => console.log(\`\${vote.provider}: \${vote.status}\`, vote.response ?? ""),
  },
);
console.log("Final decision:", decision.ensemble_decision);
`,
  };

  return [installSample(tab), decide, asyncSample, history, live];
}

// ---------------------------------------------------------------- REST (curl)

/** The landing page's quick start: the playground's endpoint, which needs no key. */
function publicDecisionSample(base: string): CodeSampleSpec {
  return {
    id: "quick-start",
    title: "Make a decision",
    description: "POST the question and its categories as JSON; the answer arrives once the models have voted.",
    language: "bash",
    code: `curl -s ${base}${API_PATHS.decision} \\
  -H 'Content-Type: application/json' \\
  -d '${curlBody(SAMPLE_DECISION_REQUEST)}'
`,
  };
}

function restSamples(base: string): CodeSampleSpec[] {
  return [
    {
      id: "rest-decision",
      title: "Make a decision",
      description: `POST the prompt and its valid responses as JSON with your key in the ${API_KEY_HEADER} header; the answer arrives once the models have voted.`,
      language: "bash",
      code: `curl -s ${base}${API_PATHS.ensemble} \\
  ${KEY_HEADER} \\
  -H 'Content-Type: application/json' \\
  -d '${curlBody(SAMPLE_ENSEMBLE_REQUEST)}'
`,
    },
    {
      id: "rest-decision-response",
      title: "The answer",
      description:
        "ensemble_decision is null when no model gave a valid vote; vote_details holds each model's response and confidence, and its status: success, error (its call failed) or skipped (early quorum did not need it), the last two with response and confidence null; consensus_score is the winner's share of the valid votes, 0 to 1.",
      language: "json",
      code: `${JSON.stringify(SAMPLE_ENSEMBLE_RESPONSE, null, 2)}\n`,
    },
    {
      id: "rest-async",
      title: "Decide without waiting",
      description: `With ${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync} the answer is 202 with the decision's id at once; poll its status_url until status is "complete". A repeated POST with the same ${V1_HEADERS.idempotencyKey} returns the first decision.`,
      language: "bash",
      code: `DECISION_ID=$(curl -s ${base}${API_PATHS.ensemble} \\
  ${KEY_HEADER} \\
  -H '${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}' \\
  -H "${V1_HEADERS.idempotencyKey}: release-friday-$(date +%F)" \\
  -H 'Content-Type: application/json' \\
  -d '${curlBody(SAMPLE_ENSEMBLE_REQUEST)}' | sed -E 's/.*"decision_id":"([^"]+)".*/\\1/')

curl -s ${base}${API_PATHS.decisionStatus}/$DECISION_ID ${KEY_HEADER}
`,
    },
    {
      id: "rest-history",
      title: "Decision history",
      description: "Your decisions, newest first, with the dashboard's filters: limit, offset, category, question, dateFrom, dateTo, hasDecision.",
      language: "bash",
      code: `curl -s '${base}${API_PATHS.history}?limit=5&hasDecision=true' \\
  ${KEY_HEADER}
`,
    },
    {
      id: "rest-suggestions",
      title: "Suggest answer categories",
      description: "Returns {suggestions: [{category, confidence}]}, without the choices you already have (no key needed).",
      language: "bash",
      code: `curl -s ${base}${API_PATHS.suggestion} \\
  -H 'Content-Type: application/json' \\
  -d '${curlBody(SAMPLE_SUGGESTION_REQUEST)}'
`,
    },
  ];
}

// ---------------------------------------------------------------- OpenAI-compatible (any OpenAI SDK) and MCP

/** The categories as OpenAI's structured output names them: one string enum. */
const CATEGORIES_FORMAT = { type: "json_schema", json_schema: { name: "decision", schema: { type: "object", properties: { answer: { type: "string", enum: [...SAMPLE_CATEGORIES] } }, required: ["answer"] } } };

function openAiSamples(base: string): CodeSampleSpec[] {
  return [
    {
      id: "openai-python",
      title: "Python (openai package)",
      description: `Any OpenAI SDK works: point base_url at ${base}/v1 and use your API key as the key. The model is smart-decision (or smart-decision/<mode>); the categories are the one enum of the JSON schema.`,
      language: "python",
      code: `import json
import os

from openai import OpenAI

client = OpenAI(base_url="${base}/v1", api_key=os.environ["${API_KEY_ENV}"])

completion = client.chat.completions.create(
    model="${CHAT_MODEL}",
    messages=[{"role": "user", "content": ${literal(SAMPLE_QUESTION)}}],
    response_format=${JSON.stringify(CATEGORIES_FORMAT)},
)
print("Final decision:", json.loads(completion.choices[0].message.content)["answer"])
`,
    },
    {
      id: "openai-javascript",
      title: "JavaScript (openai and zod)",
      description: "zodResponseFormat turns a z.enum into the schema; message.parsed is the decision. smart_decision on the answer holds every vote and its reason.",
      language: "javascript",
      code: `import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";

const client = new OpenAI({ baseURL: "${base}/v1", apiKey: process.env.${API_KEY_ENV} });
const Decision = z.object({ answer: z.enum(${literal([...SAMPLE_CATEGORIES])}) });

const completion = await client.chat.completions.parse({
  model: "${CHAT_MODEL}",
  messages: [{ role: "user", content: ${literal(SAMPLE_QUESTION)} }],
  response_format: zodResponseFormat(Decision, "decision"),
});
console.log("Final decision:", completion.choices[0].message.parsed.answer);
for (const vote of completion.smart_decision.vote_details) console.log(\`\${vote.llm_name}: \${vote.response} (\${vote.reason})\`);
`,
    },
    {
      id: "openai-curl",
      title: "curl (chat completions)",
      description: "The same request as OpenAI's wire format; add \"stream\": true for Server-Sent Events with each vote as it arrives.",
      language: "bash",
      code: `curl -s ${base}/v1/chat/completions \\
  -H "Authorization: Bearer $${API_KEY_ENV}" \\
  -H 'Content-Type: application/json' \\
  -d '${JSON.stringify({ model: CHAT_MODEL, messages: [{ role: "user", content: SAMPLE_QUESTION }], response_format: CATEGORIES_FORMAT })}'
`,
    },
  ];
}

function mcpSamples(base: string): CodeSampleSpec[] {
  return [
    {
      id: "mcp-config",
      title: "Connect an MCP client",
      description: "For clients that speak Streamable HTTP (Cursor's .cursor/mcp.json, VS Code's mcp.json use the same fields): the tools are decide, get_decision and list_models. Replace the key with yours.",
      language: "json",
      code: `${JSON.stringify({ mcpServers: { "smart-decision": { url: `${base}/mcp`, headers: { Authorization: "Bearer sd_live_..." } } } }, null, 2)}
`,
    },
    {
      id: "mcp-stdio-config",
      title: "Connect Claude Desktop (stdio)",
      description: `For clients that start MCP servers as local programs (Claude Desktop's claude_desktop_config.json; Cursor's .cursor/mcp.json takes the same fields): the ${MCP_STDIO_PACKAGE} package forwards to this server's /mcp. Replace the key with yours.`,
      language: "json",
      code: `${JSON.stringify({ mcpServers: { "smart-decision": { command: "npx", args: ["-y", MCP_STDIO_PACKAGE], env: { SMART_DECISION_API_KEY: "sd_live_...", SMART_DECISION_URL: base } } } }, null, 2)}
`,
    },
    {
      id: "mcp-typescript",
      title: "Call decide from code",
      description: "With the MCP TypeScript SDK's client: progress arrives as each model votes, the decision as structured content.",
      language: "javascript",
      code: `import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const client = new Client({ name: "my-agent", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL("${base}/mcp"), {
    requestInit: { headers: { Authorization: \`Bearer \${process.env.${API_KEY_ENV}}\` } },
  }),
);
const result = await client.callTool(
  { name: "decide", arguments: { question: ${literal(SAMPLE_QUESTION)}, categories: ${literal([...SAMPLE_CATEGORIES])} } },
  { onprogress: ({ message }) => console.log("Vote:", message) },
);
console.log("Final decision:", result.structuredContent.ensemble_decision);
await client.close();
`,
    },
  ];
}

/** Every tab's samples for an API served at `baseUrl` (the page's own origin). */
export function developerGuide(baseUrl: string): Record<GuideTab, CodeSampleSpec[]> {
  const base = normaliseBaseUrl(baseUrl);
  return {
    python: pythonSamples(base),
    javascript: sdkSamples(base, "javascript"),
    typescript: sdkSamples(base, "typescript"),
    rest: restSamples(base),
    openai: openAiSamples(base),
    mcp: mcpSamples(base),
  };
}

/** The short sample on the landing page: a decision with curl through the playground's endpoint (no key needed). */
export const quickStartSample = (baseUrl: string): CodeSampleSpec => publicDecisionSample(normaliseBaseUrl(baseUrl));
