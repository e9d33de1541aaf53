import { LIMITS, SOCKET_EVENTS } from "@sd/contracts";

/**
 * The developer guide's code samples, written against the API this product serves today
 * (README "API"): the public decision and suggestion endpoints and the live Socket.IO events.
 * Every sample is built from the same example request, for the base URL the page is served from.
 */

export const API_PATHS = {
  decision: "/api/ensembled-llm-categorical-decision-public",
  suggestion: "/api/smart-suggestion-public",
} as const;

export const SAMPLE_QUESTION = "Should we ship the release on Friday?";
export const SAMPLE_CATEGORIES = ["Yes", "No", "Wait until Monday"] as const;

/** The example decision request every sample sends. */
export const SAMPLE_DECISION_REQUEST = { question: SAMPLE_QUESTION, categories: [...SAMPLE_CATEGORIES] };

/** The example suggestion request every sample sends. */
export const SAMPLE_SUGGESTION_REQUEST = { question: SAMPLE_QUESTION, images: [] as string[], existing_choices: ["Yes", "No"] };

/** What a decision answer looks like (shown in the REST API tab). */
export const SAMPLE_DECISION_RESPONSE = {
  final_decision: "Wait until Monday",
  total_votes: 3,
  vote_counts: { Yes: 0, No: 1, "Wait until Monday": 2 },
  individual_responses: { openai: "Wait until Monday", gemini: "Wait until Monday", claude: "No" },
  context_explanation:
    '"Wait until Monday" won with 2 of 3 valid votes. OpenAI GPT-4o chose "Wait until Monday": a Friday release leaves ' +
    'nobody on hand if something breaks. Google Gemini 2.5 Flash chose "Wait until Monday": Monday gives a full week ' +
    'to watch the release. Anthropic Claude Sonnet 3.5 chose "No": the release is not ready yet.',
  decision_id: "8f14e45f-ceea-467f-a0e6-4b2d7d1f3c11",
  question: SAMPLE_QUESTION,
};

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

export type GuideTab = "python" | "javascript" | "typescript" | "rest";

export const GUIDE_TABS: readonly { value: GuideTab; label: string }[] = [
  { value: "python", label: "Python" },
  { value: "javascript", label: "JavaScript" },
  { value: "typescript", label: "TypeScript" },
  { value: "rest", label: "REST API" },
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

/** Removes a trailing slash, so `${base}${path}` never doubles it. */
export const normaliseBaseUrl = (baseUrl: string): string => baseUrl.replace(/\/+$/, "");

function pythonSamples(base: string): CodeSampleSpec[] {
  return [
    {
      id: "python-decision",
      title: "Make a decision",
      description: "Ask the models one question with the answers you allow; the answer is the combined decision.",
      language: "python",
      code: `# pip install requests
import requests

BASE_URL = "${base}"

response = requests.post(
    f"{BASE_URL}${API_PATHS.decision}",
    json={
${entries(SAMPLE_DECISION_REQUEST, "        ", true, [`# ${IMAGES_NOTE}`, `# "images": ["data:image/jpeg;base64,..."],`])}
    },
    timeout=120,
)
response.raise_for_status()
decision = response.json()

print("Final decision:", decision["final_decision"])
print("Votes:", decision["vote_counts"], "of", decision["total_votes"])
for model, answer in decision["individual_responses"].items():
    print(f"{model}: {answer}")
print("Why:", decision.get("context_explanation"))
`,
    },
    {
      id: "python-suggestions",
      title: "Suggest answer categories",
      description: "Let a fast model propose categories for a question; ones you already have are left out.",
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
import threading
import uuid

import requests
import socketio

BASE_URL = "${base}"
request_id = str(uuid.uuid4())
finished = threading.Event()
sio = socketio.Client()


@sio.on("${vote}")
def on_vote(vote):
    print(f"{vote['provider']}: {vote['status']}", vote["response"] or "")


@sio.on("${final}")
def on_final(decision):
    print("Final decision:", decision["final_decision"])
    finished.set()


sio.connect(BASE_URL, transports=["websocket"])
ack = sio.call("${join}", {"request_id": request_id})
if not ack["ok"]:
    raise RuntimeError(ack["error"])

response = requests.post(
    f"{BASE_URL}${API_PATHS.decision}",
    json={
${entries(SAMPLE_DECISION_REQUEST, "        ", true, ['"request_id": request_id,'])}
    },
    timeout=120,
)
response.raise_for_status()
finished.wait(timeout=10)
sio.disconnect()
`,
    },
  ];
}

function javascriptSamples(base: string): CodeSampleSpec[] {
  return [
    {
      id: "javascript-decision",
      title: "Make a decision",
      description: "Node.js 18 or newer (save as decide.mjs), or a page served from this site.",
      language: "javascript",
      code: `const BASE_URL = "${base}";

const response = await fetch(\`\${BASE_URL}${API_PATHS.decision}\`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({
${entries(SAMPLE_DECISION_REQUEST, "    ", false, [`// ${IMAGES_NOTE}`, `// images: ["data:image/jpeg;base64,..."],`])}
  }),
});
if (!response.ok) throw new Error((await response.json()).detail);
const decision = await response.json();

console.log("Final decision:", decision.final_decision);
console.log("Votes:", decision.vote_counts, "of", decision.total_votes);
for (const [model, answer] of Object.entries(decision.individual_responses)) {
  console.log(\`\${model}: \${answer}\`);
}
console.log("Why:", decision.context_explanation);
`,
    },
    {
      id: "javascript-suggestions",
      title: "Suggest answer categories",
      description: "Let a fast model propose categories for a question; ones you already have are left out.",
      language: "javascript",
      code: `const BASE_URL = "${base}";

const response = await fetch(\`\${BASE_URL}${API_PATHS.suggestion}\`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({
${entries(SAMPLE_SUGGESTION_REQUEST, "    ", false)}
  }),
});
if (!response.ok) throw new Error((await response.json()).detail);
const { suggestions } = await response.json();

for (const { category, confidence } of suggestions) {
  console.log(\`\${category} (\${Math.round(confidence * 100)}%)\`);
}
`,
    },
    {
      id: "javascript-live",
      title: "Watch the votes arrive",
      description: `Join the request's room with "${join}" before posting, then receive "${vote}" per model and "${final}".`,
      language: "javascript",
      code: `// npm install socket.io-client
import { io } from "socket.io-client";

const BASE_URL = "${base}";
const requestId = crypto.randomUUID();
const socket = io(BASE_URL, { transports: ["websocket"] });

socket.on("${vote}", (vote) => {
  console.log(\`\${vote.provider}: \${vote.status}\`, vote.response ?? "");
});
const final = new Promise((resolve) => socket.once("${final}", resolve));

// Join the request's room before posting, so no vote is missed.
const ack = await socket.timeout(5000).emitWithAck("${join}", { request_id: requestId });
if (!ack.ok) throw new Error(ack.error);

const response = await fetch(\`\${BASE_URL}${API_PATHS.decision}\`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({
${entries(SAMPLE_DECISION_REQUEST, "    ", false, ["request_id: requestId,"])}
  }),
});
if (!response.ok) throw new Error((await response.json()).detail);

const decision = await final;
console.log("Final decision:", decision.final_decision);
socket.close();
`,
    },
  ];
}

function typescriptSamples(base: string): CodeSampleSpec[] {
  return [
    {
      id: "typescript-client",
      title: "A typed client",
      description: "Decisions, suggestions and live votes with types for every answer (save as client.mts).",
      language: "typescript",
      code: `// npm install socket.io-client
import { io } from "socket.io-client";

const BASE_URL = "${base}";

export interface DecisionRequest {
  question: string;
  /** At least ${LIMITS.minCategories} allowed answers. */
  categories: string[];
  /** Up to ${LIMITS.maxImages} images as data URLs, each under 10MB. */
  images?: string[];
  /** A new UUID per decision, to follow its votes live. */
  request_id?: string;
}

export interface DecisionResponse {
  /** null when no model gave a valid vote. */
  final_decision: string | null;
  total_votes: number;
  vote_counts: Record<string, number>;
  individual_responses: Record<string, string | null>;
  context_explanation?: string;
  decision_id: string;
  question: string;
}

export interface VoteEvent {
  request_id: string;
  decision_id: string;
  provider: string;
  status: "pending" | "success" | "error";
  response: string | null;
  confidence: number | null;
  model_version: string | null;
  error: string | null;
}

export interface Suggestion {
  category: string;
  /** 0 to 1. */
  confidence: number;
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(\`\${BASE_URL}\${path}\`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const { detail } = (await response.json()) as { detail?: string };
    throw new Error(detail ?? \`HTTP \${response.status}\`);
  }
  return (await response.json()) as T;
}

export function decide(request: DecisionRequest): Promise<DecisionResponse> {
  return post<DecisionResponse>("${API_PATHS.decision}", request);
}

export async function suggest(question: string, existingChoices: string[]): Promise<Suggestion[]> {
  const body = { question, images: [], existing_choices: existingChoices };
  const { suggestions } = await post<{ suggestions: Suggestion[] }>("${API_PATHS.suggestion}", body);
  return suggestions;
}

/** Decides, calling onVote as each model's vote arrives. */
export async function decideLive(request: DecisionRequest, onVote: (vote: VoteEvent) => void): Promise<DecisionResponse> {
  const socket = io(BASE_URL, { transports: ["websocket"] });
  try {
    const requestId = crypto.randomUUID();
    socket.on("${vote}", onVote);
    const final = new Promise<DecisionResponse>((resolve) => socket.once("${final}", resolve));
    const ack = (await socket.timeout(5000).emitWithAck("${join}", { request_id: requestId })) as { ok: boolean; error?: string };
    if (!ack.ok) throw new Error(ack.error);
    await decide({ ...request, request_id: requestId });
    return await final;
  } finally {
    socket.close();
  }
}

const decision = await decideLive(
  {
${entries(SAMPLE_DECISION_REQUEST, "    ", false)}
  },
  (vote) => console.log(\`\${vote.provider}: \${vote.status}\`, vote.response ?? ""),
);
console.log("Final decision:", decision.final_decision);
console.log("Why:", decision.context_explanation);

const suggestions = await suggest(decision.question, ${literal(SAMPLE_SUGGESTION_REQUEST.existing_choices)});
console.log(suggestions.map((s) => \`\${s.category} (\${Math.round(s.confidence * 100)}%)\`).join(", "));
`,
    },
  ];
}

function restDecisionSample(base: string): CodeSampleSpec {
  return {
    id: "rest-decision",
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
    restDecisionSample(base),
    {
      id: "rest-decision-response",
      title: "The answer",
      description: "final_decision is null when no model gave a valid vote. individual_responses holds each model's answer, or null.",
      language: "json",
      code: `${JSON.stringify(SAMPLE_DECISION_RESPONSE, null, 2)}\n`,
    },
    {
      id: "rest-suggestions",
      title: "Suggest answer categories",
      description: "Returns {suggestions: [{category, confidence}]}, without the choices you already have.",
      language: "bash",
      code: `curl -s ${base}${API_PATHS.suggestion} \\
  -H 'Content-Type: application/json' \\
  -d '${curlBody(SAMPLE_SUGGESTION_REQUEST)}'
`,
    },
  ];
}

/** Every tab's samples for an API served at `baseUrl` (the page's own origin). */
export function developerGuide(baseUrl: string): Record<GuideTab, CodeSampleSpec[]> {
  const base = normaliseBaseUrl(baseUrl);
  return {
    python: pythonSamples(base),
    javascript: javascriptSamples(base),
    typescript: typescriptSamples(base),
    rest: restSamples(base),
  };
}

/** The short sample on the landing page: the decision request with curl. */
export const quickStartSample = (baseUrl: string): CodeSampleSpec => restDecisionSample(normaliseBaseUrl(baseUrl));
